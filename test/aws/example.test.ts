import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterInfra, INFRA_OUTPUTS, WindowsEdition, WindowsVersion } from '../../src';
import { DEPLOYED } from '../support/infra-outputs';

/** Runs the example app the way `cdktf synth` does (validations on, files written to CDKTF_OUTDIR). */
describe('examples/k0smotron-aws/infra.ts', () => {
  const outdir = join(mkdtempSync(join(tmpdir(), 'example-')), 'cdktf.out');
  let stack: { '//': { outputs: Record<string, Record<string, string>> }; provider: { aws: { region: string }[] }; resource: Record<string, Record<string, { name?: string }>> };

  beforeAll(() => {
    process.env.CDKTF_OUTDIR = outdir;
    delete process.env.SSH_PUBLIC_KEY;
    // The example is a script: requiring it afresh runs it, as `cdktf synth` does.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    jest.isolateModules(() => require('../../examples/k0smotron-aws/infra'));
    stack = JSON.parse(readFileSync(join(outdir, 'stacks', 'aws-test-infra', 'cdk.tf.json'), 'utf8'));
  });
  afterAll(() => delete process.env.CDKTF_OUTDIR);

  test('synthesizes the aws-test stack for eu-north-1 with prefixed IAM names', () => {
    expect(stack.provider.aws).toEqual([expect.objectContaining({ region: 'eu-north-1' })]);
    expect(Object.values(stack.resource.aws_iam_instance_profile)).toHaveLength(3);
    expect(Object.values(stack.resource.aws_iam_role).map((r) => r.name).sort()).toEqual([
      'aws-test-control-plane.cluster-api-provider-aws.sigs.k8s.io',
      'aws-test-controllers.cluster-api-provider-aws.sigs.k8s.io',
      'aws-test-nodes.cluster-api-provider-aws.sigs.k8s.io',
    ]);
  });

  test('its outputs file has the shape ClusterInfra reads', () => {
    // cdktf's CLI keys the outputs file by this construct-path map; the values are deploy-time ids.
    const map = stack['//'].outputs;
    expect(Object.keys(map)).toEqual(['aws-test-infra']);
    expect(Object.keys(map['aws-test-infra']).sort()).toEqual(
      [...Object.values(INFRA_OUTPUTS).filter((o) => o !== INFRA_OUTPUTS.sshKeyName && o !== INFRA_OUTPUTS.sshKeyType), 'windows_ami_id_2022_core'].sort(),
    );
    const deployed: Record<string, unknown> = DEPLOYED['aws-test-infra'];
    const file = { 'aws-test-infra': Object.fromEntries(Object.keys(map['aws-test-infra']).map((k) => [k, deployed[k]])) };
    const infra = ClusterInfra.fromOutputs(file);
    expect(infra.windowsAmiId(WindowsVersion.SERVER_2022, WindowsEdition.CORE)).toBe(deployed.windows_ami_id_2022_core);
    expect(infra.sshKeyName).toBeUndefined();
  });
});
