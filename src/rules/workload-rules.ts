import { manifestPath, podTemplateOf, targetsWindows } from '../workloads/pod-template';
import { validatePodSpec } from '../workloads/validate-pod-spec';
import { windowsPodIssues } from '../workloads/windows-pod-rules';
import { ManifestRule, ManifestViolation, violation } from './graph';

/**
 * The workload rules over plain manifests: the API server's OS-specific pod validation
 * (`validatePodSpec`) and what a pod aimed at Windows nodes needs to be scheduled and run there
 * (`windowsPodIssues`). Inside a cdk8s app, `PodTemplatePolicy` applies the same functions; this
 * rule brings them to YAML written elsewhere.
 */
export const POD_TEMPLATE_RULE: ManifestRule = {
  name: 'pod-template',
  check: (graph) => graph.sources.flatMap((source) => {
    const location = podTemplateOf(source.manifest);
    if (!location) return [];
    const out: ManifestViolation[] = validatePodSpec(location.spec).map((v) => violation('pod-template', source,
      `${manifestPath(location, v.path)}: ${v.message}`, 'change the field as the message says (the API server would reject this object)', manifestPath(location, v.path)));
    if (targetsWindows(location.spec)) {
      out.push(...windowsPodIssues(location.spec).map((v) => violation('pod-template', source,
        `${manifestPath(location, v.path)}: ${v.message}`, 'change the pod template as the message says', manifestPath(location, v.path))));
    }
    return out;
  }),
};

/** Every workload rule. */
export const WORKLOAD_RULES: readonly ManifestRule[] = [POD_TEMPLATE_RULE];
