/**
 * Cold synth cost of the AKS stack, `node lib/examples/aks/main.js` (resource group, network,
 * cluster, a Linux and a Windows pool, and the checks that render the stack's Terraform JSON),
 * interleaved run by run with the EKS example, so that the two are compared on the same machine at
 * the same moment. The AKS example must stay within 1.2x of the EKS example's CPU time and peak
 * RSS (medians of the run-by-run ratios). Run: `npm run bench` (all cases) or
 * `node lib/bench/aks-bench.js` (BENCH_RUNS=n to change the number of runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Measurement, median, measure, report, NODE } from './measure';
import { interleaved, medianRatios } from './plain-baseline-bench';

const ROOT = resolve(__dirname, '..', '..');
export const AKS_BENCH_LABEL = '[AKS vs EKS] synth AKS stack (examples/aks/main.js)';
export const AKS_EKS_BENCH_LABEL = '[AKS vs EKS] synth EKS stack (examples/eks/main.js)';
/** The AKS example's budget against the EKS example's. */
export const AKS_TO_EKS_LIMIT = 1.2;

export function benchAks(runs: number): Record<string, Measurement> {
  const outdir = mkdtempSync(join(tmpdir(), 'aks-bench-'));
  const options = { cwd: outdir, env: { CDKTF_OUTDIR: join(outdir, 'cdktf.out') } };
  try {
    return interleaved(runs, {
      [AKS_BENCH_LABEL]: () => measure([NODE, join(ROOT, 'lib/examples/aks/main.js')], 1, options),
      [AKS_EKS_BENCH_LABEL]: () => measure([NODE, join(ROOT, 'lib/examples/eks/main.js')], 1, options),
    });
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The AKS/EKS ratios (wall, CPU, peak RSS: medians of run-by-run ratios), and whether they are within the limit. */
export function aksVersusEks(results: Record<string, Measurement>): { line: string; ok: boolean } {
  const aks = results[AKS_BENCH_LABEL];
  const eks = results[AKS_EKS_BENCH_LABEL];
  const { wall, cpu } = medianRatios(aks, eks);
  const rss = aks.maxRssMiB.length ? median(aks.maxRssMiB.map((m, i) => m / eks.maxRssMiB[i])) : undefined;
  // CPU time where GNU time gives it (wall time counts waiting for a core on a shared machine).
  const time = cpu ?? wall;
  const ok = time <= AKS_TO_EKS_LIMIT && (rss === undefined || rss <= AKS_TO_EKS_LIMIT);
  const line = `AKS example / EKS example: ${wall.toFixed(2)}x wall${cpu === undefined ? '' : `, ${cpu.toFixed(2)}x CPU`}${rss === undefined ? '' : `, ${rss.toFixed(2)}x peak RSS`} (limit ${AKS_TO_EKS_LIMIT}x): ${ok ? 'met' : 'MISSED'}`;
  return { line, ok };
}

if (require.main === module) {
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  const results = benchAks(runs);
  for (const [label, m] of Object.entries(results)) console.log(report(label, m));
  const { line, ok } = aksVersusEks(results);
  console.log(line);
  if (!ok) process.exitCode = 1;
}
