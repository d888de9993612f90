import { SecurityGroup } from '@cdktf/provider-aws/lib/security-group';
import { VpcEndpoint } from '@cdktf/provider-aws/lib/vpc-endpoint';
import { VpcSecurityGroupIngressRule } from '@cdktf/provider-aws/lib/vpc-security-group-ingress-rule';
import { Construct } from 'constructs';

/** Interface endpoints the SSM agent on private nodes needs to reach Session Manager. */
export const SSM_INTERFACE_ENDPOINTS = ['ssm', 'ssmmessages', 'ec2messages'] as const;

export interface ClusterVpcEndpointsProps {
  readonly clusterName: string;
  readonly region: string;
  readonly vpcId: string;
  /** Only this block may reach the interface endpoints. */
  readonly vpcCidr: string;
  /** Subnets the interface endpoints get a network interface in (the private ones). */
  readonly subnetIds: readonly string[];
  /** Route tables that get the S3 gateway route (the private ones). */
  readonly routeTableIds: readonly string[];
}

/**
 * SSM interface endpoints and an S3 gateway endpoint, so private nodes use Session Manager and
 * S3 without the NAT gateways. The endpoints' security group admits HTTPS from the VPC only.
 */
export class ClusterVpcEndpoints extends Construct {
  public readonly securityGroup: SecurityGroup;
  public readonly interfaceEndpoints: VpcEndpoint[];
  public readonly s3Endpoint: VpcEndpoint;

  public constructor(scope: Construct, id: string, props: ClusterVpcEndpointsProps) {
    super(scope, id);
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
