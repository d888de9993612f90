import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import {
  ClusterInfrastructure, ControlPlaneUpdateStrategy, K0sCluster, K0sClusterProps, K0smotronInfrastructure, validateManifests,
  WindowsPlatform, WindowsWorkerProps, WorkerInfrastructure, WorkerPool, WorkerPoolProps, windowsWorker,
} from '../../src';
import { contentHash } from '../../src/core/hash';
import { LINUX_WORKER_PLATFORM } from '../../src/k0s/linux-pool';
import { K8sObject, synthObjects } from '../support/synth';

/**
 * A third k0smotron infrastructure, built from this file alone: its infrastructure part (the
 * cluster object, the controllers' machine template, what it declares to the rules) and its pool
 * classes. No rule names it; the rules judge its Windows pool from its declaration.
 */
const FAKE: K0smotronInfrastructure = {
  name: 'the fake cloud',
  platform: WindowsPlatform.K0SMOTRON_AWS,
  clusterKind: 'FakeCluster',
  machineTemplateKind: 'FakeMachineTemplate',
  // Neither AWS's (powershell-xml) nor the remote hosts' (cloud-config): the rules must read it from here.
  windowsProvisioner: 'powershell',
  windowsProvisionerReason: 'the fake cloud runs user data as a PowerShell script',
  kubeletPortOpenedBy: 'bootstrap',
  placement: { by: 'zones' },
};
const GROUP = 'infrastructure.cluster.x-k8s.io/v1beta2';

/** A machine template named after its content, as the pools' templates are (the content-named-templates rule). */
function fakeTemplate(scope: Construct, id: string, name: string): ApiObject {
  const spec = { size: 'large' };
  return new ApiObject(scope, id, { apiVersion: GROUP, kind: FAKE.machineTemplateKind, metadata: { name: `${name}-${contentHash(spec)}` }, spec: { template: { spec } } });
}

class FakeCluster extends K0sCluster {
  public constructor(scope: Construct, id: string, props: K0sClusterProps) {
    const part: ClusterInfrastructure = {
      infrastructure: FAKE,
      defaultReplicas: 1,
      defaultUpdateStrategy: () => ControlPlaneUpdateStrategy.RECREATE,
      propsOfFields: {},
      infrastructureCluster: (cluster) => new ApiObject(cluster, 'FakeCluster', { apiVersion: GROUP, kind: FAKE.clusterKind, metadata: { name: cluster.clusterName } }),
      controlPlaneMachineTemplate: (cluster) => fakeTemplate(cluster, 'FakeMachineTemplate', `${cluster.clusterName}-cp`),
    };
    super(scope, id, props, part);
  }
}

const machines: WorkerInfrastructure = {
  infrastructure: FAKE,
  propsOfFields: {},
  machineTemplate: (pool) => fakeTemplate(pool, 'FakeMachineTemplate', pool.baseName),
};

class FakeLinuxPool extends WorkerPool {
  public constructor(cluster: FakeCluster, id: string, props: WorkerPoolProps) {
    super(cluster, id, props, LINUX_WORKER_PLATFORM, machines);
  }

  protected platformProblems(): string[] {
    return [];
  }
}

class FakeWindowsPool extends WorkerPool {
  public constructor(cluster: FakeCluster, id: string, props: WorkerPoolProps & WindowsWorkerProps) {
    const windows = windowsWorker(`${cluster.node.path}/${id}`, FAKE, props);
    super(cluster, id, windows.props, windows.platform, machines);
  }

  protected platformProblems(): string[] {
    return [];
  }
}

function fakeApp(linux = true): { app: App; cluster: FakeCluster; windows: FakeWindowsPool } {
  const app = new App();
  const cluster = new FakeCluster(new Chart(app, 'fake'), 'edge', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} });
  if (linux) new FakeLinuxPool(cluster, 'linux', { replicas: 1 });
  const windows = new FakeWindowsPool(cluster, 'win', { replicas: 2 });
  return { app, cluster, windows };
}

/** The rule findings on the objects as written, as `rule Kind: what`. */
function findings(objects: K8sObject[]): string[] {
  return validateManifests(objects).map((v) => `${v.rule} ${v.kind}: ${v.what}`);
}

function patchedWindowsConfig(patch: (spec: Record<string, unknown>) => void): string[] {
  const objects = synthObjects(fakeApp().app);
  const config = objects.find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('edge-win'))!;
  patch(config.spec.template.spec);
  return findings(objects);
}

describe('a third k0smotron infrastructure, from its declaration alone', () => {
  test('its cluster and pools synthesize and pass every rule, with the provisioner and firewall rule it declares', () => {
    const objects = synthObjects(fakeApp().app);
    expect(findings(objects)).toEqual([]);
    const config = objects.find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('edge-win'))!;
    expect(config.spec.template.spec.provisioner).toEqual({ platform: 'windows', type: 'powershell' });
    expect(config.spec.template.spec.preK0sCommands).toEqual([expect.stringContaining('10250')]);
    expect(objects.find((o) => o.kind === 'Cluster')!.spec.infrastructureRef).toEqual({ apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'FakeCluster', name: 'edge' });
  });

  test('a Windows pool with another infrastructure\'s provisioner is refused, naming the one it declares', () => {
    expect(patchedWindowsConfig((spec) => (spec.provisioner = { platform: 'windows', type: 'powershell-xml' }))).toEqual([
      expect.stringMatching(/^windows-pool K0sWorkerConfigTemplate: .*Windows workers on the fake cloud need \{"platform":"windows","type":"powershell"\}: the fake cloud runs user data as a PowerShell script$/),
    ]);
  });

  test('a Windows pool whose bootstrap does not open the kubelet port is refused (its infrastructure says the bootstrap opens it)', () => {
    expect(patchedWindowsConfig((spec) => delete spec.preK0sCommands)).toEqual([
      expect.stringMatching(/^windows-pool K0sWorkerConfigTemplate: preK0sCommands open no inbound TCP 10250 in the Windows firewall/),
    ]);
  });

  test('a cluster whose only pool is Windows has no Linux worker for CoreDNS', () => {
    // The cluster's validation at synth reports it (a graph rule: it needs every pool of the cluster).
    expect(() => synthObjects(fakeApp(false).app)).toThrow(/\[fake\/edge\] Cluster edge: Windows pools \(edge-win\) need a Linux worker for CoreDNS/);
  });

  test('a pool\'s machine template of the infrastructure is followed: one that is not written is reported', () => {
    const objects = synthObjects(fakeApp().app).filter((o) => !(o.kind === 'FakeMachineTemplate' && o.metadata.name.startsWith('edge-win-')));
    expect(findings(objects)).toEqual([expect.stringMatching(/^machine-deployment MachineDeployment: infrastructureRef names FakeMachineTemplate "edge-win-[0-9a-f]{8}", which is not among the objects$/)]);
  });

  test('the engine refuses a second declaration for kinds already taken', () => {
    expect(() => new FakeCluster(new Chart(new App(), 'c'), 'x', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} })).not.toThrow();
    const impostor: K0smotronInfrastructure = { ...FAKE, name: 'an impostor' };
    const app = new App();
    class Impostor extends K0sCluster {
      public constructor(scope: Construct) {
        super(scope, 'i', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} }, {
          infrastructure: impostor, defaultReplicas: 1, defaultUpdateStrategy: () => ControlPlaneUpdateStrategy.RECREATE, propsOfFields: {},
          infrastructureCluster: (c) => new ApiObject(c, 'C', { apiVersion: GROUP, kind: FAKE.clusterKind, metadata: { name: 'i' } }),
          controlPlaneMachineTemplate: (c) => fakeTemplate(c, 'T', 'i-cp'),
        });
      }
    }
    expect(() => new Impostor(new Chart(app, 'c'))).toThrow('FakeMachineTemplate is already the kind of the the fake cloud infrastructure');
  });
});
