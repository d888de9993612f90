import { choice, optional, propsSpec, text } from '../core/props-spec';
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

/**
 * The spec of `KubernetesNetworkProps`: the ranges are the `cluster-network` rule's and the
 * provider the `control-plane` rule's, on the objects written; the spec takes strings.
 * @internal
 */
export const KUBERNETES_NETWORK_PROPS = propsSpec<KubernetesNetworkProps>('KubernetesNetworkProps', {
  podCidr: optional(text({ max: 64, form: 'an IPv4 CIDR', example: '192.168.0.0/16', judgedBy: 'cluster-network' })),
  serviceCidr: optional(text({ max: 64, form: 'an IPv4 CIDR', example: '10.128.0.0/12', judgedBy: 'cluster-network' })),
  provider: optional(text({ max: 64, form: 'a k0s network provider', example: 'calico', judgedBy: 'control-plane' })),
  calicoMode: optional(choice(CalicoMode, 'CalicoMode')),
});

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
