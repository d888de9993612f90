import { App, Chart } from 'cdk8s';
import fc from 'fast-check';
import {
  CalicoMode, HybridCluster, LinuxWorkerPool, LoadBalancerType, MachineImage, NetworkProvider, WindowsVersion, WindowsWorkerPool,
} from '../../src';
import { crdViolations, CRDS_AVAILABLE } from '../support/crd-schemas';
import { synthObjects } from '../support/synth';

const instanceType = fc.constantFrom('t3.medium', 't3.large', 't3.xlarge', 'm6i.large', 'c5.large', 'm7g.large', 't4g.xlarge', 'x9z.weird');
const k0sVersion = fc.constantFrom('v1.34.2+k0s.0', 'v1.35.1+k0s.2', 'v1.33.4+k0s.0', 'v1.34.2', 'latest');
const poolName = fc.oneof(fc.constantFrom('linux', 'win', 'gpu', 'windows2022', 'Win', 'a-very-long-pool-name-that-will-not-fit-anywhere'), fc.string({ maxLength: 12 }));

const clusterProps = fc.record({
  name: fc.oneof(fc.constantFrom('prod', 'aws-test', 'x'.repeat(41), 'Prod'), fc.stringMatching(/^[a-z][a-z0-9-]{0,45}$/)),
  k0sVersion,
  cpReplicas: fc.integer({ min: 0, max: 5 }),
  enableWorker: fc.boolean(),
  provider: fc.constantFrom(...Object.values(NetworkProvider)),
  calicoMode: fc.constantFrom(...Object.values(CalicoMode)),
  lbType: fc.constantFrom(LoadBalancerType.NLB, LoadBalancerType.NLB, LoadBalancerType.CLASSIC),
  linuxPools: fc.array(fc.record({ name: poolName, replicas: fc.integer({ min: -1, max: 3 }), instanceType }), { maxLength: 2 }),
  windowsPools: fc.array(fc.record({
    name: poolName, replicas: fc.integer({ min: 0, max: 3 }), instanceType,
    k0sVersion: fc.option(k0sVersion, { nil: undefined }),
    windowsVersion: fc.constantFrom(...Object.values(WindowsVersion)),
  }), { maxLength: 2 }),
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
