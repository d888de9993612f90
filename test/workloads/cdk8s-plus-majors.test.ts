import { App, Chart } from 'cdk8s';
import * as kplus28 from 'cdk8s-plus-28';
import * as kplus33 from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { LABEL_OS, WINDOWS_NODE_TAINT } from '../../src';
import { WindowsPod, WindowsWorkload, WindowsWorkloadKind, podTemplateOf, validatePodSpec } from '../../src/workloads';
import { only, synthObjects } from '../support/synth';

const IIS_2022 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const WINDOWS_TOLERATION = { key: WINDOWS_NODE_TAINT.key, operator: 'Equal', value: WINDOWS_NODE_TAINT.value, effect: WINDOWS_NODE_TAINT.effect };

function chart(): { app: App; chart: Chart } {
  const app = new App();
  return { app, chart: new Chart(app, 'test', { namespace: 'apps' }) };
}

describe.each([
  ['cdk8s-plus-33', kplus33],
  ['cdk8s-plus-28', kplus28 as unknown as typeof kplus33],
])('WindowsPod on a %s Deployment', (_major, kplus) => {
  test('gives a pod template the API server accepts on Windows nodes, with containers added later made Windows-safe', () => {
    const { app, chart: c } = chart();
    const deployment = new kplus.Deployment(c, 'web', { containers: [{ image: IIS_2022, portNumber: 80 }] });
    const windows = new WindowsPod(deployment);
    const sidecar = windows.addContainer({ name: 'logs', image: IIS_2022, portNumber: 9000 });
    expect(sidecar).toBeInstanceOf(kplus.Container); // the workload's own major
    const spec = only(synthObjects(app), 'Deployment').spec.template.spec;
    expect(validatePodSpec(spec)).toEqual([]);
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.nodeSelector[LABEL_OS]).toBe('windows');
    expect(spec.tolerations).toEqual([WINDOWS_TOLERATION]);
    // The Windows defaults reach the container added through WindowsPod.
    expect(spec.containers[1].startupProbe).toMatchObject({ failureThreshold: 30, periodSeconds: 10 });
    expect(spec.containers[1].resources.requests).toEqual({ cpu: '500m', memory: '512Mi' });
    // cdk8s-plus-33's default shareProcessNamespace: false is refused on Windows pods when set at all.
    expect(spec.shareProcessNamespace).toBeUndefined();
  });
});

describe('cdk8s-plus majors', () => {
  test('a shareProcessNamespace the user asked for is reported, not dropped', () => {
    const { app, chart: c } = chart();
    const d = new kplus33.Deployment(c, 'd', { containers: [{ image: IIS_2022 }], shareProcessNamespace: true });
    new WindowsPod(d);
    expect(() => synthObjects(app)).toThrow(/spec\.template\.spec\.shareProcessNamespace: Forbidden: cannot be set for a windows pod/);
  });

  test('an object of another major, or of no cdk8s-plus, is refused naming it', () => {
    const { chart: c } = chart();
    // What a cdk8s-plus-31 class carries (jsii's type information, inherited by subclasses).
    class Plus31Deployment extends kplus33.Deployment {}
    Object.defineProperty(Plus31Deployment, Symbol.for('jsii.rtti'), { value: { fqn: 'cdk8s-plus-31.Deployment', version: '2.5.0' } });
    const other = new Plus31Deployment(c, 'other', { containers: [{ image: IIS_2022 }] });
    expect(() => new WindowsPod(other)).toThrow("[test/other] the workload is a cdk8s-plus-31 object, and WindowsPod works with cdk8s-plus-33 and cdk8s-plus-28. Fix: create it with cdk8s-plus-33 (import * as kplus from 'cdk8s-plus-33'), the major cdk8s init installs.");
    const plain = Object.assign(new Construct(c, 'plain'), { containers: [], initContainers: [], addContainer: () => undefined, addInitContainer: () => undefined, scheduling: { tolerate: () => undefined } });
    expect(() => new WindowsPod(plain)).toThrow('[test/plain] Construct is not a cdk8s-plus object. Fix: pass a Pod, Deployment, StatefulSet, DaemonSet, Job or CronJob of cdk8s-plus-33.');
  });

  test('WindowsWorkload builds cdk8s-plus-33 objects', () => {
    const { chart: c } = chart();
    expect(new WindowsWorkload(c, 'iis', { image: IIS_2022 }).workload).toBeInstanceOf(kplus33.Deployment);
  });

  test('a StatefulSet with volumes is refused: cdk8s-plus-33 would drop them (cdk8s-team/cdk8s-plus#6735)', () => {
    const { app, chart: c } = chart();
    const data = kplus33.Volume.fromEmptyDir(c, 'data', 'data');
    expect(() => new WindowsWorkload(c, 'db', { kind: WindowsWorkloadKind.STATEFUL_SET, image: IIS_2022, port: 1433, volumes: [data] }))
      .toThrow("[test/db] volumes on a StatefulSet: cdk8s-plus-33 drops a StatefulSet's pod volumes when it has no volumeClaimTemplates (cdk8s-team/cdk8s-plus#6735). Fix: use kind Deployment");
    // The same volume on a Deployment reaches the pod spec.
    new WindowsWorkload(c, 'web', { image: IIS_2022, port: 80, volumes: [data] });
    expect(podTemplateOf(only(synthObjects(app), 'Deployment'))!.spec.volumes).toEqual([{ name: 'data', emptyDir: {} }]);
  });
});
