import { LABEL_OS } from '../../platform/windows';
import { OS_LABELS, osIntent } from './pod-template';
import { PodSpecViolation } from './validate-pod-spec';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * What a Windows pod needs on Amazon EKS beyond the Windows rules: its address. The VPC resource
 * controller's pod webhook adds the `vpc.amazonaws.com/PrivateIPv4Address` resource, for which
 * the controller hands the pod an address on its Windows node, only to pods whose `nodeSelector`
 * says `kubernetes.io/os` (or `beta.kubernetes.io/os`): `windows`, and skips host-network pods
 * (aws/amazon-vpc-resource-controller-k8s v1.7.19 webhooks/core/pod_webhook.go, `WhichPod`,
 * `hasWindowsNodeSelector`). A pod that reaches Windows nodes by node affinity or `spec.os` alone
 * is scheduled there without the resource and hangs in ContainerCreating. A RuntimeClass's
 * scheduling selector counts: RuntimeClass admission merges it into the pod's `nodeSelector`
 * before mutating webhooks run (kubernetes pkg/kubeapiserver/options/plugins.go,
 * `AllOrderedPlugins`; plugin/pkg/admission/runtimeclass). Paths are rooted at `spec`.
 * @internal
 */
export function eksPodIssues(spec: Json, runtimeClassOs: (name: string) => string | undefined = () => undefined): PodSpecViolation[] {
  const intent = osIntent(spec, runtimeClassOs);
  if (spec?.hostNetwork === true || intent.os !== 'windows') return [];
  const selector = spec?.nodeSelector ?? {};
  const runtimeClass = typeof spec?.runtimeClassName === 'string' ? runtimeClassOs(spec.runtimeClassName) : undefined;
  if (OS_LABELS.some((label) => selector?.[label] === 'windows') || runtimeClass === 'windows') return [];
  return [{
    path: `spec.nodeSelector.${LABEL_OS}`,
    message: `must be "windows" on EKS: the pod selects Windows nodes some other way (${intent.sources.join(', ')}), and the VPC resource controller gives an address only to pods whose nodeSelector names Windows, so it would hang in ContainerCreating; add nodeSelector ${LABEL_OS}: windows (WindowsPod does)`,
    fix: `set spec.nodeSelector.${LABEL_OS}: windows`,
  }];
}
