import { HybridConfigError } from './errors';
import { INT32_MAX } from './numbers';
import { isUnresolvedToken } from './tokens';
import { Duration, Size } from 'cdk8s';
import { brief, listOf, oneOf, PropAt, refuse, stringMap, wholeMebibytes, wholeNumber, wholeSeconds } from './values';

/**
 * A construct's props, declared once (docs/architecture.md, "A construct's props"): each prop's
 * kind (type, whole number or not, range, string form and length, enum, list items), whether it is
 * required, and which props exclude each other. The same declaration parses the props where they
 * enter the construct, words the error (`[construct path] prop ... Fix: ...`, naming the value the
 * user gave), renders the constraints of the API reference (docs/props.md) and generates the
 * property tests (test/properties/props-spec.test.ts). A construct reads its props only from what
 * `parse` returns: each declared prop is read once, inside a guard, so that a throwing getter, a
 * proxy or a frozen object is reported by prop, and nothing else of the object is touched.
 */

/** One prop's kind: how a given value is parsed, and what the API reference says of it. */
export interface PropKind<T = unknown> {
  /** Returns the value in the form the construct uses, or throws a `HybridConfigError` naming `at`. Never called with undefined. */
  parse(at: PropAt, value: unknown): T;
  /** The constraint in words, for the API reference: "a whole number from 1 to 65535". */
  readonly constraint: string;
  /** Values on and just past the constraint's edges: the generated property tests feed them beside the common odd ones. */
  readonly edges: readonly unknown[];
  /** The spec of a nested props object (`record`, `checked`), whose props the reference and the tests walk too. */
  readonly nested?: PropsSpec<unknown>;
}

/** A prop of a spec: its kind and whether it must be given. */
export interface PropEntry<T = unknown> {
  readonly kind: PropKind<T>;
  /** The fix when it is missing; undefined for an optional prop. */
  readonly whenMissing?: string;
  /**
   * For a prop the construct hands on to another that parses it (`handedOn`): that construct's
   * kind, which declares the prop's constraint and error; `kind` then takes the value as it is.
   */
  readonly declared?: { readonly kind: PropKind; readonly by: string };
}

/** Two props that cannot both be given. */
export interface Exclusion<P> {
  readonly props: readonly [keyof P & string, keyof P & string];
  /** What is wrong, as the construct has always said it. @default - "<a> and <b> are both given" */
  readonly what?: string;
  readonly fix: string;
}

/** The declared props of one construct: `parse` is the only way the construct reads them. */
export interface PropsSpec<P> {
  /** The construct (or props type) the spec belongs to, for the API reference. */
  readonly name: string;
  /** Every prop of `P`: a prop without an entry does not compile. */
  readonly entries: { readonly [K in keyof P]-?: PropEntry };
  readonly exclusions: readonly Exclusion<P>[];
  /**
   * The props as the construct uses them: a fresh object with the declared props that were given
   * (undefined ones left out), each parsed. `prefix` names a nested props object (`network.`).
   * @throws HybridConfigError naming `path` and the prop, for the first prop that is wrong
   */
  parse(path: string, props: unknown, prefix?: string): P;
}

const ABSENT = Symbol('absent');

/** What a getter or proxy trap threw, as the value given: "a getter or proxy that throws "no reading me"". */
function throwing(e: unknown): string {
  return `a getter or proxy that throws ${brief(e instanceof Error ? e.message : e)}`;
}

/** Reads `props[key]` once; a getter or proxy trap that throws is reported by prop. */
function read(at: PropAt, props: object, key: string): unknown {
  try {
    return (props as Record<string, unknown>)[key];
  } catch (e) {
    return refuse(at, throwing(e), 'pass a plain value, not a getter or proxy that throws');
  }
}

/** Runs `parse`; what a getter or proxy inside the value throws is reported by prop. */
function guarded<T>(at: PropAt, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof HybridConfigError) throw e;
    return refuse(at, `${throwing(e)} inside it`, 'pass plain values, not getters or proxies that throw');
  }
}

/** Declares the props of a construct. */
export function propsSpec<P>(name: string, entries: { readonly [K in keyof P]-?: PropEntry }, exclusions: readonly Exclusion<P>[] = []): PropsSpec<P> {
  const keys = Object.keys(entries) as Array<keyof P & string>;
  return {
    name,
    entries,
    exclusions,
    parse(path: string, props: unknown, prefix = ''): P {
      const whole = { path, prop: prefix === '' ? 'props' : prefix.slice(0, -1) };
      const required = keys.filter((k) => entries[k].whenMissing !== undefined);
      if (props === undefined && required.length === 0) props = {};
      if (props === null || props === undefined || typeof props !== 'object' || Array.isArray(props)) {
        refuse(whole, `${brief(props)} is not an object of props`, required.length > 0 ? `pass an object with ${required.join(', ')}` : 'pass an object of props, or leave it out');
      }
      const given: Record<string, unknown> = {};
      for (const key of keys) {
        const at = { path, prop: `${prefix}${key}` };
        const value = read(at, props as object, key);
        given[key] = value === undefined ? ABSENT : value;
      }
      for (const { props: [a, b], what, fix } of exclusions) {
        if (given[a] !== ABSENT && given[b] !== ABSENT) throw new HybridConfigError(path, what ?? bothGiven(`${prefix}${a}`, given[a], `${prefix}${b}`, given[b]), fix);
      }
      const parsed: Record<string, unknown> = {};
      for (const key of keys) {
        const at = { path, prop: `${prefix}${key}` };
        const value = given[key];
        if (value === ABSENT) {
          const missing = entries[key].whenMissing;
          if (missing !== undefined) refuse(at, 'not given, and it is required', missing);
          continue;
        }
        parsed[key] = guarded(at, () => entries[key].kind.parse(at, value));
      }
      return parsed as P;
    },
  };
}

/** The default wording of two props that exclude each other: "a and b: "x" and "y", both given". */
export function bothGiven(a: string, valueA: unknown, b: string, valueB: unknown): string {
  return `${a} and ${b}: ${brief(valueA)} and ${brief(valueB)}, both given`;
}

/** An optional prop of `kind`. */
export function optional<T>(kind: PropKind<T>): PropEntry<T> {
  return { kind };
}

/** A required prop of `kind`; `fix` says what to give when it is missing. */
export function required<T>(kind: PropKind<T>, fix: string): PropEntry<T> {
  return { kind, whenMissing: fix };
}

/**
 * A whole number in [min, max] (NaN, infinities, fractions, BigInt and strings refused). With
 * `judgedBy`, that rule judges the platform's range, and [min, max] is only what is a number at all.
 */
export function whole(min = 0, max = INT32_MAX, judgedBy?: string): PropKind<number> {
  return {
    parse: (at, value) => wholeNumber(at, value, min, max)!,
    constraint: `${max === INT32_MAX ? `a whole number, at least ${min}` : `a whole number from ${min} to ${max}`}${judgedBy === undefined ? '' : `; the \`${judgedBy}\` rule judges its range`}`,
    edges: [min, max, min - 1, max + 1, min + 0.5],
  };
}

/**
 * A finite number above 0, whole or not (a CPU count). A string or BigInt that reads as one is
 * refused with the number to write instead.
 */
export function positive(fix: string): PropKind<number> {
  return {
    parse: (at, value) => {
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
      const asNumber = typeof value === 'string' || typeof value === 'bigint' ? Number(value) : NaN;
      return refuse(at, `${brief(value)} is not a finite number above 0`, Number.isFinite(asNumber) && asNumber > 0 ? `write it as a number: ${asNumber}` : fix);
    },
    constraint: 'a finite number above 0',
    edges: [0, -0.5, 0.5, 1, Number.MAX_VALUE],
  };
}

/** A whole number of those listed (CloudWatch's retention days). */
export function wholeIn(values: readonly number[]): PropKind<number> {
  const fix = `give one of ${values.join(', ')}`;
  return {
    parse: (at, value) => {
      if (typeof value !== 'number') refuse(at, `${brief(value)} is not a number`, fix);
      return values.includes(value) ? value : refuse(at, `${brief(value)} is not one of the values the platform takes`, fix);
    },
    constraint: `one of ${values.join(', ')}`,
    edges: [values[0], values[1] + 1, values[values.length - 1] + 1],
  };
}

/** Options of a `text` prop. */
export interface TextOptions {
  /** The most characters. */
  readonly max: number;
  /** The fewest characters; 0 allows `''`. @default 1, or 0 with `judgedBy` */
  readonly min?: number;
  /** The form the text must have (tokens resolved at deploy time pass unchecked). */
  readonly pattern?: RegExp;
  /** What the form is, in words: "a DNS label". @default 'text' */
  readonly form?: string;
  /** An example for the fix. */
  readonly example?: string;
  /** Line breaks are allowed (scripts). @default false */
  readonly multiline?: boolean;
  /**
   * The rule that judges the text's form and length (one judgement, one home): `max` is then only
   * a bound on what is worth judging, far above the platform's own.
   */
  readonly judgedBy?: string;
  /**
   * Why the text is not of its form (after the checks above), or undefined when it is: a reason
   * (the fix is then `fix`), or a reason and a fix of its own, for a fix that names the value.
   */
  readonly problem?: (value: string) => string | { readonly what: string; readonly fix: string } | undefined;
  /** The fix of every refusal. @default - "give <form> of <min> to <max> characters" */
  readonly fix?: string;
}

/**
 * A string: never another type, at most `max` characters, not blank (unless `min` is 0), on one
 * line unless `multiline`, and of `pattern` when given. Deploy-time tokens pass.
 */
export function text(options: TextOptions): PropKind<string> {
  // A rule that judges the form judges an empty or blank value too, naming the field it writes.
  const { max, min = options.judgedBy === undefined ? 1 : 0, pattern, form = 'text', example, multiline = false, judgedBy, problem } = options;
  const fix = options.fix ?? `give ${form} of ${min} to ${max} characters${example === undefined ? '' : `, e.g. ${JSON.stringify(example)}`}`;
  return {
    parse: (at, value) => {
      if (typeof value !== 'string') return refuse(at, `${brief(value)} is not a string`, fix);
      if (isUnresolvedToken(value)) return value;
      if (value.length > max) refuse(at, `${brief(value)} is longer than ${max} characters`, fix);
      if (value === '' ? min > 0 : value.trim() === '' && judgedBy === undefined) refuse(at, `${brief(value)} is ${value === '' ? 'empty' : 'blank'}`, fix);
      if (value.length < min) refuse(at, `${brief(value)} is shorter than ${min} characters`, fix);
      // eslint-disable-next-line no-control-regex
      if (!multiline && /[\u0000-\u001f\u007f]/.test(value)) refuse(at, `${brief(value)} holds a line break or control character`, fix);
      if (pattern !== undefined && !pattern.test(value)) refuse(at, `${brief(value)} is not ${form}`, fix);
      const why = problem?.(value);
      if (typeof why === 'string') refuse(at, `${brief(value)} ${why}`, fix);
      if (why !== undefined) refuse(at, `${brief(value)} ${why.what}`, why.fix);
      return value;
    },
    constraint: `${form}, ${min} to ${max} characters${multiline ? '' : ', one line'}${pattern === undefined ? '' : ` (\`${pattern.source}\`)`}${judgedBy === undefined ? '' : `; the \`${judgedBy}\` rule judges its form`}`,
    edges: ['', ' ', 'x'.repeat(max + 1), ...(example === undefined ? [] : [example, `${example}\n`])],
  };
}

/** A cdk8s `Size` of whole mebibytes, at least `min`. */
export function mebibytes(min = 0): PropKind<Size> {
  return {
    parse: (at, value) => {
      wholeMebibytes(at, value, min);
      return value as Size;
    },
    constraint: `a cdk8s Size of whole mebibytes, at least ${min}`,
    edges: [Size.mebibytes(min), Size.mebibytes(0.5), Size.kibibytes(1), 512],
  };
}

/** `true` or `false`: never a truthy string such as `'false'`. */
export function flag(): PropKind<boolean> {
  return {
    parse: (at, value) => typeof value === 'boolean' ? value : refuse(at, `${brief(value)} is not true or false`, 'give true or false'),
    constraint: 'true or false',
    edges: [true, false, 'false', 0],
  };
}

/** One value of a string enum. */
export function choice<T extends string>(values: Record<string, T>, typeName: string): PropKind<T> {
  return {
    parse: (at, value) => oneOf(at, value, values, typeName)!,
    constraint: `one of ${Object.keys(values).map((k) => `\`${typeName}.${k}\``).join(', ')}`,
    edges: [...Object.values(values), `${Object.values(values)[0]} `, Object.values(values)[0].toUpperCase() + '!'],
  };
}

/** Options of a `list` prop. */
export interface ListOptions<T> {
  /** The fewest items. @default 0 */
  readonly min?: number;
  /** The most items. @default 1000 */
  readonly max?: number;
  /** Keys items the platform refuses twice. */
  readonly unique?: (item: T) => string;
}

/** An array (never a string, read character by character) of items of `item`, each parsed as `prop[i]`. */
export function list<T>(item: PropKind<T>, options: ListOptions<T> = {}): PropKind<readonly T[]> {
  const { min = 0, max = 1000, unique } = options;
  return {
    parse: (at, value) => {
      const items = listOf<unknown>(at, value)!;
      if (items.length < min) refuse(at, `${brief(items)} has fewer than ${min} item${min === 1 ? '' : 's'}`, `list at least ${min}`);
      if (items.length > max) refuse(at, `${brief(items)} has ${items.length} items, more than ${max}`, `list at most ${max}`);
      const parsed = items.map((v, i) => item.parse({ path: at.path, prop: `${at.prop}[${i}]` }, v));
      if (unique) listOf(at, parsed, unique);
      return parsed;
    },
    constraint: `a list of ${min > 0 ? `${min} to ${max}` : `at most ${max}`}: ${item.constraint}`,
    edges: [[], 'a-string', [undefined], ...item.edges.slice(0, 3).map((e) => [e])],
  };
}

/** A map of string keys to string values (labels, tags), without the keys `__proto__` and `constructor`. */
export function stringRecord(): PropKind<Readonly<Record<string, string>>> {
  return {
    parse: (at, value) => stringMap(at, value)!,
    constraint: 'a plain object of string keys to string values',
    edges: [{}, { team: 'web' }, { team: 1 }, JSON.parse('{"__proto__": {"polluted": "yes"}}'), { constructor: 'x' }, 'team=web'],
  };
}

/**
 * `entries` of another construct's spec, for a construct that takes those props too and hands them
 * on to the construct `by`, which parses them: read once here, declared (and refused) there.
 */
export function handedOn<E extends Record<string, PropEntry>>(entries: E, by: string): { readonly [K in keyof E]: PropEntry } {
  return Object.fromEntries(Object.entries(entries).map(([key, entry]) => [key, {
    kind: { parse: (_at: PropAt, value: unknown) => value, constraint: entry.kind.constraint, edges: entry.kind.edges, nested: entry.kind.nested },
    whenMissing: entry.whenMissing,
    declared: { kind: entry.kind, by },
  }])) as { readonly [K in keyof E]: PropEntry };
}

/** `entries` without `keys`: the props a construct takes of another's, less those it sets itself. */
export function except<E extends Record<string, PropEntry>, K extends keyof E>(entries: E, ...keys: K[]): Omit<E, K> {
  return Object.fromEntries(Object.entries(entries).filter(([key]) => !keys.includes(key as K))) as Omit<E, K>;
}

/**
 * A nested object checked by its spec and handed on with every field it has (a shallow copy), for
 * an object a library writes field by field, fields beyond the spec included (cdk8s writes any
 * field of `metadata`).
 */
export function checked<P>(spec: PropsSpec<P>): PropKind<P> {
  return {
    parse: (at, value) => {
      spec.parse(at.path, value, `${at.prop}.`);
      return shallowCopy(at, value as object, 'which cdk8s cannot write') as P;
    },
    constraint: `an object: ${spec.name}`,
    edges: [{}, null, 'x'],
    nested: spec as PropsSpec<unknown>,
  };
}

/**
 * A nested props object, declared by its own spec (`network`, `metadata`). With `child`, the id of
 * the child construct the object is for, errors name that child's path, as the child would.
 */
export function record<P>(spec: PropsSpec<P>, child?: string): PropKind<P> {
  return {
    parse: (at, value) => spec.parse(child === undefined ? at.path : `${at.path}/${child}`, value, `${at.prop}.`),
    constraint: `an object: ${spec.name}`,
    edges: [{}, null, 'x'],
    nested: spec as PropsSpec<unknown>,
  };
}

/**
 * Plain data (objects, arrays, strings, numbers, booleans, null), copied with every read guarded,
 * for a value the construct walks itself (a map of AMI ids): the copy has no getters, proxies or
 * prototypes left to throw or to pollute, and keeps a `__proto__` key as a plain own key for the
 * construct to refuse by name. `is` tells the top-level shape.
 */
export function data<T>(what: string, is: (value: unknown) => boolean, fix: string): PropKind<T> {
  return {
    parse: (at, value) => {
      if (!is(value)) refuse(at, `${brief(value)} is not ${what}`, fix);
      return copyData(at, value, 0) as T;
    },
    constraint: what,
    edges: [{}, [], 'x'],
  };
}

function copyData(at: PropAt, value: unknown, depth: number): unknown {
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return value;
  if (typeof value !== 'object' || depth > 32) return refuse(at, `${brief(value)} inside it is not plain data`, 'give plain objects, arrays, strings, numbers and booleans');
  try {
    if (Array.isArray(value)) return value.map((v) => copyData(at, v, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) Object.defineProperty(copy, key, { value: copyData(at, (value as Record<string, unknown>)[key], depth + 1), enumerable: true, writable: true, configurable: true });
    return copy;
  } catch (e) {
    if (e instanceof HybridConfigError) throw e;
    return refuse(at, `${throwing(e)} inside it`, 'pass plain data, not getters or proxies that throw');
  }
}

/**
 * `value`'s own fields, read once each into a plain object: what the construct or cdk8s reads
 * later meets no getter or proxy trap. `__proto__` and `constructor` are refused by name (cdk8s's
 * resolver reads `constructor` to tell a map from a class instance: cdk8s lib/resolve.js).
 */
function shallowCopy(at: PropAt, value: object, why: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') refuse(at, `${brief(value)} has the key "${key}", ${why}`, `remove the key "${key}"`);
    copy[key] = (value as Record<string, unknown>)[key];
  }
  return copy;
}

/**
 * An object the construct hands on as it is (a cdk8s-plus volume, a service account, a schedule),
 * recognized by `is`: the library owning its class checks the rest. With `shallowCopy`, a plain
 * object of such values (cdk8s-plus container props) is copied one level deep, each read guarded,
 * so that the construct, spreading it, meets no getter or proxy trap.
 */
export function instance<T>(what: string, is: (value: object) => boolean, fix: string, copy = false): PropKind<T> {
  return {
    parse: (at, value) => {
      if (value === null || typeof value !== 'object' || !is(value)) return refuse(at, `${brief(value)} is not ${what}`, fix);
      return (copy ? shallowCopy(at, value, `which is not a prop of ${what}`) : value) as T;
    },
    constraint: what,
    edges: [{}, 'x'],
  };
}

/**
 * A number whose value the `judgedBy` rule judges on the object written (replicas, ports, sizes),
 * naming the prop: the spec refuses what is no number at all (a string, a BigInt) and hands NaN,
 * fractions and values out of range on to that rule, the one home of the limit.
 */
export function judgedNumber(judgedBy: string): PropKind<number> {
  return {
    parse: (at, value) => typeof value === 'number' ? value : refuse(at, `${brief(value)} is not a number`, 'give a number'),
    constraint: `a number; the \`${judgedBy}\` rule judges its value`,
    edges: [0, 1, -1, 0.5, NaN, INT32_MAX + 1],
  };
}

/** A cdk8s `Duration` of whole seconds in [min, max], handed on as a fresh `Duration.seconds`. */
export function seconds(min = 0, max = INT32_MAX): PropKind<Duration> {
  return {
    parse: (at, value) => Duration.seconds(wholeSeconds(at, value, min, max)!),
    constraint: `a cdk8s Duration of whole seconds, ${max === INT32_MAX ? `at least ${min}` : `from ${min} to ${max}`}`,
    edges: [Duration.seconds(min), Duration.minutes(15), Duration.millis(1500), Duration.seconds(NaN), 300],
  };
}

/** A valid `Date` (never an Invalid Date, a string or a number), handed on as a copy. */
export function date(example: string): PropKind<Date> {
  return {
    parse: (at, value) => value instanceof Date && Number.isFinite(value.getTime())
      ? new Date(value.getTime())
      : refuse(at, `${value instanceof Date ? String(value) : brief(value)} is not a valid Date`, `pass a Date, e.g. new Date('${example}')`),
    constraint: 'a valid Date',
    edges: [new Date(example), new Date('no'), example, Date.parse(example)],
  };
}
