/**
 * `npm run bench`: cold synth cost, each run a fresh process, median wall time and peak RSS.
 * Cases: the default example's cluster YAML, a 50-pool cluster and the same autoscaled (within
 * 1.10x of it), the Windows workload example, the AWS stack, the EKS stack, the AKS and the GKE
 * stacks each interleaved with the EKS stack (within 1.2x of it), and the whole `npm run synth`
 * (with an up-to-date build); issue 37's ratios against plain cdk8s writing the same objects, under
 * Node.js 22 (bench/plain-baseline-bench.ts: the default example and the large app at most 1.3x,
 * 10x the work and 10x the charts under 10x); the validator over 4,000 and 40,000 Deployments
 * against js-yaml (bench/validate-bench.ts). The default example must stay within 1.5 s and 200 MiB
 * on a 2-core machine. The script exits 1 when a target is missed.
 * BENCH_RUNS=n changes the number of runs (default 7); BENCH_NODE=<binary> the Node.js the cases run
 * under (issue 37's ratios are judged on Node.js 22, and also reported under the machine's older one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { aksVersusEks, benchAks } from './aks-bench';
import { benchEks } from './eks-bench';
import { benchGke, gkeOverEks } from './gke-bench';
import { benchInfra } from './infra-bench';
import { Measurement, measure, report, NODE } from './measure';
import { benchValidate } from './validate-bench';
import { benchRatios, interleaved, medianRatios } from './plain-baseline-bench';

const FIFTY = '50-pool cluster in 2 zones, 304 objects (bench/fifty-pools.js)';
const FIFTY_AUTOSCALED = 'the same, every pool autoscaled (bench/fifty-pools.js autoscaling)';

const ROOT = resolve(__dirname, '..', '..');
const TARGET = { wallMs: 1500, rssMiB: 200 };

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
      ...benchInfra(runs),
      ...benchEks(runs),
      ...benchAks(runs),
      ...benchGke(runs),
      'npm run synth, build up to date (every example)': measure(['npm', 'run', '--silent', 'synth'], runs, { cwd: ROOT }),
    };
    const ratios = benchRatios(runs);
    for (const [label, m] of Object.entries({ ...results, ...ratios.results })) console.log(report(label, m));
    // Issue 37's ratios, each against plain cdk8s writing the same objects.
    for (const line of ratios.lines) console.log(line);
    if (!ratios.ok) process.exitCode = 1;

    const vs = (a: string, b: string) => {
      const r = medianRatios(results[`[interleaved] ${a}`], results[`[interleaved] ${b}`]);
      return `${r.wall.toFixed(2)}x wall${r.cpu === undefined ? '' : `, ${r.cpu.toFixed(2)}x CPU`}`;
    };
    // Autoscaling adds annotations and one rule's work per MachineDeployment: at most 10% more.
    const scaled = medianRatios(results[`[interleaved] ${FIFTY_AUTOSCALED}`], results[`[interleaved] ${FIFTY}`]);
    console.log(`50 pools autoscaled / 50 pools: ${vs(FIFTY_AUTOSCALED, FIFTY)} (target <= 1.10x wall)`);
    if (scaled.wall > 1.1) process.exitCode = 1;

    const aks = aksVersusEks(results);
    console.log(aks.line);
    if (!aks.ok) process.exitCode = 1;

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
