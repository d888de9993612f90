import type { ManifestRule } from './engine/graph';
import type { RuleSet } from './engine/rule';
import { WindowsPlatform } from '../platform/support';
import { CLUSTER_RULES } from './cluster/cluster-rules';
import { EKS_WORKLOAD_RULES, LOAD_BALANCER_TARGETS_RULE, WORKLOAD_RULES } from './pods/workload-rules';
import { OBJECT_META_RULE } from './meta/object-meta';
import { SCHEMA_RULE } from './schema/rule';

/**
 * The rule sets over Kubernetes objects, in the order their messages are reported: what
 * `validateManifests` applies by default, what the plugin's `ruleSets` and `validate --rules`
 * select, and what docs/rules.md lists (`RULE_SETS` adds the Terraform ones).
 */
export const MANIFEST_RULE_SETS: readonly RuleSet<ManifestRule>[] = Object.freeze([
  {
    name: 'cluster',
    registry: 'CLUSTER_RULES',
    title: 'Cluster objects',
    description: 'Cluster API objects of k0smotron and of kubeadm, and their infrastructure objects (AWS, remote hosts, Azure through CAPZ), the hand-off to the AWS stack, and the CRDs\' CEL rules.',
    input: 'kubernetes',
    byDefault: true,
    rules: CLUSTER_RULES,
    judgesConstructs: CLUSTER_RULES,
  },
  {
    name: 'workloads',
    registry: 'WORKLOAD_RULES',
    title: 'Workloads',
    description: 'pod templates and Services on every platform.',
    input: 'kubernetes',
    byDefault: true,
    rules: WORKLOAD_RULES,
    // The API server's OS-independent object validation holds for every object a cluster writes.
    judgesConstructs: [OBJECT_META_RULE],
  },
  {
    name: 'schema',
    registry: 'SCHEMA_RULE',
    title: 'Schemas',
    description: 'every object against its kind\'s schema as the API server checks it on kubectl apply: the pinned Cluster API, CAPA, CAPZ, k0smotron and Karpenter CRDs with their CEL rules, and any CRD given (--crd) or among the objects; core objects against the Kubernetes API (1.35 by default; validate\'s --kubernetes-version).',
    input: 'kubernetes',
    byDefault: true,
    rules: [SCHEMA_RULE],
    // At synth, over every object a cluster construct writes (graph scope: not at construction).
    judgesConstructs: [SCHEMA_RULE],
  },
  {
    name: 'eks',
    registry: 'EKS_WORKLOAD_RULES',
    title: 'Workloads on Amazon EKS',
    description: 'added where the objects are for EKS (`platform: WindowsPlatform.EKS`, the plugin\'s `eks` rule set); its load balancer rule also on k0smotron\'s AWS clusters, whose LoadBalancer Services get AWS load balancers too.',
    input: 'kubernetes',
    byDefault: false,
    rules: EKS_WORKLOAD_RULES,
    platforms: { [WindowsPlatform.EKS]: EKS_WORKLOAD_RULES, [WindowsPlatform.K0SMOTRON_AWS]: [LOAD_BALANCER_TARGETS_RULE] },
  },
]);

/**
 * The rules that hold only on a platform, beyond the cluster and workload rules (the sets'
 * `platforms`): on EKS `EKS_WORKLOAD_RULES`; on k0smotron's AWS clusters the load balancer rule.
 */
export function platformRules(platform: WindowsPlatform | undefined): readonly ManifestRule[] {
  return platform === undefined ? [] : MANIFEST_RULE_SETS.flatMap((s) => s.platforms?.[platform] ?? []);
}

/**
 * The rules of the named sets (every set applied by default when none is named), the workload
 * rules joined by the platform's, each rule once.
 * @internal
 */
export function manifestRulesOf(sets: readonly string[] | undefined, platform: WindowsPlatform | undefined): readonly ManifestRule[] {
  const chosen = MANIFEST_RULE_SETS.filter((s) => (sets === undefined ? s.byDefault : sets.includes(s.name)));
  return [...new Set(chosen.flatMap((s) => (s.name === 'workloads' ? [...s.rules, ...platformRules(platform)] : s.rules)))];
}
