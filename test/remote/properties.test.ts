import { App, Chart } from 'cdk8s';
import fc from 'fast-check';
import { RemoteHybridCluster, RemoteLinuxWorkerPool, RemoteWindowsWorkerPool, WindowsVersion } from '../../src';
import { expectOneShape } from '../support/message-shape';
import { expectOwnJudgement } from '../support/own-objects';
import { synthObjects } from '../support/synth';

// The judge, recorded (and bypassed where a property asks): see test/support/judge-spy.ts.
jest.mock('../../src/rules/run/judge', () => jest.requireActual('../support/judge-spy').judgeModule());

/** Mostly valid values with some invalid ones, so that both outcomes are common. */
function mostly<T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: valid, weight: 9 }, { arbitrary: invalid, weight: 1 });
}

const k0sVersion = mostly(fc.constantFrom('v1.34.4+k0s.0', 'v1.35.1+k0s.2'), fc.constantFrom('v1.33.4+k0s.0', 'v1.34.2', 'latest'));
const poolName = mostly(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.constantFrom('Win', 'a'.repeat(60), 'under_score'));
const pool = fc.record({
  name: poolName,
  hosts: fc.integer({ min: 1, max: 3 }),
  replicas: fc.option(mostly(fc.integer({ min: 0, max: 3 }), fc.constant(-1)), { nil: undefined }),
  k0sVersion: fc.option(k0sVersion, { nil: undefined }),
});
const remoteProps = fc.record({
  name: mostly(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), fc.constantFrom('x'.repeat(41), 'Edge')),
  k0sVersion,
  controllers: mostly(fc.constantFrom(1, 3), fc.constantFrom(2, 4)),
  endpoint: mostly(fc.constantFrom('10.0.0.10', 'api.edge.example.com'), fc.constantFrom('bad host!', '')),
  linuxPools: fc.array(pool, { maxLength: 2 }),
  windowsPools: fc.array(fc.record({
    pool,
    windowsVersion: fc.constantFrom(...Object.values(WindowsVersion)),
    acknowledgeUnsupportedWindowsVersion: fc.boolean(),
  }), { maxLength: 2 }),
});

describe('any remote cluster either synthesizes or fails with explained errors, and its judgement at construction holds on its own', () => {
  test('property', () => {
    const seen = { built: 0, 'refused by a rule': 0, refused: 0 };
    fc.assert(fc.property(remoteProps, (p) => {
      const build = () => {
        const app = new App();
        const cluster = new RemoteHybridCluster(new Chart(app, 'remote'), 'edge', {
          name: p.name,
          k0sVersion: p.k0sVersion,
          controlPlaneEndpoint: { host: p.endpoint },
          controlPlane: { hosts: Array.from({ length: p.controllers }, (_, i) => ({ address: `10.0.0.${11 + i}` })), sshKeySecret: 'linux-ssh-key' },
        });
        // Construct ids must be unique and each host in one pool; names (which the rules judge) may repeat.
        const hosts = (pool: number, n: number) => Array.from({ length: n }, (_, i) => ({ address: `10.0.${pool}.${11 + i}` }));
        p.linuxPools.forEach((l, i) => new RemoteLinuxWorkerPool(cluster, `linux${i}`, { ...l, hosts: hosts(1 + i, l.hosts), sshKeySecret: 'linux-ssh-key' }));
        p.windowsPools.forEach((w, i) => new RemoteWindowsWorkerPool(cluster, `windows${i}`, {
          ...w.pool, hosts: hosts(10 + i, w.pool.hosts), sshKeySecret: 'windows-ssh-key',
          windowsVersion: w.windowsVersion, acknowledgeUnsupportedWindowsVersion: w.acknowledgeUnsupportedWindowsVersion,
        }));
        return app;
      };
      seen[expectOwnJudgement(build)]++;
      try {
        synthObjects(build());
      } catch (e) {
        // At construction or at synth, each line names the construct, the value and the fix.
        expectOneShape((e as Error).message);
        expect((e as Error).message).toMatch(/\[remote\/edge(\/[a-z0-9]+)?\] /);
      }
    }), { numRuns: 100 });
    // Each branch must be exercised, or the property proves little.
    expect(seen.built).toBeGreaterThan(5);
    expect(seen['refused by a rule']).toBeGreaterThan(5);
  });
});
