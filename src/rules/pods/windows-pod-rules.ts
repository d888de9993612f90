import { HOST_PROCESS_USER_FIX, LABEL_OS, WINDOWS_NODE_TAINT, WINDOWS_ROOT_USER, hostProcessUserProblem, isWindowsRootUser, taintArgument } from '../../platform/windows';
import { list } from '../engine/graph';
import { OS_LABELS, osIntent, tolerates } from './pod-template';
import { PodSpecViolation } from './validate-pod-spec';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Where a pod template is and what its RuntimeClass adds: RuntimeClass admission merges the class's
 * `scheduling.nodeSelector` and `tolerations` into every pod that names it, controller-made pods
 * included (kubernetes plugin/pkg/admission/runtimeclass/admission.go, v1.34).
 */
export interface PodTemplateContext {
  /**
   * Kind of the object that holds the template. The DaemonSet controller decides which nodes get
   * a pod from the template's own selector and tolerations, before admission adds the class's.
   * @default - any other controller or a Pod
   */
  readonly kind?: string;
  /**
   * The tolerations of a RuntimeClass's `scheduling`, by class name.
   * @default - none known
   */
  readonly runtimeClassTolerations?: (name: string) => Json[] | undefined;
  /**
   * The OS a RuntimeClass's `scheduling.nodeSelector` picks, by class name.
   * @default - none known
   */
  readonly runtimeClassOs?: (name: string) => string | undefined;
}

/**
 * What a pod spec aimed at Windows nodes needs beyond API-server acceptance: to be scheduled there
 * (a Windows node selector and a toleration of the Windows taint, its own or its RuntimeClass's)
 * and to run there (no hostPort, no memory-backed emptyDir, no mount propagation, no root user
 * under runAsNonRoot). Paths are rooted at `spec`, like `validatePodSpec`; each message says how to
 * fix it. What is recommended but not required is `windowsPodAdvice`.
 * @internal
 */
export function windowsPodIssues(spec: Json, context: PodTemplateContext = {}): PodSpecViolation[] {
  const issues: PodSpecViolation[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });

  // The pod's own selection, without spec.os (not a scheduling constraint) or RuntimeClass.
  const selection = osIntent({ nodeSelector: spec?.nodeSelector, affinity: spec?.affinity });
  const runtimeClass = typeof spec?.runtimeClassName === 'string' ? spec.runtimeClassName : undefined;
  const daemonSet = context.kind === 'DaemonSet';
  const classSelectsWindows = runtimeClass !== undefined && context.runtimeClassOs?.(runtimeClass) === 'windows';
  if (selection.os !== 'windows' && !(classSelectsWindows && !daemonSet)) {
    add(`spec.nodeSelector.${LABEL_OS}`, daemonSet && classSelectsWindows
      ? 'must be "windows" (or a required node affinity on it): the DaemonSet controller places its pods by the template\'s own selector, not its RuntimeClass\'s'
      : 'must be "windows" (or a required node affinity on it, or a RuntimeClass whose scheduling selects Windows), or the pod can land on a Linux node');
  }
  const classTolerations = runtimeClass !== undefined && !daemonSet ? context.runtimeClassTolerations?.(runtimeClass) ?? [] : [];
  if (!tolerates([...list(spec?.tolerations), ...classTolerations], WINDOWS_NODE_TAINT)) {
    add('spec.tolerations', `must tolerate the Windows node taint ${taintArgument(WINDOWS_NODE_TAINT)}, or the pod stays Pending`);
  }

  const hostProcess = isHostProcessPod(spec);
  if (spec?.hostNetwork === true && !hostProcess) {
    add('spec.hostNetwork', 'needs HostProcess containers on Windows (plain pods get host networking only behind the alpha WindowsHostNetwork kubelet gate); use a Service instead');
  }

  list(spec?.volumes).forEach((v: Json, i: number) => {
    if (v?.emptyDir?.medium === 'Memory') {
      add(`spec.volumes[${i}].emptyDir.medium`, 'Windows cannot back an emptyDir with memory; drop the medium (disk-backed emptyDir works)');
    }
  });

  for (const field of ['initContainers', 'containers']) {
    list(spec?.[field]).forEach((c: Json, i: number) => {
      const path = `spec.${field}[${i}]`;
      list(c?.ports).forEach((p: Json, j: number) => {
        // A host-network pod's ports are the host's: the API server fills hostPort with
        // containerPort there (kubernetes pkg/apis/core/v1/defaults.go, SetDefaults_Pod), so an
        // equal hostPort is how such a pod (HostProcess on Windows) is written, not a port mapping.
        // hostPort 0 is unset (the API server's own reading of it).
        const hostNetworkPort = spec?.hostNetwork === true && p?.hostPort === p?.containerPort;
        if (p?.hostPort !== undefined && p?.hostPort !== null && p?.hostPort !== 0 && !hostNetworkPort) {
          add(`${path}.ports[${j}].hostPort`, `Windows does not support hostPort (${p.hostPort}); expose the pod through a Service (NodePort or LoadBalancer)`);
        }
      });
      list(c?.volumeMounts).forEach((m: Json, j: number) => {
        if (m?.mountPropagation && m.mountPropagation !== 'None') {
          add(`${path}.volumeMounts[${j}].mountPropagation`, `Windows does not support mount propagation (${m.mountPropagation}); remove it`);
        }
      });
      const userName = c?.securityContext?.windowsOptions?.runAsUserName ?? spec?.securityContext?.windowsOptions?.runAsUserName;
      const hostUser = hostProcess && typeof userName === 'string' && userName !== '' ? hostProcessUserProblem(userName) : undefined;
      if (hostUser) {
        const own = c?.securityContext?.windowsOptions?.runAsUserName !== undefined;
        add(own ? `${path}.securityContext.windowsOptions.runAsUserName` : 'spec.securityContext.windowsOptions.runAsUserName', `${hostUser}; ${HOST_PROCESS_USER_FIX}`);
      }
      const nonRoot = c?.securityContext?.runAsNonRoot ?? spec?.securityContext?.runAsNonRoot;
      if (nonRoot === true && typeof userName === 'string' && isWindowsRootUser(userName)) {
        add(`${path}.securityContext.runAsNonRoot`, `is true while the container runs as ${userName}, which the kubelet treats as ${WINDOWS_ROOT_USER} (root, compared case-insensitively) and refuses; set runAsUserName to ContainerUser or drop runAsNonRoot`);
      }
    });
  }
  return issues;
}

/**
 * What a pod aimed at Windows nodes should have but the API server does not require: `spec.os.name:
 * windows`, which makes the API server apply its Windows rules (kubernetes
 * pkg/apis/core/validation/validation.go, validateWindows runs only then), and cpu and memory
 * requests on every container, since Windows nodes reserve much of their capacity for the OS.
 * Upstream manifests such as Calico's Windows DaemonSet set neither, so this is advice, never an error.
 */
export function windowsPodAdvice(spec: Json): PodSpecViolation[] {
  const advice: PodSpecViolation[] = [];
  if (spec?.os?.name !== 'windows') {
    advice.push({ path: 'spec.os.name', message: 'is not "windows": the API server applies its Windows pod rules only with it (WindowsPod sets it)' });
  }
  for (const field of ['initContainers', 'containers']) {
    list(spec?.[field]).forEach((c: Json, i: number) => {
      const requests = c?.resources?.requests;
      if (!requests || Object.keys(requests).length === 0) {
        advice.push({ path: `spec.${field}[${i}].resources.requests`, message: 'are not set: Windows nodes reserve much of their capacity for the OS and do not overcommit memory gracefully; give cpu and memory requests' });
      }
    });
  }
  return advice;
}

/**
 * Whether any container of the pod is a HostProcess container (validatePodSpec checks the all-or-nothing rule).
 * @internal
 */
export function isHostProcessPod(spec: Json): boolean {
  const pod = spec?.securityContext?.windowsOptions?.hostProcess;
  const containers = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((f) => list(spec?.[f]));
  return pod === true || containers.some((c: Json) => c?.securityContext?.windowsOptions?.hostProcess === true);
}

/**
 * What is wrong with a pod template's OS constraints: constraints that contradict each other; a
 * template that tolerates the Windows taint but selects no OS (it can land on a Windows node and
 * crash-loop); and, when it is aimed at Windows (by its own selection or its RuntimeClass's), what
 * it needs there (`windowsPodIssues`). One decision for `PodTemplatePolicy` and the `pod-template`
 * manifest rule; what is only recommended is `podOsAdvice`.
 * @internal
 */
export function podOsIssues(spec: Json, runtimeClassOs: (name: string) => string | undefined, context: PodTemplateContext = {}): PodSpecViolation[] {
  const intent = osIntent(spec, runtimeClassOs);
  switch (intent.os) {
    case 'conflicting': {
      // The usual case: a pod that says it is a Windows pod (spec.os.name, as WindowsPod writes it)
      // given a constraint that attracts Linux nodes. Name both sides.
      const only = (os: string) => intent.sources.filter((_, i) => intent.admits?.[i]?.length === 1 && intent.admits[i][0] === os);
      const [windows, linux] = [only('windows'), only('linux')];
      if (spec?.os?.name === 'windows' && linux.length > 0) {
        return [{
          path: 'spec',
          message: `is a Windows pod (${windows.join(', ')}) that attracts Linux nodes (${linux.join(', ')}): no node is both, so it stays Pending; remove the Linux constraint (or run the workload on Linux without WindowsPod)`,
        }];
      }
      return [{ path: 'spec', message: `cannot be classified: ${intent.sources.join(', ')} leave no OS a node could have; make them agree` }];
    }
    case 'open':
      return tolerates(spec?.tolerations, WINDOWS_NODE_TAINT) ? [{
        path: 'spec.nodeSelector',
        message: `tolerates the Windows node taint ${taintArgument(WINDOWS_NODE_TAINT)} but selects no OS, so it can land on a Windows node and crash-loop; add nodeSelector ${LABEL_OS}: linux or use HybridChart`,
      }] : [];
    case 'windows':
      return windowsPodIssues(spec, { ...context, runtimeClassOs });
    default:
      return [];
  }
}

/** What a pod template aimed at Windows should have but need not (`windowsPodAdvice`); nothing for other templates. */
export function podOsAdvice(spec: Json, runtimeClassOs: (name: string) => string | undefined): PodSpecViolation[] {
  if (osIntent(spec, runtimeClassOs).os !== 'windows') return [];
  // A preferred node affinity for Linux on a Windows pod can never be met: likely a mistake.
  const prefersLinux = list(spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).some((p: Json) =>
    list(p?.preference?.matchExpressions).some((e: Json) => OS_LABELS.includes(e?.key) && e?.operator === 'In' && list(e?.values).includes('linux') && !list(e?.values).includes('windows')));
  return [
    ...(prefersLinux ? [{ path: 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution', message: 'prefers Linux nodes, and the pod is a Windows pod that can run on Windows nodes only: the preference is never met; remove it' }] : []),
    ...windowsPodAdvice(spec),
  ];
}
