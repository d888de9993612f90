import type { IConstruct } from 'constructs';

/**
 * The one shape of every message this library reports, thrown or returned from a construct
 * validation: what is wrong (naming the offending value), then `Fix:` and what to do.
 * Validations return `problem(...)` strings (cdk8s prefixes them with `[construct path]`);
 * constructor-time failures throw `HybridConfigError`, which carries the path itself.
 */
export function problem(what: string, fix: string): string {
  return `${trimPeriod(what)}. Fix: ${trimPeriod(fix)}.`;
}

/** A bad input found before anything is written: the construct path, the problem and the fix. */
export class HybridConfigError extends Error {
  public constructor(
    /** Construct path of the construct whose input is wrong (or the input's source, e.g. a file). */
    public readonly path: string,
    /** What is wrong, naming the value. */
    public readonly what: string,
    /** What to do about it. */
    public readonly fix: string,
    /** The rule (`ManifestRule.name`) that found it, when a rule over the objects did. */
    public readonly rule?: string,
  ) {
    super(`[${path}] ${problem(what, fix)}`);
    this.name = 'HybridConfigError';
  }
}

/** Throws a `HybridConfigError` for `scope`'s input. */
export function fail(scope: IConstruct | string, what: string, fix: string): never {
  throw new HybridConfigError(typeof scope === 'string' ? scope : scope.node.path, what, fix);
}

/** The text without its trailing period(s): `problem` adds its own. */
export function trimPeriod(text: string): string {
  return text.replace(/\.+\s*$/, '');
}

/**
 * Problems found at synth, one `[construct path] what. Fix: how.` line each. The Terraform
 * stacks throw it from their validation themselves: cdktf's own validation error ends with an
 * invitation to pass `skipValidation`, which would silence the platform's rules and leave the
 * problem to `terraform plan` or a node that never joins.
 */
export class HybridValidationError extends Error {
  public constructor(
    /** One line per problem. */
    public readonly problems: readonly string[],
  ) {
    super(`Validation failed with the following errors:\n  ${problems.join('\n  ')}`);
    this.name = 'HybridValidationError';
  }
}
