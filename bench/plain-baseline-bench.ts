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
import { Measurement, measure, median } from './measure';

const ROOT = resolve(__dirname, '..', '..');
export const EXAMPLE = 'default example (examples/k0smotron-aws/main.js)';
export const PLAIN_YAML = 'plain YAML write of the same objects (yaml stringify, bench/plain-write.js yaml)';
export const PLAIN_CDK8S = 'the same objects as plain cdk8s ApiObjects (bench/plain-write.js cdk8s)';
export const CEL_EVALUATED = 'default example with a CEL rule evaluated (bench/cel-evaluated.js)';

export function benchPlainBaselines(runs: number): Record<string, Measurement> {
  const dir = mkdtempSync(join(tmpdir(), 'plain-bench-'));
  try {
    const out = join(dir, 'dist');
    execFileSync('node', [join(ROOT, 'lib/examples/k0smotron-aws/main.js')], { cwd: dir, env: { ...process.env, CDK8S_OUTDIR: out } });
    const objects = readObjects(out);
    const objectsFile = join(dir, 'objects.json');
    writeFileSync(objectsFile, JSON.stringify(objects));
    const options = { cwd: dir, env: { CDK8S_OUTDIR: out } };
    return interleaved(runs, {
      [EXAMPLE]: () => measure(['node', join(ROOT, 'lib/examples/k0smotron-aws/main.js')], 1, options),
      [PLAIN_YAML]: () => measure(['node', join(ROOT, 'lib/bench/plain-write.js'), 'yaml', objectsFile, join(dir, 'plain')], 1),
      [PLAIN_CDK8S]: () => measure(['node', join(ROOT, 'lib/bench/plain-write.js'), 'cdk8s', objectsFile, join(dir, 'plain')], 1),
      [CEL_EVALUATED]: () => measure(['node', join(ROOT, 'lib/bench/cel-evaluated.js')], 1, options),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
    const runOnce = (...args: string[]): Record<string, number> => JSON.parse(execFileSync('node', [script, ...args], { cwd: dir, encoding: 'utf8' }));
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
