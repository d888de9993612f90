/** `String(value)`, or what it is when even that throws (a proxy that throws on every read). */
function asText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `a ${typeof value} that throws when read`;
  }
}

/** Largest value of a Kubernetes `int32` field (replicas, ports, seconds). */
export const INT32_MAX = 2 ** 31 - 1;

/**
 * Why `value` is not a whole number in [min, max], or undefined when it is one: NaN, floats,
 * negatives and int32 overflow all fail here instead of in the API server.
 */
export function integerProblem(value: unknown, min = 0, max = INT32_MAX): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${asText(value)} is not a whole number`;
  if (value < min) return `${value} is below ${min}`;
  if (value > max) return `${value} is above ${max}`;
  return undefined;
}
