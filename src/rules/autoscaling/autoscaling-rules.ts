import { CAPI_AUTOSCALER_ANNOTATIONS as A, CLUSTER_AUTOSCALER_SOURCE, goAtoi } from '../../platform/cluster-autoscaler';
import { POOL_LABEL } from '../../platform/labels';
import { LABEL_OS, LABEL_ZONE, WINDOWS_NODE_TAINT } from '../../platform/windows';
import { isCapi, ManifestGraph, ManifestRule, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

/**
 * cluster-autoscaler's Cluster API provider over the final MachineDeployments (kubernetes/autoscaler
 * cluster-autoscaler-1.36.1 cluster-autoscaler/cloudprovider/clusterapi): the bounds it reads
 * (clusterapi_utils.go, parseScalingBounds; clusterapi_nodegroup.go, newNodeGroupFromScalableResource)
 * and what it believes a node of a group at zero is (clusterapi_unstructured.go: InstanceCapacity,
 * Labels, Taints; clusterapi_nodegroup.go, buildTemplateLabels: `kubernetes.io/os: linux` unless a
 * label says otherwise). Only MachineDeployments with an autoscaler annotation are judged.
 */

const CAPI = 'cluster.x-k8s.io';
// Kubernetes quantities as resource.ParseQuantity reads them: a decimal number and a binary or decimal suffix or exponent.
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/;
// A taint as parseTaint reads it (adapted from kubernetes pkg/util/taints): key[=value][:Effect].
const TAINT = /^([A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?)(=([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?)?(:(NoSchedule|PreferNoSchedule|NoExecute))?$/;

/** Whether a MachineDeployment's K0sWorkerConfigTemplate bootstraps Windows workers. */
function bootstrapsWindows(graph: ManifestGraph, md: ManifestSource): boolean {
  const config = graph.resolve(md, md.manifest.spec?.template?.spec?.bootstrap?.configRef);
  return config?.manifest.spec?.template?.spec?.provisioner?.platform === 'windows';
}

/** `k=v,k2=v2` as Labels() reads it: pairs split on the first `=`, others dropped. */
function labelsOf(value: unknown): { labels: Record<string, string>; dropped: string[] } {
  const labels: Record<string, string> = {};
  const dropped: string[] = [];
  for (const pair of typeof value === 'string' ? value.split(',') : []) {
    const at = pair.indexOf('=');
    if (at < 0) dropped.push(pair);
    else labels[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { labels, dropped };
}

function mdProblems(graph: ManifestGraph, md: ManifestSource): Finding[] {
  const annotations = md.manifest.metadata?.annotations ?? {};
  if (annotations[A.minSize] === undefined && annotations[A.maxSize] === undefined) return [];
  const out: Finding[] = [];
  const v = (what: string, fix: string) => out.push(violation(md, `${what} (${CLUSTER_AUTOSCALER_SOURCE})`, fix, 'metadata.annotations'));
  const [minText, maxText] = [annotations[A.minSize], annotations[A.maxSize]];
  const [min, max] = [goAtoi(minText), goAtoi(maxText)];
  if (maxText === undefined) {
    // A missing min reads as 0, which is valid; a missing max reads as 0 too, which leaves the group out.
    v(`the autoscaler's min annotation is set without its max: cluster-autoscaler reads the max as 0 and leaves the node group out`, 'set the max too, e.g. `autoscaling: { min, max }`');
  } else if (minText === undefined) {
    if (max === undefined) v(`the autoscaler's max ${JSON.stringify(maxText)} is not a whole number (strconv.Atoi), so cluster-autoscaler cannot read the node group`, 'write a whole number');
    else if (max < 1) v('the autoscaler\'s max is below 1, so cluster-autoscaler leaves the node group out and never scales it', 'give max >= 1');
  } else if (min === undefined || max === undefined) {
    v(`the autoscaler's bounds ${JSON.stringify(minText)} and ${JSON.stringify(maxText)} are not both whole numbers (strconv.Atoi), so cluster-autoscaler cannot read the node group`, 'write whole numbers');
  } else if (min < 0 || max < min) {
    v(`the autoscaler's bounds min ${min}, max ${max} are not 0 <= min <= max, which cluster-autoscaler refuses`, 'keep 0 <= min <= max');
  } else if (max === 0) {
    v('the autoscaler\'s max is 0, so cluster-autoscaler leaves the node group out and never scales it', 'give max >= 1 in every zone (a pool\'s max is split over its zones)');
  }
  for (const key of [A.cpu, A.memory] as const) {
    if (annotations[key] !== undefined && !QUANTITY.test(String(annotations[key]))) {
      v(`${key} ${JSON.stringify(annotations[key])} is not a Kubernetes quantity, so cluster-autoscaler cannot tell the node group's capacity and never scales it up from zero`, 'write a quantity such as "4" or "16Gi"');
    }
  }
  if (annotations[A.maxPods] !== undefined && goAtoi(annotations[A.maxPods]) === undefined) {
    v(`${A.maxPods} ${JSON.stringify(annotations[A.maxPods])} is not a whole number`, 'write the pods per node, e.g. "110"');
  }
  const { labels, dropped } = labelsOf(annotations[A.labels]);
  if (dropped.length > 0) v(`${A.labels} holds ${dropped.map((d) => JSON.stringify(d)).join(', ')}, which cluster-autoscaler drops (it reads key=value pairs)`, 'write key=value pairs separated by commas');
  const taints = typeof annotations[A.taints] === 'string' ? String(annotations[A.taints]).split(',') : [];
  const badTaints = taints.filter((t) => !TAINT.test(t));
  if (badTaints.length > 0) v(`${A.taints} holds ${badTaints.map((t) => JSON.stringify(t)).join(', ')}, which cluster-autoscaler cannot parse and skips`, 'write key=value:Effect, separated by commas');

  const fd = md.manifest.spec?.template?.spec?.failureDomain;
  if (labels[LABEL_ZONE] !== undefined && fd !== undefined && labels[LABEL_ZONE] !== fd) {
    v(`${A.labels} says ${LABEL_ZONE}=${labels[LABEL_ZONE]} and the machines go to ${fd}, so cluster-autoscaler scales the wrong zone for zonal pods`, 'change the pool\'s zones, not one object');
  }
  // A Windows group at zero: the template node is Linux and untainted unless the annotations say otherwise.
  if (min === 0 && bootstrapsWindows(graph, md)) {
    const windowsTaint = `${WINDOWS_NODE_TAINT.key}=${WINDOWS_NODE_TAINT.value}:${WINDOWS_NODE_TAINT.effect}`;
    if (labels[LABEL_OS] !== 'windows') {
      // The annotation's taints are the template node's too (clusterapi_unstructured.go, Taints): with
      // the Windows taint, Linux pods without its toleration do not fit it either.
      const forLinux = taints.includes(windowsTaint) ? 'and scales it up for no Linux pod either, as its taint keeps them off' : 'and scales it up for Linux pods';
      v(`a Windows node group that may be at zero has no ${LABEL_OS}=windows in ${A.labels}, so cluster-autoscaler takes its template node for Linux: it never scales it up for a Windows pod, ${forLinux}`, `add ${LABEL_OS}=windows to the labels annotation (WindowsWorkerPool autoscaling writes it)`);
    }
    if (!taints.includes(windowsTaint)) {
      v(`a Windows node group that may be at zero has no ${windowsTaint} in ${A.taints}, so cluster-autoscaler believes Linux pods fit its nodes`, `add ${windowsTaint} to the taints annotation`);
    }
    const infra = md.manifest.spec?.template?.spec?.infrastructureRef?.kind;
    // A machine template that reports status.capacity is what the autoscaler falls back on (the infrastructure says).
    if (!graph.infrastructures.ofTemplate(infra)?.templateReportsCapacity && (annotations[A.cpu] === undefined || annotations[A.memory] === undefined)) {
      v(`a node group at zero needs ${A.cpu} and ${A.memory} (its ${infra ?? 'machine template'} reports no capacity), or cluster-autoscaler never scales it up from zero`, 'state `autoscaling.capacity: { cpu, memoryGiB }`');
    }
  }
  return out;
}

/** One pool's MachineDeployments (its zones): all autoscaled or none, their bounds split evenly. */
function poolProblems(mds: readonly ManifestSource[]): Finding[] {
  const bounds = mds.map((md) => md.manifest.metadata?.annotations ?? {}).map((a) => [goAtoi(a[A.minSize]), goAtoi(a[A.maxSize])] as const);
  const scaled = bounds.filter(([, max]) => max !== undefined).length;
  if (scaled === 0) return [];
  const name = mds[0].manifest.spec?.template?.metadata?.labels?.[POOL_LABEL];
  if (scaled < mds.length) {
    return [violation(mds[bounds.findIndex(([, max]) => max === undefined)], `pool ${name} is autoscaled in some zones and fixed in others`, 'set the pool\'s `autoscaling`, not one MachineDeployment\'s annotations', 'metadata.annotations')];
  }
  for (const i of [0, 1] as const) {
    const values = bounds.map((b) => b[i]).filter((n): n is number => n !== undefined);
    if (Math.max(...values) - Math.min(...values) > 1) {
      return [violation(mds[0], `pool ${name}'s ${i === 0 ? 'min' : 'max'} sizes over its zones (${values.join(', ')}) are uneven, so one zone's outage takes more of the pool than its spread says`, 'change the pool\'s `autoscaling`, not one MachineDeployment', 'metadata.annotations')];
    }
  }
  return [];
}

const autoscaler = rule<ManifestGraph>({
  name: 'autoscaler',
  scope: 'object',
  description: 'An autoscaled MachineDeployment\'s annotations read as cluster-autoscaler reads them: bounds, capacity, labels and taints (a Windows group at zero says so), zones split evenly',
  source: `${CLUSTER_AUTOSCALER_SOURCE} cluster-autoscaler/cloudprovider/clusterapi (clusterapi_utils.go, clusterapi_unstructured.go, clusterapi_nodegroup.go)`,
  check: (graph) => {
    const mds = graph.ofKind('MachineDeployment').filter((m) => isCapi(m, CAPI));
    const byPool = new Map<string, ManifestSource[]>();
    for (const md of mds) {
      const pool = md.manifest.spec?.template?.metadata?.labels?.[POOL_LABEL];
      if (typeof pool !== 'string') continue;
      const key = `${md.manifest.metadata?.namespace ?? ''}|${md.manifest.spec?.clusterName}|${pool}`;
      byPool.set(key, [...(byPool.get(key) ?? []), md]);
    }
    return [...mds.flatMap((md) => mdProblems(graph, md)), ...[...byPool.values()].flatMap(poolProblems)];
  },
});

/** The autoscaler rules, part of `CLUSTER_RULES`. */
export const AUTOSCALING_RULES: readonly ManifestRule[] = [autoscaler];
