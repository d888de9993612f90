import { K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform, K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType } from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { LABEL_OS } from '../platform/windows';
import type { WorkerPlatform } from './worker-pool';

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
