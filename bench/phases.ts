/**
 * Where a case's CPU time goes beside plain cdk8s writing the same objects, phase by phase within
 * one process: loading cdk8s, loading this library (the case's modules), building the constructs
 * (construction-time rules included), and `App.synth()` (the rules at synth, the render and the
 * YAML write). Node's own start-up, the same for both, is not in the figures.
 *
 * `node lib/bench/phases.js example|large <outdir>` (the default example; the large app,
 * bench/large-app.ts) or `node lib/bench/phases.js plain <outdir> <objects.json>` (bench/plain-write.ts)
 * prints one JSON line of milliseconds; `npm run bench` runs them in turn and prints the medians.
 * Modules are required here, not imported, so that each phase's loading is counted in its phase.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type { App as AppType } from 'cdk8s';

const [mode, outdir, objectsFile] = process.argv.slice(2);
const start = process.cpuUsage();
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};
const at: Record<string, number> = {};

const cdk8s = require('cdk8s') as typeof import('cdk8s');
at.cdk8s = cpuMs();
let build: (app: AppType) => unknown;
if (mode === 'example') {
  const { buildCluster } = require('../examples/k0smotron-aws/main') as typeof import('../examples/k0smotron-aws/main');
  build = (app) => buildCluster(app);
} else if (mode === 'large') {
  const { buildLargeApp } = require('./large-app') as typeof import('./large-app');
  build = (app) => buildLargeApp(app);
} else if (mode === 'plain') {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const { addPlainCharts } = require('./plain-write') as typeof import('./plain-write');
  const charts = JSON.parse(readFileSync(objectsFile, 'utf8'));
  build = (app) => addPlainCharts(cdk8s, app, charts);
} else {
  throw new Error(`mode must be example, large or plain, not ${mode}`);
}
at.library = cpuMs();
const app = new cdk8s.App({ outdir });
build(app);
at.construct = cpuMs();
app.synth();
at.synth = cpuMs();

// Each phase's own time: the difference from the phase before.
const phases = Object.keys(at);
console.log(JSON.stringify(Object.fromEntries(phases.map((p, i) => [p, at[p] - (i ? at[phases[i - 1]] : 0)]))));
