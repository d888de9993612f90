import { optional, PropEntry, text } from '../core/props-spec';
import { aksRotationName } from '../platform/aks';
import { isUnresolvedToken } from '../core/tokens';
import { PropsOfFields } from '../rules/engine/refusal';
import { ManagedNodePool, ManagedNodePoolOptions, managedNodePoolEntries, ManagedPoolBuild, ManagedOsPart, vocabularySpec, VocabularySpec } from '../terraform/managed-node-pool';
import { AKS_FORMER_NAMES, AKS_POOL_SIZE, aksPoolSize, HybridAksCluster } from './aks-cluster';
import { KubernetesClusterNodePool } from '../terraform/providers/azurerm';

/**
 * What Linux and Windows node pools share, in the managed clouds' one vocabulary
 * (`ManagedNodePoolOptions`); the former names are deprecated aliases. What each prop takes, as
 * the construct checks it: docs/props.md.
 */
export interface AksNodePoolOptions extends ManagedNodePoolOptions {
  /**
   * The VM size, e.g. `Standard_D4ds_v5`.
   * @default - none: required, unless given by its former name `vmSize`
   */
  readonly machineType?: string;
  /**
   * The fewest nodes the cluster autoscaler keeps (0 lets it scale the pool to zero).
   * @default 1
   */
  readonly minNodes?: number;
  /**
   * The most nodes the cluster autoscaler may add.
   * @default - the larger of minNodes and 3
   */
  readonly maxNodes?: number;
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
   * The temporary pool azurerm rotates the pool through when `machineType`, `maxPods`, `zones`,
   * `subnetId` or `fipsEnabled` change (`temporary_name_for_rotation`): a pool name of its own in
   * the cluster, 6 characters at most for a Windows pool. The rotation creates the temporary pool
   * with the new values, deletes and recreates this one, then deletes the temporary one, without
   * cordon or drain.
   * @default - `<poolName>tmp`, or the name's head, "t" and two hash characters when that is too long
   */
  readonly temporaryNameForRotation?: string;
  /**
   * The former name of `machineType`, which takes the same values; giving both is refused.
   * @deprecated use `machineType`.
   * @default - machineType
   */
  readonly vmSize?: string;
  /**
   * The former name of `minNodes`, which takes the same values; giving both is refused.
   * @deprecated use `minNodes`.
   * @default - minNodes
   */
  readonly minCount?: number;
  /**
   * The former name of `maxNodes`, which takes the same values; giving both is refused.
   * @deprecated use `maxNodes`.
   * @default - maxNodes
   */
  readonly maxCount?: number;
  /**
   * The former name of `poolName` (lower-case letters and digits, 12 at most, 6 for Windows), which
   * takes the same values; giving both is refused.
   * @deprecated use `poolName`.
   * @default - poolName
   */
  readonly name?: string;
}

const AKS_POOL_FORMER_NAMES = { ...AKS_FORMER_NAMES, name: 'poolName' } as const;

/**
 * The entries of `AksNodePoolOptions`, which the Linux and Windows pools' specs share.
 * @internal
 */
export const AKS_NODE_POOL_OPTIONS: { readonly [K in Exclude<keyof AksNodePoolOptions, keyof typeof AKS_POOL_FORMER_NAMES>]-?: PropEntry } = {
  ...AKS_POOL_SIZE,
  ...managedNodePoolEntries({ max: 64, form: 'an AKS node pool name', example: 'win22', judgedBy: 'aks-node-pool' }),
  subnetId: optional(text({ max: 1024, form: 'a subnet id', example: '/subscriptions/…/subnets/nodes' })),
  kubernetesVersion: optional(text({ max: 64, form: 'a Kubernetes version', example: '1.35', judgedBy: 'aks-kubernetes-version' })),
  temporaryNameForRotation: optional(text({ max: 64, form: 'an AKS node pool name', example: 'wintmp', judgedBy: 'aks-node-pool' })),
};

/**
 * The spec of an AKS pool's props: `entries` (`AKS_NODE_POOL_OPTIONS` and the OS's own), the
 * deprecated names taken as aliases.
 * @internal
 */
export function aksNodePoolSpec<P extends AksNodePoolOptions>(name: string, entries: { readonly [K in Exclude<keyof P, keyof typeof AKS_POOL_FORMER_NAMES>]-?: PropEntry }): VocabularySpec<P> {
  return vocabularySpec<P, typeof AKS_POOL_FORMER_NAMES>(name, entries, AKS_POOL_FORMER_NAMES);
}

/** What the operating system decides of an AKS pool: the OS part of `AksNodePoolBase`. */
export interface AksOsPart extends ManagedOsPart {
  /** `os_type`. */
  readonly osType: 'Linux' | 'Windows';
  /** `os_sku`, for Windows the release. */
  readonly osSku?: string;
  /** `node_taints`. */
  readonly taints?: string[];
  /** `fips_enabled`. */
  readonly fipsEnabled?: boolean;
}

/** The resources of one AKS node pool. */
export interface AksNodePoolResources {
  /** The `azurerm_kubernetes_cluster_node_pool` resource. */
  readonly nodePool: KubernetesClusterNodePool;
}

/** Which prop sets which field of the pool, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  'azurerm_kubernetes_cluster_node_pool name': 'poolName',
  'azurerm_kubernetes_cluster_node_pool max_pods': 'maxPods',
  'azurerm_kubernetes_cluster_node_pool max_count': 'minNodes and maxNodes',
  'azurerm_kubernetes_cluster_node_pool zones': 'zones',
  'azurerm_kubernetes_cluster_node_pool vnet_subnet_id': 'maxNodes',
  'azurerm_kubernetes_cluster_node_pool node_labels': 'labels',
  'azurerm_kubernetes_cluster_node_pool orchestrator_version': 'kubernetesVersion',
  'azurerm_kubernetes_cluster_node_pool temporary_name_for_rotation': 'temporaryNameForRotation',
};

/**
 * An AKS User pool: an `azurerm_kubernetes_cluster_node_pool` that autoscales between `minNodes`
 * and `maxNodes`, in the cluster's subnet unless given one. `AksLinuxNodePool` and
 * `AksWindowsNodePool` give the OS part.
 */
export abstract class AksNodePoolBase<P extends AksNodePoolOptions> extends ManagedNodePool<HybridAksCluster, P, AksOsPart, AksNodePoolResources> {
  /**
   * The `azurerm_kubernetes_cluster_node_pool`.
   * @deprecated use `resources.nodePool`.
   */
  public get pool(): KubernetesClusterNodePool {
    return this.resources.nodePool;
  }

  protected createPool(cluster: HybridAksCluster, options: P, os: AksOsPart): ManagedPoolBuild<AksNodePoolResources> {
    const name = options.poolName ?? this.node.id;
    const nodePool = new KubernetesClusterNodePool(this, 'NodePool', {
      name,
      kubernetesClusterId: cluster.cluster.id,
      // The pool follows the control plane unless held back: azurerm upgrades a pool only when its
      // orchestrator_version changes (kubernetes_cluster_node_pool_resource.go update); `1.NN` takes the
      // minor's latest patch and reads back as written (website/docs/r/kubernetes_cluster_node_pool.html.markdown).
      orchestratorVersion: options.kubernetesVersion ?? cluster.kubernetesVersion,
      temporaryNameForRotation: options.temporaryNameForRotation ?? (isUnresolvedToken(name) ? undefined : aksRotationName(name, os.osType === 'Windows')),
      vnetSubnetId: options.subnetId ?? cluster.subnetId,
      mode: 'User',
      osType: os.osType,
      osSku: os.osSku,
      fipsEnabled: os.fipsEnabled,
      // The spec requires machineType (or its deprecated name).
      ...aksPoolSize(options, options.machineType!, 1),
      nodeLabels: options.labels === undefined ? undefined : { ...options.labels },
      nodeTaints: os.taints,
      upgradeSettings: { maxSurge: '10%' },
      // The cluster autoscaler sets the node count; the next apply should not reset it.
      lifecycle: { ignoreChanges: ['node_count'], preventDestroy: cluster.deletionProtection || undefined },
    });
    return { resources: { nodePool }, judged: [nodePool] };
  }

  protected propsOfFields(): PropsOfFields {
    return PROPS_OF_FIELDS;
  }
}
