/**
 * cluster-autoscaler's Cluster API provider, transcribed from kubernetes/autoscaler
 * cluster-autoscaler-1.36.1 (cluster-autoscaler/cloudprovider/clusterapi): how it reads a
 * MachineDeployment into a node group, and the template node it builds for a group at zero. A
 * test oracle written from the Go, independent of the library's own code (src/platform/cluster-autoscaler.ts),
 * so that a test fails when what the library writes is not what the autoscaler reads.
 *
 * - clusterapi_utils.go: the annotation keys (default CAPI_GROUP cluster.x-k8s.io); minSize,
 *   maxSize (strconv.Atoi), parseScalingBounds; parseKey (resource.ParseQuantity), parseIntKey
 *   (strconv.ParseInt), parseCPUCapacity, parseMemoryCapacity, parseMaxPodsCapacity.
 * - clusterapi_nodegroup.go: newNodeGroupFromScalableResource (a group with replicas 0 only if it
 *   can scale from zero; none with max 0 or max < min), defaultMaxPods = 110, TemplateNodeInfo,
 *   buildTemplateLabels (generic labels, then status.nodeInfo, then the scalable resource's labels),
 *   buildGenericLabels (kubernetes.io/arch = amd64 unless CAPI_SCALE_ZERO_DEFAULT_ARCH,
 *   kubernetes.io/os = linux: cloudprovider.DefaultOS).
 * - clusterapi_unstructured.go: Labels (spec.template.spec.metadata.labels' managed labels, then the
 *   labels annotation split on "," and each pair on the first "="; pairs without "=" dropped),
 *   Taints (spec.template.spec.taints, then the taints annotation through parseTaint; unparsable
 *   ones skipped), CanScaleFromZero (cpu and memory in InstanceCapacity), InstanceCapacity
 *   (annotations over the machine template's status.capacity; maxPods defaulted to 110).
 */

export const KEYS = {
  min: 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size',
  max: 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size',
  cpu: 'capacity.cluster-autoscaler.kubernetes.io/cpu',
  memory: 'capacity.cluster-autoscaler.kubernetes.io/memory',
  ephemeralDisk: 'capacity.cluster-autoscaler.kubernetes.io/ephemeral-disk',
  maxPods: 'capacity.cluster-autoscaler.kubernetes.io/maxPods',
  labels: 'capacity.cluster-autoscaler.kubernetes.io/labels',
  taints: 'capacity.cluster-autoscaler.kubernetes.io/taints',
};

/** strconv.Atoi: optional sign, decimal digits. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.Atoi: parsing "${s}": invalid syntax`);
  return Number(s);
}

/** parseScalingBounds: a missing annotation reads as 0; errors for bad numbers, negatives, max < min. */
export function parseScalingBounds(annotations: Record<string, string>): { min: number; max: number } {
  const min = annotations[KEYS.min] === undefined ? 0 : atoi(annotations[KEYS.min]);
  if (min < 0) throw new Error('invalid min annotation');
  const max = annotations[KEYS.max] === undefined ? 0 : atoi(annotations[KEYS.max]);
  if (max < 0 || max < min) throw new Error('invalid max annotation');
  return { min, max };
}

const SUFFIX: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** resource.ParseQuantity, as a number of base units (bytes, cores). */
export function parseQuantity(s: string): number {
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|([KMGTPE]i|[numkMGTPE]))?$/.exec(s);
  if (!m) throw new Error(`quantities must match the regular expression: ${s}`);
  return Number(m[1]) * (m[2] ? 10 ** Number(m[2].slice(1)) : SUFFIX[m[3] ?? '']);
}

/** parseTaint: key[=value][:effect]; more than one ":" or "=" is an error. */
function parseTaint(st: string): { key: string; value: string; effect: string } {
  const parts = st.split(':');
  if (parts.length > 2) throw new Error(`invalid taint spec: ${st}`);
  const kv = parts[0].split('=');
  if (kv.length > 2) throw new Error(`invalid taint spec: ${st}`);
  if (!/^([A-Za-z0-9][-A-Za-z0-9_.]*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(kv[0])) throw new Error(`invalid taint spec: ${st}`);
  return { key: kv[0], value: kv[1] ?? '', effect: parts[1] ?? '' };
}

/** A template node as TemplateNodeInfo builds it. */
export interface TemplateNode {
  readonly labels: Record<string, string>;
  readonly taints: Array<{ key: string; value: string; effect: string }>;
  readonly capacity: { cpu?: number; memory?: number; pods: number; 'ephemeral-storage'?: number };
}

/** MachineDeployment manifest, loosely typed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Md = { metadata: { name: string; annotations?: Record<string, string> }; spec: any };

/**
 * The node group cluster-autoscaler makes of a MachineDeployment (newNodeGroupFromScalableResource),
 * or undefined when it leaves it out; with its template node when it can scale from zero.
 * `machineTemplateCapacity` is the machine template's status.capacity (none for RemoteMachine).
 */
export function nodeGroupOf(md: Md, machineTemplateCapacity: Record<string, string> = {}): { min: number; max: number; template?: TemplateNode } | undefined {
  const annotations = md.metadata.annotations ?? {};
  const { min, max } = parseScalingBounds(annotations);

  // InstanceCapacity: annotations (parse errors fail it), then status.capacity under them.
  const cpu = annotations[KEYS.cpu] ? parseQuantity(annotations[KEYS.cpu]) : 0;
  const memory = annotations[KEYS.memory] ? parseQuantity(annotations[KEYS.memory]) : 0;
  const pods = annotations[KEYS.maxPods] ? atoi(annotations[KEYS.maxPods]) : 0;
  const fromStatus = Object.fromEntries(Object.entries(machineTemplateCapacity).map(([k, v]) => [k, parseQuantity(v)]));
  // diskCapacityKey (clusterapi_utils.go), read by InstanceCapacity into ephemeral-storage (clusterapi_unstructured.go).
  const disk = annotations[KEYS.ephemeralDisk] ? parseQuantity(annotations[KEYS.ephemeralDisk]) : fromStatus['ephemeral-storage'];
  const capacity = { cpu: cpu || fromStatus.cpu, memory: memory || fromStatus.memory, pods: pods || 110, ...(disk ? { 'ephemeral-storage': disk } : {}) };
  const canScaleFromZero = capacity.cpu !== undefined && capacity.memory !== undefined;

  if (md.spec.replicas === 0 && !canScaleFromZero) return undefined;
  if (max - min < 0 || max === 0) return undefined;
  if (!canScaleFromZero) return { min, max };

  // Labels(): the labels annotation on top of the template's managed node labels (none here).
  const annotationLabels: Record<string, string> = {};
  for (const label of (annotations[KEYS.labels] ?? '').split(',')) {
    const at = label.indexOf('=');
    if (at >= 0) annotationLabels[label.slice(0, at)] = label.slice(at + 1);
  }
  const labels = { 'kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': `${md.metadata.name}-asg-0`, ...annotationLabels };

  const taints: TemplateNode['taints'] = [];
  for (const t of annotations[KEYS.taints] === undefined ? [] : annotations[KEYS.taints].split(',')) {
    try {
      taints.push(parseTaint(t));
    } catch {
      // skipped, as the autoscaler logs and skips it
    }
  }
  return { min, max, template: { labels, taints, capacity } };
}

/** Whether a template node has room for a pod's requests of one resource (the scheduler's NodeResourcesFit: an absent capacity is 0). */
export function hasRoom(node: TemplateNode, resource: 'cpu' | 'memory' | 'ephemeral-storage', request: number): boolean {
  return (node.capacity[resource] ?? 0) >= request;
}

/** Whether the scheduler would place a pod needing `os` with `tolerations` on a template node (labels and NoSchedule taints only). */
export function fits(node: TemplateNode, os: string, tolerations: Array<{ key: string; value?: string; effect?: string }> = []): boolean {
  return node.labels['kubernetes.io/os'] === os
    && node.taints.filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
      .every((t) => tolerations.some((tol) => tol.key === t.key && (tol.value === undefined || tol.value === t.value) && (tol.effect === undefined || tol.effect === t.effect)));
}
