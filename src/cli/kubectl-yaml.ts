/**
 * YAML as kubectl reads it. kubectl decodes manifests with sigs.k8s.io/yaml, whose scalars resolve
 * as its fork of go-yaml v2 does (kubernetes-sigs/yaml goyaml.v2/resolve.go, `resolve`): YAML 1.1
 * booleans (`y`, `yes`, `on`, `off`, `n`, `no` in three spellings each), integers through Go's
 * `strconv.ParseInt(s, 0, 64)` with underscores dropped (a leading `0` is octal: `0644` is 420;
 * `0x`, `0o` and `0b` prefixes), floats of `yamlStyleFloat`, no base-60 numbers, and later keys
 * replacing earlier ones. The `yaml` package's YAML 1.2 default reads `yes` as a string and `0644`
 * as 644, so a rule would judge another object than the API server receives.
 *
 * Speed: js-yaml builds plain objects without a syntax tree (about ten times faster than `yaml`'s
 * `parseAllDocuments` on 4,000 Deployments, see docs/validate.md). Documents are split on their
 * `---` lines first, which YAML forbids inside any content (YAML 1.2 §9.1.4, c-forbidden), so each
 * document's first line is known without a tree; the position of a field is found on demand by
 * `yaml`'s own parser, only for the few documents that draw a finding (`locate.ts`).
 */
import { FAILSAFE_SCHEMA, Type, YAMLException, loadAll } from 'js-yaml';

const TRUE = ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'];
const FALSE = ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'];
const BOOLEANS = new Map<string, boolean>([...TRUE.map((s) => [s, true] as const), ...FALSE.map((s) => [s, false] as const)]);
const SPECIAL_FLOATS = new Map<string, number>([
  ...['.nan', '.NaN', '.NAN'].map((s) => [s, NaN] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s) => [s, Infinity] as const),
  ...['-.inf', '-.Inf', '-.INF'].map((s) => [s, -Infinity] as const),
]);
/** Go's `strconv.ParseInt(s, 0, 64)` syntax: sign, then a 0x/0o/0b prefix, a leading 0 (octal) or decimal. */
const GO_INT = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/;
/** goyaml.v2 `yamlStyleFloat`, matched after underscores are dropped. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** goyaml.v2's resolve table: only a scalar starting with a sign, a digit or '.' can be a number. */
function numberHint(text: string): boolean {
  const c = text.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
}

function goInt(text: string): number | undefined {
  if (!numberHint(text)) return undefined;
  const m = GO_INT.exec(text.includes('_') ? text.replace(/_/g, '') : text);
  if (!m) return undefined;
  const [, sign, hex, oct, bin, leadingZero, dec] = m;
  const magnitude = hex !== undefined ? parseInt(hex, 16) : oct !== undefined ? parseInt(oct, 8) : bin !== undefined ? parseInt(bin, 2)
    : leadingZero !== undefined ? (leadingZero === '' ? 0 : parseInt(leadingZero, 8)) : parseInt(dec, 10);
  return sign === '-' ? -magnitude : magnitude;
}

function goFloat(text: string): number | undefined {
  if (!numberHint(text)) return undefined;
  if (SPECIAL_FLOATS.has(text)) return SPECIAL_FLOATS.get(text);
  // A leading '.' goes to strconv.ParseFloat as written; a sign or digit after underscores are dropped.
  const plain = text.startsWith('.') ? text : text.replace(/_/g, '');
  return YAML_STYLE_FLOAT.test(plain) ? Number(plain) : undefined;
}

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const nil = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) => data === null || NULLS.has(data),
  construct: () => null,
  predicate: (o: unknown) => o === null,
});
/** `<<` merges a mapping into the one it stands in (goyaml.v2 yaml_MERGE_TAG). */
const merge = new Type('tag:yaml.org,2002:merge', { kind: 'scalar', resolve: (data: string | null) => data === '<<' || data === null });
const bool = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string) => BOOLEANS.has(data),
  construct: (data: string) => BOOLEANS.get(data),
  predicate: (o: unknown) => typeof o === 'boolean',
});
const int = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string) => goInt(data) !== undefined,
  construct: (data: string) => goInt(data),
  predicate: (o: unknown) => Number.isInteger(o),
});
const float = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string) => goFloat(data) !== undefined,
  construct: (data: string) => goFloat(data),
  predicate: (o: unknown) => typeof o === 'number',
});

/** Go's `base64.StdEncoding`, which skips line breaks: what goyaml.v2 decodes a `!!binary` scalar with. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** `!!binary`: goyaml.v2 `scalar` decodes the base64 and keeps the bytes as a string (JSON then replaces invalid UTF-8). */
const binary = new Type('tag:yaml.org,2002:binary', {
  kind: 'scalar',
  resolve: (data: string | null) => BASE64.test((data ?? '').replace(/[\r\n]/g, '')),
  construct: (data: string | null) => Buffer.from((data ?? '').replace(/[\r\n]/g, ''), 'base64').toString('utf8'),
});
/**
 * Any other tag, local (`!foo`) or global (`!!timestamp`, `!<tag:example.com,2000:x>`): goyaml.v2
 * `resolve` returns a scalar of a tag it cannot resolve as the text written (a `!!timestamp` too,
 * which `scalar` keeps as its text), and `mapping` and `sequence` ignore the tag, so kubectl
 * accepts such YAML and reads the plain value (go-yaml v2.4 resolve.go `resolvableTag`, decode.go).
 */
const anyTag = (prefix: string) => (['scalar', 'sequence', 'mapping'] as const).map((kind) => new Type(prefix, {
  kind,
  multi: true,
  construct: (data: unknown) => (kind === 'scalar' ? data ?? '' : data ?? (kind === 'mapping' ? {} : [])),
}));

/**
 * The scalar resolution of sigs.k8s.io/yaml (goyaml.v2): null, YAML 1.1 booleans, Go integers and
 * floats, merge keys, base64 `!!binary`, and the text of a scalar of any other tag. Timestamps stay
 * the text written (goyaml.v2 decode.go `scalar` keeps them as strings when decoding into interface{}).
 * @internal
 */
export const KUBECTL_SCHEMA = FAILSAFE_SCHEMA.extend({ implicit: [nil, bool, int, float, merge], explicit: [binary, ...anyTag('!'), ...anyTag('tag:')] });

/**
 * How a stream is read: kubectl's scalars, later keys replacing earlier ones.
 * @internal
 */
export const KUBECTL_READ = { schema: KUBECTL_SCHEMA, json: true };

/** One document of a YAML stream, with where it starts. */
export interface YamlDocument {
  /** The document's value as kubectl reads it (`KUBECTL_SCHEMA`); null for an empty document. */
  readonly value: unknown;
  /** 1-based line of the document's first content line (its first key, for a mapping). */
  readonly line: number;
  /** 1-based column of that line's first character. */
  readonly column: number;
  /** The Helm template the document came from, from a `# Source: <template>` comment before it. */
  readonly template?: string;
  /** The document's text (from its `---` line), to locate fields in on demand. */
  readonly text: string;
  /** 1-based line in the stream of the first line of `text`. */
  readonly textLine: number;
  /** Which document of `text` it is (after a `...` end marker, one text holds several). */
  readonly indexInText: number;
}

/** A YAML syntax error, at a line and column of the stream. */
export interface YamlError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** `---` at the start of a line, alone or before a space: a document marker wherever it stands. */
const MARKER = /^---(?=[ \t\r\n]|$)/gm;
const SOURCE_COMMENT = /^#\s*Source:\s*(\S.*?)\s*$/;

/** The first content line of a document's text: its 0-based index and its indentation. */
function firstContent(text: string): { index: number; indent: number; template?: string; directiveOnly: boolean } {
  let template: string | undefined;
  let directive = false;
  // Line by line from the start, without splitting the whole document.
  for (let i = 0, start = 0; start < text.length; i++) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length : end + 1;
    const trimmed = line.trim();
    if (trimmed.startsWith('%')) directive = true;
    // A marker line holds nothing else but a comment (`separatorErrors` refuses the rest).
    if (trimmed === '' || line.startsWith('---') || trimmed.startsWith('%')) continue;
    if (trimmed.startsWith('#')) {
      template = SOURCE_COMMENT.exec(trimmed)?.[1] ?? template;
      continue;
    }
    return { index: i, indent: line.length - line.trimStart().length, template, directiveOnly: false };
  }
  return { index: 0, indent: 0, template, directiveOnly: directive };
}

/** The text between two `---` lines (a directive-only one joined to the next), with where it starts. */
interface Chunk {
  /** Offsets in the stream: from its `---` line to the next one. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** 1-based line in the stream of its first line. */
  readonly line: number;
  readonly first: ReturnType<typeof firstContent>;
}

/** The stream split at its `---` lines, as kubectl's reader splits it. */
function chunksOf(text: string): Chunk[] {
  const starts = [0, ...[...text.matchAll(MARKER)].map((m) => m.index).filter((i) => i > 0)];
  const chunks: Chunk[] = [];
  let line = 1;
  let pending: { start: number; line: number } | undefined;
  for (let k = 0; k < starts.length; k++) {
    const end = starts[k + 1] ?? text.length;
    const start = pending?.start ?? starts[k];
    const chunkLine = pending?.line ?? line;
    const chunk = text.slice(start, end);
    line += countLines(text, starts[k], end);
    const first = firstContent(chunk);
    // Directives (%YAML) belong to the document after them.
    if (k + 1 < starts.length && first.directiveOnly) {
      pending ??= { start, line: chunkLine };
      continue;
    }
    pending = undefined;
    chunks.push({ start, end, text: chunk, line: chunkLine, first });
  }
  return chunks;
}

function documentOf(chunk: Chunk, value: unknown, indexInText: number): YamlDocument {
  return { value: value ?? null, line: chunk.line + chunk.first.index, column: chunk.first.indent + 1, template: chunk.first.template, text: chunk.text, textLine: chunk.line, indexInText };
}

/**
 * Every document of a YAML stream as kubectl reads it, with its position, or the syntax errors.
 * @internal
 */
export function parseYamlStream(text: string): { documents: YamlDocument[]; errors: YamlError[] } {
  const errors: YamlError[] = separatorErrors(text);
  if (errors.length > 0) return { documents: [], errors };
  const chunks = chunksOf(text);
  const whole = wholeStream(text, chunks);
  return whole ? { documents: whole, errors } : byDocument(chunks);
}

/** A line that starts a directive or ends a document: where one pass and a pass per chunk can part. */
const DIRECTIVE_OR_END = /^(%|\.\.\.)/m;

/**
 * The stream read in one pass, about a sixth faster than a pass per chunk on 4,000 Deployments,
 * when it holds what a pass per chunk reads: no directive or `...` line, and one document per chunk
 * whose root node (js-yaml's listener) opens and closes within that chunk. Otherwise (a chunk of
 * comments only, a scalar across a `---` line, a syntax error, a BOM) undefined.
 */
function wholeStream(text: string, chunks: readonly Chunk[]): YamlDocument[] | undefined {
  if (text.charCodeAt(0) === 0xfeff || DIRECTIVE_OR_END.test(text)) return undefined;
  const spans: number[] = [];
  let depth = 0;
  let values: unknown[];
  try {
    values = loadAll(text, undefined, {
      ...KUBECTL_READ,
      listener: (event, state) => {
        if (event === 'open' ? depth++ === 0 : --depth === 0) spans.push(state.position);
      },
    });
  } catch {
    return undefined;
  }
  if (values.length !== chunks.length) return undefined;
  for (let i = 0; i < chunks.length; i++) {
    const { start, end } = chunks[i];
    // An empty document's root opens where the next chunk starts.
    if (spans[2 * i] < start || spans[2 * i] > end || spans[2 * i + 1] > end) return undefined;
  }
  return values.map((value, i) => documentOf(chunks[i], value, 0));
}

/** Each chunk read on its own: a syntax error is placed in its document, and the others are still read. */
function byDocument(chunks: readonly Chunk[]): { documents: YamlDocument[]; errors: YamlError[] } {
  const documents: YamlDocument[] = [];
  const errors: YamlError[] = [];
  for (const chunk of chunks) {
    let values: unknown[];
    try {
      values = [];
      loadAll(chunk.text, (v) => values.push(v), KUBECTL_READ);
    } catch (e) {
      const mark = (e as YAMLException).mark;
      errors.push({ line: chunk.line + (mark?.line ?? 0), column: (mark?.column ?? 0) + 1, message: (e as YAMLException).reason ?? (e as Error).message });
      continue;
    }
    values.forEach((value, indexInText) => documents.push(documentOf(chunk, value, indexInText)));
  }
  return { documents, errors };
}

/** A line that starts with `---`, and what follows the marker on it. */
const SEPARATOR_LINE = /^---(.*)$/gm;

/**
 * kubectl's reader splits a stream at every line that starts with `---` and refuses one with
 * anything but spaces or a comment after the marker: `--- {kind: A}` and `---kind: A` are
 * "invalid Yaml document separator" (kubernetes/apimachinery pkg/util/yaml/decoder.go,
 * `YAMLReader.Read`), though YAML itself allows content there.
 */
function separatorErrors(text: string): YamlError[] {
  const errors: YamlError[] = [];
  for (const m of text.matchAll(SEPARATOR_LINE)) {
    const rest = m[1].trim();
    if (rest === '' || rest.startsWith('#')) continue;
    errors.push({
      line: countLines(text, 0, m.index) + 1,
      column: 1,
      message: `invalid Yaml document separator: ${rest.slice(0, 40)} (kubectl refuses content after --- on its line; move it to the next line)`,
    });
  }
  return errors;
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
