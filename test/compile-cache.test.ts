import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Node.js's module compile cache (src/core/compile-cache.ts) is turned on by the command alone: a
 * tool may choose it for its process, a library may not for the app that imports it (the cache
 * covers every module loaded after it, writes to the temp directory and blurs V8's coverage).
 */
const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; exports: Record<string, string | { default?: string }> };
const entries = Object.entries(pkg.exports)
  .map(([subpath, target]) => [subpath, typeof target === 'string' ? target : target.default] as const)
  .filter((e): e is readonly [string, string] => e[1]?.endsWith('.js') === true);
const bin = Object.values(pkg.bin)[0];

// Node.js 22.1 and later (`engines`); `BENCH_NODE` names one when the machine's is older.
const node = process.env.BENCH_NODE ?? process.execPath;
const major = Number(/^v(\d+)/.exec(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout)?.[1]);

(existsSync(join(ROOT, 'lib', 'src', 'index.js')) ? describe : describe.skip)('the compile cache', () => {
  test('the command requires src/core/compile-cache first', () => {
    const requires = [...readFileSync(join(ROOT, bin), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(requires[0]).toMatch(/(^|\/)core\/compile-cache$/);
  });

  /** Runs `script` under `node` with TMPDIR in a fresh folder and neither compile-cache variable; returns the folder's entries after. */
  function run(args: string[], env: Record<string, string> = {}): { stdout: string; tmp: string[] } {
    const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    try {
      // With NODE_COMPILE_CACHE set, Node.js turns the cache on by itself.
      const rest = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^NODE_(DISABLE_)?COMPILE_CACHE$/.test(k)));
      const r = spawnSync(node, args, { cwd: ROOT, encoding: 'utf8', env: { ...rest, TMPDIR: dir, ...env } });
      expect(r.stderr).toBe('');
      return { stdout: r.stdout, tmp: readdirSync(dir) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  // Node.js before 22.1 has no compile cache: nothing to tell there.
  (major >= 22 ? test : test.skip).each(entries)('loading %s leaves it off and writes nothing', (_subpath, file) => {
    const script = `const m = require("node:module"); require(${JSON.stringify(join(ROOT, file))}); console.log(JSON.stringify(m.getCompileCacheDir?.() ?? null))`;
    const { stdout, tmp } = run(['-e', script]);
    expect(JSON.parse(stdout)).toBeNull();
    expect(tmp).toEqual([]);
  });

  (major >= 22 ? test : test.skip)('the command fills it in the OS temp directory, and NODE_DISABLE_COMPILE_CACHE turns it off', () => {
    expect(run([join(ROOT, bin), '--version']).tmp).toEqual(['node-compile-cache']);
    expect(run([join(ROOT, bin), '--version'], { NODE_DISABLE_COMPILE_CACHE: '1' }).tmp).toEqual([]);
  });
});
