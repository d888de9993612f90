import { Construct } from 'constructs';
import { judgeOwnResources, judgeStackAtSynth } from '../terraform/judge';
import { GkeReleaseChannel } from '../platform/gke';
import { choice, flag, list, optional, propsSpec, record, required, text } from '../core/props-spec';
import { EXISTING_GKE_NETWORK, ExistingGkeNetwork } from './gke-network';
import { ContainerCluster } from '../terraform/providers/google';

/**
 * When GKE may upgrade and repair the control plane and nodes: a recurring window as RFC 3339
 * start and end times (the first occurrence; only their times of day and length matter) and an
 * RFC 5545 RRULE. GKE needs at least 48 hours of availability in any 32 days, in windows of at
 * least 4 hours.
 */
export interface GkeMaintenanceWindow {
  /** Start of the first window, e.g. `2026-01-03T02:00:00Z`. */
  readonly startTime: string;
  /** End of the first window, e.g. `2026-01-03T08:00:00Z`. */
  readonly endTime: string;
  /** e.g. `FREQ=WEEKLY;BYDAY=SA,SU`. */
  readonly recurrence: string;
}

/** Props of `HybridGkeCluster`. What each prop takes, as the construct checks it: docs/props.md. */
export interface HybridGkeClusterProps {
  /** The GKE cluster name: 1 to 40 lower-case letters, digits and `-`, starting with a letter. */
  readonly clusterName: string;
  /** The Google Cloud project: the Workload Identity pool is `<project>.svc.id.goog`. */
  readonly project: string;
  /** A region (a regional cluster: control plane and nodes in three zones) or a zone (a zonal cluster). */
  readonly location: string;
  /** The network and subnetwork, with the secondary ranges for pods and Services. */
  readonly network: ExistingGkeNetwork;
  /**
   * The release channel: GKE upgrades the control plane and the nodes within it.
   * @default GkeReleaseChannel.REGULAR
   */
  readonly releaseChannel?: GkeReleaseChannel;
  /**
   * The oldest Kubernetes version of the control plane (`min_master_version`), e.g. `1.33`; it must
   * be offered in the release channel.
   * @default - the channel's default version
   */
  readonly kubernetesVersion?: string;
  /**
   * The maintenance window.
   * @default - Saturdays and Sundays, 02:00 to 08:00 UTC
   */
  readonly maintenanceWindow?: GkeMaintenanceWindow;
  /**
   * CIDR blocks (`a.b.c.d/n`, the network's own address) that may reach the control plane's public
   * endpoint; `[]` is the same as unset.
   * @default - none: the public endpoint answers the cluster's nodes only (GKE admits their addresses itself)
   */
  readonly authorizedNetworks?: readonly string[];
  /**
   * Whether Google Cloud's public addresses (Compute Engine VMs' external addresses, Cloud Shell,
   * Cloud Build) may reach the public endpoint besides `authorizedNetworks`
   * (`master_authorized_networks_config.gcp_public_cidrs_access_enabled`).
   * @default false
   */
  readonly googleCloudPublicAccess?: boolean;
  /**
   * Whether Terraform refuses to destroy the cluster (the provider's `deletion_protection`, checked
   * at apply) and to destroy or replace it or its node pools (`lifecycle.prevent_destroy`, checked at
   * plan): a pool's `serviceAccountEmail`, its name or construct id, the cluster's name, location or
   * network replace them destroy-first (docs/gke.md, "Day 2"). Removing a pool's construct still
   * deletes that pool. Set it to `false` to accept a replacement, or before `cdktn destroy`.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/** A value of the cluster the `gke-cluster` rule judges. */
const JUDGED = (form: string, example: string) => text({ max: 1024, form, example, judgedBy: 'gke-cluster' });

/**
 * The spec of `HybridGkeClusterProps`; the Terraform rules judge the values further (the name,
 * location, version, window and networks' forms).
 * @internal
 */
export const HYBRID_GKE_CLUSTER_PROPS = propsSpec<HybridGkeClusterProps>('HybridGkeCluster', {
  clusterName: required(JUDGED('a GKE cluster name', 'shop'), 'give clusterName, e.g. "shop"'),
  // The provider's project, which `gke-provider` judges, is the stack's; the cluster names it in its workload pool.
  project: required(text({ max: 1024, form: 'a Google Cloud project id', example: 'my-project-123456', judgedBy: 'gke-provider' }), 'give project, e.g. "my-project-123456"'),
  location: required(JUDGED('a Google Cloud region or zone', 'europe-north1'), 'give location, e.g. "europe-north1"'),
  network: required(record(EXISTING_GKE_NETWORK), 'give network: a GkeNetwork, or the names of a network that exists'),
  releaseChannel: optional(choice(GkeReleaseChannel, 'GkeReleaseChannel')),
  kubernetesVersion: optional(JUDGED('a Kubernetes minor version', '1.33')),
  maintenanceWindow: optional(record(propsSpec<GkeMaintenanceWindow>('GkeMaintenanceWindow', {
    startTime: required(JUDGED('an RFC 3339 time', '2026-01-03T02:00:00Z'), 'give startTime, e.g. "2026-01-03T02:00:00Z"'),
    endTime: required(JUDGED('an RFC 3339 time', '2026-01-03T08:00:00Z'), 'give endTime, e.g. "2026-01-03T08:00:00Z"'),
    recurrence: required(JUDGED('an RFC 5545 RRULE', 'FREQ=WEEKLY;BYDAY=SA,SU'), 'give recurrence, e.g. "FREQ=WEEKLY;BYDAY=SA,SU"'),
  }))),
  authorizedNetworks: optional(list(JUDGED('an IPv4 CIDR block', '203.0.113.0/24'))),
  googleCloudPublicAccess: optional(flag()),
  deletionProtection: optional(flag()),
});

/** Which prop sets which field of the cluster, for messages at construction. */
const PROPS_OF_FIELDS = {
  'google_container_cluster name': 'clusterName',
  'google_container_cluster location': 'location',
  'google_container_cluster min_master_version': 'kubernetesVersion',
  'google_container_cluster release_channel.channel': 'releaseChannel',
  'google_container_cluster maintenance_policy.recurring_window.start_time': 'maintenanceWindow',
  'google_container_cluster maintenance_policy.recurring_window.end_time': 'maintenanceWindow',
  'google_container_cluster maintenance_policy.recurring_window.recurrence': 'maintenanceWindow',
  'google_container_cluster master_authorized_networks_config.cidr_blocks.cidr_block': 'authorizedNetworks',
};

/**
 * A GKE Standard cluster ready for Windows Server node pools: VPC-native (alias IPs from the
 * subnetwork's secondary ranges), its default node pool removed (every pool is a
 * `GkeLinuxNodePool` or `GkeWindowsNodePool`), Workload Identity, a release channel, a maintenance
 * window, private nodes, and a control plane endpoint reachable from `authorizedNetworks` only.
 * Creates no provider.
 */
export class HybridGkeCluster extends Construct {
  /** The GKE cluster name (`clusterName`). */
  public readonly clusterName: string;
  /** The project (`project`). */
  public readonly project: string;
  /** The `google_container_cluster` resource: its endpoint and location, and the escape hatch for fields this construct does not set. */
  public readonly cluster: ContainerCluster;
  /** Whether the cluster and its node pools carry `prevent_destroy` (`deletionProtection`). */
  public readonly deletionProtection: boolean;

  public constructor(scope: Construct, id: string, given: HybridGkeClusterProps) {
    super(scope, id);
    const props = HYBRID_GKE_CLUSTER_PROPS.parse(this.node.path, given);
    this.clusterName = props.clusterName;
    this.project = props.project;
    this.deletionProtection = props.deletionProtection ?? true;
    const window = props.maintenanceWindow ?? { startTime: '2026-01-03T02:00:00Z', endTime: '2026-01-03T08:00:00Z', recurrence: 'FREQ=WEEKLY;BYDAY=SA,SU' };
    this.cluster = new ContainerCluster(this, 'Cluster', {
      name: props.clusterName,
      location: props.location,
      network: props.network.network,
      subnetwork: props.network.subnetwork,
      // Windows Server node pools need VPC-native networking (alias IPs).
      networkingMode: 'VPC_NATIVE',
      ipAllocationPolicy: { clusterSecondaryRangeName: props.network.podsRangeName, servicesSecondaryRangeName: props.network.servicesRangeName },
      // GKE creates the default pool with the cluster; Terraform removes it right after, so every
      // pool is one of ours (with its own service account, image type and taints).
      removeDefaultNodePool: true,
      initialNodeCount: 1,
      minMasterVersion: props.kubernetesVersion,
      releaseChannel: { channel: props.releaseChannel ?? GkeReleaseChannel.REGULAR },
      workloadIdentityConfig: { workloadPool: `${props.project}.svc.id.goog` },
      maintenancePolicy: { recurringWindow: { ...window } },
      privateClusterConfig: { enablePrivateNodes: true, enablePrivateEndpoint: false },
      // Sent only when written (expandMasterAuthorizedNetworksConfig: GetOkExists), so GKE's default
      // would decide; written so that the endpoint admits what the props say.
      masterAuthorizedNetworksConfig: { cidrBlocks: (props.authorizedNetworks ?? []).map((cidrBlock) => ({ cidrBlock })), gcpPublicCidrsAccessEnabled: props.googleCloudPublicAccess ?? false },
      deletionProtection: props.deletionProtection,
      lifecycle: this.deletionProtection ? { preventDestroy: true } : undefined,
    });
    judgeOwnResources(this, [this.cluster], PROPS_OF_FIELDS);
    judgeStackAtSynth(this);
  }
}
