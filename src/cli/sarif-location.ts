/**
 * Where a SARIF result points, as GitHub code scanning resolves it (github/codeql-action
 * src/fingerprints.ts `resolveUriToFile`): a relative URI is joined to the checkout's root and must
 * name a file there; an absolute one must be a `file://` URI. And the result's stable identity
 * (`partialFingerprints`), so that an alert survives lines moving and a rebuilt rendered file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from './finding';

/** What a SARIF location is relative to, and the charts rendered input came from. */
export interface SarifPlaces {
  /** The folder relative URIs start from (`--base-dir`). @default - the repository root above the working directory, else it */
  readonly baseDir?: string;
  /** Chart folders (`--helm-chart`): a finding on a template of one points at the template's file. */
  readonly helmCharts: readonly string[];
}

/** The repository root: the nearest folder at or above `dir` that holds `.git`. */
function repositoryRoot(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** A chart's name: Chart.yaml's `name`, which Helm writes first in `# Source:` comments, else the folder's name. */
function chartName(dir: string): string {
  const chart = join(dir, 'Chart.yaml');
  const name = existsSync(chart) ? /^name:\s*["']?([^"'\s#]+)/m.exec(readFileSync(chart, 'utf8'))?.[1] : undefined;
  return name ?? basename(resolve(dir));
}

/** A path as a URI relative to `base` (forward slashes, percent-encoded), or `file://` when it lies outside. */
function uriOf(path: string, base: string): string {
  const absolute = resolve(path);
  const rel = relative(base, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return pathToFileURL(absolute).href;
  return encodeURI(rel.split(sep).join('/'));
}

/** The template file a finding's `# Source:` names, inside one of the charts given. */
function templateFile(f: Finding, charts: readonly string[]): string | undefined {
  if (!f.template) return undefined;
  for (const dir of charts) {
    const prefix = `${chartName(dir)}/`;
    if (!f.template.startsWith(prefix)) continue;
    const file = join(dir, f.template.slice(prefix.length));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * The line of a template where the finding's field is written, as far as a text search tells (a
 * template is not YAML until rendered): the last key of the field path, else the object's kind.
 */
function templateLine(file: string, f: Finding): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const keys = (f.field ?? '').split(/[.[\]]/).filter((k) => k !== '' && !/^\d+$/.test(k)).reverse();
  for (const key of [...keys, 'kind']) {
    // A block key (`medium:`) or a flow one (`emptyDir: {medium: Memory}`).
    const pattern = new RegExp(`(^|[\\s{,-])${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:`);
    const i = lines.findIndex((l) => pattern.test(l));
    if (i !== -1) return i + 1;
  }
  return 1;
}

/** The SARIF `locations` of a finding (and `relatedLocations`: the rendered line a template finding came from). */
export function sarifLocations(f: Finding, places: SarifPlaces): { locations: object[]; relatedLocations?: object[] } {
  const base = resolve(places.baseDir ?? repositoryRoot(process.cwd()) ?? process.cwd());
  const logical = [{ fullyQualifiedName: `${f.kind}/${f.namespace ? `${f.namespace}/` : ''}${f.name}${f.field ? `/${f.field}` : ''}`, kind: 'object' }];
  const rendered = {
    physicalLocation: {
      artifactLocation: { uri: f.file === '<stdin>' ? 'stdin' : uriOf(f.file, base) },
      region: { startLine: f.fieldLine ?? f.line, startColumn: f.fieldColumn ?? f.column },
    },
    logicalLocations: logical,
  };
  const template = templateFile(f, places.helmCharts);
  if (template === undefined) return { locations: [rendered] };
  return {
    locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(template, base) }, region: { startLine: templateLine(template, f) } }, logicalLocations: logical }],
    relatedLocations: [{ id: 1, ...rendered, message: { text: 'where helm template rendered it' } }],
  };
}

/**
 * A finding's identity across runs: its rule, object and field, not its line (lines move with every
 * edit above them, and a rendered file's with every template).
 */
export function partialFingerprints(f: Finding): Record<string, string> {
  const identity = [f.rule, f.kind, f.namespace ?? '', f.name, f.field ?? '', f.template ?? ''].join('\u0000');
  // node:crypto takes milliseconds to load: only SARIF output pays it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return { 'cdkHybridWindowsFinding/v1': createHash('sha256').update(identity).digest('hex') };
}
