import type { Node } from 'yaml';
import { YamlDocument } from './kubectl-yaml';

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * A dotted field path as the rules write it (`spec.template.spec.nodeSelector.kubernetes.io/os`,
 * `spec.ports[1].name`) split into keys and indices, reading the object to tell a key that holds
 * dots (`kubernetes.io/os`) from nested keys: at each step the longest key the object has wins.
 * @internal
 */
export function fieldSegments(value: unknown, field: string): Array<string | number> {
  const segments: Array<string | number> = [];
  let rest = field;
  let current: unknown = value;
  while (rest !== '') {
    const index = /^\[(\d+)\]\.?/.exec(rest);
    if (index) {
      segments.push(Number(index[1]));
      current = Array.isArray(current) ? current[Number(index[1])] : undefined;
      rest = rest.slice(index[0].length);
      continue;
    }
    const keys = current !== null && typeof current === 'object' && !Array.isArray(current) ? Object.keys(current) : [];
    const key = keys.filter((k) => rest === k || rest.startsWith(`${k}.`) || rest.startsWith(`${k}[`)).sort((a, b) => b.length - a.length)[0]
      ?? /^[^.[]*/.exec(rest)![0];
    segments.push(key);
    current = (current as Record<string, unknown> | undefined)?.[key];
    rest = rest.slice(key.length).replace(/^\./, '');
  }
  return segments;
}

let yaml: typeof import('yaml') | undefined;
/** The `yaml` package, loaded on the first finding only: a passing run never needs it (40 ms of start-up). */
function yamlModule(): typeof import('yaml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  yaml ??= require('yaml') as typeof import('yaml');
  return yaml;
}

/**
 * Where a document shows a field: the position of its key (or sequence item), or of the deepest
 * part of the path the YAML shows when the field itself is absent. Parses the document again with
 * `yaml`, which keeps positions; called only for documents that draw a finding.
 * @internal
 */
export function locateField(document: YamlDocument, segments: ReadonlyArray<string | number>): Position | undefined {
  const { LineCounter, isMap, isScalar, isSeq, parseAllDocuments } = yamlModule();
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(document.text, { version: '1.1', lineCounter })[document.indexInText];
  if (!parsed || Array.isArray(parsed)) return undefined;
  let node: unknown = parsed.contents;
  let offset: number | undefined;
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      offset = (pair.key as Node).range?.[0];
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      node = node.items[segment];
      offset = (node as Node | null)?.range?.[0];
    } else {
      break;
    }
  }
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line: document.textLine + line - 1, column: col };
}
