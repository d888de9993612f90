/**
 * The one message shape (docs/architecture.md): every problem the library reports, thrown at
 * construction (`HybridConfigError`, one line a problem) or at synth (cdk8s's and cdktf's
 * "Validation failed" lists), is a line `[construct path] what. Fix: how.`. The header lines of
 * those lists are the frameworks'.
 */
const HEADERS = [
  /^Validation failed with the following errors:$/,
  // cdktf's closing line under its validation errors (cdktf lib/app.ts); issue 18.5 takes it off the platform's messages.
  /^If you wish to ignore these validations, pass 'skipValidation: true' to your App configuration\.$/,
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
