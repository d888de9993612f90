import { K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform, K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType } from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { LABEL_OS } from '../platform/windows';
import type { K0sOsPart } from './worker-pool';

/**
 * The OS part of a k0s Linux pool, whatever its infrastructure: cloud-config, no taints, 10 minutes to become a node.
 * @internal
 */
export const K0S_LINUX_OS_PART: K0sOsPart = {
  os: 'linux',
  bootstrap: { provisioner: { platform: Platform.LINUX, type: ProvisionerType.CLOUD_HYPHEN_CONFIG } },
  taints: [],
  nodeStartupTimeoutSeconds: 600,
  nodeReadyTimeoutSeconds: 300,
  nodeLabels: { [LABEL_OS]: 'linux' },
};
