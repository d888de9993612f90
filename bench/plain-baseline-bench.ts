/**
 * The default example's synth against plain writes of the same objects (bench/plain-write.ts):
 * `yaml` stringify to a file, and the objects as plain cdk8s ApiObjects; and the example with a
 * CRD CEL rule the engine must evaluate (bench/cel-evaluated.ts). Every case is a fresh process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Measurement, measure, median, NODE, report } from './measure';

const ROOT = resolve(__dirname, '..', '..');
export const EXAMPLE = 'default example (examples/k0smotron-aws/main.js)';
export const PLAIN_YAML = 'plain YAML write of the same objects (yaml stringify, bench/plain-write.js yaml)';
export const PLAIN_CDK8S = 'the same objects as plain cdk8s ApiObjects (bench/plain-write.js cdk8s)';
export const CEL_EVALUATED = 'default example with a CEL rule evaluated (bench/cel-evaluated.js)';
export const LOAD_ONLY = 'cdk8s and the package root loaded, nothing built (bench/load-only.js)';
/** Issue 21's target for the default example against plain cdk8s: reported, not enforced (docs/benchmarks.md). */
const PLAIN_CDK8S_TARGET = 1.15;

export function benchPlainBaselines(runs: number): Record<string, Measurement> {
  const dir = mkdtempSync(join(tmpdir(), 'plain-bench-'));
  try {
    const out = join(dir, 'dist');
    execFileSync(NODE, [join(ROOT, 'lib/examples/k0smotron-aws/main.js')], { cwd: dir, env: { ...process.env, CDK8S_OUTDIR: out } });
    const objects = readObjects(out);
    const objectsFile = join(dir, 'objects.json');
    writeFileSync(objectsFile, JSON.stringify(objects));
    const options = { cwd: dir, env: { CDK8S_OUTDIR: out } };
    return interleaved(runs, {
      [EXAMPLE]: () => measure([NODE, join(ROOT, 'lib/examples/k0smotron-aws/main.js')], 1, options),
      [PLAIN_YAML]: () => measure([NODE, join(ROOT, 'lib/bench/plain-write.js'), 'yaml', objectsFile, join(dir, 'plain')], 1),
      [PLAIN_CDK8S]: () => measure([NODE, join(ROOT, 'lib/bench/plain-write.js'), 'cdk8s', objectsFile, join(dir, 'plain')], 1),
      [CEL_EVALUATED]: () => measure([NODE, join(ROOT, 'lib/bench/cel-evaluated.js')], 1, options),
      [LOAD_ONLY]: () => measure([NODE, join(ROOT, 'lib/bench/load-only.js')], 1),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What `npm run bench` prints of these cases (`results` holds them under `prefix`): the default
 * example against each plain write and the floor, as medians of run-by-run ratios, then the CPU
 * time of each phase of the example and of plain cdk8s (`runs` more processes of each).
 */
export function plainComparison(results: Record<string, Measurement>, runs: number, prefix = ''): string[] {
  const vs = (a: string, b: string) => {
    const r = medianRatios(results[prefix + a], results[prefix + b]);
    return `${r.wall.toFixed(2)}x wall${r.cpu === undefined ? '' : `, ${r.cpu.toFixed(2)}x CPU`}`;
  };
  const phases = phaseBreakdown(runs);
  return [
    `default example / plain YAML write of its objects: ${vs(EXAMPLE, PLAIN_YAML)}`,
    `default example / the same objects through plain cdk8s: ${vs(EXAMPLE, PLAIN_CDK8S)} (issue 21's target: at most ${PLAIN_CDK8S_TARGET}x wall and CPU)`,
    `floor: cdk8s and the library loaded, nothing built / plain cdk8s writing the objects: ${vs(LOAD_ONLY, PLAIN_CDK8S)}`,
    `default example with a CEL rule evaluated / plain YAML write: ${vs(CEL_EVALUATED, PLAIN_YAML)}; / plain cdk8s: ${vs(CEL_EVALUATED, PLAIN_CDK8S)}`,
    'CPU by phase, default example / plain cdk8s, medians of interleaved processes (ms; node start-up excluded):',
    ...Object.keys(phases.example).map((phase) => `  ${phase}: ${phases.example[phase].toFixed(1)} / ${phases.plain[phase].toFixed(1)}`),
  ];
}

/** Medians of each phase's CPU milliseconds (bench/phases.ts), for the default example and for plain cdk8s. */
export interface PhaseBreakdown {
  readonly example: Record<string, number>;
  readonly plain: Record<string, number>;
}

/**
 * The default example's CPU time phase by phase beside plain cdk8s writing the same objects
 * (bench/phases.ts): `runs` fresh processes of each, in turn, and the median of each phase.
 */
export function phaseBreakdown(runs: number): PhaseBreakdown {
  const dir = mkdtempSync(join(tmpdir(), 'phases-bench-'));
  try {
    const script = join(ROOT, 'lib/bench/phases.js');
    const objectsFile = join(dir, 'objects.json');
    const runOnce = (...args: string[]): Record<string, number> => JSON.parse(execFileSync(NODE, [script, ...args], { cwd: dir, encoding: 'utf8' }));
    const example: Record<string, number>[] = [];
    const plain: Record<string, number>[] = [];
    for (let run = 0; run < runs; run++) {
      example.push(runOnce('example', join(dir, 'example')));
      if (run === 0) writeFileSync(objectsFile, JSON.stringify(readObjects(join(dir, 'example'))));
      plain.push(runOnce('plain', join(dir, 'plain'), objectsFile));
    }
    const medians = (list: Record<string, number>[]) => Object.fromEntries(Object.keys(list[0]).map((phase) => [phase, median(list.map((r) => r[phase]))]));
    return { example: medians(example), plain: medians(plain) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every object of the YAML files in `dir`. */
function readObjects(dir: string): unknown[] {
  return readdirSync(dir).flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS()));
}

/**
 * The cases run in turn (A B C D A B C D ...), so that a comparison holds while the machine's
 * speed drifts; each case's runs are then summarized as `measure` does.
 */
export function interleaved(runs: number, cases: Record<string, () => Measurement>): Record<string, Measurement> {
  const single: Record<string, Measurement[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let run = 0; run < runs; run++) for (const [label, once] of Object.entries(cases)) single[label].push(once());
  return Object.fromEntries(Object.entries(single).map(([label, list]) => {
    const wallMs = list.flatMap((m) => m.wallMs);
    const maxRssMiB = list.flatMap((m) => m.maxRssMiB);
    return [label, {
      command: list[0].command, runs, wallMs, maxRssMiB, cpuMs: list.flatMap((m) => m.cpuMs),
      medianWallMs: median(wallMs),
      medianMaxRssMiB: maxRssMiB.length ? median(maxRssMiB) : undefined,
    }];
  }));
}

/** Medians of the run-by-run ratios of two interleaved cases' wall and CPU times. */
export function medianRatios(a: Measurement, b: Measurement): { wall: number; cpu?: number } {
  return {
    wall: median(a.wallMs.map((ms, i) => ms / b.wallMs[i])),
    cpu: a.cpuMs.length ? median(a.cpuMs.map((ms, i) => ms / b.cpuMs[i])) : undefined,
  };
}

// `node lib/bench/plain-baseline-bench.js`: these cases alone (BENCH_RUNS, BENCH_NODE as for `npm run bench`).
if (require.main === module) {
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  const results = benchPlainBaselines(runs);
  for (const [label, m] of Object.entries(results)) console.log(report(label, m));
  for (const line of plainComparison(results, runs)) console.log(line);
}
