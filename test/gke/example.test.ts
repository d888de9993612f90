import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateTerraform } from '../../src';

/** Runs examples/gke/main.ts the way `cdktn synth` and `npm run synth` do (validations on, files in CDKTF_OUTDIR). */
describe('examples/gke/main.ts', () => {
  const outdir = join(mkdtempSync(join(tmpdir(), 'gke-example-')), 'cdktf.out');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let stack: { provider: { google: { project: string; region: string }[] }; resource: Record<string, Record<string, any>>; terraform: any };

  beforeAll(() => {
    process.env.CDKTF_OUTDIR = outdir;
    // The example is a script: requiring it afresh runs it, as `cdktn synth` does.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    jest.isolateModules(() => require('../../examples/gke/main'));
    stack = JSON.parse(readFileSync(join(outdir, 'stacks', 'gke-test', 'cdk.tf.json'), 'utf8'));
  });
  afterAll(() => delete process.env.CDKTF_OUTDIR);

  test('a regional GKE Standard cluster in europe-north1 with a Linux and a Windows Server 2022 pool, which the rules pass', () => {
    expect(stack.provider.google).toEqual([expect.objectContaining({ region: 'europe-north1' })]);
    const pools = Object.values(stack.resource.google_container_node_pool);
    expect(pools.map((p) => [p.name, p.node_config.image_type, p.node_config.windows_node_config?.osversion])).toEqual([
      ['linux', 'COS_CONTAINERD', undefined], ['windows', 'WINDOWS_LTSC_CONTAINERD', 'OS_VERSION_LTSC2022']]);
    expect(Object.values(stack.resource.google_container_cluster)[0]).toMatchObject({ name: 'gke-test', location: 'europe-north1', remove_default_node_pool: true, networking_mode: 'VPC_NATIVE' });
    expect(validateTerraform(stack as never)).toEqual([]);
  });

  test('examples/gke/cdktf.json runs this example', () => {
    const config = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'gke', 'cdktf.json'), 'utf8')) as { app: string };
    expect(config.app).toContain('lib/examples/gke/main.js');
  });
});
