import { App } from 'cdk8s';
import { WindowsPlatform, validateManifests } from '../../src';
import { PodTemplatePolicy } from '../../src/workloads';
import { all, synthTf } from '../support/tf';
import { synthObjects } from '../support/synth';
import { WindowsAppChart } from '../../examples/windows-app/main';
import { hybridAks } from './fixture';

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
  // Kubernetes toleration matching (k8s.io/api core/v1 toleration.go ToleratesTaint).
  const tolerates = (t: { key?: string; operator?: string; value?: string; effect?: string }): boolean =>
    (t.effect === undefined || t.effect === nodeTaint.effect) &&
    (t.key === undefined || t.key === nodeTaint.key) &&
    (t.operator === 'Exists' || t.value === nodeTaint.value);

  const app = new App();
  new WindowsAppChart(app, 'windows-app');
  const pods = synthObjects(app)
    .map((o) => ({ name: `${o.kind}/${o.metadata.name}`, spec: o.spec?.template?.spec }))
    .filter((p) => p.spec !== undefined);
  const windows = pods.filter((p) => p.spec.os?.name === 'windows');
  const linux = pods.filter((p) => p.spec.os?.name !== 'windows');
  expect(windows.length).toBeGreaterThan(0);
  expect(linux.length).toBeGreaterThan(0);
  for (const pod of windows) expect([pod.name, (pod.spec.tolerations ?? []).some(tolerates)]).toEqual([pod.name, true]);
  for (const pod of linux) expect([pod.name, (pod.spec.tolerations ?? []).some(tolerates)]).toEqual([pod.name, false]);
});

test('the windows-app workloads pass the rules for AKS', () => {
  const app = new App();
  const chart = new WindowsAppChart(app, 'windows-app');
  PodTemplatePolicy.of(chart).checkFor(WindowsPlatform.AKS);
  expect(validateManifests(synthObjects(app), { platform: WindowsPlatform.AKS })).toEqual([]);
});
