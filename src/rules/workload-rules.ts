import { LABEL_OS } from '../platform/windows';
import { manifestPath, podTemplatesOf } from './pods/pod-template';
import { validatePodSpec } from './pods/validate-pod-spec';
import { podOsIssues } from './pods/windows-pod-rules';
import { ManifestGraph, ManifestRule, ManifestViolation, violation } from './graph';
import { eksPodIssues } from './pods/eks-pod-rules';

/**
 * The workload rules over plain manifests: the API server's OS-specific pod validation
 * (`validatePodSpec`), what a pod aimed at Windows nodes needs to be scheduled and run there
 * (`windowsPodIssues`), pod templates whose OS constraints contradict each other, and templates
 * that tolerate the Windows taint without selecting an OS. Inside a
 * cdk8s app, `PodTemplatePolicy` applies the same functions; this rule brings them to YAML written
 * elsewhere. Pod templates inside `v1 List` items count too.
 */
export const POD_TEMPLATE_RULE: ManifestRule = {
  name: 'pod-template',
  check: (graph) => {
    const runtimeClasses = runtimeClassesOs(graph);
    return graph.sources.flatMap((source) => podTemplatesOf(source.manifest).flatMap((location) => {
      const out: ManifestViolation[] = validatePodSpec(location.spec).map((v) => violation('pod-template', source,
        `${manifestPath(location, v.path)}: ${v.message}`, 'change the field as the message says (the API server would reject this object)', manifestPath(location, v.path)));
      out.push(...podOsIssues(location.spec, (name) => runtimeClasses.get(name)).map((v) => violation('pod-template', source,
        `${manifestPath(location, v.path)}: ${v.message}`, 'change the pod template as the message says', manifestPath(location, v.path))));
      return out;
    }));
  },
};

/** RuntimeClass name -> the OS its `scheduling.nodeSelector` picks, over the objects. */
function runtimeClassesOs(graph: ManifestGraph): Map<string, string> {
  return new Map(graph.ofKind('RuntimeClass')
    .map((s) => [s.manifest.metadata?.name, s.manifest.scheduling?.nodeSelector?.[LABEL_OS]] as const)
    .filter((e): e is readonly [string, string] => typeof e[1] === 'string'));
}

/** Every workload rule. */
export const WORKLOAD_RULES: readonly ManifestRule[] = [POD_TEMPLATE_RULE];

/** Windows pods on Amazon EKS get an address only when their nodeSelector names Windows (`eksPodIssues`). */
export const EKS_POD_ADDRESS_RULE: ManifestRule = {
  name: 'eks-pod-address',
  check: (graph) => {
    const runtimeClasses = runtimeClassesOs(graph);
    return graph.sources.flatMap((source) => podTemplatesOf(source.manifest).flatMap((location) =>
      eksPodIssues(location.spec, (name) => runtimeClasses.get(name)).map((v) => violation('eks-pod-address', source,
        `${manifestPath(location, v.path)}: ${v.message}`, 'change the pod template as the message says', manifestPath(location, v.path)))));
  },
};

/** The workload rules that hold on Amazon EKS only (`validateManifests` `platform: WindowsPlatform.EKS`). */
export const EKS_WORKLOAD_RULES: readonly ManifestRule[] = [EKS_POD_ADDRESS_RULE];
