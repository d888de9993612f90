import { Construct } from 'constructs';
import { judgeOwnResources } from '../terraform/judge';
import { fail } from '../core/errors';
import { show, wholeNumber } from '../core/values';
import { contentHash } from '../core/hash';
import { GKE_LIMITS, GKE_NODE_SERVICE_ACCOUNT_ROLE, gceHyperdiskOnly } from '../platform/gke';
import { PropsOfFields } from '../rules/engine/refusal';
import type { HybridGkeCluster } from './gke-cluster';
import { ContainerNodePool, ContainerNodePoolNodeConfig, ProjectIamMember, ServiceAccount } from '../terraform/providers/google';

/** What Linux and Windows node pools share. */
export interface GkeNodePoolOptions {
  /** The Compute Engine machine type, e.g. `n2-standard-4`. */
  readonly machineType: string;
  /**
   * The fewest nodes per zone the cluster autoscaler keeps (a regional cluster has three zones).
   * A cluster with Windows pools needs a Linux pool with at least 1, for kube-dns.
   * @default 1
   */
  readonly minNodesPerZone?: number;
  /**
   * The most nodes per zone the cluster autoscaler may add.
   * @default - the larger of minNodesPerZone and 1
   */
  readonly maxNodesPerZone?: number;
  /**
   * Boot disk size in GB.
   * @default 100
   */
  readonly diskSizeGb?: number;
  /**
   * Boot disk type: `pd-balanced`, `pd-ssd`, `pd-standard` or `hyperdisk-balanced`.
   * @default - 'pd-balanced'; 'hyperdisk-balanced' on the series that take Hyperdisk only (`GCE_HYPERDISK_ONLY_SERIES`: C4, C4D, N4A, N4D, M4, X4, H4D, G4, A4, A4X, and TPU v6e/7x)
   */
  readonly diskType?: string;
  /**
   * Kubernetes labels of the nodes.
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * The node pool name: 1 to 40 lower-case letters, digits and `-`.
   * @default - the construct id
   */
  readonly nodePoolName?: string;
  /**
   * The nodes' Google service account (its email). Give one only if it has no more than the
   * nodes need.
   * @default - a service account of the pool's own with `roles/container.defaultNodeServiceAccount` only
   */
  readonly serviceAccountEmail?: string;
}

/**
 * What the operating system decides.
 * @internal
 */
export interface NodePoolPlatform {
  readonly imageType: string;
  readonly windowsNodeConfig?: { readonly osversion: string };
  /** Which props of the OS's construct set which fields, beyond the shared options'. */
  readonly propsOfFields?: PropsOfFields;
}

/** The resources of one node pool. */
export interface GkeNodePoolParts {
  /** The `google_container_node_pool` resource. */
  readonly nodePool: ContainerNodePool;
  /** The pool's own service account, unless `serviceAccountEmail` was given. */
  readonly serviceAccount?: ServiceAccount;
}

/** Which option sets which field of the node pool, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  'google_container_node_pool name': 'nodePoolName',
  'google_container_node_pool node_config.machine_type': 'machineType',
  'google_container_node_pool node_config.disk_size_gb': 'diskSizeGb',
  'google_container_node_pool node_config.disk_type': 'diskType',
  'google_container_node_pool node_config.labels': 'labels',
  'google_container_node_pool autoscaling.min_node_count': 'minNodesPerZone',
  'google_container_node_pool autoscaling.max_node_count': 'maxNodesPerZone',
  'google_container_node_pool autoscaling': 'minNodesPerZone and maxNodesPerZone',
  'google_service_account account_id': 'nodePoolName',
};

/** A service account id (6 to 30 characters) from the cluster and pool names, shortened with a hash when too long. */
function accountId(cluster: string, pool: string): string {
  const full = `${cluster}-${pool}`.toLowerCase();
  const { min, max } = GKE_LIMITS.serviceAccountId;
  const id = full.length <= max ? full : `${full.slice(0, max - 9).replace(/-+$/, '')}-${contentHash(full).slice(0, 8)}`;
  return id.length >= min ? id : `${id}-nodes`;
}

/**
 * The node pool and, unless given one, its own least-privilege service account: GKE's
 * Workload Identity metadata server on the nodes (pods get their own identities, never the
 * node's), Windows nodes included (terraform-google-modules/terraform-google-kubernetes-engine
 * test/integration/simple_windows_node_pool/testdata/TestSimpleWindowsNodePool.json: a
 * WINDOWS_LTSC_CONTAINERD pool RUNNING with `workloadMetadataConfig.mode` GKE_METADATA), the `cloud-platform` scope with IAM deciding, auto-repair and auto-upgrade (required
 * on a release channel), and autoscaling per zone. Used by `GkeLinuxNodePool` and `GkeWindowsNodePool`.
 * @internal
 */
export function createNodePool(scope: Construct, cluster: HybridGkeCluster, options: GkeNodePoolOptions, platform: NodePoolPlatform): GkeNodePoolParts {
  if (options === null || typeof options !== 'object') fail(scope, `the props are ${show(options)}, not an object`, 'pass the pool\'s props, e.g. { machineType: \'n2-standard-4\' }');
  const at = (prop: string) => ({ path: scope.node.path, prop });
  const name = options.nodePoolName ?? scope.node.id;
  // The provider's min/max_node_count and disk_size_gb are integers (resource_container_node_pool.go, node_config.go: TypeInt).
  const minNodeCount = wholeNumber(at('minNodesPerZone'), options.minNodesPerZone) ?? 1;
  const maxNodeCount = wholeNumber(at('maxNodesPerZone'), options.maxNodesPerZone) ?? Math.max(minNodeCount, 1);
  let serviceAccount: ServiceAccount | undefined;
  let email = options.serviceAccountEmail;
  const own: Array<ServiceAccount | ProjectIamMember | ContainerNodePool> = [];
  if (email === undefined) {
    serviceAccount = new ServiceAccount(scope, 'ServiceAccount', { accountId: accountId(cluster.clusterName, name), displayName: `GKE nodes of ${cluster.clusterName}/${name}` });
    const role = new ProjectIamMember(scope, 'NodeRole', { project: cluster.project, role: GKE_NODE_SERVICE_ACCOUNT_ROLE, member: `serviceAccount:${serviceAccount.email}` });
    email = serviceAccount.email;
    own.push(serviceAccount, role);
  }
  const nodeConfig: ContainerNodePoolNodeConfig = {
    machineType: options.machineType,
    imageType: platform.imageType,
    diskSizeGb: wholeNumber(at('diskSizeGb'), options.diskSizeGb) ?? 100,
    // No machine type is the rules' to name (gke-node-pool), not a TypeError here.
    diskType: options.diskType ?? (typeof options.machineType === 'string' && gceHyperdiskOnly(options.machineType) ? 'hyperdisk-balanced' : 'pd-balanced'),
    serviceAccount: email,
    oauthScopes: ['https://www.googleapis.com/auth/cloud-platform'],
    labels: options.labels,
    workloadMetadataConfig: { mode: 'GKE_METADATA' },
    windowsNodeConfig: platform.windowsNodeConfig,
  };
  const nodePool = new ContainerNodePool(scope, 'NodePool', {
    name,
    cluster: cluster.cluster.id,
    location: cluster.cluster.location,
    initialNodeCount: minNodeCount,
    autoscaling: { minNodeCount, maxNodeCount },
    management: { autoRepair: true, autoUpgrade: true },
    nodeConfig,
    dependsOn: own.slice(1),
    // initial_node_count forces a new pool when it changes; the autoscaler owns the size after creation.
    lifecycle: { ignoreChanges: ['initial_node_count'], preventDestroy: cluster.deletionProtection || undefined },
  });
  judgeOwnResources(scope, [...own, nodePool], { ...PROPS_OF_FIELDS, ...platform.propsOfFields });
  return { nodePool, serviceAccount };
}
