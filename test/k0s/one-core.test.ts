import { App, Chart } from 'cdk8s';
import {
  HybridCluster, HybridClusterProps, HybridConfigError, LinuxWorkerPool, RemoteHybridCluster, RemoteHybridClusterProps,
  RemoteLinuxWorkerPool, RemoteWindowsWorkerPool, validateManifests, CLUSTER_RULES, WindowsVersion, WindowsWorkerPool, WindowsWorkerProps,
} from '../../src';
import { K0sClusterProps } from '../../src/k0s/k0s-cluster';
import { LINUX_AMI, WINDOWS_AMI } from '../cluster/fixture';

/**
 * `HybridCluster` (EC2) and `RemoteHybridCluster` (hosts over SSH) share one k0s core: the same bad
 * props of the core give both the same `HybridConfigError`, naming the same prop, and both Windows
 * pools the same release check.
 */

const CORE: K0sClusterProps = { k0sVersion: 'v1.34.10+k0s.0', controlPlane: {} };

function aws(props: Partial<K0sClusterProps>, windows?: WindowsWorkerProps): App {
  const app = new App();
  const cluster = new HybridCluster(new Chart(app, 'mgmt'), 'prod', {
    region: 'eu-north-1', sshKeyName: 'ops', zones: ['eu-north-1a'], ...CORE, ...props,
    controlPlane: { instanceType: 't3.large', ami: LINUX_AMI, ...props.controlPlane },
  } as HybridClusterProps);
  if (windows) {
    new LinuxWorkerPool(cluster, 'linux', { instanceType: 't3.large', ami: LINUX_AMI });
    new WindowsWorkerPool(cluster, 'win', { instanceType: 't3.xlarge', ami: WINDOWS_AMI, ...windows });
  }
  return app;
}

function remote(props: Partial<K0sClusterProps>, windows?: WindowsWorkerProps): App {
  const app = new App();
  const cluster = new RemoteHybridCluster(new Chart(app, 'mgmt'), 'prod', {
    controlPlaneEndpoint: { host: '10.0.0.10' }, ...CORE, ...props,
    controlPlane: { hosts: [{ address: '10.0.0.11' }, { address: '10.0.0.12' }, { address: '10.0.0.13' }], sshKeySecret: 'ssh', ...props.controlPlane },
  } as RemoteHybridClusterProps);
  if (windows) {
    new RemoteLinuxWorkerPool(cluster, 'linux', { hosts: [{ address: '10.0.1.11' }], sshKeySecret: 'ssh' });
    new RemoteWindowsWorkerPool(cluster, 'win', { hosts: [{ address: '10.0.2.11' }], sshKeySecret: 'ssh', ...windows });
  }
  return app;
}

/** The error a build throws: its class, construct path, the prop it names (its message's first words), its rule and its first line. */
function refusal(build: () => unknown): { error: string; path: string; rule?: string; line: string } {
  try {
    build();
  } catch (e) {
    const error = e as HybridConfigError;
    return { error: error.constructor.name, path: error.path, rule: error.rule, line: error.message.split('\n')[0] };
  }
  throw new Error('no error');
}

const CASES: ReadonlyArray<[string, Partial<K0sClusterProps>, RegExp]> = [
  ['network.provider', { network: { provider: 'flannel' as never } }, /^\[mgmt\/prod\] network\.provider: K0sControlPlane prod: k0s network provider "flannel" is none of k0s's/],
  ['network.calicoMode', { network: { calicoMode: 'bgp' as never } }, /^\[mgmt\/prod\] network\.calicoMode: "bgp" is not a CalicoMode/],
  ['network.podCidr', { network: { podCidr: '10.0.0.0/33' } }, /^\[mgmt\/prod\] network\.podCidr: Cluster prod: pod CIDR: /],
  ['network.serviceCidr', { network: { serviceCidr: '10.0.0.0/8' } }, /^\[mgmt\/prod\] network\.serviceCidr: Cluster prod: service CIDR 10\.0\.0\.0\/8 is larger than/],
  ['k0sVersion', { k0sVersion: '1.34' }, /^\[mgmt\/prod\] k0sVersion: K0sControlPlane prod: /],
  ['name', { name: 'Prod_1' }, /^\[mgmt\/prod\] name: Cluster Prod_1: Cluster name "Prod_1" /],
  ['controlPlane.replicas', { controlPlane: { replicas: 2 } }, /^\[mgmt\/prod\] controlPlane\.replicas: K0sControlPlane prod: control plane replicas 2 is not an odd number/],
  ['controlPlane.updateStrategy', { controlPlane: { updateStrategy: 'Rolling' as never } }, /^\[mgmt\/prod\] controlPlane\.updateStrategy: "Rolling" is not a ControlPlaneUpdateStrategy/],
  ['controlPlane.untaintedControllers', { controlPlane: { untaintedControllers: true } }, /^\[mgmt\/prod\] controlPlane\.untaintedControllers without enableWorker/],
];

describe('one k0s core for the EC2 and the remote cluster', () => {
  test.each(CASES)('%s: the same bad prop gives the same HybridConfigError naming it', (_prop, props, expected) => {
    const onAws = refusal(() => aws(props));
    const onRemote = refusal(() => remote(props));
    expect(onAws.error).toBe('HybridConfigError');
    expect(onAws.line).toMatch(expected);
    expect(onRemote).toEqual(onAws);
  });

  test.each([['2016'], ['Windows Server 2016']])('windowsVersion %j: both Windows pools refuse it naming the prop, no TypeError', (version) => {
    const onAws = refusal(() => aws({}, { windowsVersion: version as WindowsVersion }));
    const onRemote = refusal(() => remote({}, { windowsVersion: version as WindowsVersion }));
    expect(onAws).toEqual({ error: 'HybridConfigError', path: 'mgmt/prod/win', rule: undefined, line: expect.stringMatching(/^\[mgmt\/prod\/win\] windowsVersion: "[^"]+" is not a WindowsVersion\. Fix: use one of WindowsVersion\.SERVER_2019/) });
    expect(onRemote).toEqual(onAws);
  });

  test('Windows Server 2025: the one release check, against the matrix of each pool\'s platform', () => {
    const onAws = refusal(() => aws({}, { windowsVersion: WindowsVersion.SERVER_2025 }));
    const onRemote = refusal(() => remote({}, { windowsVersion: WindowsVersion.SERVER_2025 }));
    expect(onAws.line).toMatch(/^\[mgmt\/prod\/win\] Windows Server 2025 is not supported by k0s .*Fix: use WindowsVersion\.SERVER_2022, or set `acknowledgeUnsupportedWindowsVersion: true`/);
    expect(onRemote.line).toMatch(/^\[mgmt\/prod\/win\] Windows Server 2025 is not supported by k0s .*Fix: use WindowsVersion\.SERVER_2022, or set `acknowledgeUnsupportedWindowsVersion: true`/);
  });

  test('hyperV labels the nodes of either Windows pool for the Hyper-V RuntimeClass', () => {
    const labelsOf = (app: App) => app.charts.flatMap((c) => c.toJson())
      .filter((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('prod-win'))
      .map((o) => o.spec.template.spec.args.find((a: string) => a.startsWith('--labels=')));
    for (const build of [aws, remote]) {
      expect(labelsOf(build({}, { hyperV: true }))).toEqual([expect.stringContaining('node.cdk-hybrid-windows.io/hyperv=true')]);
      expect(labelsOf(build({}, {}))).toEqual([expect.not.stringContaining('hyperv')]);
    }
  });

  test('each construct\'s own objects, fed alone to the rules, pass', () => {
    for (const build of [aws, remote]) {
      const app = build({}, {});
      for (const chart of app.charts) {
        for (const construct of chart.node.findAll()) {
          const own = construct.node.children.filter((c) => 'toJson' in c && 'kind' in c).map((c) => ({ manifest: (c as unknown as { toJson(): never }).toJson() }));
          if (own.length === 0) continue;
          // Object rules judge an object beside what it references: alone, a pool's objects miss
          // their cluster, so only what an object shows on its own may be reported.
          const found = validateManifests(own, { rules: CLUSTER_RULES.filter((r) => r.scope === 'object') }).filter((v) => !/is not among the objects|names no Cluster among the objects/.test(v.message));
          expect([construct.node.path, found.map((v) => `${v.rule}: ${v.message}`)]).toEqual([construct.node.path, []]);
        }
      }
    }
  });
});
