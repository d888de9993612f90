import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseNodeTaint } from '../../src/platform/support';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const NO_TOLERATION = readFileSync(join(__dirname, 'inputs', 'windows-no-toleration.yaml'), 'utf8');

function run(args: string[], input?: string, cwd = ROOT): { status: number | null; stdout: string[]; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd });
  return { status: r.status, stdout: r.stdout.split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

/** The Windows Deployment of windows-no-toleration.yaml as a DeploymentList writes it: items without apiVersion and kind. */
function deploymentList(): string {
  const body = NO_TOLERATION.replace(/^#.*\n/gm, '').replace(/^apiVersion: apps\/v1\nkind: Deployment\n/m, '');
  return `apiVersion: apps/v1\nkind: DeploymentList\nmetadata: {resourceVersion: "1"}\nitems:\n${body.split('\n').map((l, i) => (l === '' ? l : `${i === 0 ? '  - ' : '    '}${l}`)).join('\n')}`;
}

(existsSync(BIN) ? describe : describe.skip)('validate reads input as kubectl does (issue 36.5)', () => {
  test('a typed list (DeploymentList) is flattened like v1 List, its items taking the list\'s apiVersion and kind less "List"', () => {
    const list = deploymentList();
    const r = run(['validate', '--platform', 'aks', '-'], list);
    expect(r.status).toBe(1);
    expect(r.stdout).toEqual([expect.stringMatching(/^<stdin>:\d+:\d+ Deployment apps\/iis: spec\.template\.spec\.tolerations: must tolerate the Windows node taint os=windows:NoSchedule/)]);
    expect(run(['validate', '--platform', 'aks', '-'], list.replace('kind: DeploymentList', 'kind: List')).stderr).toContain('(items[0] of a List): kind not set');
    expect(run(['validate', '-'], 'apiVersion: v1\nkind: PodList\nitems: {a: 1}\n')).toMatchObject({ status: 2, stderr: expect.stringContaining('items is a mapping, where kubectl reads a list of objects') });
  });

  test('content after --- on its line is refused as kubectl refuses it', () => {
    const r = run(['validate', '-'], `${NO_TOLERATION}--- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}}\n`);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^<stdin>:\d+:1 YAML error: invalid Yaml document separator: \{apiVersion: v1/);
    expect(run(['validate', '-'], `${NO_TOLERATION}--- # the next one\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n`).status).toBe(0);
  });

  test('empty input and a folder with no manifests exit 2, as kubectl apply does ("no objects passed to apply")', () => {
    expect(run(['validate', '-'], '')).toMatchObject({ status: 2, stderr: expect.stringContaining('no objects passed to validate') });
    expect(run(['validate', '-'], '---\n# nothing\n---\n')).toMatchObject({ status: 2, stderr: expect.stringContaining('hold no Kubernetes object') });
    const dir = mkdtempSync(join(tmpdir(), 'empty-'));
    mkdirSync(join(dir, 'deploy'));
    writeFileSync(join(dir, 'deploy', 'README.md'), '# nothing here\n');
    expect(run(['validate', 'deploy'], undefined, dir)).toMatchObject({ status: 2, stderr: expect.stringContaining('no .yaml, .yml or .json file among the inputs') });
  });

  test('--windows-taint os:NoSchedule, a taint without a value, is accepted; a toleration of it is asked with operator Exists', () => {
    expect(parseNodeTaint('os:NoSchedule')).toEqual({ key: 'os', value: '', effect: 'NoSchedule' });
    const r = run(['validate', '--windows-taint', 'os:NoSchedule', '-'], NO_TOLERATION);
    expect(r.status).toBe(1);
    expect(r.stdout).toEqual([expect.stringContaining('must tolerate the Windows node taint os:NoSchedule, or the pod stays Pending. Fix: add {key: os, operator: Exists, effect: NoSchedule}')]);
    const tolerating = NO_TOLERATION.replace('    spec:\n', '    spec:\n      tolerations: [{key: os, operator: Exists, effect: NoSchedule}]\n');
    expect(tolerating).not.toBe(NO_TOLERATION);
    expect(run(['validate', '--windows-taint', 'os:NoSchedule', '-'], tolerating)).toMatchObject({ status: 0, stdout: [] });
  });
});
