import { spawnSync } from 'node:child_process';

/**
 * Loads a compiled entry point in a fresh Node process, as an installed package is loaded, with
 * `hidden` packages made unresolvable (a project that lacks them).
 */
export function loadWithout(hidden: string[], entry: string): { status: number | null; stderr: string } {
  const script = `
    const Module = require('node:module');
    const original = Module._resolveFilename;
    const hidden = ${JSON.stringify(hidden)};
    Module._resolveFilename = function (request, ...rest) {
      if (hidden.includes(request)) throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' });
      return original.call(this, request, ...rest);
    };
    require(${JSON.stringify(entry)});`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}
