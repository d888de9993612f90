import { LABEL_OS, WINDOWS_NODE_TAINT, WINDOWS_ROOT_USER, isWindowsRootUser, taintArgument } from '../../platform/windows';
import { osIntent, tolerates } from './pod-template';
import { PodSpecViolation } from './validate-pod-spec';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * What a pod spec aimed at Windows nodes needs beyond API-server acceptance: to be scheduled there
 * (os, node selector, toleration of the Windows taint) and to run there (no hostPort, no
 * memory-backed emptyDir, no mount propagation, resource requests). Paths are rooted at `spec`,
 * like `validatePodSpec`; each message says how to fix it.
 */
export function windowsPodIssues(spec: Json): PodSpecViolation[] {
  const issues: PodSpecViolation[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });

  if (spec?.os?.name !== 'windows') {
    add('spec.os.name', `is ${JSON.stringify(spec?.os?.name)} on a pod that selects Windows nodes; set it to "windows" so the API server applies the Windows rules (WindowsPod does this)`);
  }
  // The pod's own selection, without spec.os (not a scheduling constraint) or RuntimeClass.
  const selection = osIntent({ nodeSelector: spec?.nodeSelector, affinity: spec?.affinity });
  if (selection.os !== 'windows') {
    add(`spec.nodeSelector.${LABEL_OS}`, 'must be "windows" (or a required node affinity on it): the pod itself has to select Windows nodes, RuntimeClass scheduling is not seen by the DaemonSet controller');
  }
  if (!tolerates(spec?.tolerations, WINDOWS_NODE_TAINT)) {
    add('spec.tolerations', `must tolerate the Windows node taint ${taintArgument(WINDOWS_NODE_TAINT)}, or the pod stays Pending`);
  }

  const hostProcess = isHostProcessPod(spec);
  if (spec?.hostNetwork === true && !hostProcess) {
    add('spec.hostNetwork', 'needs HostProcess containers on Windows (plain pods get host networking only behind the alpha WindowsHostNetwork kubelet gate); use a Service instead');
  }

  (spec?.volumes ?? []).forEach((v: Json, i: number) => {
    if (v?.emptyDir?.medium === 'Memory') {
      add(`spec.volumes[${i}].emptyDir.medium`, 'Windows cannot back an emptyDir with memory; drop the medium (disk-backed emptyDir works)');
    }
  });

  for (const field of ['initContainers', 'containers']) {
    (spec?.[field] ?? []).forEach((c: Json, i: number) => {
      const path = `spec.${field}[${i}]`;
      (c?.ports ?? []).forEach((p: Json, j: number) => {
        // A host-network pod's ports are the host's: the API server fills hostPort with
        // containerPort there (kubernetes pkg/apis/core/v1/defaults.go, SetDefaults_Pod), so an
        // equal hostPort is how such a pod (HostProcess on Windows) is written, not a port mapping.
        const hostNetworkPort = spec?.hostNetwork === true && p?.hostPort === p?.containerPort;
        if (p?.hostPort !== undefined && p?.hostPort !== null && !hostNetworkPort) {
          add(`${path}.ports[${j}].hostPort`, `Windows does not support hostPort (${p.hostPort}); expose the pod through a Service (NodePort or LoadBalancer)`);
        }
      });
      (c?.volumeMounts ?? []).forEach((m: Json, j: number) => {
        if (m?.mountPropagation && m.mountPropagation !== 'None') {
          add(`${path}.volumeMounts[${j}].mountPropagation`, `Windows does not support mount propagation (${m.mountPropagation}); remove it`);
        }
      });
      const requests = c?.resources?.requests;
      if (!requests || Object.keys(requests).length === 0) {
        add(`${path}.resources.requests`, 'must be set: Windows nodes reserve much of their capacity for the OS and do not overcommit memory gracefully; give cpu and memory requests');
      }
      const userName = c?.securityContext?.windowsOptions?.runAsUserName ?? spec?.securityContext?.windowsOptions?.runAsUserName;
      const nonRoot = c?.securityContext?.runAsNonRoot ?? spec?.securityContext?.runAsNonRoot;
      if (nonRoot === true && typeof userName === 'string' && isWindowsRootUser(userName)) {
        add(`${path}.securityContext.runAsNonRoot`, `is true while the container runs as ${userName}, which the kubelet treats as ${WINDOWS_ROOT_USER} (root, compared case-insensitively) and refuses; set runAsUserName to ContainerUser or drop runAsNonRoot`);
      }
    });
  }
  return issues;
}

/** Whether any container of the pod is a HostProcess container (validatePodSpec checks the all-or-nothing rule). */
export function isHostProcessPod(spec: Json): boolean {
  const pod = spec?.securityContext?.windowsOptions?.hostProcess;
  const containers = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((f) => spec?.[f] ?? []);
  return pod === true || containers.some((c: Json) => c?.securityContext?.windowsOptions?.hostProcess === true);
}

/**
 * What is wrong with a pod template's OS constraints: constraints that contradict each other; a
 * template that tolerates the Windows taint but selects no OS (it can land on a Windows node and
 * crash-loop); and, when it is aimed at Windows by its own selection, what it needs there
 * (`windowsPodIssues`). A template that reaches Windows only through its RuntimeClass is not held
 * to those: RuntimeClass admission adds the selection and tolerations. One decision for
 * `PodTemplatePolicy` and the `pod-template` manifest rule.
 */
export function podOsIssues(spec: Json, runtimeClassOs: (name: string) => string | undefined): PodSpecViolation[] {
  const intent = osIntent(spec, runtimeClassOs);
  switch (intent.os) {
    case 'conflicting':
      return [{ path: 'spec', message: `cannot be classified: ${intent.sources.join(', ')} leave no OS a node could have; make them agree` }];
    case 'open':
      return tolerates(spec?.tolerations, WINDOWS_NODE_TAINT) ? [{
        path: 'spec.nodeSelector',
        message: `tolerates the Windows node taint ${taintArgument(WINDOWS_NODE_TAINT)} but selects no OS, so it can land on a Windows node and crash-loop; add nodeSelector ${LABEL_OS}: linux or use HybridChart`,
      }] : [];
    case 'windows':
      return osIntent({ ...spec, runtimeClassName: undefined }).os !== 'open' ? windowsPodIssues(spec) : [];
    default:
      return [];
  }
}
