import type { PropEntry } from '../../src/core/props-spec';
import { offShape } from '../support/message-shape';
import { judgeProp, propsOf, SUBJECTS, valuesFor } from '../support/props-spec';

/**
 * Issue 35: property tests generated from the declared props specs (src/core/props-spec.ts). For
 * every construct that has a spec, every prop (nested ones included) is fed the odd values of the
 * issue (undefined, null, NaN, ±Infinity, fractions, negatives, '' and blanks, a 300 KB string,
 * non-ASCII text, other types, BigInt, frozen objects, proxies, throwing getters, prototype-named
 * keys, a string where a list belongs) and its kind's edge values. Each gives the spec's declared
 * error, or output that passes the rules (test/support/props-spec.ts, judgeProp).
 */
describe.each(SUBJECTS.map((s) => [s.name, s] as const))('%s: every prop, every odd value', (_, subject) => {
  test.each(propsOf(subject.spec).map((p) => [p.name, p] as const))('%s', (_name, prop) => {
    expect(judgeProp(subject, prop, valuesFor(prop))).toEqual([]);
  });

  (subject.partOfProps ? test.skip : test)('the props object itself: missing, null, another type, frozen, a proxy, without a prototype', () => {
    const outcome = (props: unknown, id: string): string => {
      try {
        const fixture = subject.fixture();
        subject.build(fixture, id, props);
        return 'built';
      } catch (e) {
        return (e as Error).message;
      }
    };
    const required = Object.entries<PropEntry>(subject.spec.entries).filter(([, e]) => e.whenMissing !== undefined).map(([k]) => k);
    const fix = required.length > 0 ? `pass an object with ${required.join(', ')}` : 'pass an object of props, or leave it out';
    const whole = subject.prefix?.slice(0, -1) ?? 'props';
    for (const [props, shown] of [[null, 'null'], [42, '42'], ['props', '"props"'], [[], '[]']] as const) {
      expect(outcome(props, 'p')).toBe(`[${subject.pathOf('p')}] ${whole}: ${shown} is not an object of props. Fix: ${fix}.`);
    }
    // Without required props, no props is an empty object: built, or refused in the one shape (a workload needs a container).
    if (required.length > 0) expect(outcome(undefined, 'p')).toBe(`[${subject.pathOf('p')}] ${whole}: undefined is not an object of props. Fix: ${fix}.`);
    else expect(offShape(outcome(undefined, 'p').replace(/^built$/, ''))).toEqual([]);
    expect(outcome(Object.freeze({ ...subject.base }), 'p')).toBe('built');
    expect(outcome(new Proxy({ ...subject.base }, {}), 'p')).toBe('built');
    expect(outcome(Object.assign(Object.create(null), subject.base), 'p')).toBe('built');
  });
});
