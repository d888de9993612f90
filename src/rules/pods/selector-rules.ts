import { eachItem, Json, ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

/** The apps/v1 kinds whose `spec.selector` must be set, non-empty, and match `spec.template.metadata.labels`. */
const SELECTING_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'];

/** Whether `labels` satisfy a LabelSelector requirement (apimachinery labels.Requirement.Matches). */
function requirementMatches(labels: Record<string, unknown>, r: Json): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r?.key);
  const values: unknown[] = Array.isArray(r?.values) ? r.values : [];
  switch (r?.operator) {
    case 'In': return has && values.includes(labels[r.key]);
    case 'NotIn': return !has || !values.includes(labels[r.key]);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    default: return true; // an unknown operator is the schema's to refuse
  }
}

/**
 * A workload's selector and its pod template's labels: the API server refuses an apps/v1
 * Deployment, ReplicaSet, StatefulSet or DaemonSet without a selector, with an empty one, or with one
 * its template's labels do not match (kubernetes v1.34 pkg/apis/apps/validation/validation.go:
 * ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec:
 * "empty selector is invalid for deployment", "`selector` does not match template `labels`").
 * `v1 List` items count too.
 */
export const WORKLOAD_SELECTOR_RULE = rule<ManifestGraph>({
  name: 'workload-selector',
  scope: 'object',
  description: 'Deployments, ReplicaSets, StatefulSets and DaemonSets have a non-empty selector their pod template\'s labels match',
  source: 'kubernetes v1.34 pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec)',
  check: (graph) => graph.sources.flatMap((source) => {
    const out: Finding[] = [];
    eachItem(source.manifest, (item, prefix) => {
      if (!SELECTING_KINDS.includes(item?.kind) || item.apiVersion !== 'apps/v1') return;
      const selector = item.spec?.selector;
      const matchLabels = selector?.matchLabels && typeof selector.matchLabels === 'object' ? selector.matchLabels : {};
      const expressions: Json[] = Array.isArray(selector?.matchExpressions) ? selector.matchExpressions : [];
      if (Object.keys(matchLabels).length + expressions.length === 0) {
        out.push(violation(source, `${item.kind} ${item.metadata?.name} has ${selector === undefined ? 'no' : 'an empty'} spec.selector, which the API server refuses`,
          'set spec.selector.matchLabels to labels of spec.template.metadata.labels', `${prefix}spec.selector`));
        return;
      }
      const labels = item.spec?.template?.metadata?.labels ?? {};
      const plain = typeof labels === 'object' && labels !== null ? labels : {};
      const unmatched = [
        ...Object.entries(matchLabels).filter(([k, v]) => plain[k] !== v).map(([k, v]) => `${k}=${v}`),
        ...expressions.filter((r) => !requirementMatches(plain, r)).map((r) => `${r?.key} ${r?.operator}${Array.isArray(r?.values) ? ` (${r.values.join(', ')})` : ''}`),
      ];
      if (unmatched.length > 0) {
        out.push(violation(source, `${item.kind} ${item.metadata?.name}: spec.selector does not match spec.template.metadata.labels (unmatched: ${unmatched.join('; ')}), which the API server refuses`,
          'give the pod template the labels the selector selects (or select the template\'s labels)', `${prefix}spec.template.metadata.labels`));
      }
    });
    return out;
  }),
});
