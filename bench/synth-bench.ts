/**
 * `npm run bench`: cold synth cost, each run a fresh process, median wall time and peak RSS.
 * Cases: the default example's cluster YAML, a 50-pool cluster, the Windows workload example,
 * 5 and 50 HybridCharts of 20 workloads (the growth must stay near linear), the large app (a
 * 100-pool cluster and 1,000 workloads, which must synthesize within 3 s of CPU time), the AWS stack, the
 * EKS stack, the AKS and the GKE stacks each interleaved with the EKS stack (within 1.2x of it), and
 * the whole `npm run synth` (with an up-to-date build); the validator over 4,000 and 40,000
 * Deployments against js-yaml (bench/validate-bench.ts); and the default example against plain writes
 * of the same objects (`yaml` stringify, plain cdk8s ApiObjects), with a CRD CEL rule evaluated,
 * and the floor (cdk8s and the library loaded, nothing built), interleaved run by run, and the CPU
 * time of each phase of both (loading, construction, synth: bench/phases.ts). The default example must stay within 1.5 s and 200 MiB on a 2-core machine;
 * the script exits 1 when it does not.
 * BENCH_RUNS=n changes the number of runs (default 7); BENCH_NODE=<binary> the Node.js the cases run under.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { aksVersusEks, benchAks } from './aks-bench';
import { benchEks } from './eks-bench';
import { benchGke, gkeOverEks } from './gke-bench';
import { benchInfra } from './infra-bench';
import { Measurement, measure, median, report, NODE } from './measure';
import { benchValidate } from './validate-bench';
import { benchPlainBaselines, interleaved, medianRatios, plainComparison } from './plain-baseline-bench';

const FIFTY = '50-pool cluster in 2 zones, 304 objects (bench/fifty-pools.js)';
const FIFTY_AUTOSCALED = 'the same, every pool autoscaled (bench/fifty-pools.js autoscaling)';

const ROOT = resolve(__dirname, '..', '..');
const TARGET = { wallMs: 1500, rssMiB: 200 };
const LARGE_APP = 'large app: 100-pool cluster and 1,000 workloads in 50 HybridCharts (bench/large-app.js)';
const LARGE_APP_TARGET_MS = 3000;

function main(): void {
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  const outdir = mkdtempSync(join(tmpdir(), 'synth-bench-'));
  const node = (script: string): Measurement =>
    measure([NODE, join(ROOT, 'lib', script)], runs, { cwd: outdir, env: { CDK8S_OUTDIR: join(outdir, 'dist') } });
  try {
    const results: Record<string, Measurement> = {
      'default example, cluster YAML (examples/k0smotron-aws/main.js)': node('examples/k0smotron-aws/main.js'),
      ...Object.fromEntries(Object.entries(interleaved(runs, {
        [FIFTY]: () => measure([NODE, join(ROOT, 'lib', 'bench/fifty-pools.js')], 1, { cwd: outdir, env: { CDK8S_OUTDIR: join(outdir, 'dist') } }),
        [FIFTY_AUTOSCALED]: () => measure([NODE, join(ROOT, 'lib', 'bench/fifty-pools.js'), 'autoscaling'], 1, { cwd: outdir, env: { CDK8S_OUTDIR: join(outdir, 'dist') } }),
      })).map(([label, m]) => [`[interleaved] ${label}`, m])),
      'Windows workload example (examples/windows-app/main.js)': node('examples/windows-app/main.js'),
      '5 HybridCharts of 20 workloads (bench/many-charts.js 5)': measure([NODE, join(ROOT, 'lib', 'bench/many-charts.js'), '5'], runs, { cwd: outdir, env: { CDK8S_OUTDIR: join(outdir, 'dist') } }),
      '50 HybridCharts of 20 workloads (bench/many-charts.js 50)': measure([NODE, join(ROOT, 'lib', 'bench/many-charts.js'), '50'], runs, { cwd: outdir, env: { CDK8S_OUTDIR: join(outdir, 'dist') } }),
      [LARGE_APP]: node('bench/large-app.js'),
      ...benchInfra(runs),
      ...benchEks(runs),
      ...benchAks(runs),
      ...benchGke(runs),
      ...Object.fromEntries(Object.entries(benchPlainBaselines(runs)).map(([label, m]) => [`[interleaved] ${label}`, m])),
      'npm run synth, build up to date (every example)': measure(['npm', 'run', '--silent', 'synth'], runs, { cwd: ROOT }),
    };
    for (const [label, m] of Object.entries(results)) console.log(report(label, m));

    // Synth must grow linearly with the number of charts: 10x the charts, about 10x the time (less,
    // as start-up is a fixed cost). cdk8s validates the whole app once per chart written.
    const growth = results['50 HybridCharts of 20 workloads (bench/many-charts.js 50)'].medianWallMs
      / results['5 HybridCharts of 20 workloads (bench/many-charts.js 5)'].medianWallMs;
    console.log(`growth from 5 to 50 HybridCharts: ${growth.toFixed(1)}x (linear would be at most 10x)`);
    if (growth > 12) process.exitCode = 1;

    const vs = (a: string, b: string) => {
      const r = medianRatios(results[`[interleaved] ${a}`], results[`[interleaved] ${b}`]);
      return `${r.wall.toFixed(2)}x wall${r.cpu === undefined ? '' : `, ${r.cpu.toFixed(2)}x CPU`}`;
    };
    // Autoscaling adds annotations and one rule's work per MachineDeployment: at most 10% more.
    const scaled = medianRatios(results[`[interleaved] ${FIFTY_AUTOSCALED}`], results[`[interleaved] ${FIFTY}`]);
    console.log(`50 pools autoscaled / 50 pools: ${vs(FIFTY_AUTOSCALED, FIFTY)} (target <= 1.10x wall)`);
    if (scaled.wall > 1.1) process.exitCode = 1;
    for (const line of plainComparison(results, runs, '[interleaved] ')) console.log(line);

    const aks = aksVersusEks(results);
    console.log(aks.line);
    if (!aks.ok) process.exitCode = 1;

    // Judged on CPU time (user + system) when GNU time gives it: on a busy machine the wall time
    // counts the wait for a core, and a quiet 2-core machine gives about the same figure as wall.
    const large = results[LARGE_APP];
    const largeMs = large.cpuMs.length ? median(large.cpuMs) : large.medianWallMs;
    const largeOk = largeMs <= LARGE_APP_TARGET_MS;
    console.log(`target for the large app (<= ${LARGE_APP_TARGET_MS} ms ${large.cpuMs.length ? 'CPU' : 'wall'}): ${largeOk ? 'met' : 'MISSED'}`);
    if (!largeOk) process.exitCode = 1;

    const gke = gkeOverEks(results);
    console.log(gke.line);
    if (!gke.ok) process.exitCode = 1;

    const main = results['default example, cluster YAML (examples/k0smotron-aws/main.js)'];
    const ok = main.medianWallMs <= TARGET.wallMs && (main.medianMaxRssMiB ?? 0) <= TARGET.rssMiB;
    console.log(`target for the default example (<= ${TARGET.wallMs} ms, <= ${TARGET.rssMiB} MiB): ${ok ? 'met' : 'MISSED'}`);
    if (!ok) process.exitCode = 1;
    if (!benchValidate(runs)) process.exitCode = 1;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

main();
