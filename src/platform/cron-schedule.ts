/**
 * The CronJob schedule kube-apiserver accepts: kubernetes v1.34 pkg/apis/batch/validation/
 * validation.go (validateScheduleFormat) parses it with robfig/cron v3.0.1's `ParseStandard`
 * (parser.go: five fields, minute hour day-of-month month day-of-week, or a descriptor) and
 * refuses any `TZ` in it on create ("use timeZone field instead").
 */

interface Bounds { readonly min: number; readonly max: number; readonly names?: ReadonlyMap<string, number> }

const named = (names: string[], first: number) => new Map(names.map((n, i) => [n, first + i]));

/** robfig/cron v3.0.1 spec.go: the fields' bounds and names (day-of-week stops at 6: `7` is refused). */
const FIELDS: ReadonlyArray<readonly [string, Bounds]> = [
  ['minute', { min: 0, max: 59 }],
  ['hour', { min: 0, max: 23 }],
  ['day of month', { min: 1, max: 31 }],
  ['month', { min: 1, max: 12, names: named(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'], 1) }],
  ['day of week', { min: 0, max: 6, names: named(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], 0) }],
];

/** parser.go parseDescriptor: the named schedules, matched exactly. */
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's time.ParseDuration, for `@every <duration>`: `0`, or numbers each with a unit, an optional sign first. */
const GO_DURATION = /^[-+]?(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/;

/** Go's strconv.Atoi as mustParseInt calls it: an optional sign and decimal digits. */
const GO_INT = /^[+-]?\d+$/;

/** mustParseInt / parseIntOrName: the number, or why robfig/cron refuses it. */
function parseNumber(expr: string, names: ReadonlyMap<string, number> | undefined): number | string {
  const value = names?.get(expr.toLowerCase());
  if (value !== undefined) return value;
  if (!GO_INT.test(expr)) return `"${expr}" is not a number${names ? ' or a name' : ''}`;
  const n = Number(expr);
  return n < 0 ? `"${expr}" is negative` : n;
}

/** getRange: one range of a field (`*`, `?`, `n`, `a-b`, each with an optional `/step`). */
function rangeProblem(expr: string, b: Bounds): string | undefined {
  const rangeAndStep = expr.split('/');
  if (rangeAndStep.length > 2) return `too many slashes in "${expr}"`;
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    if (lowAndHigh.length > 2) return `too many hyphens in "${expr}"`;
    const low = parseNumber(lowAndHigh[0], b.names);
    if (typeof low === 'string') return low;
    const high = lowAndHigh.length === 2 ? parseNumber(lowAndHigh[1], b.names) : low;
    if (typeof high === 'string') return high;
    start = low;
    end = high;
  }
  if (rangeAndStep.length === 2) {
    const step = parseNumber(rangeAndStep[1], undefined);
    if (typeof step === 'string') return step;
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = b.max;
    if (step === 0) return `the step of "${expr}" is 0`;
  }
  if (start < b.min) return `"${expr}" starts below ${b.min}`;
  if (end > b.max) return `"${expr}" ends above ${b.max}`;
  if (start > end) return `"${expr}" starts after it ends`;
  return undefined;
}

/**
 * Why the API server refuses a CronJob `schedule` on create, or undefined when it takes it:
 * robfig/cron v3.0.1 `ParseStandard`, then no `TZ` anywhere.
 */
export function cronScheduleProblem(schedule: string): string | undefined {
  if (schedule.includes('TZ')) return 'a time zone in the schedule (TZ= or CRON_TZ=) is refused; the time zone goes in spec.timeZone';
  if (schedule.length === 0) return 'the schedule is empty';
  if (schedule.startsWith('@')) {
    if (DESCRIPTORS.has(schedule)) return undefined;
    if (schedule.startsWith('@every ')) {
      return GO_DURATION.test(schedule.slice('@every '.length)) ? undefined : `"${schedule.slice('@every '.length)}" is not a duration such as 90s, 15m or 1h30m`;
    }
    return `"${schedule}" is not one of ${[...DESCRIPTORS].join(', ')} or @every <duration>`;
  }
  const fields = schedule.trim().split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return `it has ${fields.length} field${fields.length === 1 ? '' : 's'}, where the API server takes exactly 5 (minute hour day-of-month month day-of-week)`;
  for (let i = 0; i < 5; i++) {
    const [name, bounds] = FIELDS[i];
    for (const expr of fields[i].split(',')) {
      if (expr === '') continue; // getField splits with strings.FieldsFunc, which drops empty parts
      const problem = rangeProblem(expr, bounds);
      if (problem !== undefined) return `the ${name} field ${fields[i]}: ${problem} (${name} takes ${bounds.min}-${bounds.max}${bounds.names ? ' or a name' : ''})`;
    }
  }
  return undefined;
}

/**
 * kubernetes v1.34 pkg/apis/batch/validation/validation.go (validateTimeZone): the CronJob
 * `timeZone` forms the API server refuses before it looks the zone up: empty, `Local`, or a part
 * outside the IANA naming rules. Whether the zone exists depends on the API server's time zone
 * database and is not judged here.
 */
export function timeZoneProblem(timeZone: string): string | undefined {
  if (timeZone.length === 0) return 'an empty timeZone is refused (leave it out for the controller manager\'s zone)';
  if (timeZone.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part))) {
    return `"${timeZone}" is not an IANA time zone name such as Europe/Berlin`;
  }
  if (timeZone.toLowerCase() === 'local') return 'Local is refused: name an explicit IANA time zone such as Europe/Berlin';
  return undefined;
}
