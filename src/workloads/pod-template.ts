import { LABEL_OS, WINDOWS_NODE_TAINT } from '../platform/windows';

/**
 * Where each pod-bearing kind keeps its pod spec, as JSON-pointer segments. CronJobs nest one level
 * deeper (`spec.jobTemplate.spec.template.spec`), bare Pods keep it at `spec`.
 */
const POD_SPEC_LOCATIONS: Readonly<Record<string, readonly string[]>> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The pod spec of a manifest and where it sits, or undefined for kinds that hold no pod template. */
export interface PodTemplateLocation {
  /** The pod spec object inside the manifest (not a copy). */
  readonly spec: Json;
  /** JSON pointer to the pod spec, e.g. `/spec/template/spec`, for `JsonPatch` paths. */
  readonly pointer: string;
  /** Dotted path to the pod spec, e.g. `spec.template.spec`, for messages. */
  readonly dotted: string;
}

/** JSON pointer to the pod spec of a kind, e.g. `/spec/template/spec`; undefined for kinds without pods. */
export function podSpecPointer(kind: string): string | undefined {
  const segments = POD_SPEC_LOCATIONS[kind];
  return segments ? `/${segments.join('/')}` : undefined;
}

/** Finds the pod spec of a Kubernetes manifest (core and apps/batch kinds only). */
export function podTemplateOf(manifest: Json): PodTemplateLocation | undefined {
  const segments = POD_SPEC_LOCATIONS[manifest?.kind];
  if (!segments) return undefined;
  let spec = manifest;
  for (const s of segments) spec = spec?.[s];
  if (spec === null || typeof spec !== 'object') return undefined;
  return { spec, pointer: `/${segments.join('/')}`, dotted: segments.join('.') };
}

/** Rewrites a `validatePodSpec` path (rooted at `spec`) to a path inside the manifest. */
export function manifestPath(location: PodTemplateLocation, podSpecPath: string): string {
  return location.dotted + podSpecPath.slice('spec'.length);
}

/** Escapes a key for use as a JSON-pointer segment (RFC 6901). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The OS a pod spec explicitly targets, from `spec.os.name` or the `kubernetes.io/os` node selector
 * (or a required node-affinity term on it). Undefined when the spec leaves it open.
 */
export function explicitOs(spec: Json): { os?: string; nodeSelectorOs?: string; affinityOs?: string[] } {
  const terms: Json[] = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const affinityOs = terms.flatMap((t: Json) => (t?.matchExpressions ?? [])
    .filter((e: Json) => e?.key === LABEL_OS && e?.operator === 'In')
    .flatMap((e: Json) => e.values ?? []));
  return {
    os: spec?.os?.name,
    nodeSelectorOs: spec?.nodeSelector?.[LABEL_OS],
    affinityOs: affinityOs.length > 0 ? affinityOs : undefined,
  };
}

/** Whether a pod spec asks for Windows in any of the ways the scheduler or API server understands. */
export function targetsWindows(spec: Json): boolean {
  const t = explicitOs(spec);
  return t.os === 'windows' || t.nodeSelectorOs === 'windows' || (t.affinityOs?.includes('windows') ?? false);
}

/** Kubernetes toleration matching (k8s.io/api/core/v1 Toleration.ToleratesTaint). */
export function tolerates(tolerations: Json, taint: { key: string; value: string; effect: string } = WINDOWS_NODE_TAINT): boolean {
  if (!Array.isArray(tolerations)) return false;
  return tolerations.some((t: Json) => {
    if (t?.effect && t.effect !== taint.effect) return false;
    if (t?.key && t.key !== taint.key) return false;
    const operator = t?.operator ?? 'Equal';
    if (operator === 'Exists') return true;
    return operator === 'Equal' && !!t?.key && (t.value ?? '') === taint.value;
  });
}
