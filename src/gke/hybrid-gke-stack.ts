import { Construct } from 'constructs';
import { fail } from '../core/errors';
import { isUnresolvedToken } from '../core/tokens';
import { GKE_LIMITS } from '../platform/gke';
import { except, handedOn, optional, propsSpec, record, stringRecord, text } from '../core/props-spec';
import { networkExclusion } from '../terraform/managed-node-pool';
import { EXISTING_GKE_NETWORK, ExistingGkeNetwork, GKE_NETWORK_OPTIONS, GKE_NETWORK_PROPS, GkeNetwork, GkeNetworkOptions } from './gke-network';
import { HYBRID_GKE_CLUSTER_PROPS, HybridGkeCluster, HybridGkeClusterProps } from './gke-cluster';
import { GoogleProvider, TerraformStack } from '../terraform/providers/google';

/** Props of `HybridGkeStack`: the cluster's, the region (and zone), and the network. What each prop takes, as the construct checks it: docs/props.md. */
export interface HybridGkeStackProps extends Omit<HybridGkeClusterProps, 'location' | 'network'> {
  /** The region, e.g. `europe-north1`: of the network, and of a regional cluster. */
  readonly region: string;
  /**
   * A zone of `region` for a zonal cluster (one zone of control plane and nodes, no control plane
   * SLA). Leave it unset for a regional cluster.
   * @default - a regional cluster
   */
  readonly zone?: string;
  /**
   * The network to create (`GkeNetwork`).
   * @default - 10.0.0.0/20 for nodes, 10.16.0.0/14 for pods, 10.20.0.0/20 for Services
   */
  readonly network?: GkeNetworkOptions;
  /**
   * A network and subnetwork that exist, with secondary ranges for pods and Services.
   * @default - create a network
   */
  readonly existingNetwork?: ExistingGkeNetwork;
  /**
   * Labels the provider adds to every resource that takes them.
   * @default - none
   */
  readonly defaultLabels?: Record<string, string>;
}

/**
 * The spec of `HybridGkeStackProps`: the cluster's props are handed on to `HybridGkeCluster`,
 * which parses them.
 * @internal
 */
export const HYBRID_GKE_STACK_PROPS = propsSpec<HybridGkeStackProps>('HybridGkeStack', {
  ...handedOn(except(HYBRID_GKE_CLUSTER_PROPS.entries, 'location', 'network', 'clusterName', 'project'), 'HybridGkeCluster'),
  // Read here too: the network, the provider and the stacks' identity are named after them.
  clusterName: HYBRID_GKE_CLUSTER_PROPS.entries.clusterName,
  project: HYBRID_GKE_CLUSTER_PROPS.entries.project,
  region: GKE_NETWORK_PROPS.entries.region,
  zone: optional(text({ max: 64, form: 'a Google Cloud zone', example: 'europe-north1-a' })),
  network: optional(record(GKE_NETWORK_OPTIONS)),
  existingNetwork: optional(record(EXISTING_GKE_NETWORK)),
  defaultLabels: optional(stringRecord()),
}, [networkExclusion()]);

/** A stack with a `google` provider, the network (created or existing) and a `HybridGkeCluster`. */
export class HybridGkeStack extends TerraformStack {
  /** The `google` provider for `project` and `region`. */
  public readonly provider: GoogleProvider;
  /** The created network, unless `existingNetwork` was given. */
  public readonly network?: GkeNetwork;
  /** The GKE cluster; add node pools to it. */
  public readonly cluster: HybridGkeCluster;
  /** The project and cluster name, which another stack of the app must not use again; set once the stack is built (one that failed makes nothing). */
  private identity?: string;

  public constructor(scope: Construct, id: string, given: HybridGkeStackProps) {
    super(scope, id);
    const props = HYBRID_GKE_STACK_PROPS.parse(this.node.path, given);
    const { region, zone, network, existingNetwork, defaultLabels, ...cluster } = props;
    if (zone !== undefined && !isUnresolvedToken(zone) && !zone.startsWith(`${region}-`)) fail(this, `zone ${zone} is not in region ${region}`, `use a zone of ${region}, such as ${region}-a`);
    // GkeNetwork names its Cloud NAT after the cluster, and NAT names take 2 characters or more (gke-network-names).
    const { min } = GKE_LIMITS.natName;
    if (existingNetwork === undefined && props.clusterName.length < min) {
      fail(this, `clusterName "${props.clusterName}" is ${props.clusterName.length} character, and the Cloud NAT the stack names after it takes ${min} or more`, `use a clusterName of ${min} to ${GKE_LIMITS.clusterName.max} characters, or give existingNetwork`);
    }
    // Service account ids and network names are unique in a project, whatever the region: two
    // clusters of one name in one project would make the same ones (GkeNetwork, the pools' accounts).
    const identity = `${props.project}|${props.clusterName}`;
    for (const other of this.node.root.node.findAll()) {
      if (other instanceof HybridGkeStack && other.identity === identity) {
        fail(this, `clusterName: stack ${other.node.path} already makes GKE cluster ${props.clusterName} in project ${props.project}, and the two would share service account ids and network names, which are the project's`, 'give each cluster of a project its own clusterName');
      }
    }
    this.provider = new GoogleProvider(this, 'google', { project: props.project, region, defaultLabels: defaultLabels === undefined ? undefined : { ...defaultLabels } });
    const net = existingNetwork ?? (this.network = new GkeNetwork(this, 'Network', { ...network, name: props.clusterName, region }));
    this.cluster = new HybridGkeCluster(this, 'Cluster', { ...cluster, location: zone ?? region, network: net });
    this.identity = identity;
  }
}
