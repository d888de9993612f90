import { App, Chart } from 'cdk8s';
import fc from 'fast-check';
import { WindowsVersion } from '../../src';
import { KarpenterWindowsNodePool } from '../../src/eks';
import { expectOwnJudgement } from '../support/own-objects';

// The judge, recorded (and bypassed where a property asks): see test/support/judge-spy.ts.
jest.mock('../../src/rules/run/judge', () => jest.requireActual('../support/judge-spy').judgeModule());

/** Mostly valid values with some invalid ones, so that both outcomes are common. */
function mostly<T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: invalid, weight: 1 });
}

const props = fc.record({
  name: mostly(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), fc.constantFrom('Windows', 'win_pool', 'w'.repeat(254))),
  windowsVersion: fc.constantFrom(...Object.values(WindowsVersion)),
  cpu: mostly(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(0, -1, 1.5)),
  memory: fc.option(mostly(fc.constantFrom('256Gi', '64G', '1Ti'), fc.constantFrom('lots', '256 Gi', '-1Gi')), { nil: undefined }),
  instanceTypes: fc.option(mostly(fc.subarray(['m6i.large', 'm6i.xlarge', 'c6i.2xlarge'], { minLength: 1 }), fc.constantFrom<string[]>(['m7g.large'], ['t4g.xlarge', 'm6i.large'], [])), { nil: undefined }),
  capacityTypes: fc.option(mostly(fc.subarray(['on-demand', 'spot'], { minLength: 1 }), fc.constantFrom<string[]>(['reserved-ish'], ['SPOT'], [])), { nil: undefined }),
});

describe('KarpenterWindowsNodePool: its judgement at construction holds on its own', () => {
  test('property', () => {
    const seen = { built: 0, 'refused by a rule': 0, refused: 0 };
    fc.assert(fc.property(props, (p) => {
      seen[expectOwnJudgement(() => {
        const app = new App();
        new KarpenterWindowsNodePool(new Chart(app, 'karpenter'), 'windows', {
          clusterName: 'eks-test', role: 'eks-test-karpenter-windows', name: p.name, windowsVersion: p.windowsVersion,
          limits: { cpu: p.cpu, memory: p.memory }, instanceTypes: p.instanceTypes, capacityTypes: p.capacityTypes,
        });
        return app;
      })]++;
    }), { numRuns: 100 });
    // Both branches must be exercised, or the property proves little.
    expect(seen.built).toBeGreaterThan(5);
    expect(seen['refused by a rule']).toBeGreaterThan(5);
  });
});
