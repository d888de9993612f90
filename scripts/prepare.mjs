// `npm run prepare`: builds lib/src when it is missing. npm runs only `prepare` (not `prepack`) when it
// installs a package from git (npm 11's pacote lib/dir.js #prepareDir: "we *only* run prepare"), which
// is how pre-commit installs a `language: node` hook (`npm install -g git+file://<clone>`,
// pre_commit/languages/node.py). Under that global install npm does not install the dev
// dependencies into the clone (seen with npm 11.19.1 and pre-commit 4.6.2), so TypeScript is run
// from the registry when it is not installed, at the version package.json pins, and without type
// checking (`--noCheck`, per-file emit: the sources build with isolatedModules): checking is the
// job of `npm test`, and the peer dependencies' types are not there either. A checkout that
// already has lib/ is left alone; `npm run build` rebuilds.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
if (!existsSync(join(root, 'lib', 'src', 'cli', 'main.js'))) {
  const args = ['-p', join(root, 'tsconfig.prepare.json'), '--noCheck'];
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    tsc = undefined;
  }
  if (tsc) {
    execFileSync(process.execPath, [tsc, ...args], { stdio: 'inherit', cwd: root });
  } else {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.typescript;
    execFileSync('npm', ['exec', '--yes', `--package=typescript@${version}`, '--', 'tsc', ...args], { stdio: 'inherit', cwd: root });
  }
}
