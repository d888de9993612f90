import { App } from 'cdk8s';
import { WindowsPlatform, validateManifests } from '../../src';
import { PodTemplatePolicy } from '../../src/workloads';
import { all, synthTf } from '../support/tf';
import { synthObjects } from '../support/synth';
import { WindowsAppChart } from '../../examples/windows-app/main';
import { hybridAks } from './fixture';
import { toleratesTaint, windowsAppPods } from '../support/windows-app';

/** `key=value:Effect` as AKS writes node_taints. */
function parseTaint(text: string): { key: string; value: string; effect: string } {
  const [kv, effect] = text.split(':');
  const [key, value] = kv.split('=');
  return { key, value, effect };
}

test('the windows-app workloads, unchanged, tolerate the taint of the AKS Windows pool and stay off it otherwise', () => {
  const windowsPool = all(synthTf(hybridAks().stack), 'azurerm_kubernetes_cluster_node_pool').find((p) => p.os_type === 'Windows');
  expect(windowsPool.node_taints).toHaveLength(1);
  const nodeTaint = parseTaint(windowsPool.node_taints[0]);
  const { windows, linux } = windowsAppPods();
  expect(windows.length).toBeGreaterThan(0);
  expect(linux.length).toBeGreaterThan(0);
  for (const pod of windows) expect([pod.name, toleratesTaint(pod.spec.tolerations, nodeTaint)]).toEqual([pod.name, true]);
  for (const pod of linux) expect([pod.name, toleratesTaint(pod.spec.tolerations, nodeTaint)]).toEqual([pod.name, false]);
});

test('the windows-app workloads pass the rules for AKS', () => {
  const app = new App();
  const chart = new WindowsAppChart(app, 'windows-app');
  PodTemplatePolicy.of(chart).checkFor(WindowsPlatform.AKS);
  expect(validateManifests(synthObjects(app), { platform: WindowsPlatform.AKS })).toEqual([]);
});
