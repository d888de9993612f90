import { Duration, Size, SizeRoundingBehavior } from 'cdk8s';
import { HybridConfigError } from './errors';
import { INT32_MAX, integerProblem } from './numbers';
import { isUnresolvedToken } from './tokens';

/**
 * Props parsed where they enter a construct, before anything is built from them: each function
 * returns the value in the form the construct uses, or throws a `HybridConfigError` that names the
 * construct path and the prop. JavaScript callers and computed values can hand in anything
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
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A proxy or getter that throws on every read throws in String too.
    try {
      return String(value);
    } catch {
      return 'an object that throws when read';
    }
  }
}

function refuse(at: PropAt, what: string, fix: string): never {
  throw new HybridConfigError(at.path, `${at.prop} ${what}`, fix);
}

/** A whole number in [min, max]; undefined passes through (the prop's default applies). */
export function wholeNumber(at: PropAt, value: unknown, min = 0, max = INT32_MAX): number | undefined {
  if (value === undefined) return undefined;
  const problem = integerProblem(value, min, max);
  if (problem) refuse(at, `${typeof value === 'number' ? problem : `is ${show(value)}, not a number`}`, `give a whole number from ${min} to ${max}`);
  return value as number;
}

/** A Duration of whole seconds in [min, max]; undefined passes through. */
export function wholeSeconds(at: PropAt, value: unknown, min = 0, max = INT32_MAX): number | undefined {
  if (value === undefined) return undefined;
  let seconds: number;
  try {
    seconds = (value as Duration).toSeconds({ integral: false });
  } catch {
    return refuse(at, `is ${String(value)}, not a cdk8s Duration`, 'pass Duration.seconds(...) or Duration.minutes(...)');
  }
  const problem = integerProblem(seconds, min, max);
  if (problem) refuse(at, `is ${seconds} seconds: ${problem}`, `give a whole number of seconds from ${min} to ${max}, e.g. Duration.minutes(15)`);
  return seconds;
}

/** A Size of whole mebibytes of at least `min`; undefined passes through. */
export function wholeMebibytes(at: PropAt, value: unknown, min = 0): number | undefined {
  if (value === undefined) return undefined;
  let mebibytes: number;
  try {
    mebibytes = (value as Size).toMebibytes({ rounding: SizeRoundingBehavior.NONE });
  } catch {
    return refuse(at, `is ${String(value)}, not a whole number of mebibytes`, 'pass Size.mebibytes(...) or Size.gibibytes(...) of a whole number');
  }
  const problem = integerProblem(mebibytes, min);
  if (problem) refuse(at, `is ${mebibytes} MiB: ${problem}`, `give a whole number of mebibytes, at least ${min}`);
  return mebibytes;
}

/**
 * A list: an array, never a string (which would be read character by character), without
 * undefined or null items; undefined passes through. `unique` keys items that the platform refuses
 * twice (e.g. a security-group rule), and names the repeated one.
 */
export function listOf<T>(at: PropAt, value: unknown, unique?: (item: T) => string): readonly T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) refuse(at, `is ${show(value)}, not a list`, typeof value === 'string' ? `write [${JSON.stringify(value)}]` : 'give an array');
  value.forEach((item, i) => {
    if (item === undefined || item === null) refuse(at, `[${i}] is ${String(item)}`, 'remove the empty item');
  });
  if (unique) {
    const seen = new Map<string, number>();
    (value as T[]).forEach((item, i) => {
      const key = unique(item);
      if (seen.has(key)) refuse(at, `[${i}] repeats [${seen.get(key)}] (${key}), which the platform refuses as a duplicate`, 'list it once');
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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse(at, `is ${show(value)}, not a map of key to value`, 'give an object such as { team: "web" }');
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) refuse(at, 'is not a plain object (it has a prototype of its own, e.g. a `__proto__` key in a literal)', 'give a plain object of string keys and values');
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === '__proto__') refuse(at, `has the key "${key}", which JavaScript reads as the object's prototype`, `rename the key "${key}"`);
    // cdk8s resolves a value as a map only when `value.constructor == Object` (cdk8s lib/resolve.js,
    // resolve): an own key `constructor` makes it fail with "can't render non-simple object".
    if (key === 'constructor') refuse(at, 'has the key "constructor", which cdk8s cannot write (its resolver reads a map\'s `constructor` to tell it from a class instance)', 'rename the key "constructor"');
    if (typeof v !== 'string' && !isUnresolvedToken(v)) refuse(at, `has ${key}: ${show(v)}, not a string`, `write the value as a string, e.g. "${String(v)}"`);
  }
  return value as Record<string, string>;
}

/** One of an enum's values; undefined passes through. */
export function oneOf<T extends string>(at: PropAt, value: unknown, values: Record<string, T>, typeName: string): T | undefined {
  if (value === undefined) return undefined;
  const allowed = Object.values(values);
  if (!allowed.includes(value as T)) refuse(at, `is ${show(value)}, not a ${typeName}`, `use one of ${allowed.map((v) => `${typeName}.${Object.keys(values).find((k) => values[k] === v)}`).join(', ')}`);
  return value as T;
}
