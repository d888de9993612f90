/**
 * Turns on Node.js's module compile cache (`module.enableCompileCache()`, Node.js 22.1 and later)
 * for the `cdk-hybrid-windows` command, before it loads the rules: from the second run on, V8 reads
 * each module's compiled code from disk instead of compiling it again (docs/benchmarks.md).
 *
 * Only the command does this, as a tool (nodejs/node#54501 made the API "for tools"): the cache
 * applies to every module the process loads after it, writes to the OS temp directory and makes
 * V8's coverage less precise, which a library must not impose on the app that imports it. An app
 * gets the same for `cdk8s synth` by setting `NODE_COMPILE_CACHE=<dir>` (README).
 *
 * Node.js chooses the directory (`NODE_COMPILE_CACHE`, else `node-compile-cache` in the OS temp
 * directory) and keys each entry by the module's content. `NODE_DISABLE_COMPILE_CACHE=1` turns it
 * off. It never throws: a cache that cannot be written is skipped.
 */
import * as nodeModule from 'node:module';

// Absent before Node.js 22.1 (and from @types/node 20's declarations): nothing to do there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
