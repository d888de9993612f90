import { Construct } from 'constructs';
import { judgeOwnResources } from '../terraform/judge';
import { PropsOfFields } from '../rules/engine/refusal';
import type { HybridAksCluster } from './aks-cluster';
import { KubernetesClusterNodePool } from '../terraform/providers/azurerm';

/** What Linux and Windows node pools share. */
export interface AksNodePoolOptions {
  /** The VM size, e.g. `Standard_D4ds_v5`. */
  readonly vmSize: string;
  /**
   * The fewest nodes the cluster autoscaler keeps (0 lets it scale the pool to zero).
   * @default 1
   */
  readonly minCount?: number;
  /**
   * The most nodes the cluster autoscaler may add.
   * @default - the larger of minCount and 3
   */
  readonly maxCount?: number;
  /**
   * Pods per node, 10 to 250. Each node takes one subnet address with Azure CNI Overlay.
   * @default - AKS's: 250 with Azure CNI Overlay
   */
  readonly maxPods?: number;
  /**
   * Availability zones, e.g. `['1', '2', '3']`.
   * @default - no zones
   */
  readonly zones?: readonly string[];
  /**
   * Kubernetes labels of the nodes.
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * The AKS pool name: lower-case letters and digits, 12 at most (6 for Windows).
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * The nodes' subnet.
   * @default - the cluster's
   */
  readonly subnetId?: string;
}

/**
 * What the operating system decides.
 * @internal
 */
export interface NodePoolPlatform {
  readonly osType: 'Linux' | 'Windows';
  readonly osSku?: string;
  readonly taints?: string[];
  readonly fipsEnabled?: boolean;
  /** Which props of the OS's construct set which fields, beyond the shared options'. */
  readonly propsOfFields?: PropsOfFields;
}

/** Which option sets which field of the pool, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  'azurerm_kubernetes_cluster_node_pool name': 'name',
  'azurerm_kubernetes_cluster_node_pool max_pods': 'maxPods',
  'azurerm_kubernetes_cluster_node_pool vnet_subnet_id': 'maxCount',
  'azurerm_kubernetes_cluster_node_pool node_labels': 'labels',
};

/**
 * A `azurerm_kubernetes_cluster_node_pool` that autoscales between `minCount` and `maxCount`, in
 * the cluster's subnet unless given one. Used by `AksLinuxNodePool` and `AksWindowsNodePool`.
 * @internal
 */
export function createNodePool(scope: Construct, cluster: HybridAksCluster, options: AksNodePoolOptions, platform: NodePoolPlatform): KubernetesClusterNodePool {
  const minCount = options.minCount ?? 1;
  const pool = new KubernetesClusterNodePool(scope, 'NodePool', {
    name: options.name ?? scope.node.id,
    kubernetesClusterId: cluster.cluster.id,
    vmSize: options.vmSize,
    vnetSubnetId: options.subnetId ?? cluster.subnetId,
    mode: 'User',
    osType: platform.osType,
    osSku: platform.osSku,
    fipsEnabled: platform.fipsEnabled,
    autoScalingEnabled: true,
    minCount,
    maxCount: options.maxCount ?? Math.max(minCount, 3),
    maxPods: options.maxPods,
    zones: options.zones ? [...options.zones] : undefined,
    nodeLabels: options.labels,
    nodeTaints: platform.taints,
    upgradeSettings: { maxSurge: '10%' },
    // The cluster autoscaler sets the node count; the next apply should not reset it.
    lifecycle: { ignoreChanges: ['node_count'] },
  });
  judgeOwnResources(scope, [pool], { ...PROPS_OF_FIELDS, ...platform.propsOfFields });
  return pool;
}
