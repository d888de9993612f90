import { AwsClusterSpecNetworkCniCniIngressRules } from '../generated/capa-infrastructure.cluster.x-k8s.io';
import { CALICO_WINDOWS_VXLAN, CalicoMode, NetworkProvider } from '../platform/network';

/** The cluster's pod and service networks and its CNI (`HybridCluster` `network`), written to k0s's ClusterConfig and to CAPI's Cluster. */
export interface KubernetesNetworkProps {
  /**
   * Pod network; must not overlap the service network or the VPC.
   * @default '192.168.0.0/16'
   */
  readonly podCidr?: string;
  /**
   * Service network.
   * @default '10.128.0.0/12'
   */
  readonly serviceCidr?: string;
  /**
   * k0s network provider. Windows workers need Calico.
   * @default NetworkProvider.CALICO
   */
  readonly provider?: NetworkProvider;
  /**
   * Calico mode. Windows workers need VXLAN.
   * @default CalicoMode.VXLAN
   */
  readonly calicoMode?: CalicoMode;
}

/** The network props with every default filled in, field by field: `{ podCidr: undefined }` means the default, like leaving it out. */
export function networkWithDefaults(props: KubernetesNetworkProps | undefined): Required<KubernetesNetworkProps> {
  return {
    podCidr: props?.podCidr ?? '192.168.0.0/16',
    serviceCidr: props?.serviceCidr ?? '10.128.0.0/12',
    provider: props?.provider ?? NetworkProvider.CALICO,
    calicoMode: props?.calicoMode ?? CalicoMode.VXLAN,
  };
}

/** The `spec.network` section of the k0s ClusterConfig. */
export function k0sNetworkConfig(network: Required<KubernetesNetworkProps>): Record<string, unknown> {
  return {
    provider: network.provider,
    podCIDR: network.podCidr,
    serviceCIDR: network.serviceCidr,
    calico: network.provider === NetworkProvider.CALICO
      ? { mode: network.calicoMode, ...(network.calicoMode === CalicoMode.VXLAN ? { vxlanPort: CALICO_WINDOWS_VXLAN.port, vxlanVNI: CALICO_WINDOWS_VXLAN.vni } : {}) }
      : undefined,
  };
}

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
