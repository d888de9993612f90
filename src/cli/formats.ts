import type { Finding } from './finding';
import { SarifPlaces, partialFingerprints, sarifLocations } from './sarif-location';

/** The output formats of `--format`. */
export const FORMATS = ['text', 'json', 'sarif', 'junit', 'github'] as const;
/** One of `FORMATS`. */
export type Format = typeof FORMATS[number];

/** What a format prints: lines for standard output and for standard error. */
export interface Printed {
  readonly out: string[];
  readonly err: string[];
}

/** What every format is given. */
export interface Report extends Partial<SarifPlaces> {
  readonly findings: readonly Finding[];
  readonly objects: number;
  readonly version: string;
  readonly showSuppressed: boolean;
  /**
   * What each rule is, by name, from the rule-set table (SARIF's `tool.driver.rules`).
   * @default - rules named only
   */
  readonly rules?: ReadonlyMap<string, RuleInfo>;
}

/** A rule as the reports describe it: its description and upstream source, and the set that holds it. */
export interface RuleInfo {
  readonly description: string;
  readonly source?: string;
  /** The rule set's name (`validate --rules`) and its heading in docs/rules.md. */
  readonly set: string;
  readonly title: string;
}

const HOME = 'https://github.com/cdk-hybrid-windows/cdk-hybrid-windows';

/** `<file>:<line>:<column> <Kind> <namespace/name>: <what>. Fix: <how>. [<rule>]` at the field's position when located. */
export function textLine(f: Finding): string {
  const template = f.template ? ` (${f.template})` : '';
  return `${f.file}:${f.fieldLine ?? f.line}:${f.fieldColumn ?? f.column} ${f.kind} ${objectName(f)}${template}: ${sentence(f)} [${f.rule}]`;
}

function objectName(f: Finding): string {
  return `${f.namespace ? `${f.namespace}/` : ''}${f.name}`;
}

function sentence(f: Finding): string {
  return `${f.what}. Fix: ${f.fix}.`;
}

function summary(report: Report): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const violations = report.findings.filter((f) => f.severity === 'violation' && !f.suppressed).length;
  const suppressed = report.findings.filter((f) => f.suppressed).length;
  return `${count(violations, 'violation')} in ${count(report.objects, 'object')}${suppressed > 0 ? `, ${suppressed} suppressed` : ''}`;
}

/** Prints a report in a format. */
export function print(format: Format, report: Report): Printed {
  const live = report.findings.filter((f) => !f.suppressed);
  const suppressed = report.findings.filter((f) => f.suppressed);
  switch (format) {
    case 'json':
      return { out: [JSON.stringify(json(report), null, 2)], err: [] };
    case 'sarif':
      return { out: [JSON.stringify(sarif(report), null, 2)], err: [] };
    case 'junit':
      return { out: [junit(report)], err: [] };
    case 'github':
      return {
        out: [...live, ...(report.showSuppressed ? suppressed : [])].map(github),
        err: [summary(report)],
      };
    default:
      return {
        out: live.filter((f) => f.severity === 'violation').map(textLine),
        err: [
          ...live.filter((f) => f.severity === 'advice').map((f) => `advice: ${textLine(f)}`),
          ...(report.showSuppressed ? suppressed.map((f) => `suppressed (${f.suppressed}): ${textLine(f)}`) : []),
          summary(report),
        ],
      };
  }
}

function json(report: Report) {
  const shown = report.findings.filter((f) => !f.suppressed || report.showSuppressed);
  return {
    version: report.version,
    objects: report.objects,
    violations: report.findings.filter((f) => f.severity === 'violation' && !f.suppressed).length,
    suppressed: report.findings.filter((f) => f.suppressed).length,
    findings: shown,
  };
}

/** GitHub workflow commands escape `%`, CR and LF in messages and also `:` and `,` in properties. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=…,line=…,col=…,title=…::<Kind name>: <what>. Fix: <how>.`; advice and suppressed findings as notices. */
function github(f: Finding): string {
  const command = f.suppressed || f.severity === 'advice' ? 'notice' : 'error';
  const props = [`file=${f.file}`, `line=${f.fieldLine ?? f.line}`, `col=${f.fieldColumn ?? f.column}`, `title=${f.rule}`].map((p) => {
    const [k, ...v] = p.split('=');
    return `${k}=${escapeProperty(v.join('='))}`;
  });
  const suffix = f.suppressed ? ` (suppressed: ${f.suppressed})` : '';
  return `::${command} ${props.join(',')}::${escapeData(`${f.kind} ${objectName(f)}: ${sentence(f)}${suffix}`)}`;
}

/**
 * SARIF 2.1.0 (OASIS, sarif-v2.1.0-os): one run, the rules of the findings in `tool.driver.rules`,
 * suppressed findings with `suppressions` (GitHub code scanning shows them as dismissed).
 */
function sarif(report: Report) {
  const ruleIds = [...new Set(report.findings.map((f) => f.rule))].sort();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'cdk-hybrid-windows',
          version: report.version,
          informationUri: HOME,
          rules: ruleIds.map((id) => sarifRule(id, report.rules?.get(id))),
        },
      },
      results: report.findings.map((f) => ({
        ruleId: f.rule,
        ruleIndex: ruleIds.indexOf(f.rule),
        level: f.severity === 'violation' ? 'error' : 'note',
        message: { text: `${f.kind} ${objectName(f)}: ${sentence(f)}` },
        ...sarifLocations(f, { baseDir: report.baseDir, helmCharts: report.helmCharts ?? [] }),
        partialFingerprints: partialFingerprints(f),
        // An annotation is in the source; the config file is outside it (SARIF 2.1.0 §3.35.3).
        ...(f.suppressed ? { suppressions: [{ kind: f.suppressedBy === 'config' ? 'external' : 'inSource', justification: f.suppressed }] } : {}),
        ...(f.template ? { properties: { helmTemplate: f.template } } : {}),
      })),
    }],
  };
}

/**
 * A rule of SARIF's `tool.driver.rules` (reportingDescriptor, sarif-v2.1.0-os §3.49): its
 * description, its upstream source as `helpUri` when that is a web address, else as the full
 * description and a property beside a link to its section of docs/rules.md.
 */
function sarifRule(id: string, info: RuleInfo | undefined) {
  if (!info) return { id, name: id, helpUri: `${HOME}/blob/main/docs/rules.md`, shortDescription: { text: `cdk-hybrid-windows rule ${id}` } };
  const url = info.source !== undefined && /^https?:\/\/\S+$/.test(info.source) ? info.source : undefined;
  const upstream = info.source !== undefined ? ` It encodes ${info.source}.` : '';
  return {
    id,
    name: id,
    shortDescription: { text: info.description },
    fullDescription: { text: `${info.description}.${upstream}` },
    // GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
    helpUri: url ?? `${HOME}/blob/main/docs/rules.md#${info.title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')}`,
    help: { text: `${info.description}.${upstream} Each result names the field and the fix for its object; docs/rules.md lists every rule of the ${info.set} set.` },
    properties: { ruleSet: info.set, ...(info.source !== undefined ? { source: info.source } : {}) },
  };
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * JUnit XML as Jenkins, GitLab and the JUnit viewers of GitHub Actions read it: one test case per
 * finding (failed; skipped when suppressed), advice left out.
 */
function junit(report: Report): string {
  const cases = report.findings.filter((f) => f.severity === 'violation');
  const failures = cases.filter((f) => !f.suppressed).length;
  const skipped = cases.length - failures;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cdk-hybrid-windows validate" tests="${Math.max(cases.length, 1)}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="cdk-hybrid-windows validate" tests="${Math.max(cases.length, 1)}" failures="${failures}" skipped="${skipped}" errors="0">`,
  ];
  // A run without findings is one passing case, so that a CI test tab shows the run at all.
  if (cases.length === 0) lines.push(`    <testcase classname="cdk-hybrid-windows" name="${report.objects} object${report.objects === 1 ? '' : 's'} pass every rule"/>`);
  for (const f of cases) {
    lines.push(`    <testcase classname="${xml(f.file)}" name="${xml(`${f.kind} ${objectName(f)} [${f.rule}]${f.field ? ` ${f.field}` : ''}`)}" file="${xml(f.file)}" line="${f.fieldLine ?? f.line}">`);
    lines.push(f.suppressed
      ? `      <skipped message="${xml(f.suppressed)}"/>`
      : `      <failure message="${xml(f.what)}" type="${xml(f.rule)}">${xml(textLine(f))}</failure>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n');
}
