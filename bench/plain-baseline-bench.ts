/**
 * Issue 37's ratios: the library against plain cdk8s writing the same objects (`ApiObject`s read
 * from the library's own output, in as many charts: bench/plain-write.ts), every case a fresh
 * process, the cases interleaved run by run (A B C ... A B C ...), medians of the run-by-run ratios
 * of CPU time (user + system, GNU time; wall time when it is not available):
 *
 * - the default example, a cold process: at most 1.3x plain cdk8s;
 * - the large app (bench/large-app.ts: 100 pools, 1,000 Windows workloads and 1,000 Linux
 *   Deployments in one app): at most 1.3x plain cdk8s;
 * - 10x the work (the large app against its tenth) and 10x the charts (50 HybridCharts against 5):
 *   under 10x.
 *
 * Beside them, for the default example: the example with Node.js's compile cache off
 * (`NODE_DISABLE_COMPILE_CACHE=1`: a first run, or a user who turned it off; src/core/compile-cache.ts),
 * a plain `yaml` stringify of its objects, the example with a CRD CEL rule evaluated
 * (bench/cel-evaluated.ts) and the floor (cdk8s and the package root loaded, nothing built:
 * bench/load-only.ts); for the large app, the same objects with every Deployment built through
 * cdk8s-plus and no library (bench/plus-write.ts, checked byte for byte against the library's
 * output): the floor of workloads that are cdk8s-plus objects; and the CPU time of each phase of
 * both cases and of plain cdk8s (bench/phases.ts). The targets hold on Node.js 22, which `engines` requires; `npm run bench`
 * measures under every Node.js `ratioNodes` finds. Alone: `node lib/bench/plain-baseline-bench.js`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Measurement, measure, median, ratioNodes, report } from './measure';

const ROOT = resolve(__dirname, '..', '..');
export const EXAMPLE = 'default example (examples/k0smotron-aws/main.js)';
export const EXAMPLE_NO_CACHE = 'default example, compile cache off (NODE_DISABLE_COMPILE_CACHE=1)';
export const PLAIN_YAML = 'plain YAML write of the same objects (yaml stringify, bench/plain-write.js yaml)';
export const PLAIN_CDK8S = 'the same objects as plain cdk8s ApiObjects (bench/plain-write.js cdk8s)';
export const CEL_EVALUATED = 'default example with a CEL rule evaluated (bench/cel-evaluated.js)';
export const LOAD_ONLY = 'cdk8s and the package root loaded, nothing built (bench/load-only.js)';
export const LARGE = 'large app: 100 pools, 1,000 Windows workloads, 1,000 Linux Deployments (bench/large-app.js)';
export const LARGE_PLAIN = 'the large app\'s objects as plain cdk8s ApiObjects in as many charts (bench/plain-write.js cdk8s)';
export const LARGE_PLUS = 'the large app\'s objects, its Deployments built through cdk8s-plus alone (bench/plus-write.js)';
export const LARGE_TENTH = 'a tenth of the large app: 10 pools, 10 charts (bench/large-app.js tenth)';
export const CHARTS_5 = '5 HybridCharts of 20 workloads (bench/many-charts.js 5)';
export const CHARTS_50 = '50 HybridCharts of 20 workloads (bench/many-charts.js 50)';

/** Issue 37's targets: the two cases' ratios to plain cdk8s, and the growth for 10x the work or the charts. */
export const TARGETS = { example: 1.3, large: 1.3, growth: 10 } as const;

/** The cases of this file, each a fresh process under `node`, interleaved run by run. */
export function benchPlainBaselines(node: string, runs: number): Record<string, Measurement> {
  const dir = mkdtempSync(join(tmpdir(), 'plain-bench-'));
  try {
    const env = (out: string, more: Record<string, string> = {}) => ({ cwd: dir, env: { CDK8S_OUTDIR: join(dir, out), ...more } });
    const lib = (script: string, ...args: string[]) => [node, join(ROOT, 'lib', script), ...args];
    // These first runs also fill Node.js's compile cache, so the measured runs read it, as a user's second synth does.
    const exampleObjects = objectsOf(lib('examples/k0smotron-aws/main.js'), dir, 'example');
    const largeObjects = objectsOf(lib('bench/large-app.js'), dir, 'large');
    sameFiles(lib('bench/plus-write.js', largeObjects, join(dir, 'large-plus')), join(dir, 'large-plus'), join(dir, 'large'));
    return interleaved(runs, {
      [EXAMPLE]: () => measure(lib('examples/k0smotron-aws/main.js'), 1, env('example')),
      [EXAMPLE_NO_CACHE]: () => measure(lib('examples/k0smotron-aws/main.js'), 1, env('example-no-cache', { NODE_DISABLE_COMPILE_CACHE: '1' })),
      [PLAIN_YAML]: () => measure(lib('bench/plain-write.js', 'yaml', exampleObjects, join(dir, 'plain-yaml')), 1),
      [PLAIN_CDK8S]: () => measure(lib('bench/plain-write.js', 'cdk8s', exampleObjects, join(dir, 'plain')), 1),
      [CEL_EVALUATED]: () => measure(lib('bench/cel-evaluated.js'), 1, env('cel')),
      [LOAD_ONLY]: () => measure(lib('bench/load-only.js'), 1),
      [LARGE]: () => measure(lib('bench/large-app.js'), 1, env('large')),
      [LARGE_PLAIN]: () => measure(lib('bench/plain-write.js', 'cdk8s', largeObjects, join(dir, 'large-plain')), 1),
      [LARGE_PLUS]: () => measure(lib('bench/plus-write.js', largeObjects, join(dir, 'large-plus')), 1),
      [LARGE_TENTH]: () => measure(lib('bench/large-app.js', 'tenth'), 1, env('tenth')),
      [CHARTS_5]: () => measure(lib('bench/many-charts.js', '5'), 1, env('charts5')),
      [CHARTS_50]: () => measure(lib('bench/many-charts.js', '50'), 1, env('charts50')),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `command` once to write its YAML to `dir/<name>`, and keeps its objects, chart by chart, in `dir/<name>.json`. */
function objectsOf(command: string[], dir: string, name: string): string {
  const out = join(dir, name);
  execFileSync(command[0], command.slice(1), { cwd: dir, env: { ...process.env, CDK8S_OUTDIR: out } });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(chartsIn(out)));
  return file;
}

/** Runs `command`, which writes YAML to `dir`, and throws unless it wrote exactly the files of `expected`, byte for byte. */
function sameFiles(command: string[], dir: string, expected: string): void {
  execFileSync(command[0], command.slice(1));
  const names = (d: string) => readdirSync(d).sort();
  const differ = [...new Set([...names(dir), ...names(expected)])]
    .filter((f) => !names(dir).includes(f) || !names(expected).includes(f) || readFileSync(join(dir, f), 'utf8') !== readFileSync(join(expected, f), 'utf8'));
  if (differ.length) throw new Error(`${command.join(' ')} did not write the library's objects: ${differ.slice(0, 3).join(', ')} differ`);
}

/** The objects of each YAML file in `dir`, by chart (the file's name without `.k8s.yaml`). */
function chartsIn(dir: string): Record<string, unknown[]> {
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.k8s.yaml')).sort()
    .map((f) => [f.slice(0, -'.k8s.yaml'.length), parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS())]));
}

/** What `npm run bench` prints of these cases under one Node.js, and whether each target is met. */
export interface RatioReport {
  readonly lines: string[];
  readonly ok: boolean;
}

/**
 * The ratios of `results` (`benchPlainBaselines` under `node`, Node.js `version`), judged against
 * `TARGETS` when `judged` (on Node.js 22 and later), then each phase's CPU time (`runs` more processes of each).
 */
export function plainComparison(results: Record<string, Measurement>, node: string, version: string, runs: number, judged: boolean): RatioReport {
  let ok = true;
  const ratio = (a: string, b: string) => medianRatios(results[a], results[b]);
  const show = (r: { wall: number; cpu?: number }) => `${r.cpu === undefined ? '' : `${r.cpu.toFixed(2)}x CPU, `}${r.wall.toFixed(2)}x wall`;
  const target = (label: string, a: string, b: string, limit: number, below = false) => {
    const r = ratio(a, b);
    const value = r.cpu ?? r.wall;
    const met = below ? value < limit : value <= limit;
    if (judged && !met) ok = false;
    const verdict = judged ? (met ? 'met' : 'MISSED') : 'not judged: the targets are for Node.js 22';
    return `${label}: ${show(r)} (target ${below ? '<' : '<='} ${limit}x ${r.cpu === undefined ? 'wall' : 'CPU'}: ${verdict})`;
  };
  const cpu = (label: string) => median(results[label].cpuMs.length ? results[label].cpuMs : results[label].wallMs).toFixed(0);
  const phases = phaseBreakdown(node, runs);
  const lines = [
    `Node.js ${version}, ${results[EXAMPLE].runs} interleaved runs of each case, medians of the run-by-run ratios:`,
    target(`  default example / the same objects through plain cdk8s (${cpu(EXAMPLE)} / ${cpu(PLAIN_CDK8S)} ms CPU)`, EXAMPLE, PLAIN_CDK8S, TARGETS.example),
    target(`  large app / the same objects through plain cdk8s (${cpu(LARGE)} / ${cpu(LARGE_PLAIN)} ms CPU)`, LARGE, LARGE_PLAIN, TARGETS.large),
    `  large app / the same objects, its Deployments through cdk8s-plus alone (${cpu(LARGE_PLUS)} ms CPU; the library's own share): ${show(ratio(LARGE, LARGE_PLUS))}`,
    `  cdk8s-plus alone / plain cdk8s, the large app's objects (the floor for workloads that are cdk8s-plus objects): ${show(ratio(LARGE_PLUS, LARGE_PLAIN))}`,
    target(`  10x the work: large app / a tenth of it (${cpu(LARGE_TENTH)} ms CPU)`, LARGE, LARGE_TENTH, TARGETS.growth, true),
    target(`  10x the charts: 50 / 5 HybridCharts (${cpu(CHARTS_50)} / ${cpu(CHARTS_5)} ms CPU)`, CHARTS_50, CHARTS_5, TARGETS.growth, true),
    `  default example with the compile cache off / plain cdk8s (${cpu(EXAMPLE_NO_CACHE)} ms CPU): ${show(ratio(EXAMPLE_NO_CACHE, PLAIN_CDK8S))}`,
    `  default example / plain YAML write of its objects: ${show(ratio(EXAMPLE, PLAIN_YAML))}`,
    `  floor: cdk8s and the library loaded, nothing built / plain cdk8s writing the example's objects: ${show(ratio(LOAD_ONLY, PLAIN_CDK8S))}`,
    `  default example with a CEL rule evaluated / plain cdk8s: ${show(ratio(CEL_EVALUATED, PLAIN_CDK8S))}`,
    '  CPU by phase, library / plain cdk8s writing the same objects, medians of interleaved processes (ms; node start-up excluded):',
    ...Object.keys(phases.example).map((phase) => `    ${phase}: default example ${phases.example[phase].toFixed(1)} / ${phases.plain[phase].toFixed(1)}; large app ${phases.large[phase].toFixed(0)} / ${phases.largePlain[phase].toFixed(0)}`),
  ];
  return { lines, ok };
}

/** Medians of each phase's CPU milliseconds (bench/phases.ts) for both cases and plain cdk8s writing their objects. */
interface PhaseBreakdown {
  readonly example: Record<string, number>;
  readonly plain: Record<string, number>;
  readonly large: Record<string, number>;
  readonly largePlain: Record<string, number>;
}

/** Both cases' CPU time phase by phase beside plain cdk8s writing the same objects: `runs` fresh processes of each, in turn. */
function phaseBreakdown(node: string, runs: number): PhaseBreakdown {
  const dir = mkdtempSync(join(tmpdir(), 'phases-bench-'));
  try {
    const script = join(ROOT, 'lib/bench/phases.js');
    const runOnce = (...args: string[]): Record<string, number> => JSON.parse(execFileSync(node, [script, ...args], { cwd: dir, encoding: 'utf8' }));
    const lists: Record<keyof PhaseBreakdown, Record<string, number>[]> = { example: [], plain: [], large: [], largePlain: [] };
    for (let run = 0; run < runs; run++) {
      for (const [mode, plain] of [['example', 'plain'], ['large', 'largePlain']] as const) {
        lists[mode].push(runOnce(mode, join(dir, mode)));
        if (run === 0) writeFileSync(join(dir, `${mode}.json`), JSON.stringify(chartsIn(join(dir, mode))));
        lists[plain].push(runOnce('plain', join(dir, plain), join(dir, `${mode}.json`)));
      }
    }
    const medians = (list: Record<string, number>[]) => Object.fromEntries(Object.keys(list[0]).map((phase) => [phase, median(list.map((r) => r[phase]))]));
    return { example: medians(lists.example), plain: medians(lists.plain), large: medians(lists.large), largePlain: medians(lists.largePlain) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/**
 * Every case under every Node.js of `ratioNodes`, each case's figures and the ratios; `ok` is false
 * when a target is missed on Node.js 22 or later, or when no such Node.js was found to judge them.
 */
export function benchRatios(runs: number): RatioReport & { results: Record<string, Measurement> } {
  const lines: string[] = [];
  const all: Record<string, Measurement> = {};
  let ok = true;
  const nodes = ratioNodes();
  for (const { node, version, major } of nodes) {
    const results = benchPlainBaselines(node, runs);
    for (const [label, m] of Object.entries(results)) all[`[${version}] ${label}`] = m;
    const ratios = plainComparison(results, node, version, runs, major >= 22);
    lines.push(...ratios.lines);
    ok &&= ratios.ok;
  }
  if (!nodes.some((n) => n.major >= 22)) {
    lines.push('Issue 37\'s targets are for Node.js 22 (engines): not judged. Run with BENCH_NODE=<a Node.js 22 binary>.');
    ok = false;
  }
  return { lines, ok, results: all };
}

// `node lib/bench/plain-baseline-bench.js`: these cases alone (BENCH_RUNS, BENCH_NODE as for `npm run bench`).
if (require.main === module) {
  const { lines, ok, results } = benchRatios(Number(process.env.BENCH_RUNS ?? 7));
  for (const [label, m] of Object.entries(results)) console.log(report(label, m));
  for (const line of lines) console.log(line);
  if (!ok) process.exitCode = 1;
}
