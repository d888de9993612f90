import { GKE_WINDOWS_NODE_TAINT, WindowsPlatform, validateManifests } from '../../src';
import { WINDOWS_NODE_TAINT } from '../../src/platform/windows';
import { toleratesTaint, windowsAppPods } from '../support/windows-app';

/**
 * GKE taints every Windows Server node node.kubernetes.io/os=windows:NoSchedule itself (GKE docs
 * how-to/creating-a-cluster-windows), not the os=windows taint of the pools this library makes
 * elsewhere; the GKE pools write no taint of their own (test/gke/gke-stack.test.ts). A chart made
 * for WindowsPlatform.GKE tolerates it; the same chart made for no platform does not.
 */

test('a WindowsWorkload chart made for GKE tolerates GKE\'s taint, and passes validateManifests with platform gke', () => {
  const { objects, windows, linux } = windowsAppPods(WindowsPlatform.GKE);
  expect(windows.length).toBeGreaterThan(0);
  for (const pod of windows) expect([pod.name, toleratesTaint(pod.spec.tolerations, GKE_WINDOWS_NODE_TAINT)]).toEqual([pod.name, true]);
  for (const pod of linux) expect([pod.name, toleratesTaint(pod.spec.tolerations, GKE_WINDOWS_NODE_TAINT)]).toEqual([pod.name, false]);
  expect(validateManifests(objects, { platform: WindowsPlatform.GKE })).toEqual([]);
});

test('the same chart made for no platform tolerates only this library\'s taint: its Windows pods would stay Pending on GKE, and validation for gke says so', () => {
  const { objects, windows } = windowsAppPods();
  expect(windows.length).toBeGreaterThan(0);
  for (const pod of windows) {
    expect([pod.name, toleratesTaint(pod.spec.tolerations, GKE_WINDOWS_NODE_TAINT), toleratesTaint(pod.spec.tolerations, WINDOWS_NODE_TAINT)]).toEqual([pod.name, false, true]);
  }
  const onGke = validateManifests(objects, { platform: WindowsPlatform.GKE });
  // One finding per Windows pod template, each naming GKE's taint.
  expect(onGke.map((v) => `${v.kind}/${v.name}`).sort()).toEqual(windows.map((p) => p.name).sort());
  for (const v of onGke) expect(v.message).toContain('node.kubernetes.io/os=windows:NoSchedule');
});
