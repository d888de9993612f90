/**
 * Cold synth cost of the AWS stack: `node lib/examples/k0smotron-aws/infra.js`, several fresh
 * processes, median wall time and peak RSS. Also the cost of loading the library's index, which
 * the cdk8s side pays for the AWS constructs it does not use. Run: `npm run bench:infra`
 * (BENCH_RUNS=n to change the number of runs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Measurement, measure, report, NODE } from './measure';

const ROOT = resolve(__dirname, '..', '..');

export function benchInfra(runs: number): Record<string, Measurement> {
  const outdir = mkdtempSync(join(tmpdir(), 'infra-bench-'));
  try {
    return {
      'synth AWS stack (examples/k0smotron-aws/infra.js)': measure([NODE, join(ROOT, 'lib/examples/k0smotron-aws/infra.js')], runs, {
        cwd: outdir,
        env: { CDKTF_OUTDIR: join(outdir, 'cdktf.out') },
      }),
      'load library index (lib/src/index.js)': measure([NODE, '-e', `require(${JSON.stringify(join(ROOT, 'lib/src/index.js'))})`], runs),
      'node baseline (node -e 0)': measure([NODE, '-e', '0'], runs),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  for (const [label, m] of Object.entries(benchInfra(runs))) console.log(report(label, m));
}
