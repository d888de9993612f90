import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterInfra, INFRA_OUTPUTS, WindowsEdition, WindowsVersion, windowsAmiOutputId } from '../../src';
import { DEPLOYED, withOutputs, writeJson } from '../support/infra-outputs';

describe('ClusterInfra.fromOutputsFile', () => {
  test('maps every output of a deployed stack onto the typed hand-off', () => {
    const infra = ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(DEPLOYED, null, 2)));
    expect(infra).toBeInstanceOf(ClusterInfra);
    expect(infra.region).toBe('eu-north-1');
    expect(infra.vpcId).toBe('vpc-0123456789abcdef0');
    expect(infra.publicSubnetIds).toEqual(['subnet-0bbb0000000000001', 'subnet-0bbb0000000000002']);
    expect(infra.privateSubnetIds).toEqual(['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002']);
    expect(infra.controlPlaneInstanceProfile).toBe('control-plane.cluster-api-provider-aws.sigs.k8s.io');
    expect(infra.nodeInstanceProfile).toBe('nodes.cluster-api-provider-aws.sigs.k8s.io');
    expect(infra.linuxAmiId).toBe('ami-0a1b2c3d4e5f60718');
    expect(infra.sshKeyName).toBe('aws-test');
    expect(infra.windowsAmiIds).toEqual({
      [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'ami-0c0c0c0c0c0c0c0c0' },
      [WindowsVersion.SERVER_2019]: { [WindowsEdition.FULL]: 'ami-0f0f0f0f0f0f0f0f0' },
    });
    expect(infra.windowsAmiId(WindowsVersion.SERVER_2022, WindowsEdition.CORE)).toBe('ami-0c0c0c0c0c0c0c0c0');
    expect(infra.windowsAmiId(WindowsVersion.SERVER_2022, WindowsEdition.FULL)).toBeUndefined();
  });

  test('the output ids are the constants the stack writes', () => {
    expect(Object.keys(DEPLOYED['aws-test-infra']).sort()).toEqual(
      [
        ...Object.values(INFRA_OUTPUTS),
        windowsAmiOutputId(WindowsVersion.SERVER_2022, WindowsEdition.CORE),
        windowsAmiOutputId(WindowsVersion.SERVER_2019, WindowsEdition.FULL),
      ].sort(),
    );
  });

  test('the ssh key is optional', () => {
    const infra = ClusterInfra.fromOutputs(withOutputs((o) => { delete o.ssh_key_name; delete o.ssh_key_type; }));
    expect(infra.sshKeyName).toBeUndefined();
    expect(infra.sshKeyType).toBeUndefined();
  });

  test('the key type and the private subnets\' zones are read', () => {
    const infra = ClusterInfra.fromOutputs(DEPLOYED);
    expect(infra.sshKeyType).toBe('rsa');
    expect(infra.privateSubnetZones).toEqual(['eu-north-1a', 'eu-north-1b']);
  });

  test('an outputs file of a stack that predates the zones output still reads', () => {
    expect(ClusterInfra.fromOutputs(withOutputs((o) => delete o.private_subnet_zones)).privateSubnetZones).toBeUndefined();
  });

  test('picks the named stack out of a file with several', () => {
    const json = { 'other-stack': { something: 1 }, ...DEPLOYED };
    const infra = ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(json)), { stackName: 'aws-test-infra' });
    expect(infra.vpcId).toBe('vpc-0123456789abcdef0');
  });
});

describe('ClusterInfra hand-off errors', () => {
  test('a missing file names the file and how to produce it', () => {
    const missing = join(tmpdir(), 'does-not-exist', 'infra.json');
    expect(() => ClusterInfra.fromOutputsFile(missing)).toThrow(
      new RegExp(`Cannot read the infrastructure outputs file ${missing.replace(/[.\\/]/g, '\\$&')}.*cdktn deploy --outputs-file`),
    );
  });

  test('a file that is not JSON', () => {
    const file = writeJson('{ "aws-test-infra": ');
    expect(() => ClusterInfra.fromOutputsFile(file)).toThrow(`The infrastructure outputs file ${file} is not valid JSON`);
  });

  // Issue 24 points 17 and 18. RFC 8259 section 8.1: a parser may ignore a byte-order mark; editors
  // on Windows and PowerShell's Out-File write one. The fix names CDK Terrain's command first.
  test('a file with a UTF-8 byte-order mark is read', () => {
    const file = writeJson(`\uFEFF${JSON.stringify(withOutputs(() => undefined))}`);
    expect(ClusterInfra.fromOutputsFile(file).vpcId).toBe('vpc-0123456789abcdef0');
  });

  test('output ids at the top level are explained as one stack\'s outputs without its stack', () => {
    const outputs = (withOutputs(() => undefined) as Record<string, unknown>)['aws-test-infra'];
    const file = writeJson(JSON.stringify(outputs));
    expect(() => ClusterInfra.fromOutputsFile(file)).toThrow(new RegExp(
      `^\\[ClusterInfra] ${file.replace(/[.\\/]/g, '\\$&')} has output ids at its top level \\(\\w+, \\w+, \\w+, …\\), where the outputs file has one object per stack: it is one stack's outputs without its stack name\\. Fix: wrap them as \\{ "<stack name>": \\{ \\.\\.\\. } }, or write the file as the deploy does\\. Deploy the AWS stack \\(HybridClusterInfra\\) with \`cdktn deploy --outputs-file`));
  });

  test('a missing output names the file, the stack and the key', () => {
    const file = writeJson(JSON.stringify(withOutputs((o) => delete o.vpc_id)));
    expect(() => ClusterInfra.fromOutputsFile(file)).toThrow(
      `${file}, stack "aws-test-infra": output "vpc_id" is missing (outputs present: cluster_name, control_plane_instance_profile,`,
    );
    expect(() => ClusterInfra.fromOutputsFile(file)).toThrow(`cdktn deploy --outputs-file ${file}`);
  });

  test.each([
    ['vpc_id', 42, 'must be a non-empty string, got 42'],
    ['linux_ami_id', '', 'must be a non-empty string, got ""'],
    ['public_subnet_ids', 'subnet-1,subnet-2', 'must be a non-empty list of strings, got "subnet-1,subnet-2"'],
    ['private_subnet_ids', [], 'must be a non-empty list of strings, got []'],
    ['private_subnet_ids', ['subnet-1', 7], 'must be a non-empty list of strings, got ["subnet-1",7]'],
    ['windows_ami_id_2022_core', null, 'must be a non-empty string, got null'],
    ['ssh_key_name', ['aws-test'], 'must be a non-empty string, got ["aws-test"]'],
  ])('output %s = %j is rejected', (key, value, message) => {
    const json = withOutputs((o) => (o[key] = value));
    expect(() => ClusterInfra.fromOutputs(json)).toThrow(`the outputs JSON, stack "aws-test-infra": output "${key}" ${message}`);
  });

  test('several stacks without stackName', () => {
    const json = { 'other-stack': {}, ...DEPLOYED };
    expect(() => ClusterInfra.fromOutputs(json)).toThrow(
      'the outputs JSON holds several stacks (other-stack, aws-test-infra). Fix: pass { stackName }',
    );
  });

  test('an unknown stackName lists the stacks present', () => {
    expect(() => ClusterInfra.fromOutputs(DEPLOYED, { stackName: 'infra' })).toThrow(
      'the outputs JSON has no outputs for stack "infra" (stacks present: aws-test-infra)',
    );
  });

  test.each([
    [[], 'must be a JSON object keyed by cdktf stack name, got []'],
    [null, 'must be a JSON object keyed by cdktf stack name, got null'],
    [{}, 'holds no stacks'],
  ])('top level %j is rejected', (json, message) => {
    expect(() => ClusterInfra.fromOutputs(json)).toThrow(message);
  });
});

/** The one check of every ClusterInfra field, read from a file or written by hand. */
describe('ClusterInfra checks each value for form once', () => {
  const valid = {
    clusterName: 'aws-test',
    region: 'eu-north-1',
    vpcId: 'vpc-0123456789abcdef0',
    publicSubnetIds: ['subnet-0bbb0000000000001'],
    privateSubnetIds: ['subnet-0aaa0000000000001'],
    controlPlaneInstanceProfile: 'control-plane.cluster-api-provider-aws.sigs.k8s.io',
    nodeInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
    linuxAmiId: 'ami-0a1b2c3d4e5f60718',
    windowsAmiIds: { [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'ami-0c0c0c0c0c0c0c0c0' } },
    sshKeyName: 'aws-test',
  };
  const build = (change: object) => () => new ClusterInfra({ ...valid, ...change } as never);

  test('valid values, optional fields left out or undefined, and deploy-time tokens are accepted', () => {
    expect(build({})).not.toThrow();
    expect(build({ clusterName: undefined, linuxAmiArchitecture: undefined, windowsAmiIds: undefined, sshKeyName: undefined, publicSubnetIds: [] })).not.toThrow();
    expect(new ClusterInfra({ ...valid, windowsAmiIds: undefined }).windowsAmiIds).toEqual({});
    expect(build({ vpcId: '${TfToken[TOKEN.1]}', linuxAmiId: '${TfToken[TOKEN.2]}' })).not.toThrow();
  });

  test.each([
    // The cluster side's limit (MAX_CLUSTER_NAME, 40), not the 63 of a plain DNS label.
    [{ clusterName: 'a'.repeat(41) }, '[ClusterInfra] clusterName "' + 'a'.repeat(41) + '" is 41 characters long; the limit is 40. Fix: the cluster side allows'],
    [{ clusterName: 'Prod' }, 'clusterName "Prod" must be lower-case letters'],
    [{ region: 'eu-north-1a' }, '[ClusterInfra] region "eu-north-1a" is an availability zone of eu-north-1, not a region'],
    [{ region: undefined }, 'region "undefined" is not an AWS region name'],
    [{ vpcId: 'subnet-0aaa0000000000001' }, 'vpcId "subnet-0aaa0000000000001" is not a vpc id'],
    [{ vpcId: undefined }, 'vpcId nothing is not a vpc id'],
    [{ privateSubnetIds: [] }, 'privateSubnetIds is []; at least one subnet is needed'],
    [{ privateSubnetIds: ['10.0.0.0/19'] }, 'privateSubnetIds[0] "10.0.0.0/19" is not a subnet id'],
    [{ publicSubnetIds: undefined }, 'publicSubnetIds is nothing; a list is needed'],
    [{ publicSubnetIds: ['subnet-0aaa0000000000001'] }, 'subnet subnet-0aaa0000000000001 is listed as both public and private'],
    [{ privateSubnetIds: ['subnet-0aaa0000000000001', 'subnet-0aaa0000000000001'] }, 'privateSubnetIds lists subnet-0aaa0000000000001 twice'],
    [{ nodeInstanceProfile: '' }, 'nodeInstanceProfile "" is not an IAM instance profile name'],
    [{ controlPlaneInstanceProfile: 'arn:aws:iam::1:instance-profile/x' }, 'controlPlaneInstanceProfile "arn:aws:iam::1:instance-profile/x" is not an IAM instance profile name'],
    [{ linuxAmiId: 'ami-123' }, 'linuxAmiId: AMI "ami-123" is not an AMI id'],
    [{ linuxAmiArchitecture: 'x86_64' }, 'linuxAmiArchitecture "x86_64" is not one of amd64, arm64'],
    [{ windowsAmiIds: { 2016: { Core: 'ami-0c0c0c0c0c0c0c0c0' } } }, 'windowsAmiIds has Windows version "2016"'],
    [{ windowsAmiIds: { [WindowsVersion.SERVER_2022]: { Nano: 'ami-0c0c0c0c0c0c0c0c0' } } }, 'windowsAmiIds.2022 has edition "Nano"'],
    [{ windowsAmiIds: { [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'windows' } } }, 'windowsAmiIds.2022.Core: AMI "windows" is not an AMI id'],
    [{ sshKeyName: '' }, 'sshKeyName "" is not a key pair name'],
    [{ sshKeyName: ' ops' }, 'sshKeyName " ops" is not a key pair name'],
    [{ sshKeyType: 'dsa' }, 'sshKeyType "dsa" is not one of rsa, ed25519'],
    [{ privateSubnetZones: ['eu-north-1a', 'eu-north-1b'] }, 'privateSubnetZones ["eu-north-1a","eu-north-1b"] does not name one zone per private subnet (1)'],
    [{ privateSubnetZones: ['eu-west-1a'] }, 'privateSubnetZones: availability zone "eu-west-1a" is in eu-west-1, not in eu-north-1'],
  ])('%j is refused', (change, message) => {
    expect(build(change)).toThrow(message);
  });

  test('a bad value in an outputs file is refused by the same check, naming the file, the stack and the output as the file writes it (issue 18.9)', () => {
    const outputs = withOutputs((o) => { o[INFRA_OUTPUTS.region] = 'eu-north-1b'; });
    expect(() => ClusterInfra.fromOutputs(outputs)).toThrow('[ClusterInfra] the outputs JSON, stack "aws-test-infra": output "region": region "eu-north-1b" is an availability zone of eu-north-1, not a region');
    const file = writeJson(JSON.stringify(withOutputs((o) => { o.vpc_id = 'subnet-0aaa0000000000001'; o.private_subnet_ids = ['subnet-0aaa0000000000001', '10.0.0.0/19']; })));
    expect(() => ClusterInfra.fromOutputsFile(file)).toThrow(`${file}, stack "aws-test-infra": output "vpc_id" "subnet-0aaa0000000000001" is not a vpc id`);
    expect(() => ClusterInfra.fromOutputsFile(file)).toThrow(`cdktn deploy --outputs-file ${file}`);
    const windows = withOutputs((o) => { o.windows_ami_id_2022_core = 'ami-1'; });
    expect(() => ClusterInfra.fromOutputs(windows)).toThrow('output "windows_ami_id_2022_core": AMI "ami-1" is not an AMI id');
    const twice = withOutputs((o) => { o.public_subnet_ids = ['subnet-0aaa0000000000001']; });
    expect(() => ClusterInfra.fromOutputs(twice)).toThrow('stack "aws-test-infra": output "public_subnet_ids": subnet subnet-0aaa0000000000001 is listed as both public and private');
  });

  // A cdktf token (`${TfToken[...]}`) or a Terraform expression in a file is what a stack's JSON
  // held at synth, not what was deployed: nothing resolves it once written (cdktf lib/tokens).
  test.each([
    ['vpc_id', '${TfToken[TOKEN.12]}'],
    ['linux_ami_id', '${data.aws_ssm_parameter.Linux.insecure_value}'],
    ['private_subnet_ids', ['subnet-0aaa0000000000001', '${aws_subnet.b.id}']],
  ])('output %s = %j, a token or expression, is refused even where a hand-written infra may hold one', (key, value) => {
    expect(() => ClusterInfra.fromOutputs(withOutputs((o) => (o[key] = value)))).toThrow(
      `the outputs JSON, stack "aws-test-infra": output "${key}" is ${JSON.stringify(value)}, a Terraform expression or cdktf token, which nothing resolves once it is in a file`,
    );
  });

  test('an outputs file from before linux_ami_architecture existed reads as the documented default, amd64', () => {
    const infra = ClusterInfra.fromOutputs(withOutputs((o) => delete o.linux_ami_architecture));
    expect(infra.linuxAmiArchitecture).toBe('amd64');
  });

  test('undefined props are a clear error, not a TypeError', () => {
    expect(() => new ClusterInfra(undefined as never)).toThrow('[ClusterInfra] the props are nothing');
  });
});
