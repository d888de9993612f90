import { App } from 'cdk8s';
import { GKE_WINDOWS_NODE_TAINT, WindowsPlatform, validateManifests } from '../../src';
import { WINDOWS_NODE_TAINT } from '../../src/platform/windows';
import { tolerates } from '../../src/rules/pods/pod-template';
import { synthObjects } from '../support/synth';
import { WindowsAppChart } from '../../examples/windows-app/main';

/**
 * GKE taints every Windows Server node node.kubernetes.io/os=windows:NoSchedule itself (GKE docs
 * how-to/creating-a-cluster-windows), not the os=windows taint of the pools this library makes
 * elsewhere; the GKE pools write no taint of their own (test/gke/gke-stack.test.ts). A chart made
 * for WindowsPlatform.GKE tolerates it; the same chart made for no platform does not.
 */
function windowsPods(platform?: WindowsPlatform) {
  const app = new App();
  new WindowsAppChart(app, 'windows-app', { platform });
  const objects = synthObjects(app);
  const pods = objects.map((o) => ({ name: `${o.kind}/${o.metadata.name}`, spec: o.spec?.template?.spec })).filter((p) => p.spec !== undefined);
  return { objects, windows: pods.filter((p) => p.spec.os?.name === 'windows'), linux: pods.filter((p) => p.spec.os?.name !== 'windows') };
}

test('a WindowsWorkload chart made for GKE tolerates GKE\'s taint, and passes validateManifests with platform gke', () => {
  const { objects, windows, linux } = windowsPods(WindowsPlatform.GKE);
  expect(windows.length).toBeGreaterThan(0);
  for (const pod of windows) expect([pod.name, tolerates(pod.spec.tolerations, GKE_WINDOWS_NODE_TAINT)]).toEqual([pod.name, true]);
  for (const pod of linux) expect([pod.name, tolerates(pod.spec.tolerations, GKE_WINDOWS_NODE_TAINT)]).toEqual([pod.name, false]);
  expect(validateManifests(objects, { platform: WindowsPlatform.GKE })).toEqual([]);
});

test('the same chart made for no platform tolerates only this library\'s taint: its Windows pods would stay Pending on GKE', () => {
  const { windows } = windowsPods();
  expect(windows.length).toBeGreaterThan(0);
  for (const pod of windows) {
    expect([pod.name, tolerates(pod.spec.tolerations, GKE_WINDOWS_NODE_TAINT), tolerates(pod.spec.tolerations, WINDOWS_NODE_TAINT)]).toEqual([pod.name, false, true]);
  }
});
