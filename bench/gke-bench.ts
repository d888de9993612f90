/**
 * Cold synth cost of the GKE stack against the EKS stack, interleaved run by run (E G E G ...):
 * `node lib/examples/gke/main.js` (network, cluster, a Linux and a Windows pool with their service
 * accounts, and the checks that render the stack's Terraform JSON) beside `lib/examples/eks/main.js`.
 * The GKE example must stay within 1.2x of the EKS example's wall time and peak RSS (medians of the
 * run-by-run ratios). Run: `npm run bench` (all cases) or `node lib/bench/gke-bench.js`
 * (BENCH_RUNS=n to change the number of runs); exits 1 when the GKE example is over.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EKS_BENCH_LABEL } from './eks-bench';
import { Measurement, median, measure, report, NODE } from './measure';
import { interleaved } from './plain-baseline-bench';

const ROOT = resolve(__dirname, '..', '..');
export const GKE_BENCH_LABEL = 'synth GKE stack (examples/gke/main.js)';
/** The GKE example's budget against the EKS example's. */
export const GKE_OVER_EKS_MAX = 1.2;

/** The two stacks, interleaved; labels `[interleaved] <EKS_BENCH_LABEL>` and `[interleaved] <GKE_BENCH_LABEL>`. */
export function benchGke(runs: number): Record<string, Measurement> {
  const outdir = mkdtempSync(join(tmpdir(), 'gke-bench-'));
  const once = (example: string) => () => measure([NODE, join(ROOT, `lib/examples/${example}/main.js`)], 1, { cwd: outdir, env: { CDKTF_OUTDIR: join(outdir, 'cdktf.out') } });
  try {
    const results = interleaved(runs, { [EKS_BENCH_LABEL]: once('eks'), [GKE_BENCH_LABEL]: once('gke') });
    return Object.fromEntries(Object.entries(results).map(([label, m]) => [`[interleaved] ${label}`, m]));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** GKE over EKS: medians of the run-by-run ratios of wall time and peak RSS, and whether both are within the budget. */
export function gkeOverEks(results: Record<string, Measurement>): { wall: number; rss?: number; ok: boolean; line: string } {
  const eks = results[`[interleaved] ${EKS_BENCH_LABEL}`];
  const gke = results[`[interleaved] ${GKE_BENCH_LABEL}`];
  const wall = median(gke.wallMs.map((ms, i) => ms / eks.wallMs[i]));
  const rss = gke.maxRssMiB.length ? median(gke.maxRssMiB.map((mib, i) => mib / eks.maxRssMiB[i])) : undefined;
  const cpu = gke.cpuMs.length ? median(gke.cpuMs.map((ms, i) => ms / eks.cpuMs[i])) : undefined;
  const ok = wall <= GKE_OVER_EKS_MAX && (rss ?? 0) <= GKE_OVER_EKS_MAX;
  const line = `GKE example / EKS example (interleaved, medians of run-by-run ratios): ${wall.toFixed(2)}x wall${cpu === undefined ? '' : `, ${cpu.toFixed(2)}x CPU`}${rss === undefined ? '' : `, ${rss.toFixed(2)}x peak RSS`}; `
    + `budget ${GKE_OVER_EKS_MAX}x: ${ok ? 'met' : 'MISSED'}`;
  return { wall, rss, ok, line };
}

if (require.main === module) {
  const results = benchGke(Number(process.env.BENCH_RUNS ?? 7));
  for (const [label, m] of Object.entries(results)) console.log(report(label, m));
  const verdict = gkeOverEks(results);
  console.log(verdict.line);
  if (!verdict.ok) process.exitCode = 1;
}
