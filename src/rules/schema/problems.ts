/**
 * What the schema check reports for a failed keyword: the field, in the rules' dotted form, what is
 * wrong in the API server's terms, and the fix in YAML terms.
 */

// Objects come from anywhere, so they are read loosely typed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** One problem the API server would refuse the object for. */
export interface SchemaProblem {
  /** Dotted path of the field (`spec.template.spec.containers[0].imagePullPolicy`), absent for the object. */
  readonly field?: string;
  readonly what: string;
  readonly fix: string;
}

/** One failed keyword: where (keys and indexes from the object's root), the value, the schema node. */
export interface SchemaError {
  readonly keyword: string;
  readonly path: ReadonlyArray<string | number>;
  readonly data: unknown;
  readonly schema: Json;
  readonly param?: unknown;
}

/** A path as the rules write fields: `spec.containers[0].image`. */
function fieldOf(path: ReadonlyArray<string | number>): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i === 0 ? '' : '.'}${s}`)).join('');
}

/** Levenshtein distance (case-blind), for "did you mean" on an unknown field. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'mapping';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function wanted(types: readonly string[]): string {
  return types.map((t) => ({ object: 'mapping', array: 'list' } as Record<string, string>)[t] ?? t).join(' or ');
}

/** A failed keyword as the API server would word it, with the fix in YAML terms. */
export function problemOf(e: SchemaError): SchemaProblem {
  const field = fieldOf(e.path);
  const at = field === '' ? {} : { field };
  // NaN and the infinities are not JSON (JSON.stringify writes null): shown as written.
  const shown = typeof e.data === 'number' && !Number.isFinite(e.data) ? String(e.data) : JSON.stringify(e.data)?.slice(0, 60) ?? typeName(e.data);
  const s = e.schema;
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(e.param);
      const known = Object.keys(s.properties ?? {});
      const near = known.map((k) => ({ k, d: distance(name, k) })).filter((c) => c.d <= Math.max(2, Math.floor(name.length / 4))).sort((a, b) => a.d - b.d)[0]?.k;
      return {
        field: fieldOf([...e.path, name]),
        what: `unknown field "${name}": the API server refuses it (strict decoding error), as kubectl apply's strict field validation does`,
        fix: near !== undefined ? `did you mean "${near}"? Rename it, or remove it` : `remove it (the fields here are ${known.join(', ')})`,
      };
    }
    case 'required':
      return { field: fieldOf([...e.path, String(e.param)]), what: 'required field not set', fix: `set ${String(e.param)}` };
    case 'enum':
      return { ...at, what: `unsupported value ${shown}`, fix: `write one of ${s.enum.filter((v: unknown) => v !== '').map((v: unknown) => JSON.stringify(v)).join(', ')}` };
    case 'type': {
      const types: string[] = s.type;
      const isText = types.includes('string');
      const fix = isText && typeof e.data === 'boolean'
        ? `quote the value: kubectl reads an unquoted yes, no, on, off, y or n as a boolean (YAML 1.1), so write it as a string, e.g. "${e.data ? 'on' : 'off'}"`
        : isText && typeof e.data === 'number' ? `quote the value ("${e.data}"), which YAML otherwise reads as a number` : `write ${article(wanted(types))}`;
      return { ...at, what: `${shown} is ${article(typeName(e.data))}, where the schema wants ${article(wanted(types))}`, fix };
    }
    case 'pattern':
      return { ...at, what: `${shown} does not match the pattern ${s.pattern}`, fix: `write a value that matches ${s.pattern}` };
    case 'oneOf':
    case 'anyOf': {
      // Structural CRDs say "set exactly one of" with branches of `required` alone.
      const sets = (s[e.keyword] as Json[]).map((b) => (Object.keys(b).filter((k) => b[k] !== undefined && k !== 'prepared').length === 1 && Array.isArray(b.required) ? b.required.join(' and ') : undefined));
      return sets.every((x) => x !== undefined)
        ? { ...at, what: `the fields set do not match ${e.keyword === 'oneOf' ? 'exactly one' : 'any'} of: ${sets.join('; ')}`, fix: `set ${e.keyword === 'oneOf' ? 'exactly one' : 'one'} of ${sets.join('; ')}` }
        : { ...at, what: `the value matches ${e.keyword === 'oneOf' ? 'not exactly one' : 'none'} of the schema's alternatives`, fix: 'change the value to one of the alternatives its CRD allows' };
    }
    default: {
      const limit = s[e.keyword];
      return { ...at, what: `${shown} breaks the schema's ${e.keyword}${limit !== undefined && typeof limit !== 'object' ? ` ${limit}` : ''}`, fix: `change the value so that ${e.keyword}${limit !== undefined && typeof limit !== 'object' ? ` ${limit}` : ''} holds` };
    }
  }
}

function article(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}
