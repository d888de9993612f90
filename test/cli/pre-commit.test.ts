import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
interface Hook { id: string; entry: string; language: string; files: string; exclude?: string; pass_filenames?: boolean }
const HOOKS = load(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const [hook] = HOOKS;

/** Runs a hook as pre-commit does: its entry, the package's bin for the command, the files as arguments. */
function runHook(hook: Hook, files: string[]) {
  const [command, ...args] = hook.entry.split(' ');
  expect(command).toBe(Object.keys(PKG.bin)[0]);
  const bin = join(ROOT, PKG.bin[command]);
  const matched = files.filter((f) => new RegExp(hook.files).test(f) && !(hook.exclude && new RegExp(hook.exclude).test(f)));
  return { matched, ...spawnSync(process.execPath, [bin, ...args, ...matched], { cwd: ROOT, encoding: 'utf8' }) };
}

(existsSync(join(ROOT, 'lib', 'src', 'cli', 'main.js')) ? describe : describe.skip)('.pre-commit-hooks.yaml', () => {
  test('declares one node hook whose entry is the package\'s bin, taking the changed files', () => {
    expect(HOOKS).toHaveLength(1);
    expect(hook).toMatchObject({ id: 'cdk-hybrid-windows-validate', language: 'node', entry: 'cdk-hybrid-windows validate --skip-non-manifests' });
    expect(hook.pass_filenames ?? true).toBe(true);
  });

  test('the declared command passes valid manifests and fails on a violation, on the files its pattern selects', () => {
    const valid = runHook(hook, ['test/cli/fixtures/valid.yaml', 'README.md']);
    expect(valid.matched).toEqual(['test/cli/fixtures/valid.yaml']);
    expect(valid.status).toBe(0);
    const broken = runHook(hook, ['test/cli/fixtures/helm-web.yaml', 'test/cli/inputs/eks.tf.json', '.cdk-hybrid-windows.yaml']);
    expect(broken.matched).toEqual(['test/cli/fixtures/helm-web.yaml', 'test/cli/inputs/eks.tf.json']);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/^test\/cli\/fixtures\/helm-web\.yaml:\d+:\d+ Job apps\/migrate /m);
    expect(broken.stdout).toMatch(/^test\/cli\/inputs\/eks\.tf\.json:\d+:\d+ aws_eks_node_group windows: /m);
  });
});

/** Runs a command; throws with its output when it fails. */
function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * pre-commit installs a `language: node` hook with `npm install -g git+file://<clone>`
 * (pre_commit/languages/node.py, 4.6.2), and npm 11 prepares a git dependency by installing its
 * dev dependencies and running `prepare` alone (pacote lib/dir.js #prepareDir), then packs it by
 * its `files` and installs the tarball. This runs those steps on a clone of the committed checkout,
 * with this checkout's node_modules standing in for the dev install (the same lockfile) so that the
 * test needs no download: the clone's prepare must leave a bin to run.
 */
(existsSync(join(ROOT, '.git')) && existsSync(join(ROOT, 'node_modules', 'typescript')) ? describe : describe.skip)('the hook as pre-commit installs it, in a fresh repository (issue 36.4)', () => {
  jest.setTimeout(600_000);

  test('the package builds in prepare, installs with its bin, and the hook passes over non-manifests', () => {
    const work = mkdtempSync(join(tmpdir(), 'pre-commit-'));
    const clone = join(work, 'clone');
    sh('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], work);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    sh('npm', ['run', '--silent', 'prepare'], clone);
    expect(existsSync(join(clone, 'lib', 'src', 'cli', 'main.js'))).toBe(true);
    const packed = JSON.parse(sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], clone))[0];
    expect(packed.files.map((f: { path: string }) => f.path)).toContain('lib/src/cli/main.js');
    const prefix = join(work, 'env');
    sh('npm', ['install', '-g', '--prefer-offline', '--no-audit', '--no-fund', '--install-links', '--prefix', prefix, join(work, packed.filename)], work);
    const bin = join(prefix, 'bin', Object.keys(PKG.bin)[0]);
    expect(existsSync(bin)).toBe(true);

    // A fresh repository as users have them: manifests beside files that are no Kubernetes objects.
    const repo = join(work, 'repo');
    const files: Record<string, string> = {
      'deploy/app.yaml': readFileSync(join(ROOT, 'test', 'cli', 'fixtures', 'valid.yaml'), 'utf8'),
      'package.json': '{"name": "app", "version": "1.0.0"}\n',
      '.pre-commit-config.yaml': 'repos:\n  - repo: local\n    hooks: []\n',
      '.github/workflows/ci.yml': 'on: push\njobs:\n  test: {runs-on: ubuntu-latest, steps: [{run: make}]}\n',
      'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'charts/web/values.yaml': 'replicas: 2\n',
      'charts/web/templates/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(repo, name, '..'), { recursive: true });
      writeFileSync(join(repo, name), text);
    }
    sh('git', ['init', '--quiet'], repo);
    const [command, ...args] = hook.entry.split(' ');
    expect(command).toBe(Object.keys(PKG.bin)[0]);
    // pre-commit's file selection: re.search of files, minus exclude.
    const selected = (names: string[]) => names.filter((f) => new RegExp(hook.files).test(f) && !(hook.exclude && new RegExp(hook.exclude).test(f)));
    const matched = selected(Object.keys(files));
    expect(matched.sort()).toEqual(['.github/workflows/ci.yml', '.pre-commit-config.yaml', 'charts/web/Chart.yaml', 'charts/web/values.yaml', 'deploy/app.yaml', 'package.json']);
    const pass = spawnSync(bin, [...args, ...matched], { cwd: repo, encoding: 'utf8' });
    expect([pass.status, pass.stdout]).toEqual([0, '']);
    writeFileSync(join(repo, 'deploy', 'bad.yaml'), readFileSync(join(ROOT, 'test', 'cli', 'fixtures', 'helm-web.yaml'), 'utf8'));
    const fail = spawnSync(bin, [...args, ...selected([...Object.keys(files), 'deploy/bad.yaml'])], { cwd: repo, encoding: 'utf8' });
    expect(fail.status).toBe(1);
    expect(fail.stdout).toMatch(/^deploy\/bad\.yaml:53:22 Job apps\/migrate .*\[windows-memory-emptydir\]$/m);
    // Only what is changed and no manifest: nothing to judge, the hook passes.
    expect(spawnSync(bin, [...args, 'package.json'], { cwd: repo, encoding: 'utf8' }).status).toBe(0);
  });
});
