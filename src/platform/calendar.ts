import { HybridConfigError } from '../core/errors';

/**
 * The day the dated facts (the EKS and AKS release calendars) are read on, one source for every
 * cloud, so that a build gives one answer for all its stacks.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The day the release calendars are read on, `YYYY-MM-DD` (UTC): `SOURCE_DATE_EPOCH` (seconds
 * since 1970, the reproducible-builds convention, https://reproducible-builds.org/specs/source-date-epoch/)
 * when set, so that a build can pin it, else today.
 * @internal
 */
export function calendarDay(env: Readonly<Record<string, string | undefined>> = process.env, now: () => Date = () => new Date()): string {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '') {
    if (!/^\d+$/.test(epoch)) {
      throw new HybridConfigError('SOURCE_DATE_EPOCH', `${JSON.stringify(epoch)} is not a number of seconds since 1970-01-01`,
        'set it to whole seconds, e.g. $(date -d 2026-06-01 +%s), or unset it to judge Kubernetes versions against today');
    }
    return new Date(Number(epoch) * 1000).toISOString().slice(0, 10);
  }
  return now().toISOString().slice(0, 10);
}

/** True for a `YYYY-MM-DD` day. @internal */
export function isCalendarDay(day: unknown): day is string {
  return typeof day === 'string' && DAY.test(day) && !Number.isNaN(Date.parse(day));
}
