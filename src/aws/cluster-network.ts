import { Construct } from 'constructs';
import { ClusterVpcEndpoints } from './cluster-vpc-endpoints';
import { SubnetPlan, planSubnets } from './subnet-plan';
import { clusterTag, subnetRoleTags } from './tags';
import { fail } from '../core/errors';
import { choice, flag, list, optional, propsSpec, required, text, whole } from '../core/props-spec';
import { judgeOwnResources } from '../terraform/judge';
import { DataAwsAvailabilityZones, Eip, Fn, InternetGateway, NatGateway, Route, RouteTable, RouteTableAssociation, Subnet, Token, Vpc } from '../terraform/providers/aws';

/** Where private subnets send internet-bound traffic. */
export enum NatGateways {
  /** One NAT gateway per zone: a zone outage does not cut the others off (the default). */
  ONE_PER_ZONE = 'OnePerZone',
  /** A single NAT gateway in the first zone: cheaper, but every zone depends on it. */
  SINGLE = 'Single',
}

/** The network the stack creates when you do not bring your own. What each prop takes, as the construct checks it: docs/props.md. */
export interface ClusterNetworkOptions {
  /**
   * The VPC's IPv4 block, /16 to /28.
   * @default '10.0.0.0/16'
   */
  readonly vpcCidr?: string;
  /**
   * Availability zones by name, e.g. `['eu-north-1a', 'eu-north-1b']`.
   * @default - the first `availabilityZoneCount` zones of the region that need no opt-in
   */
  readonly availabilityZones?: readonly string[];
  /**
   * How many zones to spread subnets over when `availabilityZones` is not given.
   * @default 2
   */
  readonly availabilityZoneCount?: number;
  /**
   * Prefix length of each carved public subnet.
   * @default - VPC prefix + 5 (a /21 in a /16), at most /28
   */
  readonly publicSubnetPrefixLength?: number;
  /**
   * Prefix length of each carved private subnet.
   * @default - VPC prefix + 3 (a /19 in a /16), at most /28
   */
  readonly privateSubnetPrefixLength?: number;
  /**
   * Explicit public subnet blocks, one per zone (together with `privateSubnetCidrs`).
   * @default - carved from `vpcCidr`
   */
  readonly publicSubnetCidrs?: readonly string[];
  /**
   * Explicit private subnet blocks, one per zone (together with `publicSubnetCidrs`).
   * @default - carved from `vpcCidr`
   */
  readonly privateSubnetCidrs?: readonly string[];
  /**
   * How many NAT gateways the private subnets route through.
   * @default NatGateways.ONE_PER_ZONE
   */
  readonly natGateways?: NatGateways;
  /**
   * Interface endpoints for SSM (ssm, ssmmessages, ec2messages) and an S3 gateway endpoint, so
   * that private nodes reach Session Manager and S3 without the NAT gateways.
   * @default false
   */
  readonly vpcEndpoints?: boolean;
}

/** `ClusterNetworkOptions` plus what the network is for. */
export interface ClusterNetworkProps extends ClusterNetworkOptions {
  /** Cluster name for the `kubernetes.io/cluster/<name>` tags. */
  readonly clusterName: string;
  /** Region the VPC endpoints' service names refer to. */
  readonly region: string;
}

const CIDR = text({ max: 64, form: 'an IPv4 CIDR block', example: '10.0.0.0/16', judgedBy: 'aws-vpc' });

/**
 * The spec of `ClusterNetworkOptions`, named `network.<prop>` as the stacks take them. The subnet
 * plan (`planSubnets`) and the Terraform rules judge the blocks, prefix lengths and zones.
 * @internal
 */
export const CLUSTER_NETWORK_OPTIONS = propsSpec<ClusterNetworkOptions>('ClusterNetworkOptions', {
  vpcCidr: optional(CIDR),
  availabilityZones: optional(list(text({ max: 64, form: 'an availability zone name', example: 'eu-north-1a', judgedBy: 'aws-vpc' }))),
  availabilityZoneCount: optional(whole(0, 64)),
  publicSubnetPrefixLength: optional(whole(0, 32)),
  privateSubnetPrefixLength: optional(whole(0, 32)),
  publicSubnetCidrs: optional(list(CIDR)),
  privateSubnetCidrs: optional(list(CIDR)),
  natGateways: optional(choice(NatGateways, 'NatGateways')),
  vpcEndpoints: optional(flag()),
});

/**
 * The spec of what `ClusterNetworkProps` adds: what the stack that makes the network knows.
 * @internal
 */
export const CLUSTER_NETWORK_PROPS = propsSpec<Omit<ClusterNetworkProps, keyof ClusterNetworkOptions>>('ClusterNetwork', {
  clusterName: required(text({ max: 1024, form: 'a cluster name', example: 'shop' }), 'give the cluster name the subnets are tagged for'),
  region: required(text({ max: 64, form: 'an AWS region', example: 'eu-north-1' }), 'give the region, e.g. "eu-north-1"'),
});

/** Which prop sets which field of the network's resources, for messages at construction. */
const PROPS_OF_FIELDS = {
  'aws_vpc cidr_block': 'network.vpcCidr',
  'aws_subnet cidr_block': 'network.publicSubnetCidrs or network.privateSubnetCidrs',
  'aws_subnet availability_zone': 'network.availabilityZones',
};

/**
 * A VPC with one public and one private subnet per availability zone, an internet gateway, NAT
 * and routes, tagged the way CAPA (bring-your-own network) and the AWS cloud provider expect.
 */
export class ClusterNetwork extends Construct {
  /** The VPC. */
  public readonly vpc: Vpc;
  /** The VPC block and the subnet blocks, per zone. */
  public readonly plan: SubnetPlan;
  /** One public subnet per zone. */
  public readonly publicSubnets: Subnet[] = [];
  /** One private subnet per zone. */
  public readonly privateSubnets: Subnet[] = [];
  /** One NAT gateway per zone, or one. */
  public readonly natGateways: NatGateway[] = [];
  /** The private subnets' route tables, one per zone. */
  public readonly privateRouteTables: RouteTable[] = [];
  /** The VPC endpoints, with `vpcEndpoints`. */
  public readonly endpoints?: ClusterVpcEndpoints;

  public constructor(scope: Construct, id: string, given: ClusterNetworkProps) {
    super(scope, id);
    const props = { ...CLUSTER_NETWORK_OPTIONS.parse(this.node.path, given, 'network.'), ...CLUSTER_NETWORK_PROPS.parse(this.node.path, given) };
    const { clusterName } = props;
    const explicitZones = props.availabilityZones;
    // One public and one private subnet per zone: a zone named twice is a zone less than meant.
    const twice = explicitZones?.find((z, i) => explicitZones.indexOf(z) !== i);
    if (twice !== undefined) fail(this, `network.availabilityZones names ${twice} twice`, 'name each zone once');
    if (explicitZones !== undefined && props.availabilityZoneCount !== undefined && props.availabilityZoneCount !== explicitZones.length) {
      fail(this, `network.availabilityZoneCount is ${props.availabilityZoneCount} but network.availabilityZones names ${explicitZones.length}`, 'give one of the two');
    }
    const zoneCount = explicitZones?.length ?? props.availabilityZoneCount ?? 2;
    this.plan = planSubnets({ ...props, vpcCidr: props.vpcCidr ?? '10.0.0.0/16', zoneCount }, this.node.path);

    let zone: (i: number) => string;
    if (explicitZones) {
      zone = (i) => explicitZones[i];
    } else {
      const zones = new DataAwsAvailabilityZones(this, 'Zones', {
        state: 'available',
        // Local and Wavelength zones need opt-in and lack most instance types.
        filter: [{ name: 'opt-in-status', values: ['opt-in-not-required'] }],
      });
      // names.<i>, not element(): element() wraps around and would put two subnets in one zone
      // when the region has fewer zones than asked for; an index fails the plan instead.
      zone = (i) => Token.asString(Fn.lookupNested(zones.names, [i]));
    }

    this.vpc = new Vpc(this, 'Vpc', {
      cidrBlock: this.plan.vpcCidr,
      // Both needed for the interface endpoints' private DNS and for EC2 private host names.
      enableDnsSupport: true,
      enableDnsHostnames: true,
      tags: { Name: `${clusterName}-vpc`, ...clusterTag(clusterName) },
    });
    const igw = new InternetGateway(this, 'InternetGateway', { vpcId: this.vpc.id, tags: { Name: `${clusterName}-igw` } });
    const publicRoutes = new RouteTable(this, 'PublicRouteTable', { vpcId: this.vpc.id, tags: { Name: `${clusterName}-public` } });
    new Route(this, 'PublicDefaultRoute', { routeTableId: publicRoutes.id, destinationCidrBlock: '0.0.0.0/0', gatewayId: igw.id });

    const natCount = (props.natGateways ?? NatGateways.ONE_PER_ZONE) === NatGateways.SINGLE ? 1 : zoneCount;
    for (let i = 0; i < zoneCount; i++) {
      const az = zone(i);
      const pub = new Subnet(this, `PublicSubnet${i}`, {
        vpcId: this.vpc.id,
        availabilityZone: az,
        cidrBlock: this.plan.publicSubnetCidrs[i],
        // Nothing gets a public address by accident; CAPA assigns one explicitly where it wants it.
        mapPublicIpOnLaunch: false,
        tags: { Name: `${clusterName}-public-${az}`, ...subnetRoleTags(clusterName, 'public') },
      });
      new RouteTableAssociation(this, `PublicSubnet${i}Routes`, { subnetId: pub.id, routeTableId: publicRoutes.id });
      this.publicSubnets.push(pub);

      this.privateSubnets.push(new Subnet(this, `PrivateSubnet${i}`, {
        vpcId: this.vpc.id,
        availabilityZone: az,
        cidrBlock: this.plan.privateSubnetCidrs[i],
        tags: { Name: `${clusterName}-private-${az}`, ...subnetRoleTags(clusterName, 'private') },
      }));

      if (i < natCount) {
        const eip = new Eip(this, `NatAddress${i}`, { domain: 'vpc', tags: { Name: `${clusterName}-nat-${az}` } });
        this.natGateways.push(new NatGateway(this, `NatGateway${i}`, {
          allocationId: eip.allocationId,
          subnetId: pub.id,
          tags: { Name: `${clusterName}-nat-${az}` },
          // A NAT gateway created before the VPC has internet access cannot reach the internet.
          dependsOn: [igw],
        }));
      }
    }

    this.privateSubnets.forEach((subnet, i) => {
      const routes = new RouteTable(this, `PrivateRouteTable${i}`, { vpcId: this.vpc.id, tags: { Name: `${clusterName}-private-${zone(i)}` } });
      new Route(this, `PrivateDefaultRoute${i}`, {
        routeTableId: routes.id,
        destinationCidrBlock: '0.0.0.0/0',
        natGatewayId: this.natGateways[Math.min(i, this.natGateways.length - 1)].id,
      });
      new RouteTableAssociation(this, `PrivateSubnet${i}Routes`, { subnetId: subnet.id, routeTableId: routes.id });
      this.privateRouteTables.push(routes);
    });

    judgeOwnResources(this, [this.vpc, ...this.publicSubnets, ...this.privateSubnets], PROPS_OF_FIELDS);

    if (props.vpcEndpoints) {
      this.endpoints = new ClusterVpcEndpoints(this, 'Endpoints', {
        clusterName,
        region: props.region,
        vpcId: this.vpc.id,
        vpcCidr: this.plan.vpcCidr,
        subnetIds: this.privateSubnets.map((s) => s.id),
        routeTableIds: this.privateRouteTables.map((r) => r.id),
      });
    }
  }
}
