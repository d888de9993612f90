import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ApiObject, App, Chart, Include } from 'cdk8s';
import { LABEL_OS, WindowsPlatform } from '../../src';
import { HybridChart, HyperVRuntimeClass, osIntent } from '../../src/workloads';
import { only, synthObjects } from '../support/synth';

const container = { name: 'c', image: 'registry.example.com/app:1', resources: { requests: { cpu: '100m', memory: '64Mi' } } };
const LINUX_PIN = { os: { name: 'linux' }, nodeSelector: { [LABEL_OS]: 'linux' } };
const affinity = (...expressions: object[]) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: expressions }] } } });

describe('a RuntimeClass\'s scheduling is the pod\'s OS intent (issue 8.6)', () => {
  // RuntimeClass admission merges the class's scheduling.nodeSelector into the pod and refuses a
  // pod whose own node selector conflicts with it (kubernetes plugin/pkg/admission/runtimeclass).
  test('a pod that targets Windows only through HyperVRuntimeClass is not pinned to Linux', () => {
    const app = new App();
    const chart = new HybridChart(app, 'apps');
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv');
    new ApiObject(chart, 'iis', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'iis' }, spec: { runtimeClassName: hyperV.name, containers: [container] } });
    const pod = only(synthObjects(app), 'Pod').spec;
    expect(pod.nodeSelector).toBeUndefined();
    expect(pod.os).toBeUndefined();
  });

  test('a RuntimeClass in another chart of the app counts (RuntimeClasses are cluster-scoped)', () => {
    const app = new App();
    const rc = new HyperVRuntimeClass(new Chart(app, 'cluster'), 'hyperv');
    new ApiObject(new HybridChart(app, 'apps'), 'iis', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'iis' }, spec: { runtimeClassName: rc.name, containers: [container] } });
    expect(only(synthObjects(app), 'Pod').spec.nodeSelector).toBeUndefined();
  });

  test('a pod whose RuntimeClass runs elsewhere than its own selection cannot be classified', () => {
    const app = new App();
    const chart = new HybridChart(app, 'apps');
    const rc = new HyperVRuntimeClass(chart, 'hyperv');
    new ApiObject(chart, 'p', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { runtimeClassName: rc.name, nodeSelector: { [LABEL_OS]: 'linux' }, containers: [container] } });
    expect(() => synthObjects(app)).toThrow(/cannot be classified: nodeSelector kubernetes.io\/os=linux, RuntimeClass windows-hyperv \(scheduling kubernetes.io\/os=windows\) leave no OS/);
  });
});

describe('Linux pinning covers everything, and only what it should (issue 8.10)', () => {
  test('objects of a plain chart nested in a HybridChart are pinned', () => {
    const app = new App();
    const nested = new Chart(new HybridChart(app, 'apps'), 'nested');
    new ApiObject(nested, 'p', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container] } });
    expect(only(synthObjects(app), 'Pod').spec).toMatchObject(LINUX_PIN);
  });

  test('items of an included v1 List are pinned', () => {
    const dir = mkdtempSync(join(tmpdir(), 'list-'));
    const file = join(dir, 'list.yaml');
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [container] } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { x: 'y' } },
    ] }));
    const app = new App();
    new Include(new HybridChart(app, 'apps'), 'list', { url: file });
    const list = only(synthObjects(app), 'List');
    expect(list.items[0].spec).toMatchObject(LINUX_PIN);
    expect(list.items[1]).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { x: 'y' } });
  });

  test('PodTemplates are pinned', () => {
    const app = new App();
    new ApiObject(new HybridChart(app, 'apps'), 't', { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't' }, template: { spec: { containers: [container] } } });
    expect(only(synthObjects(app), 'PodTemplate').template.spec).toMatchObject(LINUX_PIN);
  });

  test.each([
    ['beta.kubernetes.io/os: windows', 'windows', { nodeSelector: { 'beta.kubernetes.io/os': 'windows' } }],
    ['affinity In [windows]', 'windows', { affinity: affinity({ key: LABEL_OS, operator: 'In', values: ['windows'] }) }],
    ['affinity NotIn [linux]', 'windows', { affinity: affinity({ key: LABEL_OS, operator: 'NotIn', values: ['linux'] }) }],
    ['affinity In [linux, windows]', 'both', { affinity: affinity({ key: LABEL_OS, operator: 'In', values: ['linux', 'windows'] }) }],
    ['no selection', 'open', {}],
    ['os linux + selector windows', 'conflicting', { os: { name: 'linux' }, nodeSelector: { [LABEL_OS]: 'windows' } }],
  ])('%s reads as %s', (_, os, spec) => {
    expect(osIntent(spec).os).toBe(os);
  });

  test('a multi-OS template is left alone, neither pinned nor refused', () => {
    const app = new App();
    const spec = { affinity: affinity({ key: LABEL_OS, operator: 'In', values: ['linux', 'windows'] }), containers: [container] };
    new ApiObject(new HybridChart(app, 'apps'), 'p', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
    expect(only(synthObjects(app), 'Pod').spec).toEqual(spec);
  });

  test('Windows intent through NotIn [linux] is not pinned to Linux', () => {
    const app = new App();
    const spec = { affinity: affinity({ key: LABEL_OS, operator: 'NotIn', values: ['linux'] }), containers: [container] };
    new ApiObject(new HybridChart(app, 'apps', { platform: WindowsPlatform.GKE }), 'p', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
    // It is a Windows pod now, and reported for what Windows pods need (the toleration).
    expect(() => synthObjects(app)).toThrow(/spec\.tolerations: must tolerate the Windows node taint node\.kubernetes\.io\/os=windows:NoSchedule/);
  });
});
