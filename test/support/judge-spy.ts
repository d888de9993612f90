import type { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import type * as Judge from '../../src/rules/run/judge';

/** One constructor's call of `judgeOwnObjects`: the construct, the objects it had judged, what it threw. */
export interface JudgeCall {
  readonly construct: IConstruct;
  readonly own: readonly ApiObject[];
  error?: unknown;
}

const spy = { bypass: false, calls: [] as JudgeCall[] };

/**
 * The judge module with `judgeOwnObjects` recorded, for a test file's
 * `jest.mock('../../src/rules/run/judge', () => jest.requireActual('../support/judge-spy').judgeModule())`.
 * The judge itself runs unchanged; with `bypass` (see `judged`), what it would throw is recorded
 * instead, so construction goes on and writes the refused objects. No switch in the library.
 */
export function judgeModule(): typeof Judge {
  const actual = jest.requireActual<typeof Judge>('../../src/rules/run/judge');
  return {
    ...actual,
    judgeOwnObjects: (...args) => {
      const call: JudgeCall = { construct: args[0], own: args[1] };
      spy.calls.push(call);
      try {
        actual.judgeOwnObjects(...args);
      } catch (e) {
        call.error = e;
        if (!spy.bypass) throw e;
      }
    },
  };
}

/** Runs `build` with the judge recording (and with `bypass`, not throwing): what it built or threw, and the judge's calls. */
export function judged<T>(build: () => T, bypass = false): { built?: T; thrown?: unknown; calls: JudgeCall[] } {
  spy.calls = [];
  spy.bypass = bypass;
  try {
    return { built: build(), calls: spy.calls };
  } catch (e) {
    return { thrown: e, calls: spy.calls };
  } finally {
    spy.bypass = false;
  }
}
