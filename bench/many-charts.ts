/**
 * Many HybridCharts of 10 Windows and 10 Linux workloads each: how synth time grows with the
 * number of charts. Run: `node lib/bench/many-charts.js <charts>` (writes to $CDK8S_OUTDIR or dist-bench/).
 */
import { App } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { HybridChart, WindowsWorkload } from '../src/workloads';

export const WORKLOADS_PER_OS = 10;

export function buildManyCharts(app: App, charts: number): void {
  for (let c = 0; c < charts; c++) {
    const chart = new HybridChart(app, `apps${c}`, { disableResourceNameHashes: true });
    for (let w = 0; w < WORKLOADS_PER_OS; w++) {
      new WindowsWorkload(chart, `win${w}`, { image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', port: 80 });
      new kplus.Deployment(chart, `linux${w}`, { containers: [{ image: 'nginxinc/nginx-unprivileged:1.27-alpine', portNumber: 8080 }] });
    }
  }
}

if (require.main === module) {
  const app = new App({ outdir: process.env.CDK8S_OUTDIR ?? 'dist-bench' });
  buildManyCharts(app, Number(process.argv[2] ?? 5));
  app.synth();
}
