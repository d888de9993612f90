import type { PropEntry, PropKind } from '../../src/core/props-spec';
import { WINDOWS_WORKLOAD_PROPS } from '../../src/workloads/windows-workload';
import { judgeProp, propsOf, SpecSubject, SUBJECTS, valuesFor } from '../support/props-spec';

// The schema check (issue 36) refuses at construction, in the one shape, most values a broken entry lets
// through (replicas: 1.5 is no integer), which the property test rightly accepts as a refusal. That the
// property test itself catches a broken entry is shown without it: the schema rule finds nothing here.
jest.mock('../../src/rules/schema/rule', () => {
  const actual = jest.requireActual('../../src/rules/schema/rule');
  return { ...actual, SCHEMA_RULE: { ...actual.SCHEMA_RULE, check: () => [], advise: () => [] } };
});

describe('the generated property test catches a broken spec entry', () => {
  const subject = SUBJECTS.find((s) => s.name === 'WindowsWorkload') as SpecSubject;
  const replicas = propsOf(subject.spec).find((p) => p.name === 'replicas')!;
  const failures = () => judgeProp(subject, replicas, valuesFor(replicas));

  test('an entry that takes any value for replicas (as a hand-written parse that forgot it would) fails it; the declared one passes', () => {
    expect(failures()).toEqual([]);
    const entries = WINDOWS_WORKLOAD_PROPS.entries as Record<string, PropEntry>;
    const declared = entries.replicas;
    const anything: PropKind = { parse: (_at, value) => value, constraint: 'anything', edges: [] };
    entries.replicas = { kind: anything };
    try {
      // NaN, a fraction, a negative, a BigInt and a string reach the Deployment, and the output,
      // cdk8s or the rules show it.
      const found = failures();
      expect(found.length).toBeGreaterThan(3);
      expect(found.join('\n')).toMatch(/the output: .*replicas|raw TypeError|off the one shape/);
    } finally {
      entries.replicas = declared;
    }
  });
});
