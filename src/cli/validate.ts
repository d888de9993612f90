import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { NodeTaint, WindowsPlatform, parseNodeTaint } from '../platform/support';
import { ManifestSource, ManifestViolation, judgeManifests } from '../rules/index';
import { MANIFEST_RULE_SETS, manifestRulesOf } from '../rules/sets';
import type { RuleSet } from '../rules/engine/rule';
import { Infrastructures } from '../rules/engine/infrastructure';
import { BUILT_IN_INFRASTRUCTURES, K0smotronInfrastructure } from '../platform/infrastructures';
import type { TerraformJson } from '../terraform/index';
import { CONFIG_FILE, ValidateConfig, findConfig, isIgnored, readConfig } from './config';
import type { Finding } from './finding';
import { FORMATS, Format, RuleInfo, print } from './formats';
import { readInfrastructures } from './infrastructures';
import { YamlDocument, parseYamlStream } from './kubectl-yaml';
import { fieldSegments, locateField } from './locate';
import { yamlFixOf } from '../rules/engine/rule';
import { SCHEMA_RULE, schemaRule } from '../rules/schema/rule';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_MINORS, kubernetesMinorOf } from '../rules/schema/versions';

const PLATFORMS: readonly string[] = Object.values(WindowsPlatform);
/** The Terraform rules, loaded when a Terraform input or a suppression needs them. */
function terraform(): typeof import('../terraform/index') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../terraform/index');
}
/** Every rule set (`RULE_SETS`), the Terraform ones loaded with it: most runs need only the Kubernetes sets. */
function ruleSets(): readonly RuleSet[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../rule-sets') as typeof import('../rule-sets')).RULE_SETS;
}
/** The names `--rules` takes, each once, in the table's order. */
function setNames(): string[] {
  return [...new Set(ruleSets().map((s) => s.name))];
}
/** Every rule, by name, with what the reports say of it (SARIF's rule metadata). */
function ruleInfo(): ReadonlyMap<string, RuleInfo> {
  return new Map(ruleSets().flatMap((set) => set.rules.map((r) => [r.name, { description: r.description, source: r.source, set: set.name, title: set.title }] as const)));
}
/** The annotation prefix that suppresses a rule on one object: `ignore-rule.cdk-hybrid-windows.io/<rule>: "<reason>"`. */
export const IGNORE_ANNOTATION = 'ignore-rule.cdk-hybrid-windows.io/';

/** The command's help text (it names the rule sets, so it loads their table). */
export function usage(): string {
  return `Usage: cdk-hybrid-windows validate [options] <file|directory|->...

Applies cdk-hybrid-windows's rules to Kubernetes YAML (validateManifests) and to Terraform JSON
(validateTerraform): files, directories (their .yaml, .yml and .json files) or - for standard
input, all taken as one set of objects, as kubectl apply -f would, and read as kubectl reads them
(YAML 1.1 scalars: yes/on are booleans, 0644 is octal). A *.tf.json file, or a document shaped
like Terraform JSON (resource, data, provider...), runs the Terraform rules. Prints one line per
violation:

  <file>:<line>:<column> <Kind> <namespace/name>: <what>. Fix: <how>. [<rule>]

at the field's line when the YAML shows it, else the object's. What the rules recommend without
requiring it goes to standard error as "advice: " lines and leaves the exit status alone.

Options:
  --platform <name>        where the workloads run: ${PLATFORMS.join(', ')}.
                           Windows pods must tolerate the taint its Windows nodes carry:
                           os=windows:NoSchedule on the library's k0smotron clusters and its EKS
                           and AKS pools, node.kubernetes.io/os=windows:NoSchedule on GKE, none
                           on RKE2 (its Windows agents get only the taints given to them); k3s
                           has no Windows nodes, so every Windows pod is refused there; eks
                           also requires a Windows nodeSelector (the VPC resource controller),
                           and eks and k0smotron-aws keep AWS load balancers of Linux pods off
                           Windows nodes.
                           Default: none, only the rules that hold everywhere (a Windows pod
                           must select Windows, and need tolerate no taint)
  --windows-taint <taint>  the taint Windows nodes carry, key=value:Effect, or none (default: the
                           platform's)
  --rules <sets>           the rule sets, comma-separated: ${setNames().join(', ')} (default: all
                           but eks, which --platform eks adds)
  --list-rules             print every rule with its set and what it judges, and exit
  --infrastructures <file> k0smotron infrastructures beyond AWS and remote hosts, whose objects
                           are then judged like theirs: a YAML or JSON list of declarations, or
                           a CommonJS module exporting them (K0smotronInfrastructure); repeatable
  --kubernetes-version <v> the Kubernetes minor whose API schema core objects are checked against
                           (the schema set):
                           ${KUBERNETES_MINORS.join(', ')} (default: ${DEFAULT_KUBERNETES_VERSION});
                           1.34.2 and v1.34.2 name 1.34
  --crd <file|directory>   CRDs whose custom resources are checked against their schemas and CEL
                           rules, beside the pinned ones of Cluster API, CAPA, CAPZ, k0smotron and
                           Karpenter and the CRDs among the inputs (repeatable)
  --strict                 an object whose kind no schema covers fails the run (default: advice)
  --base-dir <dir>         SARIF locations are relative to it (default: the repository root, the
                           folder above holding .git, else the working directory)
  --helm-chart <dir>       the chart the input was rendered from: findings on its templates point
                           at <dir>/templates/... in SARIF, from the # Source: comments (repeatable)
  --skip-non-manifests     pass over documents that are not Kubernetes objects or Terraform JSON
                           (package.json, workflow files, Chart.yaml) instead of exiting 2, and
                           exit 0 when nothing is left: what the pre-commit hook runs
  --format <format>        ${FORMATS.join(', ')} (default: text)
  --config <file>          the config file (default: ${CONFIG_FILE} in this folder or one above
                           it, up to the repository root): platform, windowsTaint, rules,
                           skipRules, ignorePaths, infrastructures, kubernetesVersion, crds,
                           strict
  --show-suppressed        also print the findings suppressed by an annotation
                           (${IGNORE_ANNOTATION}<rule>: "<reason>") or the config file
  --version                the package version
  -h, --help               this text

Exit status: 0 when the objects pass, 1 when a rule is broken, 2 when the input cannot be read,
is not Kubernetes YAML or Terraform JSON, or holds no object (as kubectl apply refuses it).

  helm template my-release ./chart | npx cdk-hybrid-windows validate --platform eks -`;
}

/** Where the command reads and writes; a process's own streams in the bin, buffers in tests. */
export interface CliIo {
  readStdin(): string | Buffer;
  out(line: string): void;
  err(line: string): void;
}

/** Input that cannot be taken: one line saying why, exit status 2. */
class InputError extends Error {}

/** One input as read: its name in messages and its text. */
interface Input {
  readonly name: string;
  readonly text: string;
}

/** A Kubernetes object of the input, where it is, and its path inside its document (a List item's `items[i]`). */
interface Located {
  readonly file: string;
  readonly document: YamlDocument;
  readonly prefix: ReadonlyArray<string | number>;
  readonly manifest: Record<string, unknown>;
}

/** A Terraform JSON stack of the input. */
interface Stack {
  readonly file: string;
  readonly json: TerraformJson;
  readonly document?: YamlDocument;
  readonly text: string;
}

/** A JSON object that is no Kubernetes object, List or Terraform configuration. */
function isOtherJson(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const object = value as Record<string, unknown>;
  return object.apiVersion === undefined && object.kind === undefined && !isTerraform(object);
}

/** Top-level keys of Terraform's JSON configuration syntax (developer.hashicorp.com/terraform/language/syntax/json). */
const TERRAFORM_KEYS = new Set(['terraform', 'provider', 'resource', 'data', 'locals', 'output', 'variable', 'module', 'moved', 'import', 'check', 'removed', '//']);
const TERRAFORM_BLOCKS = ['terraform', 'provider', 'resource', 'data'];

function isTerraform(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return value.kind === undefined && keys.every((k) => TERRAFORM_KEYS.has(k)) && keys.some((k) => TERRAFORM_BLOCKS.includes(k));
}

/** Text of a file or standard input; binary data is refused like kubectl refuses it. */
function decode(name: string, data: string | Buffer): string {
  if (typeof data === 'string') return data.replace(/^\uFEFF/, '');
  // Git's test for binary data: a NUL byte in the first 8,000 bytes.
  if (data.subarray(0, 8000).includes(0)) throw new InputError(`${name}: binary data, not YAML or JSON; name the manifests (or - for standard input)`);
  const text = data.toString('utf8');
  if (text.includes('\uFFFD')) throw new InputError(`${name}: not UTF-8 text, so not YAML or JSON; save it as UTF-8`);
  return text.replace(/^\uFEFF/, '');
}

/** Files named on the command line, directories expanded to their manifest files, `-` as standard input. */
function readInputs(paths: readonly string[], io: CliIo, config: ValidateConfig): Input[] {
  return paths.flatMap((path): Input[] => {
    if (path === '-') return [{ name: '<stdin>', text: decode('<stdin>', io.readStdin()) }];
    if (isIgnored(config, path)) return [];
    if (!existsSync(path)) throw new InputError(`${path}: no such file or directory`);
    if (statSync(path).isDirectory()) {
      // Hidden entries (.git, .github, the config file) are no manifests.
      return readdirSync(path).sort()
        .filter((entry) => !entry.startsWith('.') && (/\.(ya?ml|json)$/i.test(entry) || statSync(join(path, entry)).isDirectory()))
        .flatMap((entry) => readInputs([join(path, entry)], io, config))
        .filter((input) => {
          // A JSON file found in a folder that is neither manifests nor Terraform is a tool's own
          // file beside them (cdk8s writes dist/construct-metadata.json next to the YAML when validation plugins run):
          // said and passed over, where a file named on the command line is refused.
          if (!/\.json$/i.test(input.name) || /\.tf\.json$/i.test(input.name) || !isOtherJson(input.text)) return true;
          io.err(`${input.name}: skipped, a JSON file without apiVersion and kind (not a Kubernetes object) and not Terraform JSON; name it to have it judged`);
          return false;
        });
    }
    try {
      return [{ name: path, text: decode(path, readFileSync(path)) }];
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  });
}

/** Sorts each input's documents into Kubernetes objects and Terraform stacks; anything else is an `InputError`. */
function parseInputs(inputs: readonly Input[], skipOthers = false): { objects: Located[]; stacks: Stack[]; errors: string[]; skipped: Set<string> } {
  const objects: Located[] = [];
  const stacks: Stack[] = [];
  const errors: string[] = [];
  /** Files with documents that are no Kubernetes object (--skip-non-manifests: passed over, not refused). */
  const skipped = new Set<string>();
  for (const input of inputs) {
    if (/\.tf\.json$/i.test(input.name)) {
      try {
        stacks.push({ file: input.name, json: JSON.parse(input.text), text: input.text });
      } catch (e) {
        errors.push(`${input.name}: not JSON (${(e as Error).message})`);
      }
      continue;
    }
    const { documents, errors: yamlErrors } = parseYamlStream(input.text);
    errors.push(...yamlErrors.map((e) => `${input.name}:${e.line}:${e.column} YAML error: ${e.message}`));
    for (const document of documents) {
      const value = document.value;
      if (value === null) continue;
      const at = `${input.name}:${document.line}:${document.column}`;
      if (typeof value !== 'object' || Array.isArray(value)) {
        if (skipOthers) {
          skipped.add(input.name);
          continue;
        }
        errors.push(`${at} not a Kubernetes object: the document is ${Array.isArray(value) ? 'a list' : `the ${typeof value} ${JSON.stringify(value).slice(0, 40)}`}, where kubectl expects a mapping with apiVersion and kind`);
        continue;
      }
      const manifest = value as Record<string, unknown>;
      if (isTerraform(manifest)) {
        stacks.push({ file: input.name, json: manifest as TerraformJson, document, text: input.text });
        continue;
      }
      // kubectl decodes any object with items as a list and applies the items (`v1 List`, `DeploymentList`...):
      // an item without apiVersion and kind takes the list's apiVersion and its kind less "List"
      // (kubernetes/apimachinery pkg/apis/meta/v1/unstructured/unstructured.go, decodeToList).
      if (manifest.items !== undefined && manifest.items !== null && !Array.isArray(manifest.items)) {
        errors.push(`${at} not a Kubernetes object: items is ${typeof manifest.items === 'object' ? 'a mapping' : `the ${typeof manifest.items} ${JSON.stringify(manifest.items)}`}, where kubectl reads a list of objects`);
        continue;
      }
      const typed = (item: unknown) => (item !== null && typeof item === 'object' && !Array.isArray(item) && (item as Record<string, unknown>).apiVersion === undefined && (item as Record<string, unknown>).kind === undefined
        && typeof manifest.kind === 'string' && manifest.kind.endsWith('List')
        ? { apiVersion: manifest.apiVersion, kind: manifest.kind.slice(0, -4), ...(item as object) } : item);
      const items = Array.isArray(manifest.items) ? manifest.items.map((item, i) => ({ item: typed(item), prefix: ['items', i] })) : [{ item: manifest as unknown, prefix: [] }];
      for (const { item, prefix } of items) {
        const missing = ['apiVersion', 'kind'].filter((k) => typeof (item as Record<string, unknown> | null)?.[k] !== 'string' || (item as Record<string, string>)[k] === '');
        if (missing.length > 0) {
          if (skipOthers && prefix.length === 0) {
            skipped.add(input.name);
            continue;
          }
          errors.push(`${at} not a Kubernetes object${prefix.length > 0 ? ` (items[${prefix[1]}] of a ${String(manifest.kind)})` : ''}: ${missing.join(' and ')} not set, which kubectl refuses`);
          continue;
        }
        objects.push({ file: input.name, document, prefix, manifest: item as Record<string, unknown> });
      }
    }
  }
  return { objects, stacks, errors, skipped };
}

/**
 * The CustomResourceDefinitions in `--crd`'s files and folders (their .yaml, .yml and .json files),
 * read as the inputs are; a path that holds none is refused, so that a wrong path is not a silent
 * "not checked".
 */
function readCrds(paths: readonly string[]): Record<string, unknown>[] {
  return paths.flatMap((path) => {
    const { objects, errors } = parseInputs(readInputs([path], { readStdin: () => '', out: () => undefined, err: () => undefined }, { skipRules: [], ignorePaths: [], crds: [] }));
    if (errors.length > 0) throw new InputError(`--crd ${path}: ${errors[0]}`);
    const crds = objects.map((o) => o.manifest).filter((m) => m.kind === 'CustomResourceDefinition');
    if (crds.length === 0) throw new InputError(`--crd ${path}: no CustomResourceDefinition in it`);
    return crds;
  });
}

/** The package's version, from its package.json (two folders above this file in the source, three in lib). */
function packageVersion(): string {
  // Only --version and the JSON and SARIF reports print it.
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === 'cdk-hybrid-windows') return pkg.version;
    }
  }
  return 'unknown';
}

/** What the command line and the config file settle between them. */
interface Settings {
  /** The rule sets named; undefined: those applied by default. */
  readonly sets?: readonly string[];
  /** The infrastructures the rules know: the built-in ones and those named. */
  readonly infrastructures: readonly K0smotronInfrastructure[];
  readonly platform?: WindowsPlatform;
  readonly windowsTaint?: NodeTaint | 'none';
  readonly format: Format;
  readonly config: ValidateConfig;
  /** The Kubernetes minor of the schema check. */
  readonly kubernetesVersion: string;
  /** CRD files and folders, from --crd and the config file. */
  readonly crds: readonly string[];
  readonly strict: boolean;
}

function settle(values: Record<string, string | boolean | string[] | undefined>): Settings {
  const configFile = typeof values.config === 'string' ? values.config : findConfig(process.cwd());
  if (typeof values.config === 'string' && !existsSync(values.config)) throw new InputError(`--config ${values.config}: no such file`);
  let config: ValidateConfig = { skipRules: [], ignorePaths: [], crds: [] };
  if (configFile !== undefined) {
    try {
      config = readConfig(configFile);
    } catch (e) {
      throw new InputError((e as Error).message);
    }
  }
  const from = (key: string, configured?: string) => (typeof values[key] === 'string' ? `--${key}` : `${config.file} ${configured}`);

  const rulesText = (values.rules as string | undefined) ?? config.rules;
  const sets = rulesText?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  // The Terraform sets' names are read only when a name is not a Kubernetes set's.
  const named = (s: string) => MANIFEST_RULE_SETS.some((set) => set.name === s) || setNames().includes(s);
  if (sets !== undefined && (sets.length === 0 || !sets.every(named))) throw new InputError(`${from('rules', 'rules')} ${rulesText}: the rule sets are ${setNames().join(', ')}`);

  const platform = (values.platform as string | undefined) ?? config.platform;
  if (platform !== undefined && !PLATFORMS.includes(platform)) throw new InputError(`${from('platform', 'platform')} ${platform}: the platforms are ${PLATFORMS.join(', ')}`);

  const taintText = (values['windows-taint'] as string | undefined) ?? config.windowsTaint;
  let windowsTaint: NodeTaint | 'none' | undefined;
  if (taintText !== undefined) {
    windowsTaint = taintText === 'none' ? 'none' : parseNodeTaint(taintText);
    if (windowsTaint === undefined) throw new InputError(`${from('windows-taint', 'windowsTaint')} ${taintText}: write the taint as key=value:Effect (NoSchedule, PreferNoSchedule or NoExecute), or none`);
  }

  const versionText = (values['kubernetes-version'] as string | undefined) ?? config.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  const kubernetesVersion = kubernetesMinorOf(versionText);
  if (kubernetesVersion === undefined) throw new InputError(`${from('kubernetes-version', 'kubernetesVersion')} ${versionText}: the Kubernetes versions whose schemas this release knows are ${KUBERNETES_MINORS.join(', ')}`);
  const crds = [...((values.crd as string[] | undefined) ?? []), ...config.crds];
  const missingCrd = crds.find((p) => !existsSync(p));
  if (missingCrd !== undefined) throw new InputError(`--crd ${missingCrd}: no such file or directory`);

  const format = (values.format as string | undefined) ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new InputError(`--format ${format}: the formats are ${FORMATS.join(', ')}`);

  const names = config.skipRules.length > 0 ? ruleInfo() : new Map<string, RuleInfo>();
  const unknownSkips = config.skipRules.filter((s) => !names.has(s.rule));
  if (unknownSkips.length > 0) throw new InputError(`${config.file} skipRules: no rule is named ${unknownSkips.map((s) => s.rule).join(', ')}; docs/rules.md lists the rules`);
  const files = values.infrastructures as string[] | undefined;
  const where = files ? '--' : `${config.file} `;
  let infrastructures: K0smotronInfrastructure[];
  try {
    infrastructures = [...BUILT_IN_INFRASTRUCTURES, ...readInfrastructures(files ?? config.infrastructures ?? [])];
  } catch (e) {
    throw new InputError(`${where}${(e as Error).message}`);
  }
  try {
    // Two declarations of one kind are refused here, as input, rather than in the run.
    new Infrastructures(infrastructures);
  } catch (e) {
    throw new InputError(`${where}infrastructures: ${(e as Error).message}`);
  }
  return { sets, infrastructures, platform: platform as WindowsPlatform | undefined, windowsTaint, format: format as Format, config, kubernetesVersion, crds, strict: values.strict === true || config.strict === true };
}

/** The command line, parsed (throws on an unknown option). */
function parseCommandLine(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      'rules': { type: 'string' },
      'list-rules': { type: 'boolean' },
      'infrastructures': { type: 'string', multiple: true },
      'platform': { type: 'string' },
      'windows-taint': { type: 'string' },
      'format': { type: 'string' },
      'config': { type: 'string' },
      'kubernetes-version': { type: 'string' },
      'crd': { type: 'string', multiple: true },
      'strict': { type: 'boolean' },
      'base-dir': { type: 'string' },
      'helm-chart': { type: 'string', multiple: true },
      'skip-non-manifests': { type: 'boolean' },
      'show-suppressed': { type: 'boolean' },
      'version': { type: 'boolean' },
      'help': { type: 'boolean', short: 'h' },
    },
  });
}

/**
 * `cdk-hybrid-windows validate`: reads the inputs, applies the rules and prints the findings.
 * @returns the exit status
 */
export function runValidate(args: readonly string[], io: CliIo): number {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(args);
  } catch (e) {
    io.err(`${(e as Error).message}\n\n${usage()}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(usage());
    return 0;
  }
  if (parsed.values.version) {
    io.out(packageVersion());
    return 0;
  }
  if (parsed.values['list-rules']) return listRules(parsed.values.format, io);
  if (parsed.positionals.length === 0) {
    io.err(`Name the files to validate, or - for standard input.\n\n${usage()}`);
    return 2;
  }
  try {
    const settings = settle(parsed.values);
    const inputs = readInputs(parsed.positionals, io, settings.config);
    const skipOthers = parsed.values['skip-non-manifests'] === true;
    const { objects, stacks, errors, skipped } = parseInputs(inputs, skipOthers);
    errors.forEach((e) => io.err(e));
    if (errors.length > 0) return 2;
    if (skipped.size > 0) io.err(`skipped, not Kubernetes objects or Terraform JSON (--skip-non-manifests): ${[...skipped].join(', ')}`);
    if (objects.length + stacks.length === 0 && skipOthers) return 0;
    if (objects.length + stacks.length === 0) {
      // kubectl apply -f on an empty file or a folder without manifests: "error: no objects passed to apply".
      const everyIgnored = parsed.positionals.every((p) => isIgnored(settings.config, p));
      io.err(everyIgnored ? `every input is in ${settings.config.file} ignorePaths: nothing to validate` : `no objects passed to validate: ${inputs.length === 0 ? 'no .yaml, .yml or .json file among the inputs' : 'the inputs hold no Kubernetes object or Terraform JSON'}, which kubectl apply refuses too ("no objects passed to apply")`);
      return everyIgnored ? 0 : 2;
    }
    const findings = [...judgeObjects(objects, settings), ...judgeStacks(stacks, settings)];
    const version = settings.format === 'json' || settings.format === 'sarif' ? packageVersion() : '';
    const rules = settings.format === 'sarif' ? ruleInfo() : undefined;
    const printed = print(settings.format, {
      findings, objects: objects.length + stacks.length, version, showSuppressed: parsed.values['show-suppressed'] === true, rules,
      ...(typeof parsed.values['base-dir'] === 'string' ? { baseDir: parsed.values['base-dir'] } : {}),
      helmCharts: parsed.values['helm-chart'] ?? [],
    });
    printed.out.forEach((l) => io.out(l));
    printed.err.forEach((l) => io.err(l));
    return findings.some((f) => f.severity === 'violation' && !f.suppressed) ? 1 : 0;
  } catch (e) {
    if (e instanceof InputError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }
}

/**
 * `--list-rules`: every rule with its set and what it judges, one per line in the table's order
 * (`--format json`: a list of { rule, set, registry, scope, description, source }).
 */
function listRules(format: string | undefined, io: CliIo): number {
  const rows = ruleSets().flatMap((set) => set.rules.map((r) => ({ rule: r.name, set: set.name, registry: set.registry, scope: r.scope, description: r.description, source: r.source })));
  if (format === 'json') {
    io.out(JSON.stringify(rows, null, 2));
    return 0;
  }
  if (format !== undefined && format !== 'text') {
    io.err(`--format ${format}: --list-rules prints text or json`);
    return 2;
  }
  const width = Math.max(...rows.map((r) => r.rule.length));
  const setWidth = Math.max(...rows.map((r) => r.set.length));
  rows.forEach((r) => io.out(`${r.rule.padEnd(width)}  ${r.set.padEnd(setWidth)}  ${r.description}`));
  return 0;
}

/** The Kubernetes rules over the objects, each finding placed and checked against the suppressions. */
function judgeObjects(objects: readonly Located[], settings: Settings): Finding[] {
  // The schema set's rule, checked against the minor and CRDs the options name.
  const rules = manifestRulesOf(settings.sets, settings.platform).map((r) => (r === SCHEMA_RULE ? schemaRule({ kubernetesVersion: settings.kubernetesVersion, crds: readCrds(settings.crds), strict: settings.strict }) : r));
  if (objects.length === 0 || rules.length === 0) return [];
  // The source's path is its index, to find its file and position again.
  const sources: ManifestSource[] = objects.map((o, i) => ({ manifest: o.manifest, path: String(i) }));
  const options = { rules, platform: settings.platform, windowsTaint: settings.windowsTaint, infrastructures: settings.infrastructures };
  const place = (severity: Finding['severity']) => (v: ManifestViolation): Finding => {
    const located = v.path === undefined ? undefined : objects[Number(v.path)];
    return finding(v, severity, located, settings.config);
  };
  const { violations, advice } = judgeManifests(sources, options);
  return [...violations.map(place('violation')), ...advice.map(place('advice'))];
}

/** A violation as a finding: where its object is (and its field, when the YAML shows it), and whether it is suppressed. */
function finding(v: ManifestViolation, severity: Finding['severity'], located: Located | undefined, config: ValidateConfig): Finding {
  const document = located?.document;
  let field: { line: number; column: number } | undefined;
  let object = document ? { line: document.line, column: document.column } : { line: 1, column: 1 };
  if (located && document) {
    if (located.prefix.length > 0) object = locateField(document, located.prefix) ?? object;
    if (v.field) field = locateField(document, [...located.prefix, ...fieldSegments(located.manifest, v.field)]);
  }
  const annotations = (located?.manifest.metadata as { annotations?: Record<string, unknown> } | undefined)?.annotations;
  const reason = annotations?.[`${IGNORE_ANNOTATION}${v.rule}`];
  const suppressed = reason !== undefined
    ? `annotation ${IGNORE_ANNOTATION}${v.rule}: ${String(reason) || 'no reason given'}`
    : config.skipRules.find((s) => s.rule === v.rule)?.reason;
  return {
    rule: v.rule,
    severity,
    file: located?.file ?? '?',
    line: object.line,
    column: object.column,
    ...(field ? { fieldLine: field.line, fieldColumn: field.column } : {}),
    kind: v.kind,
    ...(v.namespace !== undefined ? { namespace: String(v.namespace) } : {}),
    name: v.name,
    ...(v.field ? { field: v.field } : {}),
    what: v.what,
    fix: yamlFixOf(v),
    ...(document?.template ? { template: document.template } : {}),
    ...(suppressed !== undefined ? { suppressed, suppressedBy: reason !== undefined ? 'annotation' as const : 'config' as const } : {}),
  };
}

/** The Terraform rules over the stacks, each finding placed at its block. */
function judgeStacks(stacks: readonly Stack[], settings: Settings): Finding[] {
  if (stacks.length === 0) return [];
  const rules = terraform().TERRAFORM_RULE_SETS.filter((s) => (settings.sets === undefined ? s.byDefault : settings.sets.includes(s.name))).flatMap((s) => s.rules);
  if (rules.length === 0) return [];
  return terraform().validateTerraform(stacks.map((s) => s.json), { rules }).map((v) => {
    const section = ['resource', 'data'].find((k) => stacks.some((s) => (s.json as Record<string, Record<string, Record<string, unknown>>>)[k]?.[v.kind]?.[v.name] !== undefined)) ?? 'resource';
    const stack = stacks.find((s) => (s.json as Record<string, Record<string, Record<string, unknown>>>)[section]?.[v.kind]?.[v.name] !== undefined) ?? stacks[0];
    const document = stack.document ?? { value: stack.json, line: 1, column: 1, text: stack.text, textLine: 1, indexInText: 0 };
    const block = [section, v.kind, v.name];
    const located: Located = { file: stack.file, document, prefix: block, manifest: stack.json as Record<string, unknown> };
    const blockValue = (stack.json as Record<string, Record<string, Record<string, unknown>>>)[section]?.[v.kind]?.[v.name];
    const f = finding({ ...v, field: undefined }, 'violation', located, settings.config);
    const field = v.field ? locateField(document, [...block, ...fieldSegments(blockValue, v.field)]) : undefined;
    return { ...f, ...(v.field ? { field: v.field } : {}), ...(field ? { fieldLine: field.line, fieldColumn: field.column } : {}) };
  });
}
