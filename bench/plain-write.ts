/**
 * The baselines of the default example's synth: the same objects (read from a JSON file of the
 * example's output) written without this library.
 *
 * - `node lib/bench/plain-write.js yaml <objects.json> <outdir>`: `yaml` stringify to one file, the
 *   floor of any YAML writer in Node.js.
 * - `node lib/bench/plain-write.js cdk8s <objects.json> <outdir>`: each object as a plain cdk8s
 *   `ApiObject` in one chart, `App.synth()`: what cdk8s itself costs for them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [mode, objectsFile, outdir] = process.argv.slice(2);
const objects: Array<{ apiVersion: string; kind: string; metadata: { name: string } }> = JSON.parse(readFileSync(objectsFile, 'utf8'));
if (mode === 'yaml') {
  // Required here, not imported: the cdk8s mode must not pay for it twice.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { stringify } = require('yaml') as typeof import('yaml');
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, 'objects.k8s.yaml'), objects.map((o) => stringify(o)).join('---\n'));
} else if (mode === 'cdk8s') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ApiObject, App, Chart } = require('cdk8s') as typeof import('cdk8s');
  const app = new App({ outdir });
  const chart = new Chart(app, 'objects', { disableResourceNameHashes: true });
  objects.forEach((o, i) => new ApiObject(chart, `o${i}`, o));
  app.synth();
} else {
  throw new Error(`mode must be yaml or cdk8s, not ${mode}`);
}
