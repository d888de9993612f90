import { App, Chart } from 'cdk8s';
import { parse } from 'yaml';
import { WindowsExporter, windowsPodIssues } from '../../src/workloads';
import { K8sObject, only, synthObjects } from '../support/synth';
import { WINDOWS_EXPORTER_0_31_CONFIG_KEYS } from './fixtures/windows-exporter-config-keys';

type KeyTree = { readonly [key: string]: true | KeyTree };

/** Paths of `config` that the key tree does not have: what windows_exporter would refuse. */
function unknownKeys(config: Record<string, unknown>, allowed: KeyTree, prefix = ''): string[] {
  return Object.entries(config).flatMap(([key, value]) => {
    const known = allowed[key];
    if (known === undefined) return [`${prefix}${key}`];
    return known !== true && value !== null && typeof value === 'object' ? unknownKeys(value as Record<string, unknown>, known, `${prefix}${key}.`) : [];
  });
}

describe('WindowsExporter runs on windows_exporter 0.31 (issue 8.1)', () => {
  const app = new App();
  new WindowsExporter(new Chart(app, 'monitoring'), 'exporter');
  const objects = synthObjects(app);
  const config = parse(only(objects, 'ConfigMap').data['config.yml']);
  const pod = only(objects, 'DaemonSet').spec.template.spec as K8sObject['spec'];

  test('its config has only keys the pinned release accepts', () => {
    expect(unknownKeys(config, WINDOWS_EXPORTER_0_31_CONFIG_KEYS)).toEqual([]);
    expect(config.collector.service).toEqual({ include: 'containerd|kubelet' });
  });

  test('the key check itself refuses the removed services-where', () => {
    expect(unknownKeys({ collector: { service: { 'services-where': "Name='kubelet'" } } }, WINDOWS_EXPORTER_0_31_CONFIG_KEYS))
      .toEqual(['collector.service.services-where']);
  });

  test('an init container opens 9182 in the Windows firewall, once', () => {
    // Upstream's manifest runs New-NetFirewallRule before the exporter (kubernetes/windows-exporter-daemonset.yaml, v0.31.8).
    const init = pod.initContainers;
    expect(init).toHaveLength(1);
    expect(init[0].command).toEqual(['powershell.exe']);
    const script = init[0].args.at(-1);
    expect(script).toContain('New-NetFirewallRule -DisplayName \'windows-exporter-9182\' -Direction Inbound');
    expect(script).toContain('-Protocol TCP -LocalPort 9182');
    expect(script).toMatch(/^if \(-not \(Get-NetFirewallRule -DisplayName 'windows-exporter-9182'/);
  });

  // The pod's effective request is max(largest init request, sum of app requests) (Kubernetes
  // docs content/en/docs/concepts/workloads/pods/init-containers.md, "Resource sharing within
  // containers"; kubernetes staging/src/k8s.io/component-helpers/resource/helpers.go,
  // AggregateContainerRequests: maxResourceList(reqs, initContainerReqs)).
  test('the one-shot firewall init container reserves nothing beyond the exporter\'s own requests (issue 17.13)', () => {
    const quantity = (q: string): number => {
      const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi)?$/.exec(q);
      if (!m) throw new Error(`quantity ${q}`);
      return Number(m[1]) * ({ m: 0.001, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }[m[2] ?? ''] ?? 1);
    };
    const request = (containers: Array<{ resources?: { requests?: Record<string, string> } }>, resource: string) =>
      containers.map((c) => quantity(c.resources?.requests?.[resource] ?? '0'));
    for (const resource of ['cpu', 'memory']) {
      const app = request(pod.containers, resource).reduce((a, b) => a + b, 0);
      const effective = Math.max(app, ...request(pod.initContainers, resource));
      expect({ resource, effective }).toEqual({ resource, effective: app });
    }
    expect(pod.containers[0].resources.requests).toEqual({ cpu: '100m', memory: '128Mi' });
  });

  // A DaemonSet pod without a priority cannot preempt on a full node (kubernetes
  // pkg/apis/scheduling/types.go SystemNodeCritical, created in every cluster). Issue 24 point 12.
  test('priorityClassName: system-node-critical by default, settable, \'\' for none', () => {
    expect(pod.priorityClassName).toBe('system-node-critical');
    const build = (priorityClassName: string) => {
      const a = new App();
      new WindowsExporter(new Chart(a, 'monitoring'), 'exporter', { priorityClassName });
      return only(synthObjects(a), 'DaemonSet').spec.template.spec;
    };
    expect(build('monitoring-high').priorityClassName).toBe('monitoring-high');
    expect(build('')).not.toHaveProperty('priorityClassName');
  });

  test('host process on the host network, config mounted in the sandbox', () => {
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext.windowsOptions.hostProcess).toBe(true);
    expect(pod.containers[0].args).toEqual(['--config.file=%CONTAINER_SANDBOX_MOUNT_POINT%/config.yml']);
  });
});

describe('hostPort on host-network Windows pods (issue 8.1)', () => {
  const pod = (hostNetwork: boolean, hostPort: number) => ({
    os: { name: 'windows' }, hostNetwork, nodeSelector: { 'kubernetes.io/os': 'windows' },
    tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
    containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 9182, hostPort }], resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
  });
  // The API server defaults hostPort to containerPort on host-network pods (kubernetes
  // pkg/apis/core/v1/defaults.go, SetDefaults_Pod), as upstream's exporter manifest writes it.
  test('equal to containerPort is accepted', () => {
    expect(windowsPodIssues(pod(true, 9182)).filter((i) => i.path.endsWith('hostPort'))).toEqual([]);
  });
  test('a different hostPort is still refused', () => {
    expect(windowsPodIssues(pod(true, 9183)).map((i) => i.path)).toContain('spec.containers[0].ports[0].hostPort');
  });
});
