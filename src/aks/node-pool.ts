import { Construct } from 'constructs';
import { fail } from '../core/errors';
import { show, wholeNumber } from '../core/values';
import { aksRotationName } from '../platform/aks';
import { isUnresolvedToken } from '../core/tokens';
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
   * Pods per node, 10 to 250. Each node takes one subnet address with Azure CNI Overlay. On Windows
   * pools AKS recommends at most 110 ("For Windows Server containers, the maximum recommended value
   * is 110 pods per node", azure-aks-docs concepts-network-azure-cni-overlay.md). Changing it on a
   * pool that exists rotates the pool (docs/aks.md, "Day 2").
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
  /**
   * The nodes' Kubernetes version (`orchestrator_version`), to hold the pool back while the control
   * plane moves on: at most 3 minors older than the cluster's and never newer (AKS's version skew,
   * supported-kubernetes-versions.md). Raising it upgrades the pool in place, a node at a time.
   * @default - the cluster's kubernetesVersion: the pool is upgraded right after the control plane
   */
  readonly kubernetesVersion?: string;
  /**
   * The temporary pool azurerm rotates the pool through when `vmSize`, `maxPods`, `zones`,
   * `subnetId` or `fipsEnabled` change (`temporary_name_for_rotation`): a pool name of its own in
   * the cluster, 6 characters at most for a Windows pool. The rotation creates the temporary pool
   * with the new values, deletes and recreates this one, then deletes the temporary one, without
   * cordon or drain.
   * @default - `<name>tmp`, or the name's head, "t" and two hash characters when that is too long
   */
  readonly temporaryNameForRotation?: string;
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
  'azurerm_kubernetes_cluster_node_pool max_count': 'minCount and maxCount',
  'azurerm_kubernetes_cluster_node_pool zones': 'zones',
  'azurerm_kubernetes_cluster_node_pool vnet_subnet_id': 'maxCount',
  'azurerm_kubernetes_cluster_node_pool node_labels': 'labels',
  'azurerm_kubernetes_cluster_node_pool orchestrator_version': 'kubernetesVersion',
  'azurerm_kubernetes_cluster_node_pool temporary_name_for_rotation': 'temporaryNameForRotation',
};

/**
 * A `azurerm_kubernetes_cluster_node_pool` that autoscales between `minCount` and `maxCount`, in
 * the cluster's subnet unless given one. Used by `AksLinuxNodePool` and `AksWindowsNodePool`.
 * @internal
 */
export function createNodePool(scope: Construct, cluster: HybridAksCluster, options: AksNodePoolOptions, platform: NodePoolPlatform): KubernetesClusterNodePool {
  if (options === null || typeof options !== 'object') fail(scope, `the props are ${show(options)}, not an object`, 'pass the pool\'s props, e.g. { vmSize: \'Standard_D4ds_v5\' }');
  const at = (prop: string) => ({ path: scope.node.path, prop });
  // azurerm's min_count, max_count and max_pods are integers (kubernetes_cluster_node_pool_resource.go, TypeInt).
  const minCount = wholeNumber(at('minCount'), options.minCount) ?? 1;
  const name = options.name ?? scope.node.id;
  const pool = new KubernetesClusterNodePool(scope, 'NodePool', {
    name,
    kubernetesClusterId: cluster.cluster.id,
    // The pool follows the control plane unless held back: azurerm upgrades a pool only when its
    // orchestrator_version changes (kubernetes_cluster_node_pool_resource.go update); `1.NN` takes the
    // minor's latest patch and reads back as written (website/docs/r/kubernetes_cluster_node_pool.html.markdown).
    orchestratorVersion: options.kubernetesVersion ?? cluster.kubernetesVersion,
    temporaryNameForRotation: options.temporaryNameForRotation ?? (typeof name === 'string' && !isUnresolvedToken(name) ? aksRotationName(name, platform.osType === 'Windows') : undefined),
    vmSize: options.vmSize,
    vnetSubnetId: options.subnetId ?? cluster.subnetId,
    mode: 'User',
    osType: platform.osType,
    osSku: platform.osSku,
    fipsEnabled: platform.fipsEnabled,
    autoScalingEnabled: true,
    minCount,
    maxCount: wholeNumber(at('maxCount'), options.maxCount) ?? Math.max(minCount, 3),
    maxPods: wholeNumber(at('maxPods'), options.maxPods),
    zones: options.zones ? [...options.zones] : undefined,
    nodeLabels: options.labels,
    nodeTaints: platform.taints,
    upgradeSettings: { maxSurge: '10%' },
    // The cluster autoscaler sets the node count; the next apply should not reset it.
    lifecycle: { ignoreChanges: ['node_count'], preventDestroy: cluster.deletionProtection || undefined },
  });
  judgeOwnResources(scope, [pool], { ...PROPS_OF_FIELDS, ...platform.propsOfFields });
  return pool;
}
