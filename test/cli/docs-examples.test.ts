import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const DOC = readFileSync(join(ROOT, 'docs', 'validate.md'), 'utf8');
const VALID = readFileSync(join(__dirname, 'fixtures', 'valid.yaml'), 'utf8');
const NO_TOLERATION = readFileSync(join(__dirname, 'inputs', 'windows-no-toleration.yaml'), 'utf8');

/** The fenced block of docs/validate.md under a heading. */
function block(heading: string, language: string): string {
  const section = DOC.slice(DOC.indexOf(heading));
  return new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section)![1];
}

/**
 * A folder whose `kustomize` prints `rendered` and whose `npx` runs this checkout's command
 * (neither kustomize nor the published package is at hand here): the docs' scripts run unchanged.
 */
function shims(rendered: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'docs-examples-'));
  writeFileSync(join(dir, 'rendered.yaml'), rendered);
  writeFileSync(join(dir, 'kustomize'), `#!/bin/sh\ncat ${JSON.stringify(join(dir, 'rendered.yaml'))}\n`);
  // npx --yes cdk-hybrid-windows@<version> validate ... -> node <bin> validate ...
  writeFileSync(join(dir, 'npx'), `#!/bin/sh\n[ "$1" = --yes ] && shift\nshift\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  for (const f of ['kustomize', 'npx']) chmodSync(join(dir, f), 0o755);
  return { dir, env: { ...process.env, PATH: `${dir}:${process.env.PATH}` } };
}

(existsSync(BIN) && existsSync('/bin/sh') ? describe : describe.skip)('docs/validate.md examples, run with kustomize and npx shimmed', () => {
  test('the Argo CD plugin prints the manifests when they pass, and nothing (failing the sync) when they do not', () => {
    const plugin = load(block('### Argo CD', 'yaml')) as { kind: string; spec: { generate: { command: string[]; args: string[] } } };
    expect(plugin.kind).toBe('ConfigManagementPlugin');
    const [shell, flag] = plugin.spec.generate.command;
    // Without the variable, the plugin's default platform (aks) applies.
    for (const [rendered, platform, passes] of [[VALID, 'aks', true], [NO_TOLERATION, 'gke', false], [NO_TOLERATION, '', false]] as const) {
      const { dir, env } = shims(rendered);
      const r = spawnSync(shell, [flag, plugin.spec.generate.args[0]], { cwd: dir, env: { ...env, ...(platform ? { ARGOCD_ENV_WINDOWS_PLATFORM: platform } : {}) }, encoding: 'utf8' });
      expect([r.status === 0, r.stdout]).toEqual(passes ? [true, rendered] : [false, '']);
      if (!passes) expect(r.stderr).toContain('must tolerate the Windows node taint');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the Flux loop fails on the first overlay that breaks a rule', () => {
    const script = block('### Flux and kustomize', 'sh');
    // The loop names gke: a manifest that tolerates GKE's taint passes.
    const gke = VALID.replace('{key: os, operator: Equal', '{key: node.kubernetes.io/os, operator: Equal');
    expect(gke).not.toBe(VALID);
    for (const [rendered, status] of [[gke, 0], [NO_TOLERATION, 1]] as const) {
      const { dir, env } = shims(rendered);
      spawnSync('mkdir', ['-p', join(dir, 'clusters', 'prod', 'apps')]);
      const r = spawnSync('/bin/sh', ['-c', script], { cwd: dir, env, encoding: 'utf8' });
      expect(r.status).toBe(status);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
