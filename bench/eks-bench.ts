/**
 * Cold synth cost of the EKS stack: `node lib/examples/eks/main.js` (network, cluster, add-ons,
 * a Linux and a Windows node group, and the checks that render the stack's Terraform JSON), in
 * fresh processes, median wall time and peak RSS. Run: `npm run bench` (all cases) or
 * `node lib/bench/eks-bench.js` (BENCH_RUNS=n to change the number of runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Measurement, measure, report, NODE } from './measure';

const ROOT = resolve(__dirname, '..', '..');
export const EKS_BENCH_LABEL = 'synth EKS stack (examples/eks/main.js)';

export function benchEks(runs: number): Record<string, Measurement> {
  const outdir = mkdtempSync(join(tmpdir(), 'eks-bench-'));
  try {
    return {
      [EKS_BENCH_LABEL]: measure([NODE, join(ROOT, 'lib/examples/eks/main.js')], runs, { cwd: outdir, env: { CDKTF_OUTDIR: join(outdir, 'cdktf.out') } }),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  for (const [label, m] of Object.entries(benchEks(runs))) console.log(report(label, m));
}
