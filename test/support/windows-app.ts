import { App } from 'cdk8s';
import { WindowsAppChart } from '../../examples/windows-app/main';
import { WindowsPlatform } from '../../src';
import { K8sObject, synthObjects } from './synth';

/** A node taint, `key=value:Effect`. */
export interface Taint { readonly key: string; readonly value: string; readonly effect: string }

/**
 * Kubernetes toleration matching, transcribed as the test's own oracle (k8s.io/api core/v1
 * toleration.go ToleratesTaint): an empty effect or key matches any, `Exists` any value.
 */
export function toleratesTaint(tolerations: ReadonlyArray<{ key?: string; operator?: string; value?: string; effect?: string }> | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => (t.effect === undefined || t.effect === taint.effect)
    && (t.key === undefined || t.key === taint.key)
    && (t.operator === 'Exists' || t.value === taint.value));
}

/** The windows-app example's objects and pod templates, split by the OS their pods name. */
export function windowsAppPods(platform?: WindowsPlatform): { objects: K8sObject[]; windows: Array<{ name: string; spec: K8sObject['spec'] }>; linux: Array<{ name: string; spec: K8sObject['spec'] }> } {
  const app = new App();
  new WindowsAppChart(app, 'windows-app', { platform });
  const objects = synthObjects(app);
  const pods = objects.map((o) => ({ name: `${o.kind}/${o.metadata.name}`, spec: o.spec?.template?.spec })).filter((p) => p.spec !== undefined);
  return { objects, windows: pods.filter((p) => p.spec.os?.name === 'windows'), linux: pods.filter((p) => p.spec.os?.name !== 'windows') };
}
