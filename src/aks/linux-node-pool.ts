import type { HybridAksCluster } from './aks-cluster';
import { AKS_NODE_POOL_OPTIONS, AksNodePoolBase, AksNodePoolOptions, AksOsPart, aksNodePoolSpec } from './node-pool';

/** Props of `AksLinuxNodePool`: those of every node pool. */
export type AksLinuxNodePoolProps = AksNodePoolOptions;

/**
 * The spec of `AksLinuxNodePoolProps`.
 * @internal
 */
export const AKS_LINUX_NODE_POOL_PROPS = aksNodePoolSpec<AksLinuxNodePoolProps>('AksLinuxNodePool', AKS_NODE_POOL_OPTIONS);

/** A User pool of Linux (Ubuntu) nodes for the cluster's Linux workloads. */
export class AksLinuxNodePool extends AksNodePoolBase<AksLinuxNodePoolProps> {
  public constructor(cluster: HybridAksCluster, id: string, props: AksLinuxNodePoolProps) {
    super(cluster, id, AKS_LINUX_NODE_POOL_PROPS, props);
  }

  protected osPart(): AksOsPart {
    return { osType: 'Linux' };
  }
}
