import { ApiObject } from 'cdk8s';
import { MachineDeploymentPool, WorkerInfrastructure } from '../capi/machine-deployment-pool';
import { WORKER_POOL_OPTIONS, WorkerPoolProps } from '../k0s/worker-pool';
import { judgedNumber, optional, PropEntry, text } from '../core/props-spec';
import { PropsOfFields } from '../rules/run/judge';
import { REMOTE_INFRASTRUCTURE } from '../platform/infrastructures';
import { REMOTE_ACCESS_OPTIONS, RemoteAccessProps, RemoteMachines, RemoteMachineSettings, Rollout } from './remote-machines';

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
 * The spec entries of `RemoteWorkerPoolProps`: every k0s pool's and its hosts'. That the machines
 * fit the hosts is the `remote-pools` rule's.
 * @internal
 */
export const REMOTE_WORKER_POOL_OPTIONS: { readonly [K in keyof RemoteWorkerPoolProps]-?: PropEntry } = {
  ...WORKER_POOL_OPTIONS,
  ...REMOTE_ACCESS_OPTIONS,
  replicas: optional(judgedNumber('remote-pools')),
};

/**
 * The kind of a remote pool's or controllers' `user` prop: an empty one is the `remote-hosts`
 * rule's, on the PooledRemoteMachines written.
 * @internal
 */
export const SSH_USER = text({ max: 256, form: 'an SSH user', example: 'root', judgedBy: 'remote-hosts' });

/**
 * The RemoteMachine part of a worker pool: a PooledRemoteMachine per host, the pool's
 * RemoteMachineTemplate, and a rollout that never needs a host beyond those listed.
 */
export class RemoteWorkerMachines implements WorkerInfrastructure {
  public readonly infrastructure = REMOTE_INFRASTRUCTURE;
  /** The hosts, checked. */
  public readonly machines: RemoteMachines;
  public readonly propsOfFields: PropsOfFields = { 'RemoteMachineTemplate spec.template.spec.pool': 'name' };

  /** @param props the pool's hosts and key, as its spec parsed them. */
  public constructor(props: RemoteAccessProps, settings: RemoteMachineSettings) {
    this.machines = new RemoteMachines(props, settings);
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
  return { ...props, replicas: props.replicas ?? (props.autoscaling !== undefined ? undefined : props.hosts.length) };
}
