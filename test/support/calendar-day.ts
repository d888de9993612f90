/**
 * Every test judges EKS versions on one fixed day, so that no outcome changes with the calendar:
 * `eksCalendarDay` (src/platform/eks.ts) reads SOURCE_DATE_EPOCH, else today, and each minor
 * version's end of extended support falls on a date (1.31's on 2026-11-26). The day is 2026-11-01,
 * the one the version tests were written on; a test of "today" unsets it and restores it. Child
 * processes the tests start (the CLI) inherit it.
 */
process.env.SOURCE_DATE_EPOCH = String(Date.parse('2026-11-01T12:00:00Z') / 1000);
