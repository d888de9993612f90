/**
 * Facts about cluster-autoscaler (kubernetes/autoscaler, cluster-autoscaler-1.36.1) that the pools
 * write so that it can scale them from zero: what it reads to build a node of a group it has no
 * node of yet.
 */

/** Where the facts below are read. */
export const CLUSTER_AUTOSCALER_SOURCE = 'kubernetes/autoscaler@cluster-autoscaler-1.36.1';

/**
 * ASG tag prefixes on AWS (cluster-autoscaler/cloudprovider/aws/aws_manager.go, extractLabelsFromAsg
 * and extractTaintsFromAsg): `<label prefix><key>: <value>` and `<taint prefix><key>: <value>:<Effect>`.
 * Without them the template node of an EKS managed node group is `kubernetes.io/os: linux`
 * (buildGenericLabels sets cloudprovider.DefaultOS), so a pending Windows pod never scales a Windows
 * group up from zero.
 */
export const ASG_NODE_TEMPLATE = {
  label: 'k8s.io/cluster-autoscaler/node-template/label/',
  taint: 'k8s.io/cluster-autoscaler/node-template/taint/',
} as const;

/** The ASG tags that tell cluster-autoscaler a group's labels and taints. */
export function asgNodeTemplateTags(labels: Readonly<Record<string, string>>, taints: ReadonlyArray<{ key: string; value: string; effect: string }>): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(labels).map(([k, v]) => [`${ASG_NODE_TEMPLATE.label}${k}`, v])),
    ...Object.fromEntries(taints.map((t) => [`${ASG_NODE_TEMPLATE.taint}${t.key}`, `${t.value}:${t.effect}`])),
  };
}
