/**
 * Turns on Node.js's module compile cache (`module.enableCompileCache()`, Node.js 22.1 and later)
 * when an entry point of the package loads, before the entry point's own modules: from the second
 * process on, V8 reads each module's compiled code from disk instead of compiling it again. A cold
 * `cdk8s synth` of the default example spends about a fifth of its CPU time compiling this
 * package's modules (docs/benchmarks.md, "Against plain cdk8s under Node 22").
 *
 * Node.js chooses the directory (`NODE_COMPILE_CACHE`, else `node-compile-cache` in the OS temp
 * directory) and keys each entry by the module's content, so an edited module is compiled afresh.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off; an application that already enabled it keeps its
 * directory. It applies to every module loaded after it in the process, not only to this package's,
 * and never throws: a cache that cannot be written is skipped (Node.js reports a status, which
 * nothing here needs).
 */
import * as nodeModule from 'node:module';

// Absent before Node.js 22.1 (and from @types/node 20's declarations): nothing to do there.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
