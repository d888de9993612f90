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

/**
 * The annotations cluster-autoscaler's Cluster API provider reads on a MachineDeployment
 * (cluster-autoscaler/cloudprovider/clusterapi/clusterapi_utils.go, the default `CAPI_GROUP`
 * cluster.x-k8s.io): the node group's bounds, and for a group at zero what a new node would be
 * (clusterapi_unstructured.go: InstanceCapacity, Labels, Taints).
 */
export const CAPI_AUTOSCALER_ANNOTATIONS = {
  minSize: 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size',
  maxSize: 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size',
  cpu: 'capacity.cluster-autoscaler.kubernetes.io/cpu',
  memory: 'capacity.cluster-autoscaler.kubernetes.io/memory',
  /** The node's ephemeral storage (clusterapi_utils.go, diskCapacityKey): without it a pod requesting `ephemeral-storage` fits no template node. */
  ephemeralDisk: 'capacity.cluster-autoscaler.kubernetes.io/ephemeral-disk',
  maxPods: 'capacity.cluster-autoscaler.kubernetes.io/maxPods',
  labels: 'capacity.cluster-autoscaler.kubernetes.io/labels',
  taints: 'capacity.cluster-autoscaler.kubernetes.io/taints',
} as const;

/**
 * The kubelet's default `maxPods` (k8s.io/kubelet config/v1beta1 defaults), which k0s leaves as it
 * is, and cluster-autoscaler's own default for a group without the annotation
 * (clusterapi_nodegroup.go, defaultMaxPods).
 */
export const DEFAULT_MAX_PODS = 110;

/** What a node of an empty group would have, for the capacity annotations. */
export interface TemplateNode {
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: ReadonlyArray<{ key: string; value: string; effect: string }>;
  /** vCPUs, when known. */
  readonly cpu?: number;
  /** Memory in GiB, when known. */
  readonly memoryGiB?: number;
  /** The kubelet's root filesystem in GiB (the root volume), when known. */
  readonly ephemeralDiskGiB?: number;
  readonly maxPods: number;
}

/**
 * The capacity annotations of a node group at zero, in the forms cluster-autoscaler parses:
 * `labels` `k=v,k2=v2`, `taints` `k=v:Effect,…`, cpu, memory and ephemeral disk as quantities, maxPods an integer.
 */
export function capacityAnnotations(node: TemplateNode): Record<string, string> {
  const out: Record<string, string> = {
    [CAPI_AUTOSCALER_ANNOTATIONS.labels]: Object.entries(node.labels).map(([k, v]) => `${k}=${v}`).join(','),
    [CAPI_AUTOSCALER_ANNOTATIONS.maxPods]: String(node.maxPods),
  };
  if (node.taints.length > 0) out[CAPI_AUTOSCALER_ANNOTATIONS.taints] = node.taints.map((t) => `${t.key}=${t.value}:${t.effect}`).join(',');
  if (node.cpu !== undefined) out[CAPI_AUTOSCALER_ANNOTATIONS.cpu] = String(node.cpu);
  if (node.memoryGiB !== undefined) out[CAPI_AUTOSCALER_ANNOTATIONS.memory] = `${node.memoryGiB}Gi`;
  if (node.ephemeralDiskGiB !== undefined) out[CAPI_AUTOSCALER_ANNOTATIONS.ephemeralDisk] = `${node.ephemeralDiskGiB}Gi`;
  return out;
}

/**
 * Go's strconv.Atoi, which both cluster-autoscaler (clusterapi_utils.go, minSize and maxSize) and
 * CAPI's defaulting (strconv.ParseInt) apply to the bounds: an optional sign and decimal digits,
 * nothing else (no spaces, no `1e3`); undefined when it fails.
 */
export function goAtoi(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^[+-]?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A MachineDeployment as written, loosely typed: YAML from anywhere may hold anything. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseObject = { readonly metadata?: { readonly [key: string]: any }; readonly [key: string]: any };

/**
 * The replicas CAPI gives a new MachineDeployment: its `spec.replicas`, else the min-size
 * annotation when both bounds are set and parse, else 1 (cluster-api v1.14.0
 * core/webhooks/admission/machinedeployment.go, calculateMachineDeploymentReplicas).
 */
export function capiDefaultReplicas(md: LooseObject): unknown {
  if (md.spec?.replicas !== undefined) return md.spec.replicas;
  const annotations = md.metadata?.annotations ?? {};
  const min = goAtoi(annotations[CAPI_AUTOSCALER_ANNOTATIONS.minSize]);
  return min !== undefined && goAtoi(annotations[CAPI_AUTOSCALER_ANNOTATIONS.maxSize]) !== undefined ? min : 1;
}

/** `total` split over `parts`: each the same, the first ones one more until all are placed (5 over 3: 2, 2, 1). */
export function splitOver(total: number, parts: number, i: number): number {
  return Math.floor(total / parts) + (i < total % parts ? 1 : 0);
}
