import { AwsClusterSpecNetworkCniCniIngressRules } from '../generated/capa-infrastructure.cluster.x-k8s.io';
import { CALICO_WINDOWS_VXLAN, CalicoMode, NetworkProvider } from '../platform/network';

const BGP = { description: 'BGP (calico, kube-router)', protocol: 'tcp', fromPort: 179, toPort: 179 };
const IP_IN_IP = { description: 'IP-in-IP (calico, kube-router)', protocol: '4', fromPort: -1, toPort: 65535 };

/**
 * Node-to-node rules the CNI needs, between the control-plane and node security groups; undefined
 * for a custom CNI, whose AWSCluster then has no `network.cni` at all. CAPA defaults only an absent
 * `network.cni` to BGP + IP-in-IP (api/v1beta2/defaults.go, SetDefaults_NetworkSpec); a present but
 * empty one means no rules (pkg/cloud/scope/cluster.go, CNIIngressRules).
 */
export function cniIngressRules(provider: NetworkProvider, calicoMode: CalicoMode): AwsClusterSpecNetworkCniCniIngressRules[] | undefined {
  // A custom CNI gets CAPA's defaults; kube-router is refused on AWS (HybridCluster, aws-network rule).
  if (provider !== NetworkProvider.CALICO) return undefined;
  switch (calicoMode) {
    case CalicoMode.VXLAN:
      return [{ description: 'VXLAN (calico)', protocol: 'udp', fromPort: CALICO_WINDOWS_VXLAN.port, toPort: CALICO_WINDOWS_VXLAN.port }];
    case CalicoMode.IPIP:
      return [BGP, IP_IN_IP];
    case CalicoMode.BIRD:
      // k0s runs Calico's "bird" mode with IP-in-IP on (CALICO_IPV4POOL_IPIP = the overlay, Always
      // by default: k0s v1.34.2+k0s.0 static/manifests/calico/DaemonSet/calico-node.yaml).
      return [BGP, IP_IN_IP];
  }
}
