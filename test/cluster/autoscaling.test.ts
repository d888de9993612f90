import { ApiObject, JsonPatch } from 'cdk8s';
import { Architecture, validateManifests } from '../../src';
import { crdViolations, describeWithCrds } from '../support/crd-schemas';
import { fits, hasRoom, KEYS, nodeGroupOf } from '../support/cluster-autoscaler';
import { only, synthObjects } from '../support/synth';
import { constructionError, hybridCluster } from './fixture';
import { remoteApp } from '../remote/fixture';

const WINDOWS_TOLERATION = { key: 'os', value: 'windows', effect: 'NoSchedule' };
function synthError(build: () => { app: { synthYaml(): string } }): string {
  try {
    synthObjects(build().app as never);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('autoscaled EC2 pools', () => {
  const windowsMds = (props = {}) => synthObjects(hybridCluster({ windows: { replicas: undefined, autoscaling: { min: 0, max: 5 }, ...props } }).app)
    .filter((o) => o.kind === 'MachineDeployment' && o.metadata.name.startsWith('prod-win'));

  test('a Windows pool { min: 0, max: 5 } over two zones: no replicas, min/max split, read by cluster-autoscaler as a Windows node group', () => {
    const mds = windowsMds();
    expect(mds.map((m) => m.metadata.name)).toEqual(['prod-win-a', 'prod-win-b']);
    for (const md of mds) expect(md.spec.replicas).toBeUndefined();
    const groups = mds.map((md) => nodeGroupOf(md as never)!);
    expect(groups.map((g) => [g.min, g.max])).toEqual([[0, 3], [0, 2]]);
    const [a, b] = groups.map((g) => g.template!);
    expect(a.labels).toMatchObject({
      'kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/windows-build': '10.0.20348',
      'topology.kubernetes.io/zone': 'eu-north-1a', 'topology.kubernetes.io/region': 'eu-north-1', 'node.cluster.x-k8s.io/pool': 'win',
    });
    expect(b.labels['topology.kubernetes.io/zone']).toBe('eu-north-1b');
    expect(a.taints).toEqual([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
    // t3.xlarge: 4 vCPUs, 16 GiB; the Windows root volume's 100 GiB.
    expect(a.capacity).toEqual({ cpu: 4, memory: 16 * 2 ** 30, pods: 110, 'ephemeral-storage': 100 * 2 ** 30 });
    // A pending Windows pod that tolerates the taint fits; a Linux pod does not.
    expect(fits(a, 'windows', [WINDOWS_TOLERATION])).toBe(true);
    expect(fits(a, 'linux', [WINDOWS_TOLERATION])).toBe(false);
    expect(fits(a, 'windows', [])).toBe(false);
  });

  test('without the annotations the same group would be a Linux one (what the issue describes)', () => {
    const [md] = windowsMds();
    const bare = { ...md, metadata: { ...md.metadata, annotations: { [KEYS.min]: '0', [KEYS.max]: '3', [KEYS.cpu]: '4', [KEYS.memory]: '16Gi' } } };
    const template = nodeGroupOf(bare as never)!.template!;
    expect(template.labels['kubernetes.io/os']).toBe('linux');
    expect(fits(template, 'linux')).toBe(true);
  });

  test('a Linux pool autoscaled: its own OS and arch; Graviton reads arm64', () => {
    const objs = synthObjects(hybridCluster({ linux: { replicas: undefined, autoscaling: { min: 2, max: 6 }, instanceType: 'm7g.large' } }).app);
    const md = only(objs, 'MachineDeployment', 'prod-linux-a');
    const group = nodeGroupOf(md as never)!;
    expect([group.min, group.max]).toEqual([1, 3]);
    expect(group.template!.labels).toMatchObject({ 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64' });
    expect(group.template!.taints).toEqual([]);
  });

  // Issue 34.8: the refusal names the Linux pool's autoscaling.min, which caused it, and the fix names that prop.
  test('the Linux worker for CoreDNS never scales to 0 beside Windows pools, and the refusal names autoscaling.min', () => {
    const message = synthError(() => hybridCluster({ linux: { replicas: undefined, autoscaling: { min: 0, max: 3 } } }));
    expect(message).toMatch(/Windows pools \(prod-win-a, prod-win-b\) need a Linux worker for CoreDNS, and the cluster has none: the autoscaled Linux MachineDeployments \(prod-linux-a: min 0, prod-linux-b: min 0\) may scale to 0/);
    expect(message).toMatch(/Fix: give the Linux pool autoscaling\.min >= 1, or set controlPlane\.enableWorker/);
    expect(synthError(() => hybridCluster({ linux: { replicas: undefined, autoscaling: { min: 2, max: 3 } } }))).toBe('');
  });

  // clusterapi_utils.go diskCapacityKey, read by clusterapi_unstructured.go InstanceCapacity into the template
  // node's ephemeral-storage: without it a pod that requests ephemeral-storage fits no template node, and the
  // scheduler's resource fit (NodeResourcesFit) keeps the group at zero.
  test('a pool at zero states its ephemeral disk (the root volume), so a pod requesting ephemeral-storage scales it up', () => {
    const [md] = windowsMds({ rootVolumeSizeGiB: 150 });
    expect(md.metadata.annotations[KEYS.ephemeralDisk]).toBe('150Gi');
    const template = nodeGroupOf(md as never)!.template!;
    expect(hasRoom(template, 'ephemeral-storage', 20 * 2 ** 30)).toBe(true);
    const without = { ...md, metadata: { ...md.metadata, annotations: Object.fromEntries(Object.entries(md.metadata.annotations as Record<string, string>).filter(([k]) => k !== KEYS.ephemeralDisk)) } };
    expect(hasRoom(nodeGroupOf(without as never)!.template!, 'ephemeral-storage', 20 * 2 ** 30)).toBe(false);
    // Linux pools: their 40 GiB default.
    const linux = only(synthObjects(hybridCluster({ linux: { replicas: undefined, autoscaling: { min: 1, max: 3 } } }).app), 'MachineDeployment', 'prod-linux-a');
    expect(linux.metadata.annotations[KEYS.ephemeralDisk]).toBe('40Gi');
  });

  // cluster-api v1.14 core/reconcilers/machinehealthcheck: above unhealthyLessThanOrEqualTo nothing is remediated;
  // an autoscaled pool may have up to max machines, so its limit is taken from max, not from min.
  test('the health check of an autoscaled pool limits remediation by its max, not its min', () => {
    const mhc = only(synthObjects(hybridCluster({ windows: { replicas: undefined, autoscaling: { min: 0, max: 40 } } }).app), 'MachineHealthCheck', 'prod-win');
    expect(mhc.spec.remediation.triggerIf.unhealthyLessThanOrEqualTo).toBe(16);
  });

  test('min > max, non-integers, replicas beside autoscaling, and a max below the zones are refused at construction, naming the bounds as written', () => {
    expect(constructionError({ windows: { replicas: undefined, autoscaling: { min: 5, max: 2 } } }).message)
      .toMatch(/\[mgmt\/prod\/win\] autoscaling is min 5, max 2: the max is below the min.*Fix: give a max of at least 5/);
    expect(constructionError({ windows: { replicas: undefined, autoscaling: { min: 0, max: 1 } } }).message)
      .toMatch(/MachineDeployment prod-win-b: the autoscaler's max is 0, so cluster-autoscaler leaves the node group out/);
    expect(constructionError({ windows: { replicas: undefined, autoscaling: { min: 0, max: 2.5 } } }).message).toMatch(/autoscaling\.max: 2\.5 is not a whole number/);
    expect(constructionError({ windows: { replicas: 2, autoscaling: { min: 0, max: 2 } } }).message).toMatch(/replicas and autoscaling are both set/);
  });

  test('an instance family the library does not know needs a stated capacity to scale from zero', () => {
    const unknown = { instanceType: 'zz9.xlarge', instanceTypeInfo: { arch: Architecture.AMD64, memoryGiB: 32 } };
    expect(constructionError({ windows: { replicas: undefined, ...unknown, autoscaling: { min: 0, max: 2 } } }).message)
      .toMatch(/autoscaling.min is 0 and the pool cannot tell what one machine offers.*Fix: state `autoscaling.capacity: \{ cpu, memoryGiB \}`/);
    const stated = synthObjects(hybridCluster({ windows: { replicas: undefined, ...unknown, autoscaling: { min: 0, max: 2, capacity: { cpu: 6, memoryGiB: 32, maxPods: 60 } } } }).app);
    expect(nodeGroupOf(only(stated, 'MachineDeployment', 'prod-win-a') as never)!.template!.capacity).toEqual({ cpu: 6, memory: 32 * 2 ** 30, pods: 60, 'ephemeral-storage': 100 * 2 ** 30 });
    expect(synthError(() => hybridCluster({ windows: { replicas: undefined, ...unknown, instanceTypeInfo: { ...unknown.instanceTypeInfo, vcpus: 8 }, autoscaling: { min: 0, max: 2 } } }))).toBe('');
  });

  test('patched objects are judged at synth: the OS label or taint gone, a zone\'s bounds changed', () => {
    const patched = (patch: (md: ApiObject) => void) => synthError(() => {
      const f = hybridCluster({ windows: { replicas: undefined, autoscaling: { min: 0, max: 4 } } });
      patch(f.windows!.machineDeployments[0]);
      return f;
    });
    expect(patched((md) => md.addJsonPatch(JsonPatch.replace(`/metadata/annotations/${KEYS.labels.replace('/', '~1')}`, 'node.kubernetes.io/windows-build=10.0.20348'))))
      .toMatch(/a Windows node group that may be at zero has no kubernetes.io\/os=windows.*it never scales it up for a Windows pod, and scales it up for no Linux pod either, as its taint keeps them off/);
    expect(patched((md) => md.addJsonPatch(JsonPatch.remove(`/metadata/annotations/${KEYS.taints.replace('/', '~1')}`))))
      .toMatch(/has no os=windows:NoSchedule in capacity.cluster-autoscaler.kubernetes.io\/taints, so cluster-autoscaler believes Linux pods fit/);
    expect(patched((md) => md.addJsonPatch(JsonPatch.replace(`/metadata/annotations/${KEYS.max.replace('/', '~1')}`, '9'))))
      .toMatch(/pool win's max sizes over its zones \(9, 2\) are uneven/);
    // parseScalingBounds reads a missing bound as 0: a missing min is a valid 0, a missing max leaves the group out.
    expect(patched((md) => md.addJsonPatch(JsonPatch.remove(`/metadata/annotations/${KEYS.max.replace('/', '~1')}`))))
      .toMatch(/the autoscaler's min annotation is set without its max: cluster-autoscaler reads the max as 0 and leaves the node group out/);
    expect(patched((md) => md.addJsonPatch(JsonPatch.replace(`/metadata/annotations/${KEYS.cpu.replace('/', '~1')}`, 'four'))))
      .toMatch(/capacity.cluster-autoscaler.kubernetes.io\/cpu "four" is not a Kubernetes quantity/);
  });
});

describeWithCrds('autoscaled MachineDeployments against the pinned CRDs', () => {
  test('pass the schema and CEL rules, rolloutAfter included', () => {
    const objs = synthObjects(hybridCluster({ windows: { replicas: undefined, autoscaling: { min: 0, max: 5 }, rolloutAfter: new Date('2026-12-01T02:00:00Z') } }).app);
    for (const o of objs.filter((x) => x.kind === 'MachineDeployment')) expect(crdViolations(o)).toEqual([]);
  });
});

describe('autoscaled remote pools', () => {
  const remote = (autoscaling: object) => () => remoteApp({ windows: { autoscaling: { capacity: { cpu: 4, memoryGiB: 16 }, ...autoscaling } as never } });

  test('a remote pool states its ephemeral disk (hosts report none); without it the template node has none', () => {
    const stated = only(synthObjects(remoteApp({ windows: { autoscaling: { min: 0, max: 2, capacity: { cpu: 4, memoryGiB: 16, ephemeralDiskGiB: 200 } } } }).app), 'MachineDeployment', 'edge-win');
    expect(stated.metadata.annotations[KEYS.ephemeralDisk]).toBe('200Gi');
    expect(hasRoom(nodeGroupOf(stated as never)!.template!, 'ephemeral-storage', 150 * 2 ** 30)).toBe(true);
    const unstated = only(synthObjects(remote({ min: 0, max: 2 })().app), 'MachineDeployment', 'edge-win');
    expect(unstated.metadata.annotations[KEYS.ephemeralDisk]).toBeUndefined();
  });

  test('a Windows remote pool reads as a Windows node group at zero, from its stated capacity', () => {
    const objs = synthObjects(remote({ min: 0, max: 2 })().app);
    const md = only(objs, 'MachineDeployment', 'edge-win');
    expect(md.spec.replicas).toBeUndefined();
    const group = nodeGroupOf(md as never)!;
    expect([group.min, group.max]).toEqual([0, 2]);
    expect(fits(group.template!, 'windows', [WINDOWS_TOLERATION])).toBe(true);
    expect(validateManifests(objs)).toEqual([]);
  });

  test('its max is capped at its hosts', () => {
    expect(synthError(remote({ min: 0, max: 3 }))).toMatch(/the cluster autoscaler may scale pool "edge-win" to 3 machines .* and it has 2 hosts/);
  });

  test('a patch that drops the capacity is refused on remote hosts, not on EC2, whose AWSMachineTemplate reports status.capacity (CAPA v2.11.1 controllers/awsmachinetemplate_controller.go)', () => {
    const dropCpu = (md: ApiObject) => md.addJsonPatch(JsonPatch.remove(`/metadata/annotations/${KEYS.cpu.replace('/', '~1')}`));
    expect(synthError(() => {
      const f = remote({ min: 0, max: 2 })();
      dropCpu(f.windows!.machineDeployments[0]);
      return f;
    })).toMatch(/a node group at zero needs capacity.cluster-autoscaler.kubernetes.io\/cpu and capacity.cluster-autoscaler.kubernetes.io\/memory \(its RemoteMachineTemplate reports no capacity\)/);
    expect(synthError(() => {
      const f = hybridCluster({ windows: { replicas: undefined, autoscaling: { min: 0, max: 4 } } });
      f.windows!.machineDeployments.forEach(dropCpu);
      return f;
    })).toBe('');
  });

  test('at zero it needs a stated capacity: RemoteMachine templates report none', () => {
    expect(() => remoteApp({ windows: { autoscaling: { min: 0, max: 2 } } })).toThrow(/autoscaling.min is 0 and the pool cannot tell what one machine offers/);
  });
});

// cluster-api v1.14.0 core/reconcilers/machinedeployment/mdutil/util.go (FindNewAndOldMachineSets): once
// spec.rollout.after has passed, MachineSets created before it are outdated and replaced.
describe('image policy: a lookup image with a rollout trigger', () => {
  test('rolloutAfter writes spec.rollout.after on every zone\'s MachineDeployment, beside a remote pool\'s strategy too', () => {
    const after = new Date('2026-12-01T02:00:00Z');
    const objs = synthObjects(hybridCluster({ windows: { rolloutAfter: after, ami: undefined } }).app);
    for (const name of ['prod-win-a', 'prod-win-b']) expect(only(objs, 'MachineDeployment', name).spec.rollout).toEqual({ after: '2026-12-01T02:00:00.000Z' });
    const remote = synthObjects(remoteApp({ windows: { rolloutAfter: after } }).app);
    expect(only(remote, 'MachineDeployment', 'edge-win').spec.rollout).toEqual({ after: '2026-12-01T02:00:00.000Z', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } });
    expect(() => hybridCluster({ windows: { rolloutAfter: new Date('no') } })).toThrow(/rolloutAfter: Invalid Date is not a valid Date/);
  });
});
