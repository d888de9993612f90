/**
 * `node lib/bench/js-yaml-load.js <file>`: js-yaml's `loadAll` of a file and nothing else, the
 * baseline of the validator's speed (the fastest YAML reader for Node.js that keeps to the spec).
 */
import { readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';

loadAll(readFileSync(process.argv[2], 'utf8'));
