import { InstanceType } from '../platform/instance-type';
import { AWS_WORKER_POOL_OPTIONS, AwsMachines, AwsWorkerPoolProps } from './aws-machines';
import { propsSpec } from '../core/props-spec';
import { MACHINE_DEPLOYMENT_POOL_EXCLUSIONS } from '../capi/machine-deployment-pool';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage } from './machine-image';
import { WorkerPool } from '../k0s/worker-pool';
import { K0S_LINUX_OS_PART } from '../k0s/linux-pool';

/** Props of `LinuxWorkerPool`: those of every pool on EC2. */
export interface LinuxWorkerPoolProps extends AwsWorkerPoolProps {}

/**
 * The spec of `LinuxWorkerPoolProps`.
 * @internal
 */
export const LINUX_WORKER_POOL_PROPS = propsSpec<LinuxWorkerPoolProps>('LinuxWorkerPool', AWS_WORKER_POOL_OPTIONS, MACHINE_DEPLOYMENT_POOL_EXCLUSIONS);

/** Linux k0s workers on EC2: they run CoreDNS and every Linux workload of a hybrid cluster. */
export class LinuxWorkerPool extends WorkerPool {
  /** The EC2 instance type, parsed. */
  public readonly instanceType: InstanceType;

  public constructor(cluster: HybridCluster, id: string, given: LinuxWorkerPoolProps) {
    // The pool does not exist yet: errors name the path it will have.
    const props = LINUX_WORKER_POOL_PROPS.parse(`${cluster.node.path}/${id}`, given);
    const image = props.ami ?? (cluster.infra ? MachineImage.id(cluster.infra.linuxAmiId) : MachineImage.ubuntu2404());
    const machines = new AwsMachines(cluster, id, props, 'linux', image);
    super(cluster, id, props, K0S_LINUX_OS_PART, machines);
    this.instanceType = machines.instanceType;
  }
}
