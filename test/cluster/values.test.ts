import { Architecture, HybridConfigError, InstanceType, K0sVersion } from '../../src';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AWS_PARTITIONS } from '../../src/generated/aws-partitions';
import { amiIdProblem, AvailabilityZone, AwsRegion } from '../../src/platform/aws';
import { labelKeyProblem, nodeLabelProblem } from '../../src/platform/labels';
import { integerProblem } from '../../src/core/numbers';
import { isUnresolvedToken } from '../../src/core/tokens';

/** What a cdktf token looks like before deploy (cdktf lib/tokens/private/encoding.ts). */
const TF_TOKEN = '${TfToken[TOKEN.42]}';

describe('K0sVersion', () => {
  test.each(['v1.34.2+k0s.0', 'v1.35.10+k0s.12', 'v2.0.0+k0s.0'])('%s parses', (text) => {
    expect(K0sVersion.of(text).toString()).toBe(text);
  });
  test.each(['v1.034.2+k0s.0', 'v01.34.2+k0s.0', 'v1.34.02+k0s.0', 'v1.34.2+k0s.00', 'v1.34.2', '1.34.2+k0s.0', 'v1.34.2-k0s.0', ' v1.34.2+k0s.0'])('%s is refused', (text) => {
    expect(() => K0sVersion.of(text)).toThrow(HybridConfigError);
    expect(() => K0sVersion.of(text)).toThrow(`[K0sVersion] k0s version ${JSON.stringify(text)} is not of the form vX.Y.Z+k0s.N. Fix: write it like "v1.34.10+k0s.0".`);
  });
  test('minor and ordering', () => {
    expect(K0sVersion.of('v1.34.2+k0s.1').minor).toBe(34);
    expect(K0sVersion.of('v1.34.10+k0s.0').compare(K0sVersion.of('v1.34.9+k0s.0'))).toBeGreaterThan(0);
    expect(K0sVersion.of('v1.34.2+k0s.0').compare(K0sVersion.of('v1.34.2+k0s.1'))).toBeLessThan(0);
  });
});

describe('InstanceType', () => {
  test.each([
    ['t3.large', Architecture.AMD64, 8], ['t4g.xlarge', Architecture.ARM64, 16], ['m7g.large', Architecture.ARM64, 8],
    ['c6gn.2xlarge', Architecture.ARM64, 16], ['m7i-flex.large', Architecture.AMD64, 8], ['r7iz.xlarge', Architecture.AMD64, 32],
    ['a1.xlarge', Architecture.ARM64, 8], ['g4dn.xlarge', Architecture.AMD64, undefined], ['c5n.large', Architecture.AMD64, undefined],
    ['mac1.metal', Architecture.AMD64, undefined], ['mac2.metal', Architecture.ARM64, undefined], ['im4gn.large', Architecture.ARM64, undefined],
  ])('%s is %s with %s GiB', (name, arch, memoryGiB) => {
    const type = InstanceType.of(name);
    expect(type.arch).toBe(arch);
    expect(type.memoryGiB).toBe(memoryGiB);
  });
  test.each(['T3.LARGE', 'foo.bar', 't3', 't3.', 't3.huge', 'm7g large', ''])('%s is not an instance type name', (name) => {
    expect(InstanceType.parse(name)).toBe(`instance type "${name}" is not an EC2 instance type name (lower-case family, ".", size: e.g. m7i.large)`);
  });
  test('an unknown family is refused unless its architecture and memory are stated', () => {
    expect(InstanceType.parse('q9.large')).toBe('instance type "q9.large" is of a family this library does not know, so it cannot tell its architecture and memory');
    const stated = InstanceType.of('q9.large', { arch: Architecture.ARM64, memoryGiB: 12 });
    expect([stated.arch, stated.memoryGiB]).toEqual([Architecture.ARM64, 12]);
  });
  test('deploy-time tokens are not judged', () => {
    expect(typeof InstanceType.parse(TF_TOKEN)).toBe('object');
  });
  test('Mac instances are known as such', () => {
    expect(InstanceType.of('mac2.metal').isMac).toBe(true);
    expect(InstanceType.of('m7i.large').isMac).toBe(false);
  });
});

describe('AWS identifiers', () => {
  test.each(['ami-0fa91bc90632c73c9', 'ami-12345678', TF_TOKEN])('AMI %s', (id) => expect(amiIdProblem(id)).toBeUndefined());
  test.each(['ami-linux', 'AMI-0FA91BC90632C73C9', 'ami-0fa91bc90632c73c', 'i-0fa91bc90632c73c9', ''])('not an AMI: %s', (id) => {
    expect(amiIdProblem(id)).toBe(`AMI "${id}" is not an AMI id (ami- and 8 or 17 lower-case hex digits)`);
  });
  // Regions and partitions come from AWS's partition data (src/generated/aws-partitions.ts, from
  // @aws-sdk/core's partitions.json): the names it lists, and names of a partition's regionRegex.
  test.each([
    ['eu-north-1', 'aws'], ['us-east-1', 'aws'], ['ap-southeast-7', 'aws'], ['mx-central-1', 'aws'],
    ['us-gov-west-1', 'aws-us-gov'], ['cn-northwest-1', 'aws-cn'], ['eusc-de-east-1', 'aws-eusc'],
    ['us-isob-east-1', 'aws-iso-b'], ['eu-isoe-west-1', 'aws-iso-e'],
    // Not yet listed, but of the aws partition's pattern: a region opened after the data was generated.
    ['ap-southeast-9', 'aws'],
  ])('region %s is in partition %s', (name, partition) => {
    expect(AwsRegion.problem(name)).toBeUndefined();
    expect(AwsRegion.parse(name)).toMatchObject({ name, partition });
  });
  test('every region AWS lists parses, in its own partition', () => {
    for (const p of AWS_PARTITIONS) for (const r of p.regions) expect(AwsRegion.parse(r)).toMatchObject({ name: r, partition: p.id });
  });
  test('a deploy-time token passes', () => expect(AwsRegion.problem(TF_TOKEN)).toBeUndefined());
  test('a zone given as region', () => expect(AwsRegion.problem('eu-north-1a')).toBe('region "eu-north-1a" is an availability zone of eu-north-1, not a region'));
  test.each(['Stockholm', 'eu-north', 'EU-NORTH-1', 'xx-north-1', 'aws-global', 'eusc-fr-east-1'])('not a region: %s', (r) => expect(AwsRegion.problem(r)).toMatch(/is not an AWS region name/));
  test('zones belong to their region', () => {
    expect(AvailabilityZone.parse('us-west-2-lax-1a')).toMatchObject({ region: { name: 'us-west-2' }, suffix: 'lax-1a' });
    expect(AvailabilityZone.parse('eusc-de-east-1b')).toMatchObject({ region: { name: 'eusc-de-east-1', partition: 'aws-eusc' }, suffix: 'b' });
    expect(AvailabilityZone.problem('eu-north-1b', 'eu-north-1')).toBeUndefined();
    expect(AvailabilityZone.problem('eu-west-1a', 'eu-north-1')).toBe('availability zone "eu-west-1a" is in eu-west-1, not in eu-north-1');
    expect(AvailabilityZone.problem('north', 'eu-north-1')).toBe('availability zone "north" is not a zone name like eu-north-1a');
  });
});

describe('the partition data is what the installed AWS SDK publishes', () => {
  test('src/generated/aws-partitions.ts is regenerated from @aws-sdk/core', () => {
    // Fails after a bump of @aws-sdk/core until `npm run import` is run again.
    const script = join(__dirname, '..', '..', 'scripts', 'import-partitions.mjs');
    const fresh = execFileSync(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(pathToFileURL(script).href)}).then((m) => process.stdout.write(m.render()))`], { encoding: 'utf8' });
    expect(readFileSync(join(__dirname, '..', '..', 'src', 'generated', 'aws-partitions.ts'), 'utf8')).toBe(fresh);
  });
});

describe('labels (apimachinery IsQualifiedName / IsValidLabelValue; kubelet --node-labels)', () => {
  test.each(['example.com/role', 'role', 'node.kubernetes.io/pool-kind', 'kubelet.kubernetes.io/x', 'topology.kubernetes.io/zone', 'a.b_c-d'])('%s is a valid node label key', (key) => {
    expect(nodeLabelProblem(key, 'v')).toBeUndefined();
  });
  test.each([
    ['node-role.kubernetes.io/worker', 'the kubelet refuses such --node-labels'],
    ['example.k8s.io/x', 'the kubelet refuses such --node-labels'],
    ['kubernetes.io/os', 'set by the kubelet from the node itself'],
    ['kubernetes.io/arch', 'set by the kubelet from the node itself'],
    ['Example.com/x', 'prefix that is not a lower-case DNS subdomain'],
    ['a/b/c', 'more than one "/"'],
    [`x/${'n'.repeat(64)}`, 'a name of 64 characters'],
    ['-x', 'not alphanumeric'],
  ])('%s', (key, why) => expect(nodeLabelProblem(key, 'v')).toContain(why));
  test.each(['a,b', 'a b', '$x', 'x'.repeat(64), '-x'])('value %j', (value) => expect(nodeLabelProblem('example.com/x', value)).toBeDefined());
  test('an empty value is valid', () => expect(nodeLabelProblem('example.com/x', '')).toBeUndefined());
  test('keys alone', () => expect(labelKeyProblem('/x')).toContain('prefix'));
});

describe('integers in range', () => {
  test.each([[0, 0], [3, 0], [2 ** 31 - 1, 0]])('%d >= %d', (value, min) => expect(integerProblem(value, min)).toBeUndefined());
  test.each([[NaN, 'is not a whole number'], [1.5, 'is not a whole number'], [-1, 'is below 0'], [2 ** 31, 'is above 2147483647'], ['3', 'is not a whole number']])('%p', (value, why) => {
    expect(integerProblem(value, 0)).toContain(why);
  });
});

test('unresolved tokens are recognized, plain strings are not', () => {
  expect(isUnresolvedToken(TF_TOKEN)).toBe(true);
  expect(isUnresolvedToken('prefix-${Token[TOKEN.1]}')).toBe(true);
  expect(isUnresolvedToken('ami-0fa91bc90632c73c9')).toBe(false);
});
