import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
interface Hook { id: string; entry: string; language: string; files: string; exclude?: string; pass_filenames?: boolean }
const HOOKS = load(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

/** Runs a hook as pre-commit does: its entry, the package's bin for the command, the files as arguments. */
function runHook(hook: Hook, files: string[]) {
  const [command, ...args] = hook.entry.split(' ');
  expect(command).toBe(Object.keys(PKG.bin)[0]);
  const bin = join(ROOT, PKG.bin[command]);
  const matched = files.filter((f) => new RegExp(hook.files).test(f) && !(hook.exclude && new RegExp(hook.exclude).test(f)));
  return { matched, ...spawnSync(process.execPath, [bin, ...args, ...matched], { cwd: ROOT, encoding: 'utf8' }) };
}

(existsSync(join(ROOT, 'lib', 'src', 'cli', 'main.js')) ? describe : describe.skip)('.pre-commit-hooks.yaml', () => {
  const [hook] = HOOKS;

  test('declares one node hook whose entry is the package\'s bin, taking the changed files', () => {
    expect(HOOKS).toHaveLength(1);
    expect(hook).toMatchObject({ id: 'cdk-hybrid-windows-validate', language: 'node', entry: 'cdk-hybrid-windows validate' });
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
