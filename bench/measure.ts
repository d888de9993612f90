import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Wall time and peak resident memory of several cold runs of one command. */
export interface Measurement {
  readonly command: readonly string[];
  readonly runs: number;
  readonly wallMs: readonly number[];
  /** Peak RSS per run in MiB; empty when /usr/bin/time is not available. */
  readonly maxRssMiB: readonly number[];
  /**
   * User + system CPU time per run in ms (GNU time); empty without /usr/bin/time. Steadier than wall
   * time on a shared machine, where waiting for a core counts in the wall time only.
   */
  readonly cpuMs: readonly number[];
  readonly medianWallMs: number;
  readonly medianMaxRssMiB?: number;
}

export interface MeasureOptions {
  /** @default - this process's working directory */
  readonly cwd?: string;
  /** Added to this process's environment. @default - none */
  readonly env?: Record<string, string>;
  /** The exit status a run must end with (a validator that finds violations exits 1). @default 0 */
  readonly status?: number;
}

const GNU_TIME = '/usr/bin/time';

/**
 * The Node.js binary every case runs under: `BENCH_NODE`, else the `node` on the PATH. The
 * package's users run Node.js 22 or later (`engines`), where start-up is faster and a fixed
 * library cost weighs more in a ratio: `BENCH_NODE=/path/to/node22 npm run bench` measures there.
 */
export const NODE = process.env.BENCH_NODE ?? 'node';

/** A Node.js binary and its version. */
export interface NodeBinary {
  readonly node: string;
  /** `v22.23.3` */
  readonly version: string;
  readonly major: number;
}

/**
 * The Node.js binaries issue 37's ratios are measured under (bench/plain-baseline-bench.ts): `NODE`,
 * and the machine's `node` too when it is older than 22 (its figures are reported, not judged).
 */
export function ratioNodes(): NodeBinary[] {
  const binary = (node: string): NodeBinary => {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    return { node, version, major: Number(/^v(\d+)/.exec(version)?.[1]) };
  };
  const chosen = binary(NODE);
  const machine = NODE === 'node' ? chosen : binary('node');
  return machine.major < 22 && machine.version !== chosen.version ? [chosen, machine] : [chosen];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs `command` `runs` times, each in a fresh process (nothing cached in memory between runs),
 * timing it from here and reading its peak RSS from GNU time. Throws if a run fails, with its
 * stderr, so a broken command never reports a fast time.
 */
export function measure(command: readonly string[], runs: number, options: MeasureOptions = {}): Measurement {
  const withTime = existsSync(GNU_TIME);
  const scratch = mkdtempSync(join(tmpdir(), 'measure-'));
  const wallMs: number[] = [];
  const maxRssMiB: number[] = [];
  const cpuMs: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const timeFile = join(scratch, `time-${run}`);
      const [file, ...args] = withTime ? [GNU_TIME, '-f', '%M %U %S', '-o', timeFile, ...command] : command;
      const start = process.hrtime.bigint();
      const result = spawnSync(file, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, encoding: 'utf8' });
      wallMs.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (result.status !== (options.status ?? 0)) {
        throw new Error(`${command.join(' ')} failed (exit ${result.status ?? result.signal}): ${result.stderr || result.error?.message}`);
      }
      if (withTime) {
        const [rssKiB, user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
        maxRssMiB.push(rssKiB / 1024);
        cpuMs.push((user + system) * 1000);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    command,
    runs,
    wallMs,
    maxRssMiB,
    cpuMs,
    medianWallMs: median(wallMs),
    medianMaxRssMiB: maxRssMiB.length ? median(maxRssMiB) : undefined,
  };
}

/** One line per measurement, for bench scripts' console output. */
export function report(label: string, m: Measurement): string {
  const rss = m.medianMaxRssMiB === undefined ? 'peak RSS n/a (no /usr/bin/time)' : `peak RSS median ${m.medianMaxRssMiB.toFixed(0)} MiB`;
  const cpu = m.cpuMs.length ? `, CPU median ${median(m.cpuMs).toFixed(0)} ms` : '';
  return `${label}: wall median ${m.medianWallMs.toFixed(0)} ms (min ${Math.min(...m.wallMs).toFixed(0)}, max ${Math.max(...m.wallMs).toFixed(0)})${cpu}, ${rss}, ${m.runs} runs`;
}
