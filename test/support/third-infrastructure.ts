import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import type * as Lib from '../../src';
import { K0sInfrastructurePart, ControlPlaneUpdateStrategy, K0sClusterProps, K0smotronInfrastructure, WindowsPlatform, WindowsWorkerProps, WorkerInfrastructure, WorkerPoolProps } from '../../src';
import { contentHash } from '../../src/core/hash';
import { K0S_LINUX_OS_PART } from '../../src/k0s/linux-pool';

/**
 * A third k0smotron infrastructure, built from this file alone: its infrastructure part (the
 * cluster object, the controllers' machine template, what it declares to the rules) and its pool
 * classes. No rule names it; the rules judge its Windows pool from its declaration.
 */
export const FAKE: K0smotronInfrastructure = {
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
export const GROUP = 'infrastructure.cluster.x-k8s.io/v1beta2';

/** A machine template named after its content, as the pools' templates are (the content-named-templates rule). */
function fakeTemplate(scope: Construct, id: string, name: string): ApiObject {
  const spec = { size: 'large' };
  return new ApiObject(scope, id, { apiVersion: GROUP, kind: FAKE.machineTemplateKind, metadata: { name: `${name}-${contentHash(spec)}` }, spec: { template: { spec } } });
}

/** The third infrastructure's constructs, on the library `lib` (the test's own, or one loaded apart). */
/** The kit's constructs: a cluster of the infrastructure (FAKE unless told), and an app of one cluster with its pools. */
export interface FakeKit {
  readonly FakeCluster: new (scope: Construct, id: string, props: K0sClusterProps, infrastructure?: K0smotronInfrastructure) => Lib.K0sCluster;
  fakeApp(linux?: boolean): App;
}

export function fakeKit(lib: typeof Lib): FakeKit {
  class FakeCluster extends lib.K0sCluster {
    public constructor(scope: Construct, id: string, props: K0sClusterProps, infrastructure: K0smotronInfrastructure = FAKE) {
      const part: K0sInfrastructurePart = {
        infrastructure,
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

  class FakeLinuxPool extends lib.WorkerPool {
    public constructor(cluster: FakeCluster, id: string, props: WorkerPoolProps) {
      super(cluster, id, props, K0S_LINUX_OS_PART, machines);
    }
  }

  class FakeWindowsPool extends lib.WorkerPool {
    public constructor(cluster: FakeCluster, id: string, props: WorkerPoolProps & WindowsWorkerProps) {
      const windows = lib.windowsWorker(`${cluster.node.path}/${id}`, FAKE, props);
      super(cluster, id, windows.props, windows.platform, machines);
    }
  }

  function fakeApp(linux = true): App {
    const app = new App();
    const cluster = new FakeCluster(new Chart(app, 'fake'), 'edge', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} });
    if (linux) new FakeLinuxPool(cluster, 'linux', { replicas: 1 });
    new FakeWindowsPool(cluster, 'win', { replicas: 2 });
    return app;
  }
  return { FakeCluster, fakeApp };
}
