import { K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform, K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType } from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { InstanceType } from '../platform/instance-type';
import { LABEL_OS } from '../platform/windows';
import { AwsMachines, AwsWorkerPoolProps } from './aws-machines';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage } from './machine-image';
import { WorkerPlatform, WorkerPool } from './worker-pool';

/**
 * A Linux worker's part of a pool, whatever its infrastructure: cloud-config, no taints, 10 minutes to become a node.
 * @internal
 */
export const LINUX_WORKER_PLATFORM: WorkerPlatform = {
  os: 'linux',
  bootstrap: { provisioner: { platform: Platform.LINUX, type: ProvisionerType.CLOUD_HYPHEN_CONFIG } },
  taints: [],
  nodeStartupTimeoutSeconds: 600,
  nodeReadyTimeoutSeconds: 300,
  nodeLabels: { [LABEL_OS]: 'linux' },
};

/** Props of `LinuxWorkerPool`: those of every pool on EC2. */
export interface LinuxWorkerPoolProps extends AwsWorkerPoolProps {}

/** Linux k0s workers on EC2: they run CoreDNS and every Linux workload of a hybrid cluster. */
export class LinuxWorkerPool extends WorkerPool {
  /** The EC2 instance type, parsed. */
  public readonly instanceType: InstanceType;

  public constructor(cluster: HybridCluster, id: string, props: LinuxWorkerPoolProps) {
    const image = props.ami ?? (cluster.infra ? MachineImage.id(cluster.infra.linuxAmiId) : MachineImage.ubuntu2404());
    const machines = new AwsMachines(cluster, id, props, 'linux', image);
    super(cluster, id, props, LINUX_WORKER_PLATFORM, machines);
    this.instanceType = machines.instanceType;
  }

  protected platformProblems(): string[] {
    return [];
  }
}
