/**
 * Every test judges EKS and AKS versions on one fixed day, so that no outcome changes with the
 * calendar: `calendarDay` (src/platform/calendar.ts) reads SOURCE_DATE_EPOCH, else today, and each
 * minor version's end of support falls on a date (EKS 1.31's extended support on 2026-11-26, AKS
 * 1.34's community support on 2026-11-30). The day is 2026-11-01,
 * the one the version tests were written on; a test of "today" unsets it and restores it. Child
 * processes the tests start (the CLI) inherit it.
 */
import { epochOf } from './day';

process.env.SOURCE_DATE_EPOCH = epochOf('2026-11-01');
