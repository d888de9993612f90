import { Construct } from 'constructs';
import { SecurityGroup, VpcEndpoint, VpcSecurityGroupIngressRule } from '../terraform/providers/aws';
import { list, propsSpec, required, text } from '../core/props-spec';

/** Interface endpoints the SSM agent on private nodes needs to reach Session Manager. */
export const SSM_INTERFACE_ENDPOINTS = ['ssm', 'ssmmessages', 'ec2messages'] as const;

/** Where the endpoints go and who may reach them. */
export interface ClusterVpcEndpointsProps {
  /** Cluster name, for the resources' Name tags. */
  readonly clusterName: string;
  /** Region the endpoint service names refer to (`com.amazonaws.<region>.ssm`). */
  readonly region: string;
  /** The VPC the endpoints are created in. */
  readonly vpcId: string;
  /** Only this block may reach the interface endpoints. */
  readonly vpcCidr: string;
  /** Subnets the interface endpoints get a network interface in (the private ones). */
  readonly subnetIds: readonly string[];
  /** Route tables that get the S3 gateway route (the private ones). */
  readonly routeTableIds: readonly string[];
}

const ID = text({ max: 256, form: 'a resource id', example: 'vpc-0123456789abcdef0' });

/**
 * The spec of `ClusterVpcEndpointsProps`: what `ClusterNetwork` hands on.
 * @internal
 */
export const CLUSTER_VPC_ENDPOINTS_PROPS = propsSpec<ClusterVpcEndpointsProps>('ClusterVpcEndpoints', {
  clusterName: required(text({ max: 1024, form: 'a cluster name', example: 'shop' }), 'give the cluster name'),
  region: required(text({ max: 64, form: 'an AWS region', example: 'eu-north-1' }), 'give the region, e.g. "eu-north-1"'),
  vpcId: required(ID, 'give the VPC id'),
  vpcCidr: required(text({ max: 64, form: 'an IPv4 CIDR block', example: '10.0.0.0/16' }), 'give the VPC\'s block'),
  subnetIds: required(list(ID), 'list the private subnets'),
  routeTableIds: required(list(ID), 'list the private route tables'),
});

/**
 * SSM interface endpoints and an S3 gateway endpoint, so private nodes use Session Manager and
 * S3 without the NAT gateways. The endpoints' security group admits HTTPS from the VPC only.
 */
export class ClusterVpcEndpoints extends Construct {
  /** Admits HTTPS from the VPC block to the interface endpoints. */
  public readonly securityGroup: SecurityGroup;
  /** One per `SSM_INTERFACE_ENDPOINTS` entry. */
  public readonly interfaceEndpoints: VpcEndpoint[];
  /** The S3 gateway endpoint on the private route tables. */
  public readonly s3Endpoint: VpcEndpoint;

  public constructor(scope: Construct, id: string, given: ClusterVpcEndpointsProps) {
    super(scope, id);
    const props = CLUSTER_VPC_ENDPOINTS_PROPS.parse(this.node.path, given);
    this.securityGroup = new SecurityGroup(this, 'SecurityGroup', {
      name: `${props.clusterName}-vpc-endpoints`,
      description: 'HTTPS from inside the VPC to its interface endpoints',
      vpcId: props.vpcId,
      tags: { Name: `${props.clusterName}-vpc-endpoints` },
    });
    new VpcSecurityGroupIngressRule(this, 'HttpsFromVpc', {
      securityGroupId: this.securityGroup.id,
      cidrIpv4: props.vpcCidr,
      ipProtocol: 'tcp',
      fromPort: 443,
      toPort: 443,
      description: 'HTTPS from the VPC',
    });
    this.interfaceEndpoints = SSM_INTERFACE_ENDPOINTS.map((service) => new VpcEndpoint(this, service, {
      vpcId: props.vpcId,
      serviceName: `com.amazonaws.${props.region}.${service}`,
      vpcEndpointType: 'Interface',
      privateDnsEnabled: true,
      subnetIds: [...props.subnetIds],
      securityGroupIds: [this.securityGroup.id],
      tags: { Name: `${props.clusterName}-${service}` },
    }));
    this.s3Endpoint = new VpcEndpoint(this, 's3', {
      vpcId: props.vpcId,
      serviceName: `com.amazonaws.${props.region}.s3`,
      vpcEndpointType: 'Gateway',
      routeTableIds: [...props.routeTableIds],
      tags: { Name: `${props.clusterName}-s3` },
    });
  }
}
