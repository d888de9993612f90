import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, App, Chart, Include } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { adviseManifests, HybridValidation, LABEL_OS, PluginValidationContext, validateManifests } from '../../src';
import { HybridChart, HyperVRuntimeClass, PodTemplatePolicy, validatePodSpec, WindowsWorkload } from '../../src/workloads';
import { only, synthObjects } from '../support/synth';

const container = { name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', resources: { requests: { cpu: '100m', memory: '64Mi' } } };
const calico = () => parseAllDocuments(readFileSync(join(__dirname, '..', 'fixtures', 'upstream', 'calico-windows-vxlan.yaml'), 'utf8')).map((d) => d.toJS());

describe('recommendations are advice, not errors (issue 18.11)', () => {
  test('Calico\'s Windows DaemonSet (no spec.os, no requests) is valid; its advice names what it lacks', () => {
    expect(validateManifests(calico())).toEqual([]);
    expect(adviseManifests(calico()).map((a) => a.field)).toEqual([
      'spec.template.spec.os.name',
      'spec.template.spec.initContainers[0].resources.requests',
      'spec.template.spec.containers[0].resources.requests',
      'spec.template.spec.containers[1].resources.requests',
    ]);
  });

  test('HybridChart synthesizes it and reports the advice through PodTemplatePolicy.advice()', () => {
    const app = new App();
    const chart = new HybridChart(app, 'apps');
    new Include(chart, 'calico', { url: join(__dirname, '..', 'fixtures', 'upstream', 'calico-windows-vxlan.yaml') });
    expect(only(synthObjects(app), 'DaemonSet').spec.template.spec.os).toBeUndefined();
    expect(PodTemplatePolicy.of(chart).advice()).toEqual(expect.arrayContaining([expect.stringMatching(/calico-node-windows\) spec\.template\.spec\.os\.name: is not "windows"/)]));
  });

  test('the plugin lists advice in its report and still succeeds', async () => {
    const added: string[] = [];
    let status = '';
    const context: PluginValidationContext = {
      manifests: ['calico.yaml'],
      parseManifest: () => calico(),
      report: { addViolation: (v) => added.push(v.ruleName), submit: (s) => { status = s; } },
    };
    await new HybridValidation().validate(context);
    expect(status).toBe('success');
    expect(added).toEqual(['windows-pod-os-name (advice)', ...Array(3).fill('windows-requests (advice)')]);
  });
});

describe('Windows pods selected through their RuntimeClass (issue 18.15)', () => {
  // RuntimeClass admission merges the class's scheduling into every pod that names it
  // (kubernetes plugin/pkg/admission/runtimeclass/admission.go); the DaemonSet controller places
  // its pods by the template alone (pkg/controller/daemon, NodeShouldRunDaemonPod).
  function appWith(kind: 'Deployment' | 'DaemonSet') {
    const app = new App();
    const chart = new HybridChart(app, 'apps');
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv');
    const template = { metadata: { labels: { a: 'b' } }, spec: { runtimeClassName: hyperV.name, os: { name: 'windows' }, containers: [container] } };
    new ApiObject(chart, 'w', { apiVersion: 'apps/v1', kind, metadata: { name: 'w' }, spec: { selector: { matchLabels: { a: 'b' } }, template } });
    return app;
  }

  test('a Deployment that selects Windows only through its RuntimeClass is accepted', () => {
    const spec = only(synthObjects(appWith('Deployment')), 'Deployment').spec.template.spec;
    expect(spec.nodeSelector).toBeUndefined();
  });

  test('a DaemonSet that does the same is reported: its controller does not see the class', () => {
    expect(() => synthObjects(appWith('DaemonSet'))).toThrow(/spec\.template\.spec\.nodeSelector\.kubernetes\.io\/os: must be "windows".*DaemonSet controller/);
  });
});

describe('hostPort 0 means unset (issue 18.15)', () => {
  test('a Windows pod with hostPort 0 is accepted', () => {
    const app = new App();
    const spec = { os: { name: 'windows' }, nodeSelector: { [LABEL_OS]: 'windows' }, tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], containers: [{ ...container, ports: [{ containerPort: 80, hostPort: 0 }] }] };
    new ApiObject(new HybridChart(app, 'apps'), 'p', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
    expect(only(synthObjects(app), 'Pod').spec.containers[0].ports).toEqual([{ containerPort: 80, hostPort: 0 }]);
  });
});

describe('cluster-scoped objects of a namespaced chart carry no namespace (issue 18.15)', () => {
  test('the Hyper-V RuntimeClass and the gMSA ClusterRole', () => {
    const app = new App();
    const chart = new Chart(app, 'apps', { namespace: 'web' });
    new HyperVRuntimeClass(chart, 'hyperv');
    new WindowsWorkload(chart, 'w', { image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', gmsaCredentialSpecName: 'webapp1' });
    const objects = synthObjects(app);
    expect(only(objects, 'RuntimeClass').metadata.namespace).toBeUndefined();
    expect(only(objects, 'ClusterRole').metadata.namespace).toBeUndefined();
    expect(only(objects, 'RoleBinding').metadata.namespace).toBe('web');
    expect(only(objects, 'Deployment').metadata.namespace).toBe('web');
  });

  test('an Include in a namespaced HybridChart: built-in and CRD-declared cluster-scoped kinds lose the chart\'s namespace', () => {
    const app = new App();
    const chart = new HybridChart(app, 'apps', { namespace: 'tools' });
    new ApiObject(chart, 'crd', {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', scope: 'Cluster', names: { kind: 'Widget', plural: 'widgets' }, versions: [] },
    });
    new ApiObject(chart, 'widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } });
    new ApiObject(chart, 'role', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' }, rules: [] });
    new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });
    const objects = synthObjects(app);
    for (const kind of ['ClusterRole', 'Widget', 'CustomResourceDefinition']) expect(only(objects, kind).metadata.namespace).toBeUndefined();
    expect(only(objects, 'ConfigMap').metadata.namespace).toBe('tools');
  });
});

describe('validatePodSpec says when it was given something else than a pod spec (issue 18.14)', () => {
  test.each([
    ['a Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec: { containers: [] } } } }, /is a Deployment manifest, not a pod spec; pass its spec\.template\.spec/],
    ['a pod template', { metadata: {}, spec: { containers: [] } }, /is a pod template/],
    ['a Deployment spec', { replicas: 1, template: { spec: { containers: [] } } }, /is a workload spec/],
  ])('%s', (_, value, message) => {
    expect(validatePodSpec(value)).toEqual([{ path: 'spec', message: expect.stringMatching(message) }]);
  });
});
