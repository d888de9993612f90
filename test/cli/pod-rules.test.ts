import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKLOAD_RULES } from '../../src';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const NO_TOLERATION = readFileSync(join(__dirname, 'inputs', 'windows-no-toleration.yaml'), 'utf8');

/** The Windows Deployment with a hostPort and a memory-backed emptyDir, the hostPort accepted by an annotation. */
const POD = NO_TOLERATION
  .replace('  namespace: apps', '  namespace: apps\n  annotations:\n    ignore-rule.cdk-hybrid-windows.io/windows-host-port: "the node-local agent is reached on the host"')
  .replace('          resources:', '          ports: [{containerPort: 80, hostPort: 8080}]\n          volumeMounts: [{name: cache, mountPath: C:\\cache}]\n          resources:')
  .replace('      containers:', '      volumes: [{name: cache, emptyDir: {medium: Memory}}]\n      containers:');

function run(args: string[], input: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout.split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

(existsSync(BIN) ? describe : describe.skip)('one rule, one concern (issue 36.2)', () => {
  test('suppressing the hostPort finding leaves the memory emptyDir finding standing', () => {
    expect(POD).toContain('hostPort: 8080');
    const r = run(['validate', '--show-suppressed', '-'], POD);
    expect(r.status).toBe(1);
    expect(r.stdout).toEqual([expect.stringMatching(/emptyDir\.medium: Windows cannot back an emptyDir with memory.* \[windows-memory-emptydir\]$/)]);
    expect(r.stderr).toMatch(/suppressed \(annotation ignore-rule\.cdk-hybrid-windows\.io\/windows-host-port: the node-local agent is reached on the host\): .*hostPort.* \[windows-host-port\]/);
    expect(r.stderr).toContain('1 violation in 1 object, 1 suppressed');
  });

  test('each pod rule has its own entry in docs/rules.md and its own SARIF rule', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8');
    const names = WORKLOAD_RULES.map((r) => r.name).filter((n) => /^(pod-os-|windows-)/.test(n) && n !== 'windows-nodes');
    expect(names).toEqual(expect.arrayContaining(['pod-os-validation', 'windows-toleration', 'windows-host-port', 'windows-memory-emptydir', 'windows-mount-propagation', 'windows-requests']));
    for (const name of names) expect(doc).toContain(name);
    const sarif = JSON.parse(run(['validate', '--format', 'sarif', '-'], POD.replace(/ {4}ignore-rule.*\n/, '')).stdout.join('\n'));
    const ids = sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining(['windows-host-port', 'windows-memory-emptydir']));
    expect(ids).not.toContain('pod-template');
  });
});
