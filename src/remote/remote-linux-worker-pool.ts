import { LINUX_WORKER_PLATFORM } from '../k0s/linux-pool';
import { WorkerPool } from '../k0s/worker-pool';
import { REMOTE_MACHINE_DEFAULTS } from '../platform/remote';
import type { RemoteHybridCluster } from './remote-hybrid-cluster';
import { RemoteWorkerMachines, RemoteWorkerPoolProps, withHostReplicas } from './remote-worker-pool';

/** Props of `RemoteLinuxWorkerPool`. */
export interface RemoteLinuxWorkerPoolProps extends RemoteWorkerPoolProps {
  /**
   * SSH user.
   * @default 'root'
   */
  readonly user?: string;
  /**
   * Run commands through passwordless `sudo`: for a user other than root.
   * @default false
   */
  readonly useSudo?: boolean;
}

/**
 * Linux k0s workers on listed hosts, reached over SSH: they run CoreDNS and every Linux workload
 * of a hybrid cluster. k0smotron's own cleanup (stop k0sworker, `k0s reset`) readies a host for
 * its next machine.
 */
export class RemoteLinuxWorkerPool extends WorkerPool {
  public constructor(cluster: RemoteHybridCluster, id: string, props: RemoteLinuxWorkerPoolProps) {
    const machines = new RemoteWorkerMachines(`${cluster.node.path}/${id}`, props, {
      user: props.user ?? REMOTE_MACHINE_DEFAULTS.user,
      useSudo: props.useSudo,
    });
    super(cluster, id, withHostReplicas(props), LINUX_WORKER_PLATFORM, machines);
  }
}
