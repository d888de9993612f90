import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ApiObject, App, Chart, Cron, Include, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { GKE_WINDOWS_NODE_TAINT, LABEL_OS, WindowsPlatform, windowsNodeTaint } from '../../src';
import { WINDOWS_NODE_TAINT } from '../../src/platform/windows';
import { HybridChart, PodTemplatePolicy, WindowsWorkload, podTemplateOf } from '../../src/workloads';
import { K8sObject, only, synthObjects } from '../support/synth';

const container = { name: 'c', image: 'registry.example.com/app:1' };
const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [container] } };

/** One plain ApiObject of every pod-bearing kind, as a manifest from elsewhere would bring them. */
function plainObjects(chart: Chart) {
  const selector = { matchLabels: { app: 'x' } };
  new ApiObject(chart, 'deployment', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector, template } });
  new ApiObject(chart, 'statefulset', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { selector, serviceName: 's', template } });
  new ApiObject(chart, 'daemonset', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds' }, spec: { selector, template } });
  new ApiObject(chart, 'replicaset', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { selector, template } });
  // A Job's pods must end: the API server refuses its template without restartPolicy OnFailure or Never.
  const jobTemplate = { ...template, spec: { ...template.spec, restartPolicy: 'Never' } };
  new ApiObject(chart, 'job', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: jobTemplate } });
  new ApiObject(chart, 'cronjob', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'cj' }, spec: { schedule: '0 0 * * *', jobTemplate: { spec: { template: jobTemplate } } } });
  new ApiObject(chart, 'pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container] } });
  new ApiObject(chart, 'config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } });
}

const LINUX = { os: { name: 'linux' }, nodeSelector: { [LABEL_OS]: 'linux' } };

describe('HybridChart Linux pinning', () => {
  test('pins every pod template of plain ApiObjects, CronJobs at spec.jobTemplate.spec.template', () => {
    const app = new App();
    plainObjects(new HybridChart(app, 'hybrid'));
    const objects = synthObjects(app);
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'Pod']) {
      expect(podTemplateOf(only(objects, kind))!.spec).toMatchObject(LINUX);
    }
    expect(only(objects, 'CronJob').spec.jobTemplate.spec.template.spec).toMatchObject(LINUX);
    expect(only(objects, 'ConfigMap')).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } });
  });

  test('pins cdk8s-plus workloads created after the chart, and objects brought in with Include', () => {
    const dir = mkdtempSync(join(tmpdir(), 'include-'));
    const file = join(dir, 'app.yaml');
    writeFileSync(file, [
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: included}', 'spec:',
      '  selector: {matchLabels: {app: i}}', '  template:', '    metadata: {labels: {app: i}}',
      '    spec: {containers: [{name: c, image: nginx}]}', '---',
      'apiVersion: batch/v1', 'kind: CronJob', 'metadata: {name: included-cron}', 'spec:', '  schedule: "* * * * *"',
      '  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}', '',
    ].join('\n'));
    const app = new App();
    const chart = new HybridChart(app, 'hybrid');
    new Include(chart, 'manifest', { url: file });
    new kplus.CronJob(chart, 'cron', { schedule: Cron.daily(), containers: [{ image: 'busybox' }] });
    const objects = synthObjects(app);
    expect(only(objects, 'Deployment', 'included').spec.template.spec).toMatchObject(LINUX);
    expect(only(objects, 'CronJob', 'included-cron').spec.jobTemplate.spec.template.spec).toMatchObject(LINUX);
    const plusCron = objects.find((o) => o.kind === 'CronJob' && o.metadata.name !== 'included-cron')!;
    expect(plusCron.spec.jobTemplate.spec.template.spec).toMatchObject(LINUX);
  });

  test('keeps the other node selector labels, and an explicit Linux choice as it is', () => {
    const app = new App();
    const chart = new HybridChart(app, 'hybrid');
    new ApiObject(chart, 'gpu', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gpu' }, spec: { nodeSelector: { gpu: 'true' }, containers: [container] } });
    new ApiObject(chart, 'explicit', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'explicit' }, spec: { os: { name: 'linux' }, nodeSelector: { [LABEL_OS]: 'linux' }, containers: [container] } });
    const objects = synthObjects(app);
    expect(only(objects, 'Pod', 'gpu').spec.nodeSelector).toEqual({ gpu: 'true', [LABEL_OS]: 'linux' });
    expect(only(objects, 'Pod', 'explicit').spec).toEqual({ os: { name: 'linux' }, nodeSelector: { [LABEL_OS]: 'linux' }, containers: [container] });
  });

  test('leaves Windows workloads alone', () => {
    const app = new App();
    const chart = new HybridChart(app, 'hybrid');
    new WindowsWorkload(chart, 'iis', { image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' });
    const spec = only(synthObjects(app), 'Deployment').spec.template.spec;
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.nodeSelector[LABEL_OS]).toBe('windows');
  });

  const toleration = (t: { key: string; value: string; effect: string }) => ({ key: t.key, operator: 'Equal', value: t.value, effect: t.effect });
  const iisOn = (platform: WindowsPlatform) => {
    const app = new App();
    const chart = new HybridChart(app, 'hybrid', { platform });
    new WindowsWorkload(chart, 'iis', { image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' });
    return app;
  };

  // Every platform but k3s, which runs no Windows nodes (below). The library's own taint always: a
  // toleration of a taint a node lacks changes nothing (RKE2's Windows agents carry none unless
  // given one, and os=windows:NoSchedule is the usual hand-made one); GKE's beside it on GKE.
  test.each(Object.values(WindowsPlatform).filter((p) => p !== WindowsPlatform.K3S))('on %s, a WindowsWorkload tolerates the taint of the chart\'s platform and no other, and passes', (platform) => {
    const expected = platform === WindowsPlatform.GKE ? [WINDOWS_NODE_TAINT, GKE_WINDOWS_NODE_TAINT] : [WINDOWS_NODE_TAINT];
    expect(only(synthObjects(iisOn(platform)), 'Deployment').spec.template.spec.tolerations).toEqual(expected.map(toleration));
    const taint = windowsNodeTaint(platform);
    if (taint !== undefined) expect(expected).toContainEqual(taint);
  });

  test('on k3s, a WindowsWorkload is refused at synth: k3s runs no Windows nodes (windows-nodes), whatever it tolerates', () => {
    expect(() => synthObjects(iisOn(WindowsPlatform.K3S))).toThrow(/\(Deployment hybrid-iis-\w+\) spec\.template\.spec\.nodeSelector\.kubernetes\.io\/os: aims the pod at Windows nodes, and k3s runs none, so it is never scheduled; k3s publishes no Windows agent: k3s-io\/k3s#114/);
  });

  test('the chart\'s platform decides whether a Windows pod without a toleration is refused', () => {
    const build = (platform?: WindowsPlatform) => {
      const app = new App();
      const chart = new HybridChart(app, 'hybrid', { platform });
      new ApiObject(chart, 'winpod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'winpod' }, spec: { os: { name: 'windows' }, nodeSelector: { [LABEL_OS]: 'windows' }, containers: [container] } });
      return app;
    };
    expect(() => synthObjects(build())).not.toThrow();
    expect(() => synthObjects(build(WindowsPlatform.AKS))).toThrow(/spec\.tolerations: must tolerate the Windows node taint os=windows:NoSchedule/);
    expect(() => synthObjects(build(WindowsPlatform.GKE))).toThrow(/spec\.tolerations: must tolerate the Windows node taint node\.kubernetes\.io\/os=windows:NoSchedule/);
    // RKE2's Windows agents carry no taint; k3s has no Windows node to tolerate.
    expect(() => synthObjects(build(WindowsPlatform.RKE2))).not.toThrow();
    expect(() => synthObjects(build(WindowsPlatform.K3S))).toThrow(/spec\.nodeSelector\.kubernetes\.io\/os: aims the pod at Windows nodes, and k3s runs none/);
  });

  test('a template that selects Windows without being Windows-safe is reported, not re-pinned', () => {
    const app = new App();
    const chart = new HybridChart(app, 'hybrid', { platform: WindowsPlatform.K0SMOTRON_AWS });
    const winpod = new ApiObject(chart, 'winpod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'winpod' }, spec: { nodeSelector: { [LABEL_OS]: 'windows' }, containers: [container] } });
    expect(() => synthObjects(app)).toThrow(/\[hybrid\/PodTemplatePolicy\] hybrid\/winpod \(Pod winpod\) spec\.tolerations: must tolerate the Windows node taint/);
    expect(() => synthObjects(app)).toThrow(/hybrid\/winpod \(Pod winpod\) spec\.tolerations: must tolerate the Windows node taint/);
    // Not re-pinned: the manifest still asks for Windows, and only for Windows.
    expect(winpod.toJson().spec).toEqual({ nodeSelector: { [LABEL_OS]: 'windows' }, containers: [container] });
  });

  test('a complete hand-made Windows pod selecting nodes by required affinity is accepted and left alone', () => {
    const app = new App();
    const chart = new HybridChart(app, 'hybrid');
    const spec = {
      os: { name: 'windows' },
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: LABEL_OS, operator: 'In', values: ['windows'] }] }] } } },
      tolerations: [{ key: 'os', operator: 'Exists', effect: 'NoSchedule' }],
      containers: [{ ...container, resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
    };
    new ApiObject(chart, 'winpod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'winpod' }, spec });
    expect(only(synthObjects(app), 'Pod').spec).toEqual(spec);
  });

  test('contradicting os and node selector are reported', () => {
    const app = new App();
    const chart = new HybridChart(app, 'hybrid');
    new ApiObject(chart, 'mixed', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'mixed' }, spec: { os: { name: 'linux' }, nodeSelector: { [LABEL_OS]: 'windows' }, containers: [container] } });
    expect(() => synthObjects(app)).toThrow(/spec: cannot be classified: spec\.os\.name=linux, nodeSelector kubernetes\.io\/os=windows leave no OS a node could have/);
  });

  test('Testing.synth gets pinned manifests too', () => {
    const chart = new HybridChart(Testing.app(), 'hybrid');
    new kplus.Deployment(chart, 'web', { containers: [{ image: 'nginx' }] });
    const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment') as K8sObject;
    expect(deployment.spec.template.spec).toMatchObject(LINUX);
  });

  test('a plain chart is not pinned, but the policy can pin it', () => {
    const app = new App();
    const plain = new Chart(app, 'plain');
    new kplus.Deployment(plain, 'web', { containers: [{ image: 'nginx' }] });
    const pinned = new Chart(app, 'pinned');
    new kplus.Deployment(pinned, 'web', { containers: [{ image: 'nginx' }] });
    PodTemplatePolicy.of(pinned).pinLinux();
    const [plainDeployment, pinnedDeployment] = synthObjects(app).filter((o) => o.kind === 'Deployment');
    expect(plainDeployment.spec.template.spec.nodeSelector).toBeUndefined();
    expect(pinnedDeployment.spec.template.spec).toMatchObject(LINUX);
  });
});

describe('PodTemplatePolicy in a plain chart', () => {
  test('a Linux pod that tolerates every taint but is not pinned would drift onto Windows nodes: reported', () => {
    const app = new App();
    const chart = new Chart(app, 'plain');
    new WindowsWorkload(chart, 'iis', { image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' });
    new ApiObject(chart, 'agent', {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'x' } }, template: { ...template, spec: { ...template.spec, tolerations: [{ operator: 'Exists' }] } } },
    });
    expect(() => synthObjects(app)).toThrow(/plain\/agent \(DaemonSet agent\) spec\.template\.spec\.nodeSelector: tolerates the Windows node taint os=windows:NoSchedule but selects no OS/);
  });

  test('windowsOptions on a Linux pod is what the API server rejects', () => {
    const app = new App();
    const chart = new HybridChart(app, 'hybrid');
    new ApiObject(chart, 'odd', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'odd' },
      spec: { securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } }, containers: [container] },
    });
    expect(() => synthObjects(app)).toThrow(/\[hybrid\/PodTemplatePolicy\] hybrid\/odd \(Pod odd\) spec\.securityContext\.windowsOptions: Forbidden: windows options cannot be set for a linux pod\. Fix: remove spec\.securityContext\.windowsOptions \(windows options cannot be set for a linux pod\)\./);
  });
});
