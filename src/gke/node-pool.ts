import { contentHash } from '../core/hash';
import { optional, PropEntry, required, text, whole } from '../core/props-spec';
import { GKE_LIMITS, GKE_NODE_SERVICE_ACCOUNT_ROLE, gceHyperdiskOnly } from '../platform/gke';
import { PropsOfFields } from '../rules/engine/refusal';
import { ManagedNodePool, ManagedNodePoolOptions, managedNodePoolEntries, ManagedPoolBuild, ManagedOsPart, vocabularySpec, VocabularySpec } from '../terraform/managed-node-pool';
import type { HybridGkeCluster } from './gke-cluster';
import { ContainerNodePool, ContainerNodePoolNodeConfig, ProjectIamMember, ServiceAccount } from '../terraform/providers/google';

/**
 * What Linux and Windows node pools share, in the managed clouds' one vocabulary
 * (`ManagedNodePoolOptions`); the former names are deprecated aliases. GKE's node counts are per
 * zone (the provider's `autoscaling.min_node_count` and `max_node_count`), so they keep their
 * names, `minNodesPerZone` and `maxNodesPerZone`, where EKS and AKS count `minNodes` in total.
 * What each prop takes, as the construct checks it: docs/props.md.
 */
export interface GkeNodePoolOptions extends ManagedNodePoolOptions {
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
   * Boot disk size in GiB (`disk_size_gb`: Compute Engine's "GB" are binary, its 64 TiB disks
   * the provider's 65,536).
   * @default 100
   */
  readonly diskSizeGiB?: number;
  /**
   * Boot disk type: `pd-balanced`, `pd-ssd`, `pd-standard` or `hyperdisk-balanced`.
   * @default - 'pd-balanced'; 'hyperdisk-balanced' on the series that take Hyperdisk only (`GCE_HYPERDISK_ONLY_SERIES`: C4, C4D, N4A, N4D, M4, X4, H4D, G4, A4, A4X, and TPU v6e/7x)
   */
  readonly diskType?: string;
  /**
   * The nodes' Google service account (its email). Give one only if it has no more than the
   * nodes need.
   * @default - a service account of the pool's own with `roles/container.defaultNodeServiceAccount` only
   */
  readonly serviceAccountEmail?: string;
  /**
   * The former name of `diskSizeGiB`, which takes the same values; giving both is refused.
   * @deprecated use `diskSizeGiB`.
   * @default - diskSizeGiB
   */
  readonly diskSizeGb?: number;
  /**
   * The former name of `poolName` (1 to 40 lower-case letters, digits and `-`), which takes the
   * same values; giving both is refused.
   * @deprecated use `poolName`.
   * @default - poolName
   */
  readonly nodePoolName?: string;
}

const GKE_FORMER_NAMES = { diskSizeGb: 'diskSizeGiB', nodePoolName: 'poolName' } as const;

/**
 * The entries of `GkeNodePoolOptions`, which the Linux and Windows pools' specs share. The
 * provider's min/max_node_count and disk_size_gb are integers (resource_container_node_pool.go,
 * node_config.go: TypeInt); `gke-node-pool` judges the machine type, the disk and the name.
 * @internal
 */
export const GKE_NODE_POOL_OPTIONS: { readonly [K in Exclude<keyof GkeNodePoolOptions, keyof typeof GKE_FORMER_NAMES>]-?: PropEntry } = {
  machineType: required(text({ max: 128, form: 'a Compute Engine machine type', example: 'n2-standard-4', judgedBy: 'gke-node-pool' }), 'give machineType, e.g. "n2-standard-4"'),
  minNodesPerZone: optional(whole()),
  maxNodesPerZone: optional(whole()),
  diskSizeGiB: optional(whole(0, undefined, 'gke-node-pool')),
  diskType: optional(text({ max: 64, form: 'a disk type', example: 'pd-balanced', judgedBy: 'gke-node-pool' })),
  ...managedNodePoolEntries({ max: 1024, form: 'a GKE node pool name', example: 'windows', judgedBy: 'gke-node-pool' }),
  serviceAccountEmail: optional(text({ max: 320, form: 'a service account email', example: 'nodes@my-project.iam.gserviceaccount.com' })),
};

/**
 * The spec of a GKE pool's props: `entries` (`GKE_NODE_POOL_OPTIONS` and the OS's own), the
 * deprecated names taken as aliases.
 * @internal
 */
export function gkeNodePoolSpec<P extends GkeNodePoolOptions>(name: string, entries: { readonly [K in Exclude<keyof P, keyof typeof GKE_FORMER_NAMES>]-?: PropEntry }): VocabularySpec<P> {
  return vocabularySpec<P, typeof GKE_FORMER_NAMES>(name, entries, GKE_FORMER_NAMES);
}

/** What the operating system decides of a GKE pool: the OS part of `GkeNodePoolBase`. */
export interface GkeOsPart extends ManagedOsPart {
  /** `node_config.image_type`. */
  readonly imageType: string;
  /** `node_config.windows_node_config`, for Windows the release. */
  readonly windowsNodeConfig?: { readonly osversion: string };
}

/** The resources of one node pool. */
export interface GkeNodePoolResources {
  /** The `google_container_node_pool` resource. */
  readonly nodePool: ContainerNodePool;
  /** The pool's own service account, unless `serviceAccountEmail` was given. */
  readonly serviceAccount?: ServiceAccount;
}

/** The former name of `GkeNodePoolResources`, kept for code that names it (prefer the new name). */
export type GkeNodePoolParts = GkeNodePoolResources;

/** Which prop sets which field of the node pool, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  'google_container_node_pool name': 'poolName',
  'google_container_node_pool node_config.machine_type': 'machineType',
  'google_container_node_pool node_config.disk_size_gb': 'diskSizeGiB',
  'google_container_node_pool node_config.disk_type': 'diskType',
  'google_container_node_pool node_config.labels': 'labels',
  'google_container_node_pool autoscaling.min_node_count': 'minNodesPerZone',
  'google_container_node_pool autoscaling.max_node_count': 'maxNodesPerZone',
  'google_container_node_pool autoscaling': 'minNodesPerZone and maxNodesPerZone',
  'google_service_account account_id': 'poolName',
};

/** A service account id (6 to 30 characters) from the cluster and pool names, shortened with a hash when too long. */
function accountId(cluster: string, pool: string): string {
  const full = `${cluster}-${pool}`.toLowerCase();
  const { min, max } = GKE_LIMITS.serviceAccountId;
  const id = full.length <= max ? full : `${full.slice(0, max - 9).replace(/-+$/, '')}-${contentHash(full).slice(0, 8)}`;
  return id.length >= min ? id : `${id}-nodes`;
}

/**
 * A GKE node pool and, unless given one, its own least-privilege service account: GKE's
 * Workload Identity metadata server on the nodes (pods get their own identities, never the
 * node's), Windows nodes included (terraform-google-modules/terraform-google-kubernetes-engine
 * test/integration/simple_windows_node_pool/testdata/TestSimpleWindowsNodePool.json: a
 * WINDOWS_LTSC_CONTAINERD pool RUNNING with `workloadMetadataConfig.mode` GKE_METADATA), the
 * `cloud-platform` scope with IAM deciding, auto-repair and auto-upgrade (required on a release
 * channel), and autoscaling per zone. `GkeLinuxNodePool` and `GkeWindowsNodePool` give the OS part.
 */
export abstract class GkeNodePoolBase<P extends GkeNodePoolOptions> extends ManagedNodePool<HybridGkeCluster, P, GkeOsPart, GkeNodePoolResources> {
  /**
   * The node pool and its service account.
   * @deprecated use `resources`.
   */
  public get parts(): GkeNodePoolResources {
    return this.resources;
  }

  protected createPool(cluster: HybridGkeCluster, options: P, os: GkeOsPart): ManagedPoolBuild<GkeNodePoolResources> {
    const name = options.poolName ?? this.node.id;
    const minNodeCount = options.minNodesPerZone ?? 1;
    const maxNodeCount = options.maxNodesPerZone ?? Math.max(minNodeCount, 1);
    const { machineType } = options;
    let serviceAccount: ServiceAccount | undefined;
    let email = options.serviceAccountEmail;
    const own: Array<ServiceAccount | ProjectIamMember | ContainerNodePool> = [];
    if (email === undefined) {
      serviceAccount = new ServiceAccount(this, 'ServiceAccount', { accountId: accountId(cluster.clusterName, name), displayName: `GKE nodes of ${cluster.clusterName}/${name}` });
      const role = new ProjectIamMember(this, 'NodeRole', { project: cluster.project, role: GKE_NODE_SERVICE_ACCOUNT_ROLE, member: `serviceAccount:${serviceAccount.email}` });
      email = serviceAccount.email;
      own.push(serviceAccount, role);
    }
    const nodeConfig: ContainerNodePoolNodeConfig = {
      machineType,
      imageType: os.imageType,
      diskSizeGb: options.diskSizeGiB ?? 100,
      diskType: options.diskType ?? (gceHyperdiskOnly(machineType) ? 'hyperdisk-balanced' : 'pd-balanced'),
      serviceAccount: email,
      oauthScopes: ['https://www.googleapis.com/auth/cloud-platform'],
      labels: options.labels === undefined ? undefined : { ...options.labels },
      workloadMetadataConfig: { mode: 'GKE_METADATA' },
      windowsNodeConfig: os.windowsNodeConfig,
    };
    const nodePool = new ContainerNodePool(this, 'NodePool', {
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
    return { resources: { nodePool, serviceAccount }, judged: [...own, nodePool] };
  }

  protected propsOfFields(): PropsOfFields {
    return PROPS_OF_FIELDS;
  }
}
