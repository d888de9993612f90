/**
 * The large app of issue 37: a 100-pool cluster (50 Linux, 50 Windows, over two zones) and 1,000
 * Windows workloads beside 1,000 Linux Deployments (100 HybridCharts of 10 of each), in one cdk8s app,
 * synthesized at once. `npm run bench` compares it with plain cdk8s writing the same objects
 * (bench/plain-baseline-bench.ts) and with a tenth of it (10 pools, 10 charts: the growth with the work).
 * Run: `node lib/bench/large-app.js [tenth]` (writes to $CDK8S_OUTDIR or dist-bench/).
 */
import { App } from 'cdk8s';
import { buildFiftyPools } from './fifty-pools';
import { buildManyCharts } from './many-charts';

export const LARGE_POOLS = 100;
export const LARGE_CHARTS = 100;

/** The large app, or with `tenth` a tenth of it: 10 pools and 10 charts. */
export function buildLargeApp(app: App, tenth = false): void {
  buildFiftyPools(app, tenth ? LARGE_POOLS / 10 : LARGE_POOLS);
  buildManyCharts(app, tenth ? LARGE_CHARTS / 10 : LARGE_CHARTS);
}

if (require.main === module) {
  const app = new App({ outdir: process.env.CDK8S_OUTDIR ?? 'dist-bench' });
  buildLargeApp(app, process.argv[2] === 'tenth');
  app.synth();
}
