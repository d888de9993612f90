import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import {
  BootstrapPart, BootstrapTemplate, CapiCluster, CapiClusterInfrastructure, CapiClusterProps, ControlPlanePart, HybridConfigError,
  MachineDeploymentPool, MachineDeploymentPoolProps, validateManifests, WindowsBootstrapFacts, windowsOs, WindowsPlatform, WindowsVersion, WindowsWorkerProps, WorkerOs, LABEL_HYPERV,
} from '../../src';
import { contentHash } from '../../src/core/hash';
import { RemoteMachines } from '../../src/remote/remote-machines';
import { RemoteWorkerMachines } from '../../src/remote/remote-worker-pool';
import { K8sObject, only, synthObjects } from '../support/synth';

/**
 * A third bootstrap (after k0smotron's, and kubeadm's to come), built from this file alone on the
 * Cluster API core: a control-plane part and a bootstrap part that write kinds of their own, over
 * the library's own remote-host infrastructure parts. No line of src/ knows them; the core writes
 * their Cluster, MachineDeployments, health checks, autoscaler annotations and fleet labels, and
 * judges the objects.
 */

/**
 * The version both parts write, in the form the bootstrap's MachineDeployments carry: k0s's, which
 * the rules take on a pool of any bootstrap (upstream's `v1.34.4` is taken there once they compare
 * versions by Kubernetes minor, issue 31 item 2).
 */
const VERSION = 'v1.34.4+k0s.0';
const ACCESS = { sshKeySecret: 'ssh' };

/** A control plane of a kind of its own. */
class FakeControlPlanePart implements ControlPlanePart {
  public readonly version = VERSION;
  public readonly propsOfFields = { 'Cluster spec.clusterNetwork.pods': 'fake.podCidr' };

  public constructor(public readonly network: { podCidr: string; serviceCidr: string }, private readonly infrastructure: CapiClusterInfrastructure) {}

  public controlPlane(cluster: CapiCluster, machineTemplate: ApiObject): ApiObject {
    return new ApiObject(cluster, 'FakeControlPlane', {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'FakeControlPlane',
      metadata: { name: cluster.clusterName },
      spec: {
        replicas: this.infrastructure.defaultReplicas,
        version: this.version,
        machineTemplate: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: machineTemplate.kind, name: machineTemplate.name } },
      },
    });
  }
}

/** The remote hosts' cluster objects (the library's RemoteMachine parts), with no k0s in them. */
function remoteClusterPart(): CapiClusterInfrastructure {
  const machines = new RemoteMachines({ ...ACCESS, hosts: [{ address: '10.0.0.11' }] }, { user: 'root' });
  // No declaration: the rules know the remote hosts' kinds (REMOTE_INFRASTRUCTURE) without one.
  return {
    defaultReplicas: 1,
    propsOfFields: {},
    controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 },
    infrastructureCluster: (cluster) => new ApiObject(cluster, 'RemoteCluster', {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'RemoteCluster', metadata: { name: cluster.clusterName }, spec: { controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 } },
    }),
    controlPlaneMachineTemplate: (cluster) => machines.machineTemplate(cluster, `${cluster.clusterName}-control-plane`),
  };
}

class FakeCluster extends CapiCluster {
  public constructor(scope: Construct, id: string, props: CapiClusterProps & { podCidr?: string }) {
    const infrastructure = remoteClusterPart();
    super(scope, id, props, new FakeControlPlanePart({ podCidr: props.podCidr ?? '10.244.0.0/16', serviceCidr: '10.96.0.0/12' }, infrastructure), infrastructure);
  }
}

const LINUX: WorkerOs = { os: 'linux', taints: [], nodeStartupTimeoutSeconds: 600, nodeReadyTimeoutSeconds: 300, nodeLabels: { 'kubernetes.io/os': 'linux' } };
/** The fake bootstrap's Windows facts: a taint and timeouts of its own, on the library's one Windows operating system part. */
const FAKE_WINDOWS: WindowsBootstrapFacts = {
  name: 'the fake bootstrap',
  taint: { key: 'fake.example.com/windows', value: 'true', effect: 'NoSchedule' },
  timeouts: { startupSeconds: 2400, readySeconds: 1200 },
};
const WINDOWS = windowsOs('fake/edge/win', WindowsPlatform.K0SMOTRON_REMOTE, {}, FAKE_WINDOWS).os;

/** A bootstrap of a kind of its own: its config template carries the node labels and taints as one argument each. */
class FakeBootstrap implements BootstrapPart {
  public readonly version = VERSION;
  public readonly labelArgument = 'the fake bootstrap\'s --node-labels';
  public readonly propsOfFields = { 'FakeConfigTemplate spec.template.spec.nodeLabels': 'labels' };
  public readonly os: WorkerOs['os'];
  public readonly taints: WorkerOs['taints'];
  public readonly nodeStartupTimeoutSeconds: number;
  public readonly nodeReadyTimeoutSeconds: number;
  public readonly nodeLabels: WorkerOs['nodeLabels'];
  public readonly windowsBuild?: string;
  public readonly kubeletRootDir: string;

  public constructor(os: WorkerOs) {
    ({ os: this.os, taints: this.taints, nodeStartupTimeoutSeconds: this.nodeStartupTimeoutSeconds, nodeReadyTimeoutSeconds: this.nodeReadyTimeoutSeconds, nodeLabels: this.nodeLabels, windowsBuild: this.windowsBuild } = os);
    this.kubeletRootDir = os.os === 'windows' ? 'C:\\var\\lib\\kubelet' : '/var/lib/kubelet';
  }

  public configTemplate(pool: MachineDeploymentPool, template: BootstrapTemplate): ApiObject {
    const spec = {
      nodeLabels: Object.entries(template.nodeLabels).map(([k, v]) => `${k}=${v}`).join(','),
      taints: this.taints.map((t) => `${t.key}=${t.value}:${t.effect}`).join(',') || undefined,
    };
    return new ApiObject(pool, `FakeConfigTemplate${template.domain ? `-${template.domain.suffix}` : ''}`, {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'FakeConfigTemplate',
      metadata: { name: `${template.name}-${contentHash(spec)}` },
      spec: { template: { spec } },
    });
  }
}

class FakePool extends MachineDeploymentPool {
  public constructor(cluster: FakeCluster, id: string, props: MachineDeploymentPoolProps, os: WorkerOs, address: string) {
    const machines = new RemoteWorkerMachines({ ...ACCESS, hosts: [{ address }, { address: `${address}0` }] }, { user: 'root' });
    super(cluster, id, props, new FakeBootstrap(os), machines);
  }
}

/** A cluster of the fake parts with two Linux pools (one autoscaled from zero), which the rules judge as they are today. */
function fakeApp(): { app: App; cluster: FakeCluster; linux: FakePool; workers: FakePool } {
  const app = new App();
  const cluster = new FakeCluster(new Chart(app, 'fake'), 'edge', {});
  const linux = new FakePool(cluster, 'linux', { autoscaling: { min: 0, max: 2, capacity: { cpu: 4, memoryGiB: 16 } } }, LINUX, '10.0.1.11');
  const workers = new FakePool(cluster, 'workers', { replicas: 2 }, LINUX, '10.0.2.11');
  return { app, cluster, linux, workers };
}

/**
 * The objects of a Windows pool of the fake bootstrap, without the app's validation: the rules'
 * answer on a Windows MachineDeployment of a bootstrap they cannot read is the pools view's
 * (issue 31, item 2: today they see a Linux pool and the fleet rule reports the Cluster's
 * Windows labels), not this seam's.
 */
function windowsObjects(): { objects: K8sObject[]; windows: FakePool } {
  const { app, cluster } = fakeApp();
  const windows = new FakePool(cluster, 'win', { replicas: 2 }, WINDOWS, '10.0.3.11');
  const objects = app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => o.toJson() as K8sObject);
  return { objects, windows };
}

describe('a third bootstrap and control plane, from their parts alone', () => {
  test('the core writes the Cluster around the control plane part, with its networks and no k0s object', () => {
    const objects = synthObjects(fakeApp().app);
    expect(objects.filter((o) => o.kind.startsWith('K0s'))).toEqual([]);
    const cluster = only(objects, 'Cluster');
    expect(cluster.spec.controlPlaneRef).toEqual({ apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'FakeControlPlane', name: 'edge' });
    expect(cluster.spec.clusterNetwork).toEqual({ pods: { cidrBlocks: ['10.244.0.0/16'] }, services: { cidrBlocks: ['10.96.0.0/12'] }, serviceDomain: 'cluster.local' });
    expect(cluster.spec.controlPlaneEndpoint).toEqual({ host: '10.0.0.10', port: 6443 });
    expect(only(objects, 'FakeControlPlane').spec.machineTemplate.infrastructureRef).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'RemoteMachineTemplate', name: expect.stringMatching(/^edge-control-plane-[0-9a-f]{8}$/),
    });
  });

  test('each MachineDeployment names its bootstrap\'s config template and writes the bootstrap\'s version', () => {
    const { objects, windows } = windowsObjects();
    const md = only(objects, 'MachineDeployment', 'edge-win');
    const config = only(objects, 'FakeConfigTemplate', windows.bootstrapConfigTemplates[0].name);
    expect(md.spec.template.spec.version).toBe(VERSION);
    expect(md.spec.template.spec.bootstrap.configRef).toEqual({ apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'FakeConfigTemplate', name: config.metadata.name });
    // Named after its content as written, as the content-named-templates rule recomputes it.
    expect(config.metadata.name).toBe(`edge-win-${contentHash(config.spec.template.spec)}`);
    expect(config.spec.template.spec).toEqual({ nodeLabels: 'node.cluster.x-k8s.io/pool=win', taints: 'fake.example.com/windows=true:NoSchedule' });
    // The remote hosts' part still decides the rollout: two hosts, two machines, none to spare.
    expect(md.spec.rollout.strategy.rollingUpdate).toEqual({ maxSurge: 0, maxUnavailable: 1 });
    expect(windows.kubeletRootDir).toBe('C:\\var\\lib\\kubelet');
    expect(windows.version).toBe(VERSION);
    expect(windows.os).toBe('windows');
  });

  test('the bootstrap part\'s operating system sets the health check, the autoscaler\'s template node and the fleet labels', () => {
    const { objects } = windowsObjects();
    expect(only(objects, 'MachineHealthCheck', 'edge-win').spec.checks).toEqual({
      nodeStartupTimeoutSeconds: 2400,
      unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 1200 }, { type: 'Ready', status: 'Unknown', timeoutSeconds: 1200 }],
    });
    expect(only(objects, 'MachineHealthCheck', 'edge-linux').spec.checks.nodeStartupTimeoutSeconds).toBe(600);
    const annotations = only(objects, 'MachineDeployment', 'edge-linux').metadata.annotations;
    expect(annotations['capacity.cluster-autoscaler.kubernetes.io/labels']).toContain('kubernetes.io/os=linux');
    expect(only(objects, 'MachineDeployment', 'edge-win').metadata.labels).toEqual({ 'windows.cdk-hybrid-windows.io/build': '10.0.20348' });
    expect(only(objects, 'MachineDeployment', 'edge-linux').metadata.labels).toBeUndefined();
    expect(only(objects, 'Cluster').metadata.labels).toEqual(expect.objectContaining({ 'windows.cdk-hybrid-windows.io/builds': '10.0.20348' }));
  });

  test('the objects pass every rule', () => {
    expect(validateManifests(synthObjects(fakeApp().app)).map((v) => `${v.rule} ${v.kind}: ${v.what}`)).toEqual([]);
  });

  test('a label that would read as two once joined is refused in the bootstrap\'s own words', () => {
    const cluster = new FakeCluster(new Chart(new App(), 'fake'), 'edge', {});
    expect(() => new FakePool(cluster, 'linux', { labels: { tier: 'web,team=ops' } }, LINUX, '10.0.1.11'))
      .toThrow(/\[fake\/edge\/linux\] labels: .*, and joined into the fake bootstrap's --node-labels it would read as more than one label/);
  });

  test('the control plane part\'s props table names its prop when the rules refuse the Cluster the core wrote from it', () => {
    let error: HybridConfigError | undefined;
    try {
      new FakeCluster(new Chart(new App(), 'fake'), 'edge', { podCidr: '10.0.0.0/33' });
    } catch (e) {
      error = e as HybridConfigError;
    }
    expect(error?.message).toMatch(/^\[fake\/edge\] fake\.podCidr: Cluster edge: pod CIDR: /);
  });

  test('the Windows release check speaks of the bootstrap whose support it judges', () => {
    expect(() => windowsOs('fake/edge/win', WindowsPlatform.K0SMOTRON_REMOTE, { windowsVersion: WindowsVersion.SERVER_2025 }, FAKE_WINDOWS))
      .toThrow(/^\[fake\/edge\/win\] Windows Server 2025 is not supported by the fake bootstrap \(/);
    const props: MachineDeploymentPoolProps & WindowsWorkerProps = { windowsVersion: WindowsVersion.SERVER_2025, acknowledgeUnsupportedWindowsVersion: true, hyperV: true };
    expect(windowsOs('fake/edge/win', WindowsPlatform.K0SMOTRON_REMOTE, props, FAKE_WINDOWS).props.labels).toEqual({ [LABEL_HYPERV]: 'true' });
  });
});
