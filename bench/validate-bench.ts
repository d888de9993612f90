/**
 * The validator's speed (issue 23): `cdk-hybrid-windows validate` over 4,000 mixed Deployments
 * against js-yaml's `loadAll` of the same file, interleaved run by run, whole processes; the same
 * with one Windows Deployment in 20 drawing a finding (its field located in the YAML); and 40,000
 * Deployments, which must take at most about ten times as long. Targets for the 4,000: at most
 * 1.0 s, at most 2x the js-yaml baseline (median of the run-by-run ratios), peak RSS under 150 MiB.
 * `node lib/bench/validate-bench.js` alone, or as part of `npm run bench`.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Measurement, measure, median, report, NODE } from './measure';
import { mixedDeployments } from './mixed-deployments';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const BASELINE = join(ROOT, 'lib', 'bench', 'js-yaml-load.js');
const TARGET = { wallMs: 1000, ratio: 2, rssMiB: 150, growth: 12 };

/** Runs the cases in turn, `runs` times, and returns each case's measurements. */
function interleaved(runs: number, cases: Record<string, () => Measurement>): Record<string, Measurement> {
  const single: Record<string, Measurement[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let run = 0; run < runs; run++) for (const [label, once] of Object.entries(cases)) single[label].push(once());
  return Object.fromEntries(Object.entries(single).map(([label, list]) => {
    const wallMs = list.flatMap((m) => m.wallMs);
    const maxRssMiB = list.flatMap((m) => m.maxRssMiB);
    return [label, { command: list[0].command, runs, wallMs, maxRssMiB, cpuMs: list.flatMap((m) => m.cpuMs), medianWallMs: median(wallMs), medianMaxRssMiB: maxRssMiB.length ? median(maxRssMiB) : undefined }];
  }));
}

/** @returns whether the targets are met */
export function benchValidate(runs: number): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'validate-bench-'));
  try {
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const small = file('4k.yaml', mixedDeployments(4000));
    const findings = file('4k-findings.yaml', mixedDeployments(4000, 20));
    const large = file('40k.yaml', mixedDeployments(40000));
    const validate = (path: string, status = 0) => () => measure([NODE, CLI, 'validate', '--platform', 'k0smotron-aws', path], 1, { status });
    const baseline = (path: string) => () => measure([NODE, BASELINE, path], 1);
    const mib = (path: string) => (statSync(path).size / 2 ** 20).toFixed(1);
    const labels = {
      base: `js-yaml loadAll, 4,000 Deployments (${mib(small)} MiB)`,
      small: 'validate --platform k0smotron-aws, 4,000 Deployments',
      findings: 'validate --platform k0smotron-aws, 4,000 Deployments, 100 findings',
      baseLarge: `js-yaml loadAll, 40,000 Deployments (${mib(large)} MiB)`,
      large: 'validate --platform k0smotron-aws, 40,000 Deployments',
    };
    const results = interleaved(runs, {
      [labels.base]: baseline(small),
      [labels.small]: validate(small),
      [labels.findings]: validate(findings, 1),
      [labels.baseLarge]: baseline(large),
      [labels.large]: validate(large),
    });
    for (const [label, m] of Object.entries(results)) console.log(report(label, m));
    const ratio = (a: Measurement, b: Measurement) => median(a.wallMs.map((ms, i) => ms / b.wallMs[i]));
    const cpuRatio = (a: Measurement, b: Measurement) => (a.cpuMs.length ? median(a.cpuMs.map((ms, i) => ms / b.cpuMs[i])) : undefined);
    const m = results[labels.small];
    const vsBase = ratio(m, results[labels.base]);
    const cpu = cpuRatio(m, results[labels.base]);
    const growth = results[labels.large].medianWallMs / m.medianWallMs;
    console.log(`validate / js-yaml loadAll, 4,000 Deployments: ${vsBase.toFixed(2)}x wall${cpu === undefined ? '' : `, ${cpu.toFixed(2)}x CPU`} (medians of run-by-run ratios)`);
    console.log(`with 100 findings located / js-yaml loadAll: ${ratio(results[labels.findings], results[labels.base]).toFixed(2)}x wall`);
    console.log(`growth from 4,000 to 40,000 Deployments: ${growth.toFixed(1)}x (js-yaml alone ${(results[labels.baseLarge].medianWallMs / results[labels.base].medianWallMs).toFixed(1)}x; linear is at most 10x)`);
    const ok = m.medianWallMs <= TARGET.wallMs && vsBase <= TARGET.ratio && (m.medianMaxRssMiB ?? 0) < TARGET.rssMiB && growth <= TARGET.growth;
    console.log(`target for validate over 4,000 Deployments (<= ${TARGET.wallMs} ms, <= ${TARGET.ratio}x js-yaml, < ${TARGET.rssMiB} MiB, growth <= ${TARGET.growth}x to 40,000): ${ok ? 'met' : 'MISSED'}`);
    return ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  if (!benchValidate(Number(process.env.BENCH_RUNS ?? 7))) process.exitCode = 1;
}
