import { Construct } from 'constructs';
import type { HybridAksCluster } from './aks-cluster';
import { AksNodePoolOptions, createNodePool } from './node-pool';
import type { KubernetesClusterNodePool } from '../terraform/providers/azurerm';

/** Props of `AksLinuxNodePool`: those of every node pool. */
export type AksLinuxNodePoolProps = AksNodePoolOptions;

/** A User pool of Linux (Ubuntu) nodes for the cluster's Linux workloads. */
export class AksLinuxNodePool extends Construct {
  /** The `azurerm_kubernetes_cluster_node_pool`, for its attributes and escape hatches. */
  public readonly pool: KubernetesClusterNodePool;

  public constructor(cluster: HybridAksCluster, id: string, props: AksLinuxNodePoolProps) {
    super(cluster, id);
    this.pool = createNodePool(this, cluster, props, { osType: 'Linux' });
  }
}
