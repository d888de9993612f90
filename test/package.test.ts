import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  scripts: Record<string, string>;
  bin: Record<string, string>;
  engines: { node: string };
  repository?: { url?: string };
  homepage?: string;
  keywords?: string[];
  exports: Record<string, string | { types?: string; default?: string }>;
  typesVersions?: Record<string, Record<string, string[]>>;
};

/** What `npm pack` would put in the tarball (`package.json` `files`; npm adds LICENSE and README itself), without running scripts. */
function packed(): string[] {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm pack --dry-run failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}

// The compiled entry points exist once `tsc -b` ran (`npm test` runs it first).
(existsSync(join(ROOT, 'lib', 'src', 'index.js')) ? describe : describe.skip)('the npm package (issue 9.6)', () => {
  const files = packed();

  test('ships the license text, the README, the changelog and every doc', () => {
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]));
    expect(pkg.license).toBe('Apache-2.0');
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toContain('Apache License');
    expect(license).toContain('Version 2.0, January 2004');
    expect(license).toContain('END OF TERMS AND CONDITIONS');
  });

  test('ships every file an entry point of package.json `exports` names', () => {
    const targets = Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [t] : [t.types, t.default]))
      .filter((t): t is string => t !== undefined)
      .map((t) => t.replace(/^\.\//, ''));
    expect(targets.length).toBeGreaterThan(2);
    expect(files).toEqual(expect.arrayContaining(targets));
  });

  // `cdk8s init`'s tsconfig (module CommonJS, so moduleResolution node10) ignores `exports`: there,
  // TypeScript finds a subpath's types through `typesVersions` only (TypeScript handbook, "Modules
  // Reference", node10 and typesVersions).
  test('every subpath in `exports` has its types in `typesVersions`, for node10 resolution', () => {
    const mapped = pkg.typesVersions?.['*'] ?? {};
    const missing = Object.entries(pkg.exports)
      .filter(([subpath, t]) => subpath !== '.' && typeof t !== 'string' && t.types !== undefined)
      .filter(([subpath, t]) => !(mapped[subpath.replace(/^\.\//, '')] ?? []).includes((t as { types: string }).types.replace(/^\.\//, '')))
      .map(([subpath]) => subpath);
    expect(missing).toEqual([]);
  });

  test('ships no tests, examples, benchmarks or TypeScript sources', () => {
    expect(files.filter((f) => /^(src|test|examples|bench|lib\/test|lib\/examples|lib\/bench)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
  });

  // npm runs these in every project that installs the package (npm docs, "scripts": "Life Cycle
  // Scripts"); prepack runs only where the tarball is made, and prepare only in a checkout and for
  // an install from git ("If a package being installed through git contains a prepare script, its
  // dependencies and devDependencies will be installed, and the prepare script will be run"), never
  // for the registry's tarball: it is how the pre-commit hook gets lib/ (scripts/prepare.mjs).
  test('ships no install-time script, and says where it lives and what it is about', () => {
    expect(Object.keys(pkg.scripts).filter((s) => ['preinstall', 'install', 'postinstall'].includes(s))).toEqual([]);
    expect(pkg.scripts.prepare).toBe('node scripts/prepare.mjs');
    expect(pkg.scripts.prepack).toMatch(/^tsc -b( |$)/);
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.keywords).toEqual(expect.arrayContaining(['cdk8s', 'cdktn', 'cdktf', 'kubernetes', 'windows']));
  });

  // npm installs a peer dependency unless peerDependenciesMeta marks it optional (npm docs,
  // package.json "peerDependenciesMeta"): a cdk8s-only or AWS-only project must get no azurerm.
  test('the Terraform packages are optional peers, each pinned as a devDependency inside its peer range; azurerm gets the project\'s cdktn', () => {
    const full = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>; overrides: Record<string, Record<string, string>>;
    };
    for (const name of ['cdktn', '@cdktn/provider-aws', '@cdktn/provider-azurerm']) {
      expect([name, full.peerDependenciesMeta[name]?.optional]).toEqual([name, true]);
      expect([name, full.devDependencies[name]]).toEqual([name, expect.stringMatching(/^\d+\.\d+\.\d+$/)]);
    }
    expect(full.devDependencies['@cdktn/provider-azurerm']).toBe('16.1.0');
    expect(full.overrides).toEqual({ '@cdktn/provider-azurerm': { cdktn: '$cdktn' } });
    // The provider's own peer range excludes our cdktn: the override is what lets it install.
    const azurerm = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@cdktn', 'provider-azurerm', 'package.json'), 'utf8')) as { peerDependencies: Record<string, string>; cdktf?: { provider?: { version?: string } } };
    expect(azurerm.peerDependencies.cdktn).toBe('^0.23.0');
    expect(azurerm.cdktf?.provider?.version).toBe('4.73.0');
  });

  test('the bin is shipped and starts with a node shebang; the Node.js floor is the LTS line CDK Terrain needs', () => {
    const bin = pkg.bin['cdk-hybrid-windows'];
    expect(files).toContain(bin);
    expect(readFileSync(join(ROOT, bin), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    // @cdktn/provider-aws 25 declares node >= 22.11.0.
    const provider = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@cdktn', 'provider-aws', 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${provider.engines.node.replace(/^>=\s*/, '')}`);
  });
});
