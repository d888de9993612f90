import { App, Chart } from 'cdk8s';
import { RemoteHybridCluster, RemoteHybridClusterProps, RemoteLinuxWorkerPool, RemoteWindowsWorkerPool } from '../../src';
import { RemoteLinuxWorkerPoolProps } from '../../src/remote/remote-linux-worker-pool';
import { RemoteWindowsWorkerPoolProps } from '../../src/remote/remote-windows-worker-pool';

export const K0S = 'v1.34.4+k0s.0';

export function clusterProps(overrides: Partial<RemoteHybridClusterProps> = {}): RemoteHybridClusterProps {
  return {
    k0sVersion: K0S,
    controlPlaneEndpoint: { host: '10.0.0.10' },
    controlPlane: { hosts: [{ address: '10.0.0.11' }, { address: '10.0.0.12' }, { address: '10.0.0.13' }], sshKeySecret: 'linux-ssh-key' },
    ...overrides,
  };
}

/** A remote hybrid cluster with one Linux and one Windows pool; each part overridable. */
export function remoteApp(opts: {
  cluster?: Partial<RemoteHybridClusterProps>;
  linux?: Partial<RemoteLinuxWorkerPoolProps> | false;
  windows?: Partial<RemoteWindowsWorkerPoolProps> | false;
} = {}) {
  const app = new App();
  const chart = new Chart(app, 'remote');
  const cluster = new RemoteHybridCluster(chart, 'edge', clusterProps(opts.cluster));
  const linux = opts.linux === false ? undefined : new RemoteLinuxWorkerPool(cluster, 'linux', {
    hosts: [{ address: '10.0.1.11' }], sshKeySecret: 'linux-ssh-key', ...opts.linux,
  });
  const windows = opts.windows === false ? undefined : new RemoteWindowsWorkerPool(cluster, 'win', {
    hosts: [{ address: '10.0.2.11' }, { address: '10.0.2.12' }], sshKeySecret: 'windows-ssh-key', ...opts.windows,
  });
  return { app, chart, cluster, linux, windows };
}
