import { Construct } from 'constructs';
import { fail } from '../core/errors';
import { isUnresolvedToken } from '../core/tokens';
import { show } from '../core/values';
import { GKE_LIMITS } from '../platform/gke';
import { ExistingGkeNetwork, GkeNetwork, GkeNetworkOptions } from './gke-network';
import { HybridGkeCluster, HybridGkeClusterProps } from './gke-cluster';
import { GoogleProvider, TerraformStack } from '../terraform/providers/google';

/** Props of `HybridGkeStack`: the cluster's, the region (and zone), and the network. */
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

/** A stack with a `google` provider, the network (created or existing) and a `HybridGkeCluster`. */
export class HybridGkeStack extends TerraformStack {
  /** The `google` provider for `project` and `region`. */
  public readonly provider: GoogleProvider;
  /** The created network, unless `existingNetwork` was given. */
  public readonly network?: GkeNetwork;
  /** The GKE cluster; add node pools to it. */
  public readonly cluster: HybridGkeCluster;
  /** The project and cluster name, which another stack of the app must not use again. */
  private readonly identity: string;

  public constructor(scope: Construct, id: string, props: HybridGkeStackProps) {
    super(scope, id);
    const { region, zone, network, existingNetwork, defaultLabels, ...cluster } = props;
    if (network !== undefined && existingNetwork !== undefined) fail(this, 'both network and existingNetwork are set', 'give network (to create one) or existingNetwork (to use yours), not both');
    if (typeof region !== 'string' || !(isUnresolvedToken(region) || GKE_LIMITS.region.test(region))) fail(this, `region ${show(region)} is not a Google Cloud region`, 'write a region such as europe-north1 or us-central1');
    if (zone !== undefined && (typeof zone !== 'string' || !zone.startsWith(`${region}-`))) fail(this, `zone ${typeof zone === 'string' ? zone : show(zone)} is not in region ${region}`, `use a zone of ${region}, such as ${region}-a`);
    // GkeNetwork names its Cloud NAT after the cluster, and NAT names take 2 characters or more (gke-network-names).
    const { min } = GKE_LIMITS.natName;
    if (existingNetwork === undefined && typeof props.clusterName === 'string' && props.clusterName.length < min) {
      fail(this, `clusterName "${props.clusterName}" is ${props.clusterName.length} character, and the Cloud NAT the stack names after it takes ${min} or more`, `use a clusterName of ${min} to ${GKE_LIMITS.clusterName.max} characters, or give existingNetwork`);
    }
    // Service account ids and network names are unique in a project, whatever the region: two
    // clusters of one name in one project would make the same ones (GkeNetwork, the pools' accounts).
    this.identity = `${props.project}|${props.clusterName}`;
    for (const other of this.node.root.node.findAll()) {
      if (other instanceof HybridGkeStack && other !== this && other.identity === this.identity) {
        fail(this, `clusterName: stack ${other.node.path} already makes GKE cluster ${props.clusterName} in project ${props.project}, and the two would share service account ids and network names, which are the project's`, 'give each cluster of a project its own clusterName');
      }
    }
    this.provider = new GoogleProvider(this, 'google', { project: props.project, region, defaultLabels });
    const net = existingNetwork ?? (this.network = new GkeNetwork(this, 'Network', { ...network, name: props.clusterName, region }));
    this.cluster = new HybridGkeCluster(this, 'Cluster', { ...cluster, location: zone ?? region, network: net });
  }
}
