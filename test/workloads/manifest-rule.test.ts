import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { Manifest, adviseManifests, validateManifests } from '../../src';
import { synthObjects } from '../support/synth';
import { WindowsWorkload } from '../../src/workloads';

/** The pod-template rule makes the same OS decision on YAML from elsewhere as PodTemplatePolicy does in an app. */
describe('the pod-template manifest rule', () => {
  const daemonSet = (spec: object): Manifest => ({
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'fluent/fluent-bit:3.2' }], ...spec } } },
  });
  const messages = (m: Manifest) => validateManifests([m]).map((v) => `${v.rule}: ${v.message}`);

  test('a Linux DaemonSet that tolerates every taint and selects no OS lands on Windows nodes', () => {
    expect(messages(daemonSet({ tolerations: [{ operator: 'Exists' }] }))).toEqual([
      'pod-os-unselected: spec.template.spec.nodeSelector: tolerates the Windows node taint os=windows:NoSchedule but selects no OS, so it can land on a Windows node and crash-loop; add nodeSelector kubernetes.io/os: linux or use HybridChart. Fix: set spec.template.spec.nodeSelector.kubernetes.io/os: linux (or windows, for a Windows pod), or remove the toleration from spec.template.spec.tolerations.',
    ]);
    expect(messages(daemonSet({ tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/os': 'linux' } }))).toEqual([]);
    expect(messages(daemonSet({}))).toEqual([]); // the taint keeps it off Windows nodes
  });

  test('constraints that leave no OS', () => {
    expect(messages(daemonSet({ os: { name: 'linux' }, nodeSelector: { 'kubernetes.io/os': 'windows' } }))).toEqual([
      'pod-os-conflict: spec.template.spec: cannot be classified: spec.os.name=linux, nodeSelector kubernetes.io/os=windows leave no OS a node could have; make them agree. Fix: make spec.template.spec.os.name, spec.template.spec.nodeSelector.kubernetes.io/os, the required node affinity on it and the RuntimeClass\'s scheduling name one OS.',
    ]);
  });
});

// microsoft/hcsshim v0.15 internal/jobcontainers/logon.go (processToken): a local group of the host,
// or DOMAIN\user logged on with no password, which only NT AUTHORITY's service accounts allow
// (logon type SERVICE); otherwise "failed to logon user" and the container never starts.
describe('HostProcess runAsUserName: a host account or group (issue 24 point 10)', () => {
  const hostProcess = (user: string, where: 'pod' | 'container' = 'pod'): Manifest => ({
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          os: { name: 'windows' }, hostNetwork: true, nodeSelector: { 'kubernetes.io/os': 'windows' },
          tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
          securityContext: { windowsOptions: where === 'pod' ? { hostProcess: true, runAsUserName: user } : { hostProcess: true } },
          containers: [{ name: 'agent', image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
            ...(where === 'container' ? { securityContext: { windowsOptions: { runAsUserName: user } } } : {}) }],
        },
      },
    },
  });
  const problems = (m: Manifest) => validateManifests([m]).map((v) => `${v.field}: ${v.what}`);

  test.each([
    ['ContainerAdministrator', 'is an account of container images, not of the host'],
    ['containeruser', 'is an account of container images, not of the host'],
    ['CONTOSO\\svc-agent', 'only NT AUTHORITY\'s service accounts allow, so the HostProcess container fails with "failed to logon user"'],
    ['NT AUTHORITY\\IUSR', 'is not one of NT AUTHORITY\'s service accounts (SYSTEM, LOCAL SERVICE, NETWORK SERVICE)'],
  ])('%s is refused', (user, why) => {
    for (const where of ['pod', 'container'] as const) {
      const found = problems(hostProcess(user, where));
      expect(found).toEqual([expect.stringContaining(why)]);
      expect(found[0]).toMatch(where === 'pod' ? /^spec\.template\.spec\.securityContext\.windowsOptions\.runAsUserName: / : /^spec\.template\.spec\.containers\[0]\.securityContext\.windowsOptions\.runAsUserName: /);
    }
  });

  test.each(['NT AUTHORITY\\SYSTEM', 'nt authority\\system', 'NT AUTHORITY\\Local service', 'NT AUTHORITY\\NetworkService', 'NT AUTHORITY\\NETWORK SERVICE', 'Users', 'hpc-agents'])('%s passes', (user) => {
    expect(problems(hostProcess(user))).toEqual([]);
  });

  test('WindowsWorkload refuses it where the prop enters', () => {
    const app = new App();
    expect(() => new WindowsWorkload(new Chart(app, 'apps'), 'agent', { image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0', hostProcess: true, runAsUserName: 'ContainerUser' }))
      .toThrow(/^\[apps\/agent\/Default] runAsUserName: ContainerUser is an account of container images, not of the host/);
  });

  test('an ordinary Windows pod may still run as ContainerAdministrator', () => {
    const m = hostProcess('ContainerAdministrator') as { spec: { template: { spec: Record<string, unknown> } } };
    m.spec.template.spec.securityContext = { windowsOptions: { runAsUserName: 'ContainerAdministrator' } };
    delete m.spec.template.spec.hostNetwork;
    expect(problems(m as Manifest)).toEqual([]);
  });
});

// Issue 24 point 18: a Windows workload that attracts Linux nodes says so (the scheduler finds no
// node that is both; kubernetes pkg/scheduler/framework/plugins/nodeaffinity requires every term).
describe('a Windows workload that attracts Linux nodes', () => {
  const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
  test('a required Linux affinity is named beside what makes the pod Windows', () => {
    const app = new App();
    const w = new WindowsWorkload(new Chart(app, 'apps'), 'web', { image: IIS });
    (w.workload as kplus.Deployment).scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('kubernetes.io/os', 'linux')));
    expect(() => app.synth()).toThrow('spec.template.spec: is a Windows pod (spec.os.name=windows, nodeSelector kubernetes.io/os=windows) that attracts Linux nodes (required node affinity on the OS label): no node is both, so it stays Pending; remove the Linux constraint');
  });

  test('a preferred Linux affinity is advice: it is never met', () => {
    const app = new App();
    const chart = new Chart(app, 'apps');
    const w = new WindowsWorkload(chart, 'web', { image: IIS });
    (w.workload as kplus.Deployment).scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('kubernetes.io/os', 'linux')), { weight: 50 });
    const objects = synthObjects(app);
    expect(adviseManifests(objects).map((v) => v.what)).toContain('spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution: prefers Linux nodes, and the pod is a Windows pod that can run on Windows nodes only: the preference is never met; remove it');
  });
});
