let crypto: typeof import('node:crypto') | undefined;

/**
 * A short, stable digest of an object's content. Names built with it change when the content
 * does, which is how immutable templates (AWSMachineTemplate) roll out instead of being rejected.
 */
export function contentHash(content: unknown): string {
  // node:crypto takes milliseconds to load: the validator's rules import this and seldom hash.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  crypto ??= require('node:crypto') as typeof import('node:crypto');
  return crypto.createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 8);
}

/**
 * JSON with object keys sorted and undefined fields dropped, so that the hash of a spec as built
 * equals the hash of the same spec as cdk8s renders it (sorted keys): the manifest rules
 * recompute it on the final objects to catch a patched template that kept its old name.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
