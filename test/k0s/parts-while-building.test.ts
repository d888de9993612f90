import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ControlPlaneUpdateStrategy, K0sCluster, K0sClusterProps, WorkerPool, WorkerPoolProps } from '../../src';
import { K0S_LINUX_OS_PART } from '../../src/k0s/linux-pool';
import { REMOTE_INFRASTRUCTURE } from '../../src/platform/infrastructures';
import { RemoteMachines } from '../../src/remote/remote-machines';

/**
 * The k0s classes are parts on the Cluster API core, which calls the infrastructure parts while it
 * builds, before a subclass's constructor has run on: what the k0s classes say of themselves
 * (`k0sVersion`, `workerConfigTemplates`) is read from the core, so a part sees it then too.
 */

const seen: string[] = [];
const machines = () => new RemoteMachines({ hosts: [{ address: '10.0.0.11' }], sshKeySecret: 'ssh' }, { user: 'root' });

class ProbeCluster extends K0sCluster {
  public constructor(scope: Construct, id: string, props: K0sClusterProps) {
    super(scope, id, props, {
      infrastructure: REMOTE_INFRASTRUCTURE,
      defaultReplicas: 1,
      defaultUpdateStrategy: () => ControlPlaneUpdateStrategy.IN_PLACE,
      propsOfFields: {},
      controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 },
      infrastructureCluster: (cluster) => {
        seen.push(`cluster ${(cluster as K0sCluster).k0sVersion}`);
        return new ApiObject(cluster, 'RemoteCluster', { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'RemoteCluster', metadata: { name: cluster.clusterName } });
      },
      controlPlaneMachineTemplate: (cluster) => machines().machineTemplate(cluster, `${cluster.clusterName}-control-plane`),
    });
  }
}

class ProbePool extends WorkerPool {
  public constructor(cluster: ProbeCluster, id: string, props: WorkerPoolProps) {
    super(cluster, id, props, K0S_LINUX_OS_PART, {
      infrastructure: REMOTE_INFRASTRUCTURE,
      propsOfFields: {},
      machineTemplate: (pool) => {
        seen.push(`pool ${(pool as WorkerPool).k0sVersion}`);
        return machines().machineTemplate(pool, pool.baseName);
      },
    });
  }
}

test('the infrastructure parts read the cluster\'s and the pool\'s k0s versions while the core builds them', () => {
  const cluster = new ProbeCluster(new Chart(new App(), 'probe'), 'edge', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} });
  const pool = new ProbePool(cluster, 'linux', { k0sVersion: 'v1.33.8+k0s.0' });
  expect(seen).toEqual(['cluster v1.34.4+k0s.0', 'pool v1.33.8+k0s.0']);
  expect(pool.workerConfigTemplates).toEqual(pool.bootstrapConfigTemplates);
  expect(pool.workerConfigTemplates.map((t) => t.kind)).toEqual(['K0sWorkerConfigTemplate']);
  expect(cluster.workerPools).toEqual([pool]);
});
