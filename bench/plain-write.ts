/**
 * The baselines of the library's synth: the same objects (read from a JSON file of the library's
 * output, `{ <chart>: [objects] }`, one entry per YAML file it wrote) written without this library.
 *
 * - `node lib/bench/plain-write.js yaml <objects.json> <outdir>`: `yaml` stringify to one file, the
 *   floor of any YAML writer in Node.js.
 * - `node lib/bench/plain-write.js cdk8s <objects.json> <outdir>`: each object as a plain cdk8s
 *   `ApiObject`, in as many charts as the library wrote, `App.synth()`: what cdk8s itself costs for
 *   them (cdk8s validates the whole app once per chart, so the number of charts counts too).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App as AppType } from 'cdk8s';

/** The objects of each chart, as `bench/plain-baseline-bench.ts` writes them to the JSON file. */
export type ChartObjects = Record<string, Array<{ apiVersion: string; kind: string; metadata: { name: string } }>>;

/**
 * Adds each chart's objects to `app` as plain `ApiObject`s (also `bench/phases.ts`'s plain mode).
 * `cdk8s` is passed in, not imported, so that the caller decides when it is loaded.
 */
export function addPlainCharts(cdk8s: typeof import('cdk8s'), app: AppType, charts: ChartObjects): void {
  for (const [name, objects] of Object.entries(charts)) {
    const chart = new cdk8s.Chart(app, name, { disableResourceNameHashes: true });
    objects.forEach((o, i) => new cdk8s.ApiObject(chart, `o${i}`, o));
  }
}

if (require.main === module) {
  const [mode, objectsFile, outdir] = process.argv.slice(2);
  const charts: ChartObjects = JSON.parse(readFileSync(objectsFile, 'utf8'));
  if (mode === 'yaml') {
    // Required here, not imported: the cdk8s mode must not pay for it twice.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { stringify } = require('yaml') as typeof import('yaml');
    mkdirSync(outdir, { recursive: true });
    for (const [name, objects] of Object.entries(charts)) writeFileSync(join(outdir, `${name}.k8s.yaml`), objects.map((o) => stringify(o)).join('---\n'));
  } else if (mode === 'cdk8s') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const cdk8s = require('cdk8s') as typeof import('cdk8s');
    const app = new cdk8s.App({ outdir });
    addPlainCharts(cdk8s, app, charts);
    app.synth();
  } else {
    throw new Error(`mode must be yaml or cdk8s, not ${mode}`);
  }
}
