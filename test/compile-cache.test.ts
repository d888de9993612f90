import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every entry point of package.json `exports` turns on Node.js's module compile cache before it
 * loads anything else (src/core/compile-cache.ts), so that its modules are the ones cached.
 */
const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { default?: string }> };
const entries = Object.entries(pkg.exports)
  .map(([subpath, target]) => [subpath, typeof target === 'string' ? target : target.default] as const)
  .filter((e): e is readonly [string, string] => e[1]?.endsWith('.js') === true);

(existsSync(join(ROOT, 'lib', 'src', 'index.js')) ? describe : describe.skip)('the compile cache', () => {
  test.each(entries)('%s requires src/core/compile-cache first', (_subpath, file) => {
    const requires = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(requires[0]).toMatch(/(^|\/)core\/compile-cache$/);
  });

  // Node.js 22.1 and later (`engines`); `BENCH_NODE` names one when the machine's is older.
  const node = process.env.BENCH_NODE ?? process.execPath;
  const major = Number(/^v(\d+)/.exec(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout)?.[1]);
  (major >= 22 ? test : test.skip)('is on once the package root is loaded, in the OS temp directory, and off with NODE_DISABLE_COMPILE_CACHE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    try {
      const script = 'const m = require("node:module"); const before = m.getCompileCacheDir(); require("./lib/src/index.js"); console.log(JSON.stringify([before ?? null, m.getCompileCacheDir() ?? null]))';
      const run = (env: Record<string, string>) => {
        // Neither variable from this process: with NODE_COMPILE_CACHE set, Node.js turns the cache on by itself.
        const rest = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^NODE_(DISABLE_)?COMPILE_CACHE$/.test(k)));
        const r = spawnSync(node, ['-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...rest, ...env } });
        expect(r.stderr).toBe('');
        return JSON.parse(r.stdout) as [string | null, string | null];
      };
      // Node.js's default directory is in the OS temp directory (TMPDIR).
      const [before, after] = run({ TMPDIR: dir });
      expect(before).toBeNull();
      expect(after?.startsWith(dir)).toBe(true);
      // The package's own modules were compiled with the cache on, so they are in it.
      expect(readdirSync(after!).length).toBeGreaterThan(50);
      expect(run({ TMPDIR: dir, NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual([null, null]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
