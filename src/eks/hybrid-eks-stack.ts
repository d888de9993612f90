import { Construct } from 'constructs';
import { judgeOwnResources } from '../terraform/judge';
import { except, handedOn, optional, propsSpec, record, required, stringRecord, text } from '../core/props-spec';
import { CLUSTER_NETWORK_OPTIONS, ClusterNetwork, ClusterNetworkOptions } from '../aws/cluster-network';
import { EXISTING_NETWORK, ExistingClusterNetwork, ExistingNetwork } from '../aws/existing-network';
import { HYBRID_EKS_CLUSTER_PROPS, HybridEksCluster, HybridEksClusterProps } from './eks-cluster';
import { AwsProvider, TerraformStack } from '../terraform/providers/aws';

/** Props of `HybridEksStack`: the cluster's, the region, and the network the cluster gets its subnets from. What each prop takes, as the construct checks it: docs/props.md. */
export interface HybridEksStackProps extends Omit<HybridEksClusterProps, 'subnetIds'> {
  /** AWS region, e.g. `eu-north-1`. */
  readonly region: string;
  /**
   * The network to create: the AWS path's `ClusterNetwork`, its subnets tagged for the cluster
   * and for load balancers (`kubernetes.io/role/elb`, `kubernetes.io/role/internal-elb`).
   * @default - a 10.0.0.0/16 VPC over two zones with a NAT gateway per zone
   */
  readonly network?: ClusterNetworkOptions;
  /**
   * A VPC and subnets that exist (e.g. the AWS stack's); the subnets get the same tags.
   * @default - create a network
   */
  readonly existingNetwork?: ExistingNetwork;
  /**
   * Tags the provider adds to every resource.
   * @default - none
   */
  readonly defaultTags?: Record<string, string>;
}

/**
 * The spec of `HybridEksStackProps`: the cluster's props are handed on to `HybridEksCluster`,
 * which parses them.
 * @internal
 */
export const HYBRID_EKS_STACK_PROPS = propsSpec<HybridEksStackProps>('HybridEksStack', {
  ...handedOn(except(HYBRID_EKS_CLUSTER_PROPS.entries, 'subnetIds', 'clusterName'), 'HybridEksCluster'),
  // Read here too: the network's subnets are tagged with it before the cluster exists.
  clusterName: HYBRID_EKS_CLUSTER_PROPS.entries.clusterName,
  region: required(text({ max: 64, form: 'an AWS region', example: 'eu-north-1', judgedBy: 'aws-provider-region' }), 'give region, e.g. "eu-north-1"'),
  network: optional(record(CLUSTER_NETWORK_OPTIONS, 'Network')),
  existingNetwork: optional(record(EXISTING_NETWORK, 'ExistingNetwork')),
  defaultTags: optional(stringRecord()),
}, [{ props: ['network', 'existingNetwork'], what: 'both network and existingNetwork are set', fix: 'give network (to create one) or existingNetwork (to use yours), not both' }]);

/** A stack with an `AwsProvider`, the network (created or existing) and a `HybridEksCluster`. */
export class HybridEksStack extends TerraformStack {
  /** The `aws` provider for `region`, with `defaultTags`. */
  public readonly provider: AwsProvider;
  /** The created network, unless `existingNetwork` was given. */
  public readonly network?: ClusterNetwork;
  /** The EKS cluster, on the network's private subnets; add node groups to it. */
  public readonly cluster: HybridEksCluster;

  public constructor(scope: Construct, id: string, given: HybridEksStackProps) {
    super(scope, id);
    const props = HYBRID_EKS_STACK_PROPS.parse(this.node.path, given);
    const { region, network, existingNetwork, defaultTags: tags, ...cluster } = props;
    this.provider = new AwsProvider(this, 'aws', { region, defaultTags: tags ? [{ tags: { ...tags } }] : undefined });
    judgeOwnResources(this, [this.provider], { 'provider region': 'region', 'provider default_tags.tags': 'defaultTags' });
    let subnetIds: string[];
    if (existingNetwork !== undefined) {
      subnetIds = new ExistingClusterNetwork(this, 'ExistingNetwork', { ...existingNetwork, clusterName: props.clusterName }).privateSubnetIds;
    } else {
      this.network = new ClusterNetwork(this, 'Network', { ...network, clusterName: props.clusterName, region });
      subnetIds = this.network.privateSubnets.map((s) => s.id);
    }
    this.cluster = new HybridEksCluster(this, 'Cluster', { ...cluster, subnetIds });
  }
}
