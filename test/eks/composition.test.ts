import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Testing } from 'cdktn';
import { HybridClusterInfraStack } from '../../src/aws';
import { EksLinuxNodeGroup, EksWindowsNodeGroup, HybridEksStack } from '../../src/eks';
import { TerraformJson, validateTerraform } from '../../src/terraform';
import { thrownMessage } from '../support/tf';

/**
 * Issue 24 point 13: the platform-stack composition the README promises, an EKS stack on the AWS
 * stack's network through cross-stack references. cdktf writes such a value as
 * `${data.terraform_remote_state.cross-stack-reference-input-<stack>.outputs.<output>}` and, in
 * the producing stack, `output.<output>.value = "${aws_subnet.<id>.id}"` (cdktn 0.24
 * lib/terraform-stack.ts, registerOutgoingCrossStackReference / registerIncomingCrossStackReference);
 * the rules follow it to the subnet instead of calling it "not of a subnet".
 */
function composed(app: App, zones?: string[]): { aws: HybridClusterInfraStack; eks: HybridEksStack } {
  const aws = new HybridClusterInfraStack(app, 'infra', { region: 'eu-north-1', clusterName: 'aws-test', network: zones ? { availabilityZones: zones } : undefined });
  const net = aws.infra.network!;
  const eks = new HybridEksStack(app, 'eks', {
    region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34',
    existingNetwork: { vpcId: net.vpc.id, publicSubnetIds: net.publicSubnets.map((s) => s.id), privateSubnetIds: net.privateSubnets.map((s) => s.id) },
  });
  new EksLinuxNodeGroup(eks.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
  new EksWindowsNodeGroup(eks.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], minSize: 2, subnetIds: [net.privateSubnets[0].id] });
  return { aws, eks };
}

describe('an EKS stack on the AWS stack\'s subnets, through cross-stack references', () => {
  test('the app synthesizes; the cluster and node groups name the other stack\'s subnets', () => {
    const app = Testing.app();
    const { eks } = composed(app);
    expect(thrownMessage(() => app.synth())).toBe('');
    const json = JSON.parse(Testing.synth(eks, true));
    const cluster = Object.values(json.resource.aws_eks_cluster)[0] as { vpc_config: { subnet_ids: string[] } };
    expect(cluster.vpc_config.subnet_ids[0]).toMatch(/^\$\{data\.terraform_remote_state\.cross-stack-reference-input-infra\.outputs\.cross-stack-output-aws_subnet/);
  });

  test('the subnets are judged where they are: one zone is refused across the stacks', () => {
    const app = Testing.app();
    composed(app);
    app.synth();
    const read = (stack: string) => JSON.parse(readFileSync(join(app.outdir, 'stacks', stack, 'cdk.tf.json'), 'utf8')) as TerraformJson;
    const [aws, eks] = [read('infra'), read('eks')];
    expect(validateTerraform([aws, eks])).toEqual([]);
    for (const subnet of Object.values(aws.resource!.aws_subnet)) (subnet as Record<string, unknown>).availability_zone = 'eu-north-1a';
    const whats = validateTerraform([aws, eks]).filter((v) => v.rule === 'eks-cluster').map((v) => v.what);
    expect(whats).toEqual(['the cluster\'s 2 subnets are all in one availability zone (eu-north-1a), and EKS requires subnets in at least 2']);
    // The EKS stack's JSON alone: the other stack's outputs are known at plan time only, and pass.
    expect(validateTerraform(eks).filter((v) => v.rule === 'eks-cluster' || v.rule === 'eks-node-group')).toEqual([]);
  });

  test('a cross-stack reference to something other than a subnet is still refused', () => {
    const app = Testing.app();
    const aws = new HybridClusterInfraStack(app, 'infra', { region: 'eu-north-1', clusterName: 'aws-test' });
    const net = aws.infra.network!;
    const eks = new HybridEksStack(app, 'eks', {
      region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34',
      existingNetwork: { vpcId: net.vpc.id, publicSubnetIds: [net.vpc.id], privateSubnetIds: [net.vpc.id, net.publicSubnets[0].id] },
    });
    new EksLinuxNodeGroup(eks.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
    expect(thrownMessage(() => app.synth())).toMatch(/vpc_config\.subnet_ids\[0] \$\{data\.terraform_remote_state\.cross-stack-reference-input-infra\.outputs\.[\w-]+} is the [\w.-]+ of aws_vpc\.\w+, not of a subnet/);
  });
});
