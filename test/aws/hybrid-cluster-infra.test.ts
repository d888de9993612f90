import { Testing, TerraformOutput, TerraformStack } from 'cdktn';
import { AwsProvider } from '@cdktn/provider-aws/lib/provider';
import { S3Bucket } from '@cdktn/provider-aws/lib/s3-bucket';
import { Construct } from 'constructs';
import { ClusterInfra, INFRA_OUTPUTS, WindowsEdition, WindowsVersion } from '../../src';
import { HybridClusterInfra, HybridClusterInfraProps, HybridClusterInfraStack } from '../../src/aws';
import { all, dataRef, refTo, synthTf } from '../support/tf';

const BASE = { region: 'eu-north-1', clusterName: 'aws-test' };
const PUBLIC_KEY = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQCVDUcg5SppP6M9grM10BLxTVUlrt2yFt6L2KjFZRld9fdBLpcgCDnMtsT56u/7y5ky+bgN9Xpf3VfeoFY2wFEi/g+VKtAJ5cBIPfzKRnz6uvcRMCoPjU0CO+o4rq4+DnnuygoFxNLAJ10KF6MA0JBOvazD2hyEiY8ZD8jfr23NVQ== me@laptop';
const ED25519_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOzm0jvV0zFqLh2mM1Zt2Jb2x2E1Yk3nQm6g3KxZ5Q8c me@laptop';

function standalone(props: Partial<HybridClusterInfraProps> = {}): HybridClusterInfraStack {
  return new HybridClusterInfraStack(Testing.app(), 'aws-test-infra', { ...BASE, ...props });
}

/**
 * What `cdktf deploy --outputs-file` would write: the stack's output map, with the values known at
 * synth (plain strings) as they are and made-up values for those Terraform resolves.
 */
function fakeOutputsFile(stack: TerraformStack): unknown {
  const synthesized = stack.toTerraform() as { '//': { outputs: Record<string, Record<string, unknown>> }; output: Record<string, { value: unknown }> };
  const mapping = synthesized['//'].outputs;
  const known = (id: string): unknown => {
    const value = synthesized.output[id]?.value;
    return typeof value === 'string' && !value.includes('${') ? value : undefined;
  };
  // What terraform resolves the references to at deploy time (ClusterInfra checks their form).
  const deployed: Record<string, unknown> = {
    region: 'eu-west-1',
    vpc_id: 'vpc-0123456789abcdef0',
    public_subnet_ids: ['subnet-0bbb0000000000001', 'subnet-0bbb0000000000002'],
    private_subnet_ids: ['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002'],
    private_subnet_zones: ['eu-west-1a', 'eu-west-1b'],
    linux_ami_id: 'ami-0a1b2c3d4e5f60718',
  };
  const fake = (id: string): unknown => known(id) ?? deployed[id] ?? (id.startsWith('windows_ami_id_') ? 'ami-0c0c0c0c0c0c0c0c0' : `value-of-${id}`);
  return Object.fromEntries(
    Object.entries(mapping).map(([stackName, outputs]) => [
      stackName,
      Object.fromEntries(Object.entries(outputs).map(([key, id]) => [key, typeof id === 'string' ? fake(id) : id])),
    ]),
  );
}

describe('outputs', () => {
  const stack = standalone({ sshPublicKey: PUBLIC_KEY, images: { windows: [{ version: WindowsVersion.SERVER_2019, edition: WindowsEdition.FULL }] } });
  const tf = synthTf(stack);

  test('have exactly the ids of INFRA_OUTPUTS plus one per Windows image', () => {
    expect(Object.keys(tf.output ?? {}).sort()).toEqual([...Object.values(INFRA_OUTPUTS), 'windows_ami_id_2019_full'].sort());
  });

  test('reference the resources they describe', () => {
    const out = (id: string): unknown => tf.output?.[id].value;
    expect(out('region')).toBe(dataRef(tf, 'aws_region', 'region'));
    expect(out('vpc_id')).toBe(refTo(tf, 'aws_vpc', () => true));
    expect(out('public_subnet_ids')).toEqual(['10.0.64.0/21', '10.0.72.0/21'].map((c) => refTo(tf, 'aws_subnet', (s) => s.cidr_block === c)));
    expect(out('private_subnet_ids')).toEqual(['10.0.0.0/19', '10.0.32.0/19'].map((c) => refTo(tf, 'aws_subnet', (s) => s.cidr_block === c)));
    const profile = (role: string): string => {
      const roleName = refTo(tf, 'aws_iam_role', (r) => r.name === `${role}.cluster-api-provider-aws.sigs.k8s.io`, 'name');
      return refTo(tf, 'aws_iam_instance_profile', (p) => p.role === roleName, 'name');
    };
    expect(out('control_plane_instance_profile')).toBe(profile('control-plane'));
    expect(out('node_instance_profile')).toBe(profile('nodes'));
    expect(out('ssh_key_name')).toBe(refTo(tf, 'aws_key_pair', () => true, 'key_name'));
    expect(all(tf, 'aws_key_pair')).toEqual([{ key_name: 'aws-test', public_key: PUBLIC_KEY }]);
  });

  test('the outputs file cdktf writes for this stack reads back into ClusterInfra', () => {
    const file = fakeOutputsFile(stack);
    expect(Object.keys(file as object)).toEqual(['aws-test-infra']);
    const infra = ClusterInfra.fromOutputs(file);
    expect(infra.vpcId).toBe('vpc-0123456789abcdef0');
    expect(infra.publicSubnetIds).toEqual(['subnet-0bbb0000000000001', 'subnet-0bbb0000000000002']);
    expect(infra.privateSubnetIds).toEqual(['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002']);
    expect(infra.controlPlaneInstanceProfile).toBe('value-of-control_plane_instance_profile');
    expect(infra.windowsAmiId(WindowsVersion.SERVER_2019, WindowsEdition.FULL)).toBe('ami-0c0c0c0c0c0c0c0c0');
    expect(infra.sshKeyName).toBe('value-of-ssh_key_name');
    expect(infra.sshKeyType).toBe('rsa');
    expect(infra.privateSubnetZones).toEqual(['eu-west-1a', 'eu-west-1b']);
    expect(infra.clusterName).toBe('aws-test');
    expect(infra.linuxAmiArchitecture).toBe('amd64');
  });

  test('the imported key\'s type and the private subnets\' zones go to the cluster', () => {
    expect(tf.output?.ssh_key_type.value).toBe('rsa');
    expect(tf.output?.private_subnet_zones.value).toEqual(['10.0.0.0/19', '10.0.32.0/19'].map((c) => refTo(tf, 'aws_subnet', (s) => s.cidr_block === c, 'availability_zone')));
  });

  test('an existing network\'s private subnet zones are read from EC2', () => {
    const existing = synthTf(standalone({ existingNetwork: { vpcId: 'vpc-0123456789abcdef0', publicSubnetIds: ['subnet-0bbb0000000000001'], privateSubnetIds: ['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002'] } }));
    const subnets = Object.entries(existing.data?.aws_subnet ?? {}) as Array<[string, { id: string }]>;
    expect(subnets.map(([, s]) => s.id)).toEqual(['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002']);
    expect(existing.output?.private_subnet_zones.value).toEqual(subnets.map(([logicalId]) => `\${data.aws_subnet.${logicalId}.availability_zone}`));
  });

  // EC2 User Guide, "Create a key pair": ED25519 keys are not supported for Windows instances.
  test('an ED25519 key is refused while the stack looks up Windows images', () => {
    expect(() => standalone({ sshPublicKey: ED25519_KEY }))
      .toThrow(/\[aws-test-infra\/Infra\] sshPublicKey is an ED25519 key, and the stack looks up Windows images \(2022 Core\) whose machines would get it: EC2 refuses to launch Windows AMIs with an ED25519 key pair.*Fix: import an RSA key/);
  });

  test('an ED25519 key is fine for a Linux-only stack, and goes to the cluster as such', () => {
    const linuxOnly = synthTf(standalone({ sshPublicKey: ED25519_KEY, images: { windows: [] } }));
    expect(linuxOnly.output?.ssh_key_type.value).toBe('ed25519');
  });

  test('no key pair: no key output, unless an existing key is named', () => {
    expect(synthTf(standalone()).output?.ssh_key_name).toBeUndefined();
    const named = synthTf(standalone({ sshKeyName: 'ops-key' }));
    expect(named.output?.ssh_key_name.value).toBe('ops-key');
    expect(all(named, 'aws_key_pair')).toEqual([]);
  });
});

describe('composition into a larger stack', () => {
  class Platform extends Construct {
    public readonly infra: HybridClusterInfra;
    public constructor(scope: Construct, id: string) {
      super(scope, id);
      new S3Bucket(this, 'Artifacts', { bucket: 'platform-artifacts' });
      this.infra = new HybridClusterInfra(this, 'Cluster', { clusterName: 'aws-test', network: { vpcCidr: '10.42.0.0/16' } });
    }
  }

  test('uses the stack\'s provider and puts its outputs at the stack\'s top level', () => {
    const stack = new TerraformStack(Testing.app(), 'platform');
    new AwsProvider(stack, 'aws', { region: 'eu-west-1' });
    new TerraformOutput(stack, 'bucket', { value: 'platform-artifacts' });
    new Platform(stack, 'Platform');
    const tf = synthTf(stack);
    expect(tf.provider?.aws).toEqual([{ region: 'eu-west-1' }]);
    expect(all(tf, 'aws_vpc')[0].cidr_block).toBe('10.42.0.0/16');
    expect(all(tf, 'aws_s3_bucket')).toHaveLength(1);
    const file = fakeOutputsFile(stack) as Record<string, Record<string, unknown>>;
    expect(Object.keys(file.platform).sort()).toEqual(['bucket', ...Object.values(INFRA_OUTPUTS).filter((o) => o !== 'ssh_key_name' && o !== 'ssh_key_type'), 'windows_ami_id_2022_core'].sort());
    expect(ClusterInfra.fromOutputs(file).vpcId).toBe('vpc-0123456789abcdef0');
  });

  test('a stack without an AwsProvider fails validation with the fix', () => {
    const stack = new TerraformStack(Testing.app(), 'platform');
    new Platform(stack, 'Platform');
    // The rule reports the stack's first AWS resource, here the bucket; no invitation to skip validations follows.
    expect(() => synthTf(stack)).toThrow(
      /^Validation failed with the following errors:\n {2}\[platform\/Platform\/Artifacts] aws_s3_bucket\.\w+: stack "platform" has no AwsProvider, and its AWS resources need one\. Fix: add new AwsProvider\(stack, 'aws', \{ region \}\), or use HybridClusterInfraStack or HybridEksStack\.\n(?![\s\S]*skipValidation)/,
    );
  });

  // Terraform: a resource without `provider` uses the provider configuration without alias; with
  // none configured it gets an empty one (region only from the environment). Issue 24 point 13.
  test('a stack whose only AwsProvider has an alias is refused for the blocks bound to no configuration; a default beside it passes', () => {
    const stack = new TerraformStack(Testing.app(), 'platform');
    new AwsProvider(stack, 'west', { region: 'eu-west-1', alias: 'west' });
    new Platform(stack, 'Platform');
    expect(() => synthTf(stack)).toThrow(/\[platform\/Platform\/Artifacts] aws_s3_bucket\.\w+: \d+ AWS block\(s\) of stack "platform" \(aws_s3_bucket\.\w+ first\) use the AwsProvider without alias, and the stack's AwsProviders have the alias\(es\) "west": Terraform would give them an empty configuration, with the region of the environment, not a configured one\. Fix: add an AwsProvider without alias/);
    new AwsProvider(stack, 'aws', { region: 'eu-west-1' });
    expect(() => synthTf(stack)).not.toThrow();
  });

  test('two stacks with one IAM prefix are refused: they would create the same roles', () => {
    const app = Testing.app();
    new HybridClusterInfraStack(app, 'one', { region: 'eu-north-1', clusterName: 'one', iamNamePrefix: 'x-' });
    expect(() => new HybridClusterInfraStack(app, 'two', { region: 'eu-north-1', clusterName: 'two', iamNamePrefix: 'x-' }))
      .toThrow('[two/Infra] iamNamePrefix "x-" is already used by one/Infra, so both stacks would create the same IAM roles and instance profiles');
    expect(() => new HybridClusterInfraStack(app, 'three', { region: 'eu-north-1', clusterName: 'three', iamNamePrefix: 'y-' })).not.toThrow();
    // IAM names are account-wide and case-blind (IAM API reference, CreateRole RoleName).
    expect(() => new HybridClusterInfraStack(app, 'four', { region: 'us-east-1', clusterName: 'four', iamNamePrefix: 'X-' }))
      .toThrow('[four/Infra] iamNamePrefix "X-" is already used by one/Infra (as "x-": IAM names ignore case)');
  });

  test('regions and zones are read with the cluster side\'s value types (AWS\'s partition data)', () => {
    expect(() => standalone({ region: 'eusc-de-east-1' } as never)).not.toThrow();
    // The aws-provider-region and aws-network rules, at construction (test/aws/terraform-rules.test.ts has the rest).
    expect(() => standalone({ region: 'eu-north-1a' } as never)).toThrow('[aws-test-infra] region: provider.aws: region "eu-north-1a" is an availability zone of eu-north-1, not a region. Fix: use a region name such as eu-north-1.');
    expect(() => standalone({ network: { availabilityZones: ['eu-north-1a', 'north'] } }))
      .toThrow(/^\[aws-test-infra\/Infra\/Network] network\.availabilityZones: aws_subnet\.\w+: availability zone "north" is not a zone name like eu-north-1a/);
  });

  test('a cluster name longer than HybridCluster allows is refused here too', () => {
    expect(() => standalone({ clusterName: 'a'.repeat(41) })).toThrow('clusterName: "' + 'a'.repeat(41) + '" is 41 characters long; the limit is 40');
  });

  test('a second HybridClusterInfra in the same stack is refused', () => {
    const stack = new TerraformStack(Testing.app(), 'platform');
    new AwsProvider(stack, 'aws', { region: 'eu-west-1' });
    new HybridClusterInfra(stack, 'One', { clusterName: 'one' });
    expect(() => new HybridClusterInfra(stack, 'Two', { clusterName: 'two' })).toThrow(
      '[platform/Two] stack "platform" already has a construct "cluster_name", the name of one of this construct\'s outputs. Fix: put each cluster\'s HybridClusterInfra in its own stack',
    );
  });
});

describe('bad input is refused at construction, naming the construct path', () => {
  test.each<[Partial<HybridClusterInfraProps>, string]>([
    [{ clusterName: 'AWS_Test' }, '[aws-test-infra/Infra] clusterName: "AWS_Test" must be lower-case letters'],
    [{ network: { vpcCidr: '10.0.0.0/33' } }, '[aws-test-infra/Infra/Network] network.vpcCidr: "10.0.0.0/33" has a prefix length above 32'],
    [{ network: { vpcCidr: '10.0.0.0/12' } }, '[aws-test-infra/Infra/Network] network.vpcCidr "10.0.0.0/12" is a /12: AWS VPCs must be between /16 and /28'],
    [{ network: { vpcCidr: '10.0.0.0/26', availabilityZoneCount: 3 } }, '[aws-test-infra/Infra/Network] network.vpcCidr "10.0.0.0/26" is too small for 3 zone(s)'],
    [{ network: { availabilityZoneCount: 0 } }, '[aws-test-infra/Infra/Network] network.availabilityZoneCount is 0'],
    [{ network: { availabilityZones: [] } }, '[aws-test-infra/Infra/Network] network.availabilityZoneCount is 0'],
    [{ network: { availabilityZones: ['eu-north-1a'], availabilityZoneCount: 2 } }, 'network.availabilityZoneCount is 2 but network.availabilityZones names 1. Fix: give one of the two'],
    [
      { network: { publicSubnetCidrs: ['10.0.0.0/24', '10.0.0.128/25'], privateSubnetCidrs: ['10.0.8.0/24', '10.0.9.0/24'] } },
      'network.publicSubnetCidrs[0] (10.0.0.0/24) overlaps network.publicSubnetCidrs[1] (10.0.0.128/25)',
    ],
    [{ network: { privateSubnetPrefixLength: 29 } }, 'network.privateSubnetPrefixLength is 29: with a /16 VPC it must be a whole number from 17 to 28'],
    [{ sshPublicKey: 'not a key' }, '[aws-test-infra/Infra] sshPublicKey "not a key..." is not an OpenSSH RSA or ED25519 public key'],
    [
      { existingNetwork: { vpcId: 'vpc-0123456789abcdef0', publicSubnetIds: ['subnet-01234567'], privateSubnetIds: ['subnet-89abcdef'] }, network: { vpcEndpoints: true } },
      'give either network',
    ],
  ])('%j', (props, message) => {
    expect(() => standalone(props)).toThrow(message);
  });
});
