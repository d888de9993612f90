/**
 * The large app: a 100-pool cluster (50 Linux, 50 Windows, over two zones) and 1,000 workloads
 * (50 HybridCharts of 10 Windows and 10 Linux workloads) in one cdk8s app, synthesized at once.
 * `npm run bench` holds it under 3 s. Run: `node lib/bench/large-app.js` (writes to $CDK8S_OUTDIR or dist-bench/).
 */
import { App } from 'cdk8s';
import { buildFiftyPools } from './fifty-pools';
import { buildManyCharts } from './many-charts';

export const LARGE_POOLS = 100;
export const LARGE_CHARTS = 50;

export function buildLargeApp(app: App): void {
  buildFiftyPools(app, LARGE_POOLS);
  buildManyCharts(app, LARGE_CHARTS);
}

if (require.main === module) {
  const app = new App({ outdir: process.env.CDK8S_OUTDIR ?? 'dist-bench' });
  buildLargeApp(app);
  app.synth();
}
