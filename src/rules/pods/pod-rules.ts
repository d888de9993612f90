import { LABEL_OS } from '../../platform/windows';
import { Json, ManifestGraph, ManifestRule, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { PodTemplateLocation, manifestPath, podTemplatesOf } from './pod-template';
import { PodSpecViolation, podSpecFix, validatePodSpec } from './validate-pod-spec';
import { podOsAdvice, podOsIssues } from './windows-pod-rules';

/**
 * The pod template rules: one concern each, so that a suppression
 * (`ignore-rule.cdk-hybrid-windows.io/<rule>`, `skipRules`) of one, say a hostPort the team accepts,
 * leaves the others standing (a memory emptyDir in the same pod is still reported). One pass over
 * the templates per graph finds every concern's findings (`validatePodSpec`, `podOsIssues`,
 * `podOsAdvice`, each finding tagged with its rule); each rule reports its own. Pod templates
 * inside `v1 List` items count too. Inside a cdk8s app, `PodTemplatePolicy` runs the same rules.
 */
interface PodConcern {
  readonly name: string;
  readonly description: string;
  readonly source: string;
  /** Recommended, never required: reported as advice. */
  readonly advice?: boolean;
}

const VALIDATION = 'kubernetes v1.34 pkg/apis/core/validation/validation.go';
const WINDOWS_DOCS = 'kubernetes docs: Windows in Kubernetes (concepts/windows/intro, "API compatibility")';

/** Every pod concern, in the order their findings are reported. */
const POD_CONCERNS: readonly PodConcern[] = [
  { name: 'pod-os-validation', description: 'Pod templates pass the API server\'s OS-specific pod validation (fields a Windows or Linux pod may not set, HostProcess all or nothing)', source: `${VALIDATION} (validateWindows, validateLinux, validateWindowsHostProcessPod)` },
  { name: 'pod-os-conflict', description: 'A pod template\'s OS constraints (spec.os.name, the OS node selector and required affinity, its RuntimeClass) name one OS', source: `${VALIDATION}; kube-scheduler NodeAffinity` },
  { name: 'pod-os-unselected', description: 'A pod template that tolerates the Windows node taint selects an OS', source: 'kube-scheduler TaintToleration and NodeAffinity plugins' },
  { name: 'windows-node-selector', description: 'A Windows pod template selects Windows nodes (its own nodeSelector or required affinity, or its RuntimeClass\'s scheduling; a DaemonSet\'s own)', source: 'kubernetes plugin/pkg/admission/runtimeclass/admission.go; pkg/controller/daemon (nodeShouldRunDaemonPod)' },
  { name: 'windows-toleration', description: 'A Windows pod template tolerates the taint the platform\'s Windows nodes carry (its own tolerations or its RuntimeClass\'s)', source: 'k8s.io/api/core/v1 Toleration.ToleratesTaint; windowsNodeTaint (src/platform/support.ts)' },
  { name: 'windows-host-network', description: 'A Windows pod uses host networking only as a HostProcess pod', source: `${WINDOWS_DOCS}; kubelet WindowsHostNetwork feature gate (alpha)` },
  { name: 'windows-memory-emptydir', description: 'A Windows pod backs no emptyDir with memory', source: WINDOWS_DOCS },
  { name: 'windows-host-port', description: 'A Windows pod maps no hostPort (one that equals containerPort on a host-network pod is how HostProcess pods are written)', source: `${WINDOWS_DOCS}; kubernetes pkg/apis/core/v1/defaults.go (SetDefaults_Pod)` },
  { name: 'windows-mount-propagation', description: 'A Windows pod\'s volume mounts set no mount propagation', source: WINDOWS_DOCS },
  { name: 'windows-host-process-user', description: 'A HostProcess container runs as a user the host has (NT AUTHORITY\\SYSTEM, LOCAL SERVICE, NETWORK SERVICE or a local group)', source: 'kubernetes docs: Create a Windows HostProcess Pod (Choosing a User Account); hcsshim' },
  { name: 'windows-run-as-non-root', description: 'A Windows container under runAsNonRoot does not run as ContainerAdministrator', source: 'kubernetes pkg/kubelet/kuberuntime/security_context_windows.go (verifyWindowsRunAsNonRoot)' },
  { name: 'windows-pod-os-name', advice: true, description: 'A Windows pod template sets spec.os.name: windows, so the API server applies its Windows pod rules', source: `${VALIDATION} (validateWindows runs only with it)` },
  { name: 'windows-requests', advice: true, description: 'A Windows pod\'s containers request cpu and memory', source: WINDOWS_DOCS },
  { name: 'windows-prefers-linux', advice: true, description: 'A Windows pod template does not prefer Linux nodes it can never run on', source: 'kube-scheduler NodeAffinity' },
];

/** A pod spec's violation as the manifest's: the path and the fields its fix names rooted where the pod spec sits. */
export function podViolation(source: ManifestSource, location: PodTemplateLocation, v: PodSpecViolation): Finding {
  const field = manifestPath(location, v.path);
  const fix = podSpecFix(v).replace(/(^|[\s(])spec(?=[.\s]|$)/g, `$1${location.dotted}`);
  return violation(source, `${field}: ${v.message}`, fix, field);
}

/** What each RuntimeClass of the objects adds to its pods: the OS its `scheduling.nodeSelector` picks and its tolerations. */
export function runtimeClassesOf(graph: ManifestGraph): Map<string, { os?: string; tolerations: Json[] }> {
  return new Map(graph.ofKind('RuntimeClass').map((s) => {
    const scheduling = s.manifest.scheduling ?? {};
    const os = scheduling.nodeSelector?.[LABEL_OS];
    return [String(s.manifest.metadata?.name), { os: typeof os === 'string' ? os : undefined, tolerations: Array.isArray(scheduling.tolerations) ? scheduling.tolerations : [] }];
  }));
}

/** Every pod finding of a graph, violations and advice, by rule: computed once per graph for all the pod rules. */
const FOUND = new WeakMap<ManifestGraph, Map<string, Finding[]>>();
function podFindings(graph: ManifestGraph): Map<string, Finding[]> {
  let found = FOUND.get(graph);
  if (found) return found;
  found = new Map(POD_CONCERNS.map((c) => [c.name, []]));
  const classes = runtimeClassesOf(graph);
  const runtimeClassOs = (name: string) => classes.get(name)?.os;
  const runtimeClassTolerations = (name: string) => classes.get(name)?.tolerations;
  for (const source of graph.sources) {
    for (const location of podTemplatesOf(source.manifest)) {
      for (const all of [
        validatePodSpec(location.spec),
        podOsIssues(location.spec, runtimeClassOs, { kind: location.kind, runtimeClassTolerations, windowsTaint: graph.context.windowsTaint }),
        podOsAdvice(location.spec, runtimeClassOs),
      ]) {
        for (const v of all) found.get(v.rule ?? 'pod-os-validation')!.push(podViolation(source, location, v));
      }
    }
  }
  FOUND.set(graph, found);
  return found;
}

/** The pod template rules (`POD_CONCERNS`), part of `WORKLOAD_RULES`. */
export const POD_RULES: readonly ManifestRule[] = POD_CONCERNS.map((c) => rule<ManifestGraph>({
  name: c.name,
  scope: 'graph',
  description: c.description,
  source: c.source,
  check: (graph) => (c.advice ? [] : podFindings(graph).get(c.name)!),
  ...(c.advice ? { advise: (graph: ManifestGraph) => podFindings(graph).get(c.name)! } : {}),
}));
