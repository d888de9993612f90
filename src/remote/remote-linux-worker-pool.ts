import { K0S_LINUX_OS_PART } from '../k0s/linux-pool';
import { WorkerPool } from '../k0s/worker-pool';
import { REMOTE_MACHINE_DEFAULTS } from '../platform/remote';
import type { RemoteHybridCluster } from './remote-hybrid-cluster';
import { flag, optional, propsSpec } from '../core/props-spec';
import { MACHINE_DEPLOYMENT_POOL_EXCLUSIONS } from '../capi/machine-deployment-pool';
import { REMOTE_WORKER_POOL_OPTIONS, RemoteWorkerMachines, RemoteWorkerPoolProps, SSH_USER, withHostReplicas } from './remote-worker-pool';

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
 * The spec of `RemoteLinuxWorkerPoolProps`.
 * @internal
 */
export const REMOTE_LINUX_WORKER_POOL_PROPS = propsSpec<RemoteLinuxWorkerPoolProps>('RemoteLinuxWorkerPool', {
  ...REMOTE_WORKER_POOL_OPTIONS,
  user: optional(SSH_USER),
  useSudo: optional(flag()),
}, MACHINE_DEPLOYMENT_POOL_EXCLUSIONS);

/**
 * Linux k0s workers on listed hosts, reached over SSH: they run CoreDNS and every Linux workload
 * of a hybrid cluster. k0smotron's own cleanup (stop k0sworker, `k0s reset`) readies a host for
 * its next machine.
 */
export class RemoteLinuxWorkerPool extends WorkerPool {
  public constructor(cluster: RemoteHybridCluster, id: string, given: RemoteLinuxWorkerPoolProps) {
    // The pool does not exist yet: errors name the path it will have.
    const props = REMOTE_LINUX_WORKER_POOL_PROPS.parse(`${cluster.node.path}/${id}`, given);
    const machines = new RemoteWorkerMachines(props, {
      user: props.user ?? REMOTE_MACHINE_DEFAULTS.user,
      useSudo: props.useSudo,
    });
    super(cluster, id, withHostReplicas(props), K0S_LINUX_OS_PART, machines);
  }
}
