import { App } from 'cdk8s';
import { all, synthTf } from '../support/tf';
import { synthObjects } from '../support/synth';
import { WindowsAppChart } from '../../examples/windows-app/main';
import { hybridStack } from './fixture';

/** EKS spells taint effects in capitals (CreateNodegroup `taints[].effect`); Kubernetes in camel case. */
const KUBERNETES_EFFECT: Record<string, string> = { NO_SCHEDULE: 'NoSchedule', NO_EXECUTE: 'NoExecute', PREFER_NO_SCHEDULE: 'PreferNoSchedule' };

test('the windows-app workloads, unchanged, tolerate the taint of the EKS Windows node group and stay off it otherwise', () => {
  const tainted = all(synthTf(hybridStack().stack), 'aws_eks_node_group').find((g) => g.taint);
  expect(tainted).toBeDefined();
  const [taint] = tainted.taint;
  const nodeTaint = { key: taint.key, value: taint.value, effect: KUBERNETES_EFFECT[taint.effect] };
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
