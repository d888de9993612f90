import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs examples/eks/main.ts the way `cdktf synth` and `npm run synth` do (validations on, files in CDKTF_OUTDIR). */
describe('examples/eks/main.ts', () => {
  const outdir = join(mkdtempSync(join(tmpdir(), 'eks-example-')), 'cdktf.out');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let stack: { provider: { aws: { region: string }[] }; resource: Record<string, Record<string, any>> };

  beforeAll(() => {
    process.env.CDKTF_OUTDIR = outdir;
    // The example is a script: requiring it afresh runs it, as `cdktf synth` does.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    jest.isolateModules(() => require('../../examples/eks/main'));
    stack = JSON.parse(readFileSync(join(outdir, 'stacks', 'eks-test', 'cdk.tf.json'), 'utf8'));
  });
  afterAll(() => delete process.env.CDKTF_OUTDIR);

  test('an EKS cluster in eu-north-1 with a Linux and a Windows Server 2022 Core node group', () => {
    expect(stack.provider.aws).toEqual([expect.objectContaining({ region: 'eu-north-1' })]);
    const groups = Object.values(stack.resource.aws_eks_node_group);
    expect(groups.map((g) => [g.node_group_name, g.ami_type])).toEqual([['linux', 'AL2023_x86_64_STANDARD'], ['windows', 'WINDOWS_CORE_2022_x86_64']]);
    expect(Object.values(stack.resource.aws_eks_cluster)[0]).toMatchObject({ name: 'eks-test', version: '1.34' });
  });

  test('examples/eks/cdktf.json runs this example', () => {
    const config = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'eks', 'cdktf.json'), 'utf8')) as { app: string };
    expect(config.app).toContain('lib/examples/eks/main.js');
  });
});
