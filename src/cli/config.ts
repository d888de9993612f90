import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { load } from 'js-yaml';
import { KUBECTL_SCHEMA } from './kubectl-yaml';

/** The config file's name, looked for from the working directory up to the repository root. */
export const CONFIG_FILE = '.cdk-hybrid-windows.yaml';

/** What a config file holds (every key optional). */
export interface ValidateConfig {
  /** The file it was read from. */
  readonly file?: string;
  /** `--platform`'s value when the command line names none. */
  readonly platform?: string;
  /** `--windows-taint`'s value when the command line names none. */
  readonly windowsTaint?: string;
  /** `--rules`' value when the command line names none. */
  readonly rules?: string;
  /** Rules whose findings are suppressed everywhere, with why. */
  readonly skipRules: ReadonlyArray<{ readonly rule: string; readonly reason: string }>;
  /** Globs (`*`, `**`, `?`) of input paths, relative to the config file's folder, whose objects are not read. */
  readonly ignorePaths: readonly string[];
  /** `--kubernetes-version`'s value when the command line names none. */
  readonly kubernetesVersion?: string;
  /** CRD files or folders (relative to the config file's folder), read beside `--crd`'s. */
  readonly crds: readonly string[];
  /** `--strict` when the command line does not set it. */
  readonly strict?: boolean;
  /**
   * `--infrastructures`' files when the command line names none (relative to the config file's
   * folder), and declarations written out in the config itself.
   * @default - none beyond the built-in ones
   */
  readonly infrastructures?: ReadonlyArray<string | object>;
}

const KEYS = ['platform', 'windowsTaint', 'rules', 'skipRules', 'ignorePaths', 'infrastructures', 'kubernetesVersion', 'crds', 'strict'];

/**
 * The config file to read: the one named, else `.cdk-hybrid-windows.yaml` in the working
 * directory or a folder above it, up to the repository root (the folder holding `.git`).
 * @internal
 */
export function findConfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, CONFIG_FILE))) return join(dir, CONFIG_FILE);
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined;
  }
}

/**
 * Reads a config file; throws an `Error` whose message names the file and the key at fault.
 * @internal
 */
export function readConfig(file: string): ValidateConfig {
  const raw = load(readFileSync(file, 'utf8'), { schema: KUBECTL_SCHEMA }) ?? {};
  const bad = (what: string) => new Error(`${file}: ${what}. Fix: write ${KEYS.join(', ')} (docs/validate.md, "Config file")`);
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('not a mapping');
  const config = raw as Record<string, unknown>;
  const unknown = Object.keys(config).filter((k) => !KEYS.includes(k));
  if (unknown.length > 0) throw bad(`unknown key ${unknown.join(', ')}`);
  for (const key of ['platform', 'windowsTaint', 'rules']) {
    if (config[key] !== undefined && typeof config[key] !== 'string') throw bad(`${key} is not a string`);
  }
  // A version written unquoted (kubernetesVersion: 1.30) is a number to YAML: read it as written would mislead (1.3).
  if (config.kubernetesVersion !== undefined && typeof config.kubernetesVersion !== 'string') throw bad('kubernetesVersion is not a string: quote it, e.g. "1.34"');
  if (config.strict !== undefined && typeof config.strict !== 'boolean') throw bad('strict is not true or false');
  // skipRules: a list of names, or of {rule, reason}.
  const skipRules = (Array.isArray(config.skipRules) ? config.skipRules : config.skipRules === undefined ? [] : [config.skipRules]).map((entry) => {
    if (typeof entry === 'string') return { rule: entry, reason: `skipped in ${file}` };
    if (entry && typeof entry === 'object' && typeof (entry as { rule?: unknown }).rule === 'string') {
      const { rule, reason } = entry as { rule: string; reason?: unknown };
      return { rule, reason: typeof reason === 'string' ? reason : `skipped in ${file}` };
    }
    throw bad('skipRules holds an entry that is neither a rule name nor {rule, reason}');
  });
  const ignorePaths = Array.isArray(config.ignorePaths) ? config.ignorePaths : config.ignorePaths === undefined ? [] : [config.ignorePaths];
  if (ignorePaths.some((p) => typeof p !== 'string')) throw bad('ignorePaths holds something other than a path glob');
  const crds = Array.isArray(config.crds) ? config.crds : config.crds === undefined ? [] : [config.crds];
  if (crds.some((p) => typeof p !== 'string')) throw bad('crds holds something other than a file or folder path');
  // infrastructures: a file, or a list of files and declarations (each judged when it is read).
  const infrastructures = Array.isArray(config.infrastructures) ? config.infrastructures : config.infrastructures === undefined ? [] : [config.infrastructures];
  if (infrastructures.some((i) => typeof i !== 'string' && (i === null || typeof i !== 'object'))) throw bad('infrastructures holds something other than a file or a declaration');
  return {
    file, platform: config.platform as string | undefined, windowsTaint: config.windowsTaint as string | undefined, rules: config.rules as string | undefined, skipRules, ignorePaths: ignorePaths as string[],
    infrastructures: infrastructures.map((i) => (typeof i === 'string' ? resolve(dirname(file), i) : i as object)),
    kubernetesVersion: config.kubernetesVersion as string | undefined, crds: (crds as string[]).map((p) => resolve(dirname(file), p)), strict: config.strict as boolean | undefined,
  };
}

/** A glob as a regular expression: `**` any folders, `*` and `?` within one path segment. */
function globPattern(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A folder's glob covers what is inside it.
  return new RegExp(`^${out}(?:/.*)?$`);
}

/**
 * Whether the config ignores an input path (relative to the config file's folder).
 * @internal
 */
export function isIgnored(config: ValidateConfig, path: string): boolean {
  if (config.ignorePaths.length === 0 || path === '-') return false;
  const base = config.file ? dirname(config.file) : process.cwd();
  const rel = relative(base, resolve(path)).split(sep).join('/');
  return config.ignorePaths.some((glob) => globPattern(glob.replace(/^\.\//, '')).test(rel));
}
