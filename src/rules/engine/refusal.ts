import { HybridConfigError } from '../../core/errors';
import { ManifestViolation } from './graph';

/**
 * Which prop sets a field of a construct's objects: `<kind> <field>` (the violation's kind and
 * field path, array indexes dropped, or kept for a row about one item of a list) to the prop's
 * name, for messages at construction.
 */
export type PropsOfFields = Readonly<Record<string, string>>;

/**
 * The violations a construct's own objects show right after it built them, as one
 * `HybridConfigError`: the construct path, the prop behind each field (from `props`), the object
 * (`describe`), what is wrong and the fix, one line per violation; the first one's rule and fix.
 * Undefined when there are none.
 */
export function refusal(constructPath: string, violations: readonly ManifestViolation[], props: PropsOfFields, describe: (v: ManifestViolation) => string): HybridConfigError | undefined {
  const errors = violations.map((v) => {
    // A row for the field with its indexes (one item of a list), else for the field without them.
    const prop = v.field === undefined ? undefined : props[`${v.kind} ${v.field}`] ?? props[`${v.kind} ${v.field.replace(/\[\d+\]/g, '')}`];
    return new HybridConfigError(constructPath, `${prop ? `${prop}: ` : ''}${describe(v)}: ${v.what}`, v.fix, v.rule);
  });
  if (errors.length === 0) return undefined;
  errors[0].message = errors.map((e) => e.message).join('\n');
  return errors[0];
}
