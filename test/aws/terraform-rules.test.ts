import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App, Testing, TerraformStack } from 'cdktn';
import { HybridConfigError, HybridValidationError, TerraformJson, formatTerraformViolation, validateTerraform } from '../../src';
import { HybridClusterInfraStack, HybridClusterInfraStackProps } from '../../src/aws';
import { EksLinuxNodeGroup, EksWindowsNodeGroup, HybridEksStack } from '../../src/eks';
import { thrownMessage } from '../support/tf';

const BASE: HybridClusterInfraStackProps = { region: 'eu-north-1', clusterName: 'aws-test' };

function infra(change: Partial<HybridClusterInfraStackProps> = {}, app = Testing.app()): HybridClusterInfraStack {
  return new HybridClusterInfraStack(app, 'infra', { ...BASE, ...change });
}

/** The stack's JSON with cdktf's metadata (construct paths), as the validation reads it. */
function json(stack: TerraformStack): TerraformJson {
  return stack.toTerraform() as TerraformJson;
}

describe('the AWS stack\'s region and zones, one value type with the cluster side (issue 18.14)', () => {
  // The provider's endpoints are per region; EC2 CreateSubnet takes a zone of the region it is called in.
  test.each([
    ['a zone as region', { region: 'eu-north-1a' }, '[infra] region: provider.aws: region "eu-north-1a" is an availability zone of eu-north-1, not a region. Fix: use a region name such as eu-north-1.'],
    ['an empty region', { region: '' }, '[infra] region: provider.aws: region "" is not an AWS region name like eu-north-1'],
    ['a made-up region', { region: 'mars-east-1x' }, 'region "mars-east-1x" is not an AWS region name'],
    ['zones of another region', { network: { availabilityZones: ['eu-west-1a', 'eu-west-1b'] } },
      '[infra/Infra/Network] network.availabilityZones: aws_subnet.Infra_Network_PublicSubnet0_1A8E7741: availability zone "eu-west-1a" is in eu-west-1, not in eu-north-1. Fix: use zones of the stack\'s region eu-north-1, such as eu-north-1a.'],
    ['a zone twice', { network: { availabilityZones: ['eu-north-1a', 'eu-north-1a'] } }, '[infra/Infra/Network] network.availabilityZones names eu-north-1a twice. Fix: name each zone once.'],
    ['a made-up zone', { network: { availabilityZones: ['eu-north-1a', 'eu-north-one'] } }, 'availability zone "eu-north-one" is not a zone name like eu-north-1a'],
  ])('%s is refused where the prop enters', (_name, change, message) => {
    const error = thrownMessage(() => infra(change));
    expect(error).toContain(message);
  });

  test('the same judgements reach the final JSON: overrides of the region and a subnet\'s zone', () => {
    const stack = infra();
    stack.provider.addOverride('region', 'eu-north-1b');
    stack.infra.network!.privateSubnets[0].addOverride('availability_zone', 'us-east-1a');
    const message = thrownMessage(() => Testing.synth(stack, true));
    expect(message).toContain('[infra/aws] provider.aws: region "eu-north-1b" is an availability zone of eu-north-1, not a region');
    expect(message).not.toContain('us-east-1a'); // the region is wrong, so the zone cannot be judged against it

    const zone = infra();
    zone.infra.network!.privateSubnets[0].addOverride('availability_zone', 'us-east-1a');
    expect(thrownMessage(() => Testing.synth(zone, true))).toMatch(/\[infra\/Infra\/Network\/PrivateSubnet0] aws_subnet\.\w+: availability zone "us-east-1a" is in us-east-1, not in eu-north-1/);
  });

  test('valid regions of every partition and their zones pass', () => {
    for (const [region, zones] of [['us-gov-west-1', ['us-gov-west-1a', 'us-gov-west-1b']], ['cn-north-1', ['cn-north-1a', 'cn-north-1b']], ['ap-southeast-7', ['ap-southeast-7a', 'ap-southeast-7c']]] as const) {
      expect(thrownMessage(() => Testing.synth(infra({ region, network: { availabilityZones: zones } }), true))).toBe('');
    }
  });

  // Provider internal/verify/validate.go ValidIPv4CIDRNetworkAddress on aws_vpc/aws_subnet cidr_block;
  // AWS takes VPC and subnet blocks of /16 to /28.
  test('VPC and subnet blocks set by an override', () => {
    const stack = infra();
    stack.infra.network!.vpc.addOverride('cidr_block', '10.0.0.0/8');
    stack.infra.network!.publicSubnets[0].addOverride('cidr_block', '10.0.64.1/21');
    const message = thrownMessage(() => Testing.synth(stack, true));
    expect(message).toMatch(/aws_vpc\.\w+: VPC CIDR 10\.0\.0\.0\/8 is a \/8; AWS takes \/16 to \/28/);
    expect(message).toMatch(/aws_subnet\.\w+: subnet CIDR "10\.0\.64\.1\/21" has host bits set: did you mean 10\.0\.64\.0\/21\?/);
  });
});

describe('provider default_tags: the one AWS tag rule of the cluster side (issue 24 point 9)', () => {
  // Tagging AWS Resources, "Tag naming limits and requirements" (the limits CAPA's api/v1beta2/tags.go
  // Tags.Validate checks too, src/platform/aws.ts awsTagProblems): aws: reserved, values of 256 at most.
  const bad = { 'aws:team': 'x', owner: 'o'.repeat(257), 'cost#centre': 'a' };
  test('refused where the prop enters, on both stacks', () => {
    const message = thrownMessage(() => infra({ defaultTags: bad }));
    expect(message).toContain('[infra] defaultTags: provider.aws: default_tags: tag key "aws:team" starts with "aws:", which AWS reserves for its own tags. Fix: use keys of 1 to 128');
    expect(message).toContain('default_tags: tag owner has a value longer than 256 characters');
    expect(message).toContain('default_tags: tag key "cost#centre" has characters other than letters');
    const eks = thrownMessage(() => new HybridEksStack(Testing.app(), 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34', defaultTags: { 'aws:x': 'y' } }));
    expect(eks).toMatch(/^\[eks] defaultTags: provider\.aws: default_tags: tag key "aws:x" starts with "aws:"/);
  });

  test('refused at synth when written by an override or a provider of the user\'s own; valid tags pass', () => {
    const stack = infra({ defaultTags: { team: 'platform', 'kubernetes.io/cluster/aws-test': 'owned', note: 'a b_c.d:e/f=g+h-i@j' } });
    expect(thrownMessage(() => Testing.synth(stack, true))).toBe('');
    stack.provider.addOverride('default_tags.0.tags.aws:cost', '1');
    expect(thrownMessage(() => Testing.synth(stack, true))).toContain('[infra/aws] provider.aws: default_tags: tag key "aws:cost" starts with "aws:"');
  });
});

describe('one validation per stack, and its message (issue 18.5)', () => {
  test('cdktf\'s Testing.synth(stack) skips validations; Testing.synth(stack, true) runs them, as docs/eks.md says', () => {
    const stack = new HybridEksStack(Testing.app(), 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34' });
    new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'] }); // no Linux node for CoreDNS
    expect(() => Testing.synth(stack)).not.toThrow();
    expect(() => Testing.synth(stack, true)).toThrow(HybridValidationError);
  });

  test('a platform rule\'s message lists the rule violations and the stack\'s other validation messages, and invites no skipValidation', () => {
    const stack = new HybridEksStack(Testing.app(), 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34' });
    new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'] });
    stack.node.addValidation({ validate: () => ['a validation of the user\'s own'] });
    let error: unknown;
    try {
      Testing.synth(stack, true);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HybridValidationError);
    const { message, problems } = error as HybridValidationError;
    expect(message.startsWith('Validation failed with the following errors:\n  [eks/Cluster/Cluster] aws_eks_cluster.')).toBe(true);
    expect(problems).toEqual([expect.stringContaining('need a Linux node for CoreDNS'), '[eks] a validation of the user\'s own']);
    expect(message).not.toContain('skipValidation');
  });

  test('a stack whose rules pass keeps cdktf\'s own validation errors as they are', () => {
    const stack = infra();
    stack.node.addValidation({ validate: () => ['not ours'] });
    expect(() => Testing.synth(stack, true)).toThrow(/\[infra] not ours[\s\S]*skipValidation/);
  });

  test('construction errors are HybridConfigErrors carrying the rule', () => {
    let error: unknown;
    try {
      infra({ region: 'eu-north-1a' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HybridConfigError);
    expect((error as HybridConfigError).rule).toBe('aws-provider-region');
  });
});

describe('validateTerraform: the rules on a cdk.tf.json from anywhere', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'tf-rules-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  function synthesized(stackName: string): TerraformJson {
    return JSON.parse(readFileSync(join(outdir, 'stacks', stackName, 'cdk.tf.json'), 'utf8'));
  }

  test('the files `cdktf synth` writes pass; a hand edit of one is reported with its construct path', () => {
    const app = new App({ outdir });
    const eks = new HybridEksStack(app, 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34' });
    new EksLinuxNodeGroup(eks.cluster, 'linux', { instanceTypes: ['t3.large'] });
    new EksWindowsNodeGroup(eks.cluster, 'windows', { instanceTypes: ['m6i.xlarge'] });
    infra({}, app);
    app.synth();
    const [eksJson, infraJson] = [synthesized('eks'), synthesized('infra')];
    expect(validateTerraform([eksJson, infraJson])).toEqual([]);

    const group = Object.values(eksJson.resource!.aws_eks_node_group).find((g) => g.node_group_name === 'windows');
    group.instance_types = ['t3.small'];
    const violations = validateTerraform(eksJson);
    expect(violations).toEqual([expect.objectContaining({ rule: 'eks-node-group', kind: 'aws_eks_node_group', path: 'eks/Cluster/windows/NodeGroup', field: 'instance_types' })]);
    expect(formatTerraformViolation(violations[0])).toMatch(/^\[eks\/Cluster\/windows\/NodeGroup] aws_eks_node_group\.\w+: instance type t3\.small has 2 GiB of memory; Windows workers need at least 8 GiB.* Fix: /);
  });

  test('two stacks of one app are judged together: clusters of one name in one region', () => {
    const one = JSON.parse(JSON.stringify(json(new HybridEksStack(Testing.app(), 'one', { region: 'eu-north-1', clusterName: 'twin', kubernetesVersion: '1.34' }))));
    const two = JSON.parse(JSON.stringify(json(new HybridEksStack(Testing.app(), 'two', { region: 'eu-north-1', clusterName: 'twin', kubernetesVersion: '1.34' }))));
    expect(validateTerraform([one, two]).map((v) => v.rule).filter((r) => r !== 'eks-coredns')).toEqual(['eks-cluster-names', 'eks-cluster-names']);
    expect(validateTerraform(one).map((v) => v.rule)).toEqual(['eks-coredns']); // no node group here
  });

  test('JSON no Terraform would take is reported, not thrown', () => {
    expect(validateTerraform({ resource: { aws_eks_node_group: { g: { scaling_config: 'x', labels: 7, taint: [null] } } } })).toEqual(expect.any(Array));
    expect(validateTerraform([null as never, 'x' as never])).toEqual([]);
  });

  test('the package root brings the Terraform rules without loading cdktf', () => {
    const root = resolve(__dirname, '..', '..', 'lib', 'src', 'index.js');
    const loaded = execFileSync('node', ['-e', `const m = require(${JSON.stringify(root)}); console.log(typeof m.validateTerraform, Object.keys(require.cache).some((k) => /node_modules\\/(cdktf|@cdktf)\\//.test(k)))`], { encoding: 'utf8' });
    expect(loaded.trim()).toBe('function false');
  });
});
