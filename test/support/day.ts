/** SOURCE_DATE_EPOCH for noon UTC of `day` (`YYYY-MM-DD`). */
export function epochOf(day: string): string {
  return String(Date.parse(`${day}T12:00:00Z`) / 1000);
}

/**
 * Runs `fn` with the release calendars read on `day` (SOURCE_DATE_EPOCH, which `calendarDay` reads),
 * then restores the day every test is pinned to (test/support/calendar-day.ts).
 */
export function onDay<T>(day: string, fn: () => T): T {
  const saved = process.env.SOURCE_DATE_EPOCH;
  process.env.SOURCE_DATE_EPOCH = epochOf(day);
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
    else process.env.SOURCE_DATE_EPOCH = saved;
  }
}
