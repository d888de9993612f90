import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import fc from 'fast-check';
import {
  CalicoMode, HybridCluster, LinuxWorkerPool, LoadBalancerScheme, MachineImage, NetworkProvider, WindowsVersion, WindowsWorkerPool,
} from '../../src';
import { crdViolations, CRDS_AVAILABLE } from '../support/crd-schemas';
import { expectOneShape } from '../support/message-shape';
import { expectOwnJudgement } from '../support/own-objects';
import { synthObjects } from '../support/synth';

// The judge, recorded (and bypassed where a property asks): see test/support/judge-spy.ts.
jest.mock('../../src/rules/run/judge', () => jest.requireActual('../support/judge-spy').judgeModule());

/** Mostly valid values with some invalid ones, so that both outcomes are common. */
function mostly<T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: valid, weight: 9 }, { arbitrary: invalid, weight: 1 });
}

const instanceType = mostly(fc.constantFrom('t3.large', 't3.xlarge', 'm6i.large', 'g4dn.xlarge'), fc.constantFrom('t3.medium', 'c5.large', 'm7g.large', 't4g.xlarge', 'foo1.large', 'T3.LARGE', 'mac2.metal'));
const k0sVersion = mostly(fc.constantFrom('v1.34.10+k0s.0', 'v1.35.1+k0s.2'), fc.constantFrom('v1.33.4+k0s.0', 'v1.34.2', 'latest'));
const poolName = mostly(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.oneof(fc.constantFrom('windows2022', 'Win', 'a-very-long-pool-name-that-will-not-fit-anywhere'), fc.string({ maxLength: 12 })));

const clusterProps = fc.record({
  name: mostly(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), fc.constantFrom('x'.repeat(41), 'Prod', '-bad')),
  k0sVersion,
  cpReplicas: mostly(fc.constantFrom(1, 3, 5), fc.constantFrom(0, 2, 4)),
  enableWorker: fc.boolean(),
  provider: mostly(fc.constant(NetworkProvider.CALICO), fc.constantFrom(NetworkProvider.KUBE_ROUTER, NetworkProvider.CUSTOM)),
  calicoMode: mostly(fc.constant(CalicoMode.VXLAN), fc.constantFrom(CalicoMode.IPIP, CalicoMode.BIRD)),
  scheme: fc.constantFrom(LoadBalancerScheme.INTERNET_FACING, LoadBalancerScheme.INTERNAL),
  // Escape hatches applied after construction: the rules over the final objects must judge them.
  patch: mostly(fc.constant('none'), fc.constantFrom('classic-lb', 'cp-version-ahead', 'renamed-cluster', 'selector', 'patched-template')),
  linuxPools: fc.array(fc.record({ name: poolName, replicas: mostly(fc.integer({ min: 0, max: 3 }), fc.constant(-1)), instanceType }), { maxLength: 2 }),
  windowsPools: fc.uniqueArray(fc.record({
    name: poolName, replicas: fc.integer({ min: 0, max: 3 }), instanceType,
    k0sVersion: fc.option(k0sVersion, { nil: undefined }),
    windowsVersion: fc.constantFrom(...Object.values(WindowsVersion)),
    acknowledgeUnsupportedWindowsVersion: fc.boolean(),
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
    const seen = { ok: 0, refused: 0, built: 0, 'refused by a rule': 0 };
    fc.assert(fc.property(clusterProps, (p) => {
      const build = (escapeHatches = true) => {
        const app = new App();
        const chart = new Chart(app, 'mgmt');
        const cluster = new HybridCluster(chart, 'c', {
          name: p.name,
          region: 'eu-north-1',
          zones: ['eu-north-1a', 'eu-north-1b'],
          k0sVersion: p.k0sVersion,
          network: { provider: p.provider, calicoMode: p.calicoMode },
          apiServerLoadBalancer: { scheme: p.scheme },
          controlPlane: { replicas: p.cpReplicas, enableWorker: p.enableWorker, instanceType: 't3.large', ami: MachineImage.id('ami-0123456789abcdef0') },
        });
        // Construct ids must be unique; names (which the checks judge) may not be.
        p.linuxPools.forEach((l, i) => new LinuxWorkerPool(cluster, `linux${i}`, { ...l, ami: MachineImage.id('ami-0123456789abcdef0') }));
        const pools = p.windowsPools.map((w, i) => new WindowsWorkerPool(cluster, `windows${i}`, { ...w, ami: MachineImage.id('ami-0fedcba9876543210') }));
        const patch = (obj: ApiObject, ...ops: JsonPatch[]) => escapeHatches && ApiObject.of(obj).addJsonPatch(...ops);
        if (p.patch === 'classic-lb') patch(cluster.awsCluster, JsonPatch.replace('/spec/controlPlaneLoadBalancer/loadBalancerType', 'classic'));
        if (p.patch === 'cp-version-ahead') patch(cluster.controlPlane, JsonPatch.replace('/spec/version', 'v1.30.0+k0s.0'));
        if (p.patch === 'renamed-cluster') patch(cluster.cluster, JsonPatch.replace('/metadata/name', 'renamed'));
        if (p.patch === 'selector' && pools[0]) patch(pools[0].machineDeployments[0], JsonPatch.replace('/spec/selector/matchLabels/node.cluster.x-k8s.io~1pool', 'other'));
        if (p.patch === 'patched-template') patch(cluster.controlPlaneMachineTemplate, JsonPatch.replace('/spec/template/spec/instanceType', 'm6i.xlarge'));
        return app;
      };
      // What the constructors judged, without the patches applied after them.
      const construction = expectOwnJudgement(() => build(false));
      if (construction !== 'refused') seen[construction]++;
      const outcome = attempt(() => build());
      seen[outcome.ok ? 'ok' : 'refused']++;
      // These patches break the cluster whatever else it has: the rules over the final objects must refuse them.
      if (['classic-lb', 'patched-template'].includes(p.patch)) expect(outcome.ok).toBe(false);
      if (outcome.ok) {
        if (CRDS_AVAILABLE) expect(outcome.objects.flatMap((o) => crdViolations(o))).toEqual([]);
        expect(outcome.objects.some((o) => o.kind === 'Cluster')).toBe(true);
      } else {
        // At construction (HybridConfigError) or at synth, each line names the construct, the value and the fix.
        expectOneShape(outcome.message);
        expect(outcome.message).toMatch(/\[mgmt\/c(\/[a-z0-9]+)?\] /);
      }
    }), { numRuns: 150 });
    // Both branches must be exercised, or the property proves little.
    expect(seen.ok).toBeGreaterThan(5);
    expect(seen.refused).toBeGreaterThan(5);
    expect(seen.built).toBeGreaterThan(5);
    expect(seen['refused by a rule']).toBeGreaterThan(5);
  });
});
