/**
 * A 50-pool cluster (25 Linux, 25 Windows) over two zones (a MachineDeployment and a
 * K0sWorkerConfigTemplate per pool and zone: 304 objects), synthesized like the default example:
 * the large case of `npm run bench`. Run: `node lib/bench/fifty-pools.js [autoscaling]` (writes to $CDK8S_OUTDIR or dist-bench/);
 * `autoscaling` makes every pool autoscaled (Linux 2 to 4 machines, Windows 0 to 4), with the autoscaler's annotations.
 */
import { App, Chart } from 'cdk8s';
import { HybridCluster, LinuxWorkerPool, MachineImage, WindowsWorkerPool } from '../src';

export const POOLS = 50;

/** A cluster of `pools` pools, half Linux and half Windows (`bench/large-app.ts` builds 100), autoscaled or of fixed size. */
export function buildFiftyPools(app: App, pools: number = POOLS, autoscaling = false): Chart {
  const chart = new Chart(app, `${pools === POOLS ? 'fifty' : pools}-pools`, { disableResourceNameHashes: true });
  const cluster = new HybridCluster(chart, 'big', {
    region: 'eu-north-1',
    zones: ['eu-north-1a', 'eu-north-1b'],
    k0sVersion: 'v1.34.10+k0s.0',
    controlPlane: { replicas: 3, instanceType: 'm6i.large', ami: MachineImage.id('ami-0fa91bc90632c73c9') },
  });
  for (let i = 0; i < pools / 2; i++) {
    const [linux, windows] = autoscaling ? [{ autoscaling: { min: 2, max: 4 } }, { autoscaling: { min: 0, max: 4 } }] : [{ replicas: 2 }, { replicas: 2 }];
    new LinuxWorkerPool(cluster, `l${i}`, { ...linux, instanceType: 'm6i.large', ami: MachineImage.id('ami-0fa91bc90632c73c9') });
    new WindowsWorkerPool(cluster, `w${i}`, { ...windows, instanceType: 'm6i.xlarge', ami: MachineImage.id('ami-010e40c6557403885') });
  }
  return chart;
}

if (require.main === module) {
  const app = new App({ outdir: process.env.CDK8S_OUTDIR ?? 'dist-bench' });
  buildFiftyPools(app, POOLS, process.argv[2] === 'autoscaling');
  app.synth();
}
