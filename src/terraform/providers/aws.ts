/**
 * The AWS provider's facade, for `cdk-hybrid-windows/aws` and `cdk-hybrid-windows/eks`: the one
 * module that imports `@cdktn/provider-aws` (25, which wraps hashicorp/aws 6.66), with CDK
 * Terrain's core re-exported from `../cdktn`. A cdktf 0.21 project installs `@cdktf/provider-aws`
 * 21 under this name (README "Using it in your project").
 *
 * Provider resources are re-exported one by one from `…/lib/<resource>`: the package's index loads
 * all 2,400 of them (seconds and hundreds of MB per synth).
 */
import { requireInstalled } from '../cdktn';

requireInstalled('@cdktn/provider-aws', 'in a CDK Terrain project, npm install @cdktn/provider-aws; in a cdktf 0.21 project, install cdktf\'s packages under these names: '
  + 'npm install cdktn@npm:cdktf@^0.21.0 @cdktn/provider-aws@npm:@cdktf/provider-aws@^21.22.1');

export * from '../cdktn';

export { AwsProvider } from '@cdktn/provider-aws/lib/provider';
export { AutoscalingGroupTagA as AutoscalingGroupTag } from '@cdktn/provider-aws/lib/autoscaling-group-tag';
export { CloudwatchLogGroup } from '@cdktn/provider-aws/lib/cloudwatch-log-group';
export { DataAwsAvailabilityZones } from '@cdktn/provider-aws/lib/data-aws-availability-zones';
export { DataAwsIamRole } from '@cdktn/provider-aws/lib/data-aws-iam-role';
export { DataAwsPartition } from '@cdktn/provider-aws/lib/data-aws-partition';
export { DataAwsRegion } from '@cdktn/provider-aws/lib/data-aws-region';
export { DataAwsSsmParameter } from '@cdktn/provider-aws/lib/data-aws-ssm-parameter';
export { DataAwsSubnet } from '@cdktn/provider-aws/lib/data-aws-subnet';
export { Ec2Tag } from '@cdktn/provider-aws/lib/ec2-tag';
export { Eip } from '@cdktn/provider-aws/lib/eip';
export { EksAccessEntry } from '@cdktn/provider-aws/lib/eks-access-entry';
export { EksAddon } from '@cdktn/provider-aws/lib/eks-addon';
export { EksCluster } from '@cdktn/provider-aws/lib/eks-cluster';
export { EksNodeGroup } from '@cdktn/provider-aws/lib/eks-node-group';
export type { EksNodeGroupTaint } from '@cdktn/provider-aws/lib/eks-node-group';
export { EksPodIdentityAssociation } from '@cdktn/provider-aws/lib/eks-pod-identity-association';
export { IamInstanceProfile } from '@cdktn/provider-aws/lib/iam-instance-profile';
export { IamOpenidConnectProvider } from '@cdktn/provider-aws/lib/iam-openid-connect-provider';
export { IamPolicy } from '@cdktn/provider-aws/lib/iam-policy';
export { IamRole } from '@cdktn/provider-aws/lib/iam-role';
export { IamRolePolicy } from '@cdktn/provider-aws/lib/iam-role-policy';
export { IamRolePolicyAttachment } from '@cdktn/provider-aws/lib/iam-role-policy-attachment';
export { InternetGateway } from '@cdktn/provider-aws/lib/internet-gateway';
export { KeyPair } from '@cdktn/provider-aws/lib/key-pair';
export { LaunchTemplate } from '@cdktn/provider-aws/lib/launch-template';
export { NatGateway } from '@cdktn/provider-aws/lib/nat-gateway';
export { Route } from '@cdktn/provider-aws/lib/route';
export { RouteTable } from '@cdktn/provider-aws/lib/route-table';
export { RouteTableAssociation } from '@cdktn/provider-aws/lib/route-table-association';
export { SecurityGroup } from '@cdktn/provider-aws/lib/security-group';
export { Subnet } from '@cdktn/provider-aws/lib/subnet';
export { Vpc } from '@cdktn/provider-aws/lib/vpc';
export { VpcEndpoint } from '@cdktn/provider-aws/lib/vpc-endpoint';
export { VpcSecurityGroupIngressRule } from '@cdktn/provider-aws/lib/vpc-security-group-ingress-rule';
