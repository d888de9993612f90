import { ApiObject } from 'cdk8s';
import { MachineDeploymentPool, WorkerInfrastructure } from '../capi/machine-deployment-pool';
import { WorkerPoolProps } from '../k0s/worker-pool';
import { PropsOfFields } from '../rules/run/judge';
import { REMOTE_INFRASTRUCTURE } from '../platform/infrastructures';
import { RemoteAccessProps, RemoteMachines, RemoteMachineSettings, Rollout } from './remote-machines';

/** Props every remote pool has: those of every pool, and its hosts. */
export interface RemoteWorkerPoolProps extends WorkerPoolProps, RemoteAccessProps {
  /**
   * Number of machines: at most the number of hosts. With fewer, the spare hosts let a rollout
   * add a machine before it removes one.
   * @default - the number of hosts
   */
  readonly replicas?: number;
}

/**
 * The RemoteMachine part of a worker pool: a PooledRemoteMachine per host, the pool's
 * RemoteMachineTemplate, and a rollout that never needs a host beyond those listed.
 */
export class RemoteWorkerMachines implements WorkerInfrastructure {
  public readonly infrastructure = REMOTE_INFRASTRUCTURE;
  /** The hosts, checked. */
  public readonly machines: RemoteMachines;
  public readonly propsOfFields: PropsOfFields = { 'RemoteMachineTemplate spec.template.spec.pool': 'name' };

  /** @param path construct path the pool will have, for errors before it exists. */
  public constructor(path: string, props: RemoteAccessProps, settings: RemoteMachineSettings) {
    this.machines = new RemoteMachines(path, props, settings);
  }

  public machineTemplate(pool: MachineDeploymentPool): ApiObject {
    return this.machines.machineTemplate(pool, pool.baseName);
  }

  public rollout(replicas: number): Rollout {
    return this.machines.rollout(replicas);
  }
}

/** The pool props with replicas defaulted to the number of hosts. */
export function withHostReplicas<P extends RemoteWorkerPoolProps>(props: P): P {
  // An autoscaled pool has bounds instead (its max at most the hosts: the remote-pools rule).
  return { ...props, replicas: props.replicas ?? (props.autoscaling !== undefined || !Array.isArray(props.hosts) ? undefined : props.hosts.length) };
}
