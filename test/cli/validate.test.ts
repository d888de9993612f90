import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { WindowsPlatform, adviseManifests, validateManifests } from '../../src';

// The compiled command, as `npx cdk-hybrid-windows` runs it (`npm test` runs `tsc -b` first).
const BIN = join(__dirname, '..', '..', 'lib', 'src', 'cli', 'main.js');
const FIXTURES = join(__dirname, 'fixtures');
/** `helm template` output: a `---` before every document and `# Source:` comments. */
const HELM = join(FIXTURES, 'helm-web.yaml');
const VALID = join(FIXTURES, 'valid.yaml');
/** Outside FIXTURES, which a test reads as one directory. */
const AFFINITY = join(__dirname, 'eks-affinity.yaml');

function run(args: string[], input?: string): { status: number | null; stdout: string[]; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout.split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

(existsSync(BIN) ? describe : describe.skip)('cdk-hybrid-windows validate', () => {
  test('a Helm-style stream on standard input: the violations validateManifests reports, one line each, exit 1', () => {
    const text = readFileSync(HELM, 'utf8');
    const { status, stdout, stderr } = run(['validate', '-'], text);
    expect(status).toBe(1);
    const objects = parseAllDocuments(text).map((d) => d.toJS());
    const expected = validateManifests(objects).map((v) => `${v.kind} ${v.namespace}/${v.name}: ${v.message}`);
    expect(expected.length).toBeGreaterThan(3);
    // Each line is `<file>:<document> <Kind> <namespace/name>: <what>. Fix: <how>.`, in validateManifests' order.
    expect(stdout.map((l) => l.replace(/^<stdin>:\d+ /, ''))).toEqual(expected);
    expect(stdout).toContain('<stdin>:2 Deployment apps/web: spec.template.spec.tolerations: must tolerate the Windows node taint os=windows:NoSchedule, or the pod stays Pending. Fix: change the pod template as the message says.');
    expect(stdout).toContain('<stdin>:3 Job apps/migrate: spec.template.spec.volumes[0].emptyDir.medium: Windows cannot back an emptyDir with memory; drop the medium (disk-backed emptyDir works). Fix: change the pod template as the message says.');
    expect(stdout.every((l) => /^<stdin>:\d+ \w+ [\w-]+\/[\w-]+: .+\. Fix: .+\.$/.test(l))).toBe(true);
    // What the rules only recommend goes to standard error, as adviseManifests gives it.
    const advice = adviseManifests(objects).map((v) => `advice: <stdin>:${v.kind === 'Job' ? 3 : 2} ${v.kind} ${v.namespace}/${v.name}: ${v.message}`);
    expect(advice.length).toBeGreaterThan(0);
    expect(stderr).toBe([...advice, `${expected.length} violations in 3 objects`, ''].join('\n'));
  });

  test('valid input: exit 0 and nothing on standard output', () => {
    expect(run(['validate', '-'], readFileSync(VALID, 'utf8'))).toEqual({ status: 0, stdout: [], stderr: '0 violations in 2 objects\n' });
    expect(run(['validate', VALID]).status).toBe(0);
  });

  test('files and directories are one set of objects, named by file', () => {
    const { status, stdout } = run(['validate', FIXTURES]);
    expect(status).toBe(1);
    expect(stdout[0].startsWith(`${HELM}:2 Deployment apps/web: `)).toBe(true);
    expect(run(['validate', VALID, HELM]).stdout).toEqual(stdout);
  });

  test('--rules picks the rule sets: the cluster rules alone pass the workloads', () => {
    expect(run(['validate', '--rules', 'cluster', HELM]).status).toBe(0);
    expect(run(['validate', '--rules', 'workloads', HELM]).status).toBe(1);
    const unknown = run(['validate', '--rules', 'eks', HELM]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--rules eks: the rule sets are cluster, workloads');
  });

  test('--platform eks adds the rules that hold on EKS only: a Windows pod selected by node affinity gets no address there', () => {
    const affinity = readFileSync(AFFINITY, 'utf8');
    expect(run(['validate', '-'], affinity).status).toBe(0);
    const eks = run(['validate', '--platform', 'eks', '-'], affinity);
    expect(eks.status).toBe(1);
    expect(eks.stdout).toEqual([expect.stringMatching(/^<stdin>:1 Deployment apps\/iis: spec\.template\.spec\.nodeSelector\.kubernetes\.io\/os: must be "windows" on EKS: .+\. Fix: .+\.$/)]);
    // The EKS rules are workload rules: --rules cluster leaves them out.
    expect(run(['validate', '--platform', 'eks', '--rules', 'cluster', '-'], affinity).status).toBe(0);
    const unknown = run(['validate', '--platform', 'openshift', '-'], affinity);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(`--platform openshift: the platforms are ${Object.values(WindowsPlatform).join(', ')}`);
  });

  test('unreadable input, broken YAML and a missing argument exit 2 with a message', () => {
    const broken = run(['validate', '-'], 'kind: Deployment\nmetadata: {name: [\n');
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/^<stdin>:1 YAML error at line \d+, column \d+: /);
    expect(run(['validate', join(FIXTURES, 'missing.yaml')]).status).toBe(2);
    expect(run(['validate']).status).toBe(2);
    expect(run([]).status).toBe(2);
    expect(run(['--help'])).toMatchObject({ status: 0, stdout: expect.arrayContaining(['Usage: cdk-hybrid-windows validate [--rules cluster,workloads] [--platform eks] <file|directory|->...']) });
  });
});
