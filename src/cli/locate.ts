import { loadAll } from 'js-yaml';
import type { Node } from 'yaml';
import { KUBECTL_READ, YamlDocument } from './kubectl-yaml';

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

/** A node as js-yaml's listener reports it: where it opens, its kind, value and child nodes (a mapping's alternate key, value). */
interface EventNode {
  readonly start: number;
  readonly children: EventNode[];
  kind?: string | null;
  result?: unknown;
}

/** The node tree of a document's text, from js-yaml's open and close events; one parse per document. */
const trees = new WeakMap<YamlDocument, EventNode>();
function eventTree(document: YamlDocument): EventNode {
  let root = trees.get(document);
  if (root) return root;
  root = { start: 0, children: [] };
  const stack: EventNode[] = [root];
  loadAll(document.text, () => undefined, {
    ...KUBECTL_READ,
    listener: (event, state) => {
      if (event === 'open') {
        const node: EventNode = { start: state.position, children: [] };
        stack[stack.length - 1].children.push(node);
        stack.push(node);
      } else {
        const node = stack.pop()!;
        node.kind = state.kind;
        node.result = state.result;
      }
    },
  });
  trees.set(document, root);
  return root;
}

/** The first offset at or after `at` that is not white space, a comment or a document marker: where a node's text starts. */
function contentStart(text: string, at: number): number {
  let p = at;
  for (;;) {
    while (p < text.length && (text[p] === ' ' || text[p] === '\t' || text[p] === '\r' || text[p] === '\n')) p++;
    if (text[p] === '#') {
      while (p < text.length && text[p] !== '\n') p++;
    } else if (text.startsWith('---', p)) {
      p += 3;
    } else {
      return p;
    }
  }
}

/**
 * The fast way: js-yaml again, with its event listener, which the run has already warmed up. Each
 * key's position is checked against the text (the key or a quote there), and undefined returned
 * when one does not match, so that `yaml`'s parser decides.
 */
function locateByEvents(document: YamlDocument, segments: ReadonlyArray<string | number>): { offset?: number } | undefined {
  const text = document.text;
  let node: EventNode | undefined = eventTree(document).children[document.indexInText];
  let offset: number | undefined;
  for (const segment of segments) {
    // A flow collection in block context is reported twice, the outer node holding the inner one
    // with the same value.
    while (node && node.children.length === 1 && node.children[0].result === node.result) node = node.children[0];
    if (node?.kind === 'mapping') {
      let index = -1;
      for (let i = 0; i + 1 < node.children.length; i += 2) {
        if (String(node.children[i].result) === String(segment)) {
          index = i;
          break;
        }
      }
      if (index === -1) {
        // Absent: the deepest part shown is where we are; present but not found: let the parser decide.
        if (node.result !== null && typeof node.result === 'object' && String(segment) in (node.result as object)) return undefined;
        break;
      }
      const at = contentStart(text, node.children[index].start);
      if (!text.startsWith(String(segment), at) && !/['"?]/.test(text[at])) return undefined;
      offset = at;
      node = node.children[index + 1];
    } else if (node?.kind === 'sequence' && typeof segment === 'number' && segment < node.children.length) {
      node = node.children[segment];
      offset = contentStart(text, node.start);
    } else {
      break;
    }
  }
  return { offset };
}

/**
 * Where a document shows a field: the position of its key (or sequence item), or of the deepest
 * part of the path the YAML shows when the field itself is absent. Called only for documents that
 * draw a finding: js-yaml's events first, `yaml`'s parser (positions, YAML 1.1) where they are
 * not clear.
 * @internal
 */
export function locateField(document: YamlDocument, segments: ReadonlyArray<string | number>): Position | undefined {
  const fast = locateByEvents(document, segments);
  if (fast !== undefined) {
    if (fast.offset === undefined) return undefined;
    const before = document.text.slice(0, fast.offset);
    const lines = before.split('\n');
    return { line: document.textLine + lines.length - 1, column: lines[lines.length - 1].length + 1 };
  }
  return locateByParser(document, segments);
}

/**
 * `locateField` by `yaml`'s parser alone, which keeps every node's position.
 * @internal
 */
export function locateByParser(document: YamlDocument, segments: ReadonlyArray<string | number>): Position | undefined {
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
