import fc from 'fast-check';
import { validateManifests } from '../../src';
import { hybridCluster } from './fixture';
import { ApiObject } from 'cdk8s';

const KINDS: Array<[string, string]> = [
  ['cluster.x-k8s.io/v1beta2', 'Cluster'], ['cluster.x-k8s.io/v1beta2', 'MachineDeployment'], ['cluster.x-k8s.io/v1beta2', 'MachineHealthCheck'],
  ['controlplane.cluster.x-k8s.io/v1beta2', 'K0sControlPlane'], ['infrastructure.cluster.x-k8s.io/v1beta2', 'AWSCluster'],
  ['infrastructure.cluster.x-k8s.io/v1beta2', 'AWSMachineTemplate'], ['bootstrap.cluster.x-k8s.io/v1beta2', 'K0sWorkerConfigTemplate'],
  ['apps/v1', 'Deployment'], ['v1', 'Pod'],
];

// Keys that shadow Object.prototype's conversions make any JavaScript string conversion throw;
// they are covered by the last test, and kept out of the generated values so that the properties
// keep finding real crashes.
const anything = fc.anything({ key: fc.string().filter((k) => !['toString', 'valueOf', '__proto__', 'constructor'].includes(k)) });

function fixtureObjects() {
  return hybridCluster().app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => o.toJson());
}

/** Every path to a value inside the fixture's objects: [object index, keys...]. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Object.entries(value as Record<string, unknown>);
  return [prefix, ...entries.flatMap(([k, v]) => paths(v, [...prefix, Array.isArray(value) ? Number(k) : k]))];
}
const ALL_PATHS = fixtureObjects().flatMap((o, i) => paths(o).filter((p) => p.length > 0).map((p) => [i, ...p]));

/** A real cluster with one field (any depth, any object) replaced by anything at all. */
const mangled = fc.tuple(fc.constantFrom(...ALL_PATHS), anything).map(([[index, ...keys], value]) => {
  const objects = fixtureObjects();
  let node: Record<string | number, unknown> = objects[index as number];
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[keys[keys.length - 1]] = value;
  return objects;
});

describe('the rules never crash, whatever the manifests hold', () => {
  test('objects of every kind with arbitrary content', () => {
    fc.assert(fc.property(fc.array(fc.record({
      gvk: fc.constantFrom(...KINDS), metadata: anything, spec: anything,
    }), { maxLength: 6 }), (items) => {
      const objects = items.map(({ gvk, metadata, spec }) => ({ apiVersion: gvk[0], kind: gvk[1], metadata, spec }));
      const violations = validateManifests(objects as never);
      for (const v of violations) {
        expect(v.message).toMatch(/\. Fix: .+\.$/);
        expect(v.message).not.toMatch(/could not read the objects/);
      }
    }), { numRuns: 300 });
  });

  test('a valid cluster with one field anywhere replaced by anything', () => {
    fc.assert(fc.property(mangled, (objects) => {
      for (const v of validateManifests(objects)) {
        expect(v.message).toMatch(/\. Fix: .+\.$/);
        expect(v.message).not.toMatch(/could not read the objects/);
      }
    }), { numRuns: 2000 });
  });

  test('a value whose string conversion throws is reported, not thrown', () => {
    const objects = fixtureObjects();
    objects.find((o) => o.kind === 'AWSCluster')!.spec.region = { toString: 0 };
    expect(validateManifests(objects).map((v) => v.message)).toContain(
      'rule aws-cluster could not read the objects (Cannot convert object to primitive value). Fix: check the objects against their CRD schemas.');
  });

  test('non-objects in the list are skipped', () => {
    expect(validateManifests([null, 3, 'x', [] ] as never)).toEqual([]);
  });
});
