import { InstanceType } from '../platform/instance-type';
import { AwsMachines, AwsWorkerPoolProps } from './aws-machines';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage, machineImageProp } from './machine-image';
import { WorkerPool } from '../k0s/worker-pool';
import { LINUX_WORKER_PLATFORM } from '../k0s/linux-pool';

/** Props of `LinuxWorkerPool`: those of every pool on EC2. */
export interface LinuxWorkerPoolProps extends AwsWorkerPoolProps {}

/** Linux k0s workers on EC2: they run CoreDNS and every Linux workload of a hybrid cluster. */
export class LinuxWorkerPool extends WorkerPool {
  /** The EC2 instance type, parsed. */
  public readonly instanceType: InstanceType;

  public constructor(cluster: HybridCluster, id: string, props: LinuxWorkerPoolProps) {
    const image = machineImageProp(`${cluster.node.path}/${id}`, 'ami', props.ami) ?? (cluster.infra ? MachineImage.id(cluster.infra.linuxAmiId) : MachineImage.ubuntu2404());
    const machines = new AwsMachines(cluster, id, props, 'linux', image);
    super(cluster, id, props, LINUX_WORKER_PLATFORM, machines);
    this.instanceType = machines.instanceType;
  }
}
