/**
 * The one module that imports the Terraform CDK: its core and the AWS provider's resources, for
 * `cdk-hybrid-windows/aws` and `cdk-hybrid-windows/eks`. Nothing else in `src/` names these
 * packages, so the flavour the library runs on is decided here.
 *
 * The names are CDK Terrain's (`cdktn`, `@cdktn/provider-aws` 25, which wraps hashicorp/aws 6.66).
 * A cdktf 0.21 project installs its packages under these names (npm aliases, README "Using it in
 * your project"): CDK Terrain forked cdktf with the same classes, generated provider modules
 * and `Symbol.for` brands (cdktn lib/terraform-stack.js `cdktf/TerraformStack`, the token map on
 * `global.__cdktfTokenMap`), so objects of either package work with each other.
 *
 * Provider resources are re-exported one by one from `…/lib/<resource>`: the package's index loads
 * all 2,400 of them (seconds and hundreds of MB per synth).
 */
function checkInstalled(): void {
  for (const name of ['cdktn', '@cdktn/provider-aws']) {
    try {
      require.resolve(name);
    } catch {
      throw new Error(
        `[cdk-hybrid-windows] ${name} is not installed, and the AWS and EKS stacks build on it. `
        + 'Fix: in a CDK Terrain project, npm install cdktn @cdktn/provider-aws; in a cdktf 0.21 project, install cdktf\'s packages under these names: '
        + 'npm install cdktn@npm:cdktf@^0.21.0 @cdktn/provider-aws@npm:@cdktf/provider-aws@^21.22.1',
      );
    }
  }
}
checkInstalled();

export { App, DefaultTokenResolver, Fn, StringConcat, TerraformDataSource, TerraformElement, TerraformOutput, TerraformProvider, TerraformResource, TerraformStack, Token, Tokenization, dependable } from 'cdktn';

export { AwsProvider } from '@cdktn/provider-aws/lib/provider';
export { DataAwsAvailabilityZones } from '@cdktn/provider-aws/lib/data-aws-availability-zones';
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
export { IamInstanceProfile } from '@cdktn/provider-aws/lib/iam-instance-profile';
export { IamPolicy } from '@cdktn/provider-aws/lib/iam-policy';
export { IamRole } from '@cdktn/provider-aws/lib/iam-role';
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
