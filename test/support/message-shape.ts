/**
 * The one message shape (docs/architecture.md): every problem the library reports, thrown at
 * construction (`HybridConfigError`, one line a problem) or at synth (cdk8s's "Validation failed"
 * list, and the Terraform stacks' `HybridValidationError` of the same form), is a line
 * `[construct path] what. Fix: how.`. cdktf's own closing invitation to `skipValidation` is not
 * in the shape: the platform's rules must not end with it (issue 18.5).
 */
const HEADERS = [
  /^Validation failed with the following errors:$/,
];
const LINE = /^\s*\[[^\]\s]+\] \S.*\. Fix: \S.*\.$/;

/** The lines of `message` that are not in the one shape (empty when all are). */
export function offShape(message: string): string[] {
  return message.split('\n').filter((l) => l.trim() !== '' && !HEADERS.some((h) => h.test(l.trim())) && !LINE.test(l));
}

/** Asserts that `message` reports at least one problem and every line is in the one shape. */
export function expectOneShape(message: string): void {
  expect(message).not.toBe('');
  expect(offShape(message)).toEqual([]);
}
