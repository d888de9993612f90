import { Duration, Size, SizeRoundingBehavior } from 'cdk8s';
import { HybridConfigError } from './errors';
import { INT32_MAX, integerProblem } from './numbers';
import { isUnresolvedToken } from './tokens';

/**
 * Props parsed where they enter a construct, before anything is built from them: each function
 * returns the value in the form the construct uses, or throws a `HybridConfigError` worded
 * `[construct path] prop: <the value given> .... Fix: ...` (issue 35): the prop and the value as
 * the user wrote them, never a value derived from them. JavaScript callers and computed values can hand in anything
 * (`NaN`, a string where a list belongs, `{ __proto__: ... }`), and cdk8s would otherwise fail
 * later without a path, or write the value as it is.
 */

/** Where a prop entered: the construct path and the prop's name as the user wrote it (`controlPlane.replicas`). */
export interface PropAt {
  readonly path: string;
  readonly prop: string;
}

/**
 * A value as a message shows it: JSON where JSON can say it, else what it is (`5n` for a BigInt,
 * which `JSON.stringify` throws on; `undefined`; a function's name).
 */
export function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n (a BigInt)`;
  if (value instanceof Duration || value instanceof Size) return asWritten(value);
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`;
  try {
    // A BigInt (`5n`), NaN and the infinities, alone or inside an object, are written as the user
    // wrote them: JSON throws on the one and writes the others as null.
    const json = JSON.stringify(value, (_key, v: unknown) => typeof v === 'bigint' ? `\u0000${v}n` : typeof v === 'number' && !Number.isFinite(v) ? `\u0000${v}` : v);
    return json === undefined ? String(value) : json.replace(/"\\u0000(-?\w+)"/g, '$1');
  } catch {
    // A proxy or getter that throws on every read throws in String too.
    try {
      return String(value);
    } catch {
      return 'an object that throws when read';
    }
  }
}

/**
 * A cdk8s Duration or Size as the user wrote it (`Duration.millis(1500)`), from the fields cdk8s
 * keeps (lib/duration.js, lib/size.js: `amount` and `unit.label`, the factory's name).
 */
function asWritten(value: Duration | Size): string {
  const { amount, unit } = value as unknown as { amount?: unknown; unit?: { label?: unknown } };
  const type = value instanceof Duration ? 'Duration' : 'Size';
  return typeof amount === 'number' && typeof unit?.label === 'string' ? `${type}.${unit.label}(${amount})` : `a cdk8s ${type}`;
}

/** A value for a message: as `show` writes it, long strings cut (a 300 KB string is named, not copied). */
export function brief(value: unknown): string {
  if (typeof value === 'string' && value.length > 60) return `${JSON.stringify(value.slice(0, 40))}… (${value.length} characters)`;
  const shown = show(value);
  return shown.length > 80 ? `${shown.slice(0, 60)}… (${shown.length} characters)` : shown;
}

/** Throws the one error of a prop: `[path] prop: what. Fix: fix.`, `what` starting with the value the user gave. */
export function refuse(at: PropAt, what: string, fix: string): never {
  throw new HybridConfigError(at.path, `${at.prop}: ${what}`, fix);
}

/** A whole number in [min, max]; undefined passes through (the prop's default applies). */
export function wholeNumber(at: PropAt, value: unknown, min = 0, max = INT32_MAX): number | undefined {
  if (value === undefined) return undefined;
  const problem = integerProblem(value, min, max);
  if (problem) refuse(at, typeof value === 'number' ? problem : `${brief(value)} is not a number`, `give a whole number from ${min} to ${max}`);
  return value as number;
}

/** A Duration of whole seconds in [min, max]; undefined passes through. */
export function wholeSeconds(at: PropAt, value: unknown, min = 0, max = INT32_MAX): number | undefined {
  if (value === undefined) return undefined;
  let seconds: number;
  try {
    seconds = (value as Duration).toSeconds({ integral: false });
  } catch {
    return refuse(at, `${brief(value)} is not a cdk8s Duration`, 'pass Duration.seconds(...) or Duration.minutes(...)');
  }
  const problem = amountProblem(seconds, 'seconds', min, max);
  if (problem) refuse(at, `${brief(value)} ${problem}`, `give a whole number of seconds from ${min} to ${max}, e.g. Duration.minutes(15)`);
  return seconds;
}

/** A Size of whole mebibytes of at least `min`; undefined passes through. */
export function wholeMebibytes(at: PropAt, value: unknown, min = 0): number | undefined {
  if (value === undefined) return undefined;
  let mebibytes: number;
  try {
    mebibytes = (value as Size).toMebibytes({ rounding: SizeRoundingBehavior.NONE });
  } catch {
    return refuse(at, `${brief(value)} is not a whole number of mebibytes`, 'pass Size.mebibytes(...) or Size.gibibytes(...) of a whole number');
  }
  const problem = amountProblem(mebibytes, 'MiB', min);
  if (problem) refuse(at, `${brief(value)} ${problem}`, `give a whole number of mebibytes, at least ${min}`);
  return mebibytes;
}

/** Why an amount of `unit` converted from what the user gave is not whole or in range: "is 1.5 seconds, not a whole number". */
function amountProblem(amount: number, unit: string, min: number, max = INT32_MAX): string | undefined {
  if (!Number.isInteger(amount)) return `is ${amount} ${unit}, not a whole number`;
  if (amount < min) return `is ${amount} ${unit}, below ${min}`;
  return amount > max ? `is ${amount} ${unit}, above ${max}` : undefined;
}

/**
 * A list: an array, never a string (which would be read character by character), without
 * undefined or null items; undefined passes through. `unique` keys items that the platform refuses
 * twice (e.g. a security-group rule), and names the repeated one.
 */
export function listOf<T>(at: PropAt, value: unknown, unique?: (item: T) => string): readonly T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) refuse(at, `${brief(value)} is not a list`, typeof value === 'string' ? `write [${brief(value)}]` : 'give an array');
  value.forEach((item, i) => {
    if (item === undefined || item === null) refuse({ path: at.path, prop: `${at.prop}[${i}]` }, `${String(item)} is an empty item`, 'remove the empty item');
  });
  if (unique) {
    const seen = new Map<string, number>();
    (value as T[]).forEach((item, i) => {
      const key = unique(item);
      if (seen.has(key)) refuse({ path: at.path, prop: `${at.prop}[${i}]` }, `${brief(item)} repeats [${seen.get(key)}], which the platform refuses as a duplicate`, 'list it once');
      seen.set(key, i);
    });
  }
  return value as T[];
}

/**
 * A map of string to string (labels, tags, flags): a plain object whose values are strings, without
 * the key `__proto__`, which JavaScript reads as the object's prototype (a literal drops it, and
 * `JSON.stringify` or an assignment elsewhere would not carry it); undefined passes through.
 * `constructor` is refused too, as cdk8s cannot write a map that has it. Other names of
 * `Object.prototype` (`toString`, `hasOwnProperty`, `valueOf`) are plain own keys of a literal or
 * of parsed JSON, and valid label keys, so they pass.
 */
export function stringMap(at: PropAt, value: unknown): Readonly<Record<string, string>> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse(at, `${brief(value)} is not a map of key to value`, 'give an object such as { team: "web" }');
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) refuse(at, `${brief(value)} is not a plain object (it has a prototype of its own, e.g. a \`__proto__\` key in a literal)`, 'give a plain object of string keys and values');
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === '__proto__') refuse(at, `${brief(value)} has the key "${key}", which JavaScript reads as the object's prototype`, `rename the key "${key}"`);
    // cdk8s resolves a value as a map only when `value.constructor == Object` (cdk8s lib/resolve.js,
    // resolve): an own key `constructor` makes it fail with "can't render non-simple object".
    if (key === 'constructor') refuse(at, `${brief(value)} has the key "constructor", which cdk8s cannot write (its resolver reads a map's \`constructor\` to tell it from a class instance)`, 'rename the key "constructor"');
    if (typeof v !== 'string' && !isUnresolvedToken(v)) refuse(at, `${brief(value)} has ${JSON.stringify(key)}: ${brief(v)}, not a string`, `write the value as a string, e.g. "${String(v)}"`);
  }
  return value as Record<string, string>;
}

/** One of an enum's values; undefined passes through. */
export function oneOf<T extends string>(at: PropAt, value: unknown, values: Record<string, T>, typeName: string): T | undefined {
  if (value === undefined) return undefined;
  const allowed = Object.values(values);
  if (!allowed.includes(value as T)) refuse(at, `${brief(value)} is not a ${typeName}`, `use one of ${allowed.map((v) => `${typeName}.${Object.keys(values).find((k) => values[k] === v)}`).join(', ')}`);
  return value as T;
}
