import { App, Chart } from 'cdk8s';
import fc from 'fast-check';
import {
  CalicoMode, HybridCluster, LinuxWorkerPool, LoadBalancerType, MachineImage, NetworkProvider, WindowsVersion, WindowsWorkerPool,
} from '../../src';
import { crdViolations, CRDS_AVAILABLE } from '../support/crd-schemas';
import { synthObjects } from '../support/synth';

/** Mostly valid values with some invalid ones, so that both outcomes are common. */
function mostly<T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: valid, weight: 9 }, { arbitrary: invalid, weight: 1 });
}

const instanceType = mostly(fc.constantFrom('t3.large', 't3.xlarge', 'm6i.large', 'x9z.weird'), fc.constantFrom('t3.medium', 'c5.large', 'm7g.large', 't4g.xlarge'));
const k0sVersion = mostly(fc.constantFrom('v1.34.2+k0s.0', 'v1.35.1+k0s.2'), fc.constantFrom('v1.33.4+k0s.0', 'v1.34.2', 'latest'));
const poolName = mostly(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.oneof(fc.constantFrom('windows2022', 'Win', 'a-very-long-pool-name-that-will-not-fit-anywhere'), fc.string({ maxLength: 12 })));

const clusterProps = fc.record({
  name: mostly(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), fc.constantFrom('x'.repeat(41), 'Prod', '-bad')),
  k0sVersion,
  cpReplicas: mostly(fc.constantFrom(1, 3, 5), fc.constantFrom(0, 2, 4)),
  enableWorker: fc.boolean(),
  provider: mostly(fc.constant(NetworkProvider.CALICO), fc.constantFrom(NetworkProvider.KUBE_ROUTER, NetworkProvider.CUSTOM)),
  calicoMode: mostly(fc.constant(CalicoMode.VXLAN), fc.constantFrom(CalicoMode.IPIP, CalicoMode.BIRD)),
  lbType: mostly(fc.constant(LoadBalancerType.NLB), fc.constantFrom(LoadBalancerType.CLASSIC, LoadBalancerType.ALB)),
  linuxPools: fc.array(fc.record({ name: poolName, replicas: mostly(fc.integer({ min: 0, max: 3 }), fc.constant(-1)), instanceType }), { maxLength: 2 }),
  windowsPools: fc.uniqueArray(fc.record({
    name: poolName, replicas: fc.integer({ min: 0, max: 3 }), instanceType,
    k0sVersion: fc.option(k0sVersion, { nil: undefined }),
    windowsVersion: fc.constantFrom(...Object.values(WindowsVersion)),
  }), { maxLength: 2, selector: (w) => w.name }),
});

type Outcome = { ok: true; objects: ReturnType<typeof synthObjects> } | { ok: false; message: string };

function attempt(build: () => App): Outcome {
  try {
    return { ok: true, objects: synthObjects(build()) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

describe('any cluster either synthesizes schema-valid objects or fails with explained errors', () => {
  test('property', () => {
    const seen = { ok: 0, refused: 0 };
    fc.assert(fc.property(clusterProps, (p) => {
      const outcome = attempt(() => {
        const app = new App();
        const chart = new Chart(app, 'mgmt');
        const cluster = new HybridCluster(chart, 'c', {
          name: p.name,
          region: 'eu-north-1',
          k0sVersion: p.k0sVersion,
          network: { provider: p.provider, calicoMode: p.calicoMode },
          apiServerLoadBalancer: { type: p.lbType },
          controlPlane: { replicas: p.cpReplicas, enableWorker: p.enableWorker, instanceType: 't3.large', ami: MachineImage.id('ami-0123456789abcdef0') },
        });
        // Construct ids must be unique; names (which the checks judge) may not be.
        p.linuxPools.forEach((l, i) => new LinuxWorkerPool(cluster, `linux${i}`, { ...l, ami: MachineImage.id('ami-0123456789abcdef0') }));
        p.windowsPools.forEach((w, i) => new WindowsWorkerPool(cluster, `windows${i}`, { ...w, ami: MachineImage.id('ami-0fedcba9876543210') }));
        return app;
      });
      seen[outcome.ok ? 'ok' : 'refused']++;
      if (outcome.ok) {
        if (CRDS_AVAILABLE) expect(outcome.objects.flatMap((o) => crdViolations(o))).toEqual([]);
        expect(outcome.objects.some((o) => o.kind === 'Cluster')).toBe(true);
      } else {
        const lines = outcome.message.split('\n');
        expect(lines[0]).toBe('Validation failed with the following errors:');
        for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}\[mgmt\/c(\/[a-z0-9]+)?\] .+Fix: .+/);
      }
    }), { numRuns: 150 });
    // Both branches must be exercised, or the property proves little.
    expect(seen.ok).toBeGreaterThan(5);
    expect(seen.refused).toBeGreaterThan(5);
  });
});
