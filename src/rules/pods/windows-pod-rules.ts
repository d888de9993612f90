import { NodeTaint, WINDOWS_NODE_TAINTS, WINDOWS_SUPPORT, WindowsPlatform, runsWindowsNodes } from '../../platform/support';
import { HOST_PROCESS_USER_FIX, LABEL_OS, WINDOWS_ROOT_USER, hostProcessUserProblem, isWindowsRootUser, taintArgument } from '../../platform/windows';
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
  /**
   * The taint the cluster's Windows nodes carry (`windowsNodeTaint` of the platform): a Windows
   * pod must tolerate it. AKS taints nothing and GKE taints with its own key, so without a
   * platform no toleration is required.
   * @default - none required
   */
  readonly windowsTaint?: NodeTaint;
}

/**
 * What a pod spec aimed at Windows nodes needs beyond API-server acceptance: to be scheduled there
 * (a Windows node selector and, where the platform taints Windows nodes, a toleration of that
 * taint, its own or its RuntimeClass's)
 * and to run there (no hostPort, no memory-backed emptyDir, no mount propagation, no root user
 * under runAsNonRoot). Paths are rooted at `spec`, like `validatePodSpec`; each message says how to
 * fix it. What is recommended but not required is `windowsPodAdvice`.
 * @internal
 */
export function windowsPodIssues(spec: Json, context: PodTemplateContext = {}): PodSpecViolation[] {
  const issues: PodSpecViolation[] = [];
  const add = (rule: string, path: string, message: string, fix: string) => issues.push({ path, message, fix, rule });

  // The pod's own selection, without spec.os (not a scheduling constraint) or RuntimeClass.
  const selection = osIntent({ nodeSelector: spec?.nodeSelector, affinity: spec?.affinity });
  const runtimeClass = typeof spec?.runtimeClassName === 'string' ? spec.runtimeClassName : undefined;
  const daemonSet = context.kind === 'DaemonSet';
  const classSelectsWindows = runtimeClass !== undefined && context.runtimeClassOs?.(runtimeClass) === 'windows';
  if (selection.os !== 'windows' && !(classSelectsWindows && !daemonSet)) {
    add('windows-node-selector', `spec.nodeSelector.${LABEL_OS}`, daemonSet && classSelectsWindows
      ? 'must be "windows" (or a required node affinity on it): the DaemonSet controller places its pods by the template\'s own selector, not its RuntimeClass\'s'
      : 'must be "windows" (or a required node affinity on it, or a RuntimeClass whose scheduling selects Windows), or the pod can land on a Linux node',
    `set spec.nodeSelector.${LABEL_OS}: windows`);
  }
  const classTolerations = runtimeClass !== undefined && !daemonSet ? context.runtimeClassTolerations?.(runtimeClass) ?? [] : [];
  const taint = context.windowsTaint;
  if (taint !== undefined && !tolerates([...list(spec?.tolerations), ...classTolerations], taint)) {
    add('windows-toleration', 'spec.tolerations', `must tolerate the Windows node taint ${taintArgument(taint)}, or the pod stays Pending`,
      `add {key: ${taint.key}, ${taint.value === '' ? 'operator: Exists' : `operator: Equal, value: ${taint.value}`}, effect: ${taint.effect}} to spec.tolerations${runtimeClass !== undefined && !daemonSet ? ` (or to scheduling.tolerations of RuntimeClass ${runtimeClass})` : ''}`);
  }

  const hostProcess = isHostProcessPod(spec);
  if (spec?.hostNetwork === true && !hostProcess) {
    add('windows-host-network', 'spec.hostNetwork', 'needs HostProcess containers on Windows (plain pods get host networking only behind the alpha WindowsHostNetwork kubelet gate); use a Service instead',
      'remove spec.hostNetwork and reach the pod through a Service, or set spec.securityContext.windowsOptions.hostProcess: true for a HostProcess pod');
  }

  list(spec?.volumes).forEach((v: Json, i: number) => {
    if (v?.emptyDir?.medium === 'Memory') {
      add('windows-memory-emptydir', `spec.volumes[${i}].emptyDir.medium`, 'Windows cannot back an emptyDir with memory; drop the medium (disk-backed emptyDir works)',
        `remove spec.volumes[${i}].emptyDir.medium`);
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
          add('windows-host-port', `${path}.ports[${j}].hostPort`, `Windows does not support hostPort (${p.hostPort}); expose the pod through a Service (NodePort or LoadBalancer)`,
            `remove ${path}.ports[${j}].hostPort and add a Service of type NodePort or LoadBalancer for port ${p.containerPort}`);
        }
      });
      list(c?.volumeMounts).forEach((m: Json, j: number) => {
        if (m?.mountPropagation && m.mountPropagation !== 'None') {
          add('windows-mount-propagation', `${path}.volumeMounts[${j}].mountPropagation`, `Windows does not support mount propagation (${m.mountPropagation}); remove it`,
            `remove ${path}.volumeMounts[${j}].mountPropagation`);
        }
      });
      const userName = c?.securityContext?.windowsOptions?.runAsUserName ?? spec?.securityContext?.windowsOptions?.runAsUserName;
      const hostUser = hostProcess && typeof userName === 'string' && userName !== '' ? hostProcessUserProblem(userName) : undefined;
      if (hostUser) {
        const own = c?.securityContext?.windowsOptions?.runAsUserName !== undefined;
        const field = own ? `${path}.securityContext.windowsOptions.runAsUserName` : 'spec.securityContext.windowsOptions.runAsUserName';
        add('windows-host-process-user', field, `${hostUser}; ${HOST_PROCESS_USER_FIX}`, `set ${field}: NT AUTHORITY\\SYSTEM (or NT AUTHORITY\\LOCAL SERVICE, NT AUTHORITY\\NETWORK SERVICE, a local group of the host)`);
      }
      const nonRoot = c?.securityContext?.runAsNonRoot ?? spec?.securityContext?.runAsNonRoot;
      if (nonRoot === true && typeof userName === 'string' && isWindowsRootUser(userName)) {
        add('windows-run-as-non-root', `${path}.securityContext.runAsNonRoot`, `is true while the container runs as ${userName}, which the kubelet treats as ${WINDOWS_ROOT_USER} (root, compared case-insensitively) and refuses; set runAsUserName to ContainerUser or drop runAsNonRoot`,
          `set ${path}.securityContext.windowsOptions.runAsUserName: ContainerUser, or remove ${path}.securityContext.runAsNonRoot`);
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
    advice.push({ rule: 'windows-pod-os-name', path: 'spec.os.name', message: 'is not "windows": the API server applies its Windows pod rules only with it (WindowsPod sets it)', fix: 'set spec.os.name: windows' });
  }
  for (const field of ['initContainers', 'containers']) {
    list(spec?.[field]).forEach((c: Json, i: number) => {
      const requests = c?.resources?.requests;
      if (!requests || Object.keys(requests).length === 0) {
        advice.push({ rule: 'windows-requests', path: `spec.${field}[${i}].resources.requests`, message: 'are not set: Windows nodes reserve much of their capacity for the OS and do not overcommit memory gracefully; give cpu and memory requests', fix: `set cpu and memory under spec.${field}[${i}].resources.requests` });
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
          rule: 'pod-os-conflict',
          path: 'spec',
          message: `is a Windows pod (${windows.join(', ')}) that attracts Linux nodes (${linux.join(', ')}): no node is both, so it stays Pending; remove the Linux constraint (or run the workload on Linux without WindowsPod)`,
          fix: `remove the Linux constraint from spec (${linux.join(', ')}), or spec.os.name to run the workload on Linux`,
        }];
      }
      return [{ rule: 'pod-os-conflict', path: 'spec', message: `cannot be classified: ${intent.sources.join(', ')} leave no OS a node could have; make them agree`, fix: `make spec.os.name, spec.nodeSelector.${LABEL_OS}, the required node affinity on it and the RuntimeClass's scheduling name one OS` }];
    }
    case 'open': {
      // Without a known platform, any platform's Windows taint counts.
      const tolerated = (context.windowsTaint ? [context.windowsTaint] : WINDOWS_NODE_TAINTS).find((t) => tolerates(spec?.tolerations, t));
      return tolerated ? [{
        rule: 'pod-os-unselected',
        path: 'spec.nodeSelector',
        message: `tolerates the Windows node taint ${taintArgument(tolerated)} but selects no OS, so it can land on a Windows node and crash-loop; add nodeSelector ${LABEL_OS}: linux or use HybridChart`,
        fix: `set spec.nodeSelector.${LABEL_OS}: linux (or windows, for a Windows pod), or remove the toleration from spec.tolerations`,
      }] : [];
    }
    case 'windows':
      return windowsPodIssues(spec, { ...context, runtimeClassOs });
    default:
      return [];
  }
}

/**
 * A pod template aimed at Windows, for a platform that runs no Windows nodes (`runsWindowsNodes`:
 * no supported release in `WINDOWS_SUPPORT`, as on k3s): no node can take it, so it stays Pending,
 * whatever it tolerates. The finding sits on the field that aims it at Windows.
 * @internal
 */
export function noWindowsNodesIssues(spec: Json, platform: WindowsPlatform | undefined, runtimeClassOs: (name: string) => string | undefined): PodSpecViolation[] {
  if (platform === undefined || runsWindowsNodes(platform) || osIntent(spec, runtimeClassOs).os !== 'windows') return [];
  const runtimeClass = typeof spec?.runtimeClassName === 'string' ? spec.runtimeClassName : undefined;
  const terms = list(spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms);
  // Where the pod is aimed at Windows, the node selector first (what the scheduler reads most often).
  const aims = [
    ...OS_LABELS.filter((label) => spec?.nodeSelector?.[label] === 'windows').map((label) => `spec.nodeSelector.${label}`),
    ...(terms.some((t: Json) => list(t?.matchExpressions).some((e: Json) => OS_LABELS.includes(e?.key))) ? ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'] : []),
    ...(runtimeClass !== undefined && runtimeClassOs(runtimeClass) === 'windows' ? ['spec.runtimeClassName'] : []),
    ...(spec?.os?.name === 'windows' ? ['spec.os'] : []),
  ];
  const sources = [...new Set(Object.values(WINDOWS_SUPPORT[platform]).map((row) => row.source))].join('; ');
  const linux = `spec.nodeSelector.${LABEL_OS}`;
  // The affinity may hold other terms: only its OS expressions go.
  const remove = aims.filter((f) => f !== linux).map((f) => (f.startsWith('spec.affinity') ? `the OS expressions of ${f}` : f));
  return [{
    path: aims[0],
    message: `aims the pod at Windows nodes, and ${platform} runs none, so it is never scheduled; ${sources}`,
    fix: `deploy it to a platform that runs Windows nodes (${Object.values(WindowsPlatform).filter(runsWindowsNodes).join(', ')}), or run it on Linux: set ${linux}: linux${remove.length > 0 ? ` and remove ${remove.join(', ')}` : ''}`,
  }];
}

/** What a pod template aimed at Windows should have but need not (`windowsPodAdvice`); nothing for other templates. */
export function podOsAdvice(spec: Json, runtimeClassOs: (name: string) => string | undefined): PodSpecViolation[] {
  if (osIntent(spec, runtimeClassOs).os !== 'windows') return [];
  // A preferred node affinity for Linux on a Windows pod can never be met: likely a mistake.
  const prefersLinux = list(spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).some((p: Json) =>
    list(p?.preference?.matchExpressions).some((e: Json) => OS_LABELS.includes(e?.key) && e?.operator === 'In' && list(e?.values).includes('linux') && !list(e?.values).includes('windows')));
  return [
    ...(prefersLinux ? [{ rule: 'windows-prefers-linux', path: 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution', message: 'prefers Linux nodes, and the pod is a Windows pod that can run on Windows nodes only: the preference is never met; remove it' }] : []),
    ...windowsPodAdvice(spec),
  ];
}
