import { K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform, K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType } from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage } from './machine-image';
import { WorkerPool, WorkerPoolProps } from './worker-pool';

/** Props of `LinuxWorkerPool`: those of every pool. */
export interface LinuxWorkerPoolProps extends WorkerPoolProps {}

/** Linux k0s workers: they run CoreDNS and every Linux workload of a hybrid cluster. */
export class LinuxWorkerPool extends WorkerPool {
  public constructor(cluster: HybridCluster, id: string, props: LinuxWorkerPoolProps) {
    super(cluster, id, props, {
      os: 'linux',
      image: props.ami ?? (cluster.infra ? MachineImage.id(cluster.infra.linuxAmiId) : MachineImage.ubuntu2404()),
      bootstrap: { provisioner: { platform: Platform.LINUX, type: ProvisionerType.CLOUD_HYPHEN_CONFIG } },
      taints: [],
      nodeStartupTimeoutSeconds: 600,
      nodeReadyTimeoutSeconds: 300,
    });
  }

  protected platformProblems(): string[] {
    return [];
  }
}
