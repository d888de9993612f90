import { App, Chart } from 'cdk8s';
import { BUILT_IN_INFRASTRUCTURES, ClusterInfrastructure, HybridCluster, K0sInfrastructurePart, K0sOsPart, MachineImage, WindowsWorkerPool, windowsWorker, WorkerPlatform } from '../../src';

/**
 * Issue 31, one meaning per word: the k0s pool's OS part and the k0s cluster's infrastructure part
 * were renamed (`WorkerPlatform` → `K0sOsPart`, `ClusterInfrastructure` → `K0sInfrastructurePart`,
 * `windowsWorker().platform` → `.osPart`); the old names stay as deprecated aliases (CHANGELOG),
 * and a program written against them still compiles (`tsc -b`) and runs the same.
 */

/** True only when A and B are the same type: a program may pass either where the other is typed. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

test('the deprecated type names are the new types', () => {
  const osPart: Same<WorkerPlatform, K0sOsPart> = true;
  const infrastructurePart: Same<ClusterInfrastructure, K0sInfrastructurePart> = true;
  expect([osPart, infrastructurePart]).toEqual([true, true]);
});

test('windowsWorker() still hands out its OS part as `platform`, the same object as `osPart`', () => {
  const aws = BUILT_IN_INFRASTRUCTURES.find((i) => i.clusterKind === 'AWSCluster')!;
  const windows = windowsWorker('mgmt/c/win', aws, {});
  const old: WorkerPlatform = windows.platform;
  expect(old).toBe(windows.osPart);
  expect(old.os).toBe('windows');
  expect(old.bootstrap.provisioner?.platform).toBe('windows');
});

test('a pool built as before writes what the OS part says', () => {
  const cluster = new HybridCluster(new Chart(new App(), 'mgmt'), 'c', {
    region: 'eu-north-1', zones: ['eu-north-1a'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 't3.large', ami: MachineImage.id('ami-0fa91bc90632c73c9') },
  });
  const pool = new WindowsWorkerPool(cluster, 'win', { instanceType: 'm6i.xlarge' });
  const expected: WorkerPlatform = windowsWorker('mgmt/c/win', BUILT_IN_INFRASTRUCTURES.find((i) => i.clusterKind === 'AWSCluster')!, {}).osPart;
  const spec = pool.workerConfigTemplates[0].toJson().spec.template.spec;
  expect(spec.provisioner).toEqual(expected.bootstrap.provisioner);
  expect(spec.k0sInstallDir).toBe(expected.bootstrap.k0SInstallDir);
});
