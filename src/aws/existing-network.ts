import { Construct } from 'constructs';
import { subnetRoleTags } from './tags';
import { fail } from '../core/errors';
import { flag, list, optional, propsSpec, required, text } from '../core/props-spec';
import { DataAwsSubnet, Ec2Tag, Token } from '../terraform/providers/aws';

/** A VPC and subnets that already exist (bring your own network). What each prop takes, as the construct checks it: docs/props.md. */
export interface ExistingNetwork {
  /** Id of the VPC, e.g. `vpc-0123456789abcdef0`. */
  readonly vpcId: string;
  /** Public subnets for load balancers, one per zone the cluster uses. */
  readonly publicSubnetIds: readonly string[];
  /** Private subnets for the machines, one per zone the cluster uses. */
  readonly privateSubnetIds: readonly string[];
  /**
   * Add the cluster tag and the load balancer role tags to the subnets (one `aws_ec2_tag` per
   * tag, removed again on destroy). Turn off when the subnets are tagged elsewhere.
   * @default true
   */
  readonly tagSubnets?: boolean;
}

/** `ExistingNetwork` plus the cluster its subnets are tagged for. */
export interface ExistingClusterNetworkProps extends ExistingNetwork {
  /** Cluster name for the `kubernetes.io/cluster/<name>` tags. */
  readonly clusterName: string;
}

const SUBNET_IDS = list(text({ max: 256, form: 'a subnet id', example: 'subnet-0123456789abcdef0' }));

/**
 * The spec of `ExistingNetwork`, named `existingNetwork.<prop>` as the stacks take it; the construct
 * checks the ids' form (deploy-time tokens aside).
 * @internal
 */
export const EXISTING_NETWORK = propsSpec<ExistingNetwork>('ExistingNetwork', {
  vpcId: required(text({ max: 256, form: 'a VPC id', example: 'vpc-0123456789abcdef0' }), 'give the VPC id, e.g. "vpc-0123456789abcdef0"'),
  publicSubnetIds: required(SUBNET_IDS, 'list the public subnets, e.g. ["subnet-0123456789abcdef0"]'),
  privateSubnetIds: required(SUBNET_IDS, 'list the private subnets, e.g. ["subnet-0123456789abcdef1"]'),
  tagSubnets: optional(flag()),
});

const CLUSTER_NAME = propsSpec<{ readonly clusterName: string }>('ExistingClusterNetwork', {
  clusterName: required(text({ max: 1024, form: 'a cluster name', example: 'shop' }), 'give the cluster name the subnets are tagged for'),
});

/** Checks a bring-your-own network and tags its subnets for CAPA and the AWS cloud provider. */
export class ExistingClusterNetwork extends Construct {
  /** The given VPC. */
  public readonly vpcId: string;
  /** The given public subnets. */
  public readonly publicSubnetIds: string[];
  /** The given private subnets. */
  public readonly privateSubnetIds: string[];
  /** The availability zone of each private subnet, read from EC2 at deploy time. */
  public readonly privateSubnetZones: string[];

  public constructor(scope: Construct, id: string, given: ExistingClusterNetworkProps) {
    super(scope, id);
    const props = { ...EXISTING_NETWORK.parse(this.node.path, given, 'existingNetwork.'), ...CLUSTER_NAME.parse(this.node.path, given) };
    const refuse = (prop: string, value: unknown, what: string, fix: string): never =>
      fail(this, `existingNetwork.${prop} ${JSON.stringify(value)} ${what}`, fix);
    // Tokens (ids of resources elsewhere in the same stack) are only known at apply time.
    const wellFormed = (value: string, kind: string): boolean => Token.isUnresolved(value) || new RegExp(`^${kind}-[0-9a-f]{8,17}$`).test(value);
    if (!wellFormed(props.vpcId, 'vpc')) refuse('vpcId', props.vpcId, 'is not a VPC id', 'give one like vpc-0123456789abcdef0');
    for (const prop of ['publicSubnetIds', 'privateSubnetIds'] as const) {
      const ids = props[prop];
      if (ids.length === 0) refuse(prop, ids, 'is empty', 'list at least one subnet: the cluster needs public and private ones');
      ids.forEach((s, i) => wellFormed(s, 'subnet') || refuse(`${prop}[${i}]`, s, 'is not a subnet id', 'give one like subnet-0123456789abcdef0'));
    }
    const both = props.publicSubnetIds.filter((s) => props.privateSubnetIds.includes(s) && !Token.isUnresolved(s));
    if (both.length > 0) refuse('privateSubnetIds', both, 'also appear in publicSubnetIds', 'list each subnet once: it is either public or private');

    this.vpcId = props.vpcId;
    this.publicSubnetIds = [...props.publicSubnetIds];
    this.privateSubnetIds = [...props.privateSubnetIds];
    // The cluster spreads its pools over these zones (one MachineDeployment per zone).
    this.privateSubnetZones = this.privateSubnetIds.map((id, i) => new DataAwsSubnet(this, `PrivateSubnet${i}`, { id }).availabilityZone);

    if (props.tagSubnets ?? true) {
      const tag = (kind: string, ids: string[], tags: Record<string, string>): void => {
        ids.forEach((resourceId, i) =>
          Object.entries(tags).forEach(([key, value], t) => new Ec2Tag(this, `${kind}${i}Tag${t}`, { resourceId, key, value })),
        );
      };
      tag('PublicSubnet', this.publicSubnetIds, subnetRoleTags(props.clusterName, 'public'));
      tag('PrivateSubnet', this.privateSubnetIds, subnetRoleTags(props.clusterName, 'private'));
    }
  }
}
