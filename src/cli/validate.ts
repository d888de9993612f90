import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LineCounter, parseAllDocuments } from 'yaml';
import { WindowsPlatform } from '../platform/support';
import { CLUSTER_RULES, ManifestRule, ManifestSource, ManifestViolation, WORKLOAD_RULES, adviseManifests, platformRules, validateManifests } from '../rules/index';

/** The rule sets `--rules` can name. */
const RULE_SETS: Readonly<Record<string, readonly ManifestRule[]>> = { cluster: CLUSTER_RULES, workloads: WORKLOAD_RULES };

export const USAGE = `Usage: cdk-hybrid-windows validate [--rules cluster,workloads] [--platform eks] <file|directory|->...

Applies cdk-hybrid-windows's cluster and workload rules (validateManifests) to Kubernetes YAML:
files, directories (their .yaml and .yml files) or - for standard input, all taken as one set of
objects, as kubectl apply -f would. Prints one line per violation:

  <file>:<document> <Kind> <namespace/name>: <what>. Fix: <how>.

where <document> is the object's position in its file (1-based). What the rules recommend without
requiring it (spec.os.name and resource requests on Windows pods) goes to standard error as
"advice: " lines of the same shape and leaves the exit status alone.

Options:
  --rules <sets>     the rule sets to apply, comma-separated: cluster, workloads (default: both)
  --platform <name>  where the workloads run, for the rules that hold there only:
                     eks (a Windows pod must select Windows in its nodeSelector to get an address;
                     AWS load balancers of Linux pods stay off Windows nodes),
                     k0smotron-aws (the load balancer rule) (default: none, only the rules that
                     hold everywhere)
  -h, --help         this text

Exit status: 0 when the objects pass, 1 when a rule is broken, 2 when the input cannot be read.

  helm template my-release ./chart | npx cdk-hybrid-windows validate -`;

/** Where the command reads and writes; a process's own streams in the bin, buffers in tests. */
export interface CliIo {
  readStdin(): string;
  out(line: string): void;
  err(line: string): void;
}

/** One input as read: its name in messages and its text. */
interface Input {
  readonly name: string;
  readonly text: string;
}

/** Files named on the command line, directories expanded to their YAML files, `-` as standard input. */
function readInputs(paths: readonly string[], io: CliIo): Input[] {
  return paths.flatMap((path): Input[] => {
    if (path === '-') return [{ name: '<stdin>', text: io.readStdin() }];
    if (statSync(path).isDirectory()) {
      return readdirSync(path).sort()
        .filter((entry) => /\.ya?ml$/i.test(entry) || statSync(join(path, entry)).isDirectory())
        .flatMap((entry) => readInputs([join(path, entry)], io));
    }
    return [{ name: path, text: readFileSync(path, 'utf8') }];
  });
}

/** Every non-empty document of every input, named `<file>:<document>`; YAML errors as messages. */
function parseInputs(inputs: readonly Input[]): { sources: ManifestSource[]; errors: string[] } {
  const sources: ManifestSource[] = [];
  const errors: string[] = [];
  for (const input of inputs) {
    const lineCounter = new LineCounter();
    parseAllDocuments(input.text, { lineCounter }).forEach((doc, i) => {
      for (const e of doc.errors) {
        const { line, col } = lineCounter.linePos(e.pos[0]);
        errors.push(`${input.name}:${i + 1} YAML error at line ${line}, column ${col}: ${e.message.split('\n')[0]}`);
      }
      const manifest = doc.errors.length === 0 ? doc.toJS() : undefined;
      if (manifest !== null && typeof manifest === 'object') sources.push({ manifest, path: `${input.name}:${i + 1}` });
    });
  }
  return { sources, errors };
}

/**
 * `cdk-hybrid-windows validate`: reads the inputs, applies the rules and prints the violations.
 * @returns the exit status
 */
export function runValidate(args: readonly string[], io: CliIo): number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { rules: { type: 'string' }, platform: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    io.err(`Name the files to validate, or - for standard input.\n\n${USAGE}`);
    return 2;
  }
  const sets = (parsed.values.rules ?? 'cluster,workloads').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = sets.filter((s) => !(s in RULE_SETS));
  if (unknown.length > 0 || sets.length === 0) {
    io.err(`--rules ${parsed.values.rules}: the rule sets are ${Object.keys(RULE_SETS).join(', ')}`);
    return 2;
  }

  const platform = parsed.values.platform as WindowsPlatform | undefined;
  if (platform !== undefined && !Object.values(WindowsPlatform).includes(platform)) {
    io.err(`--platform ${platform}: the platforms are ${Object.values(WindowsPlatform).join(', ')}`);
    return 2;
  }

  let inputs: Input[];
  try {
    inputs = readInputs(parsed.positionals, io);
  } catch (e) {
    io.err((e as Error).message);
    return 2;
  }
  const { sources, errors } = parseInputs(inputs);
  errors.forEach((e) => io.err(e));
  if (errors.length > 0) return 2;

  const rules = [...sets.flatMap((s) => RULE_SETS[s]), ...(sets.includes('workloads') ? platformRules(platform) : [])];
  const violations = validateManifests(sources, { rules, platform });
  violations.forEach((v) => io.out(line(v)));
  adviseManifests(sources, { rules, platform }).forEach((v) => io.err(`advice: ${line(v)}`));
  io.err(`${violations.length} violation${violations.length === 1 ? '' : 's'} in ${sources.length} object${sources.length === 1 ? '' : 's'}`);
  return violations.length > 0 ? 1 : 0;
}

/** `<file>:<document> <Kind> <namespace/name>: <what>. Fix: <how>.` */
function line(v: ManifestViolation): string {
  return `${v.path ?? '?'} ${v.kind} ${v.namespace ? `${v.namespace}/` : ''}${v.name}: ${v.message}`;
}
