import { LABEL_OS, WINDOWS_NODE_TAINT } from '../../platform/windows';

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
  PodTemplate: ['template', 'spec'],
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * The pod spec of a manifest and where it sits, or undefined for kinds that hold no pod template.
 * @internal
 */
export interface PodTemplateLocation {
  /** The pod spec object inside the manifest (not a copy). */
  readonly spec: Json;
  /** JSON pointer to the pod spec, e.g. `/spec/template/spec`, for `JsonPatch` paths. */
  readonly pointer: string;
  /** Dotted path to the pod spec, e.g. `spec.template.spec`, for messages. */
  readonly dotted: string;
  /** The kind of the object that holds the pod template (a List item's own kind). */
  readonly kind: string;
  /** The object the pod spec is the `spec` of: the pod template (`{ metadata, spec }`), or a bare Pod. */
  readonly holder: Json;
}

/** Each kind's pod spec location, its pointer and dotted path written once: every rule asks for them, for every object. */
const POD_SPEC_PATHS: ReadonlyMap<string, { readonly segments: readonly string[]; readonly pointer: string; readonly dotted: string }> = new Map(
  Object.entries(POD_SPEC_LOCATIONS).map(([kind, segments]) => [kind, { segments, pointer: `/${segments.join('/')}`, dotted: segments.join('.') }]));

/**
 * JSON pointer to the pod spec of a kind, e.g. `/spec/template/spec`; undefined for kinds without pods.
 * @internal
 */
export function podSpecPointer(kind: string): string | undefined {
  return POD_SPEC_PATHS.get(kind)?.pointer;
}

/**
 * Every pod spec of a manifest: its own, or for a `v1 List` (what `kubectl get -o yaml` writes,
 * and what `Include` brings in whole) those of its items, with pointers into the List.
 * @internal
 */
export function podTemplatesOf(manifest: Json): PodTemplateLocation[] {
  if (manifest?.kind === 'List' && Array.isArray(manifest.items)) {
    return manifest.items.flatMap((item: Json, i: number) => {
      const inner = podTemplateOf(item);
      return inner ? [{ ...inner, pointer: `/items/${i}${inner.pointer}`, dotted: `items[${i}].${inner.dotted}` }] : [];
    });
  }
  const own = podTemplateOf(manifest);
  return own ? [own] : [];
}

/**
 * Finds the pod spec of a Kubernetes manifest (core and apps/batch kinds only).
 * @internal
 */
export function podTemplateOf(manifest: Json): PodTemplateLocation | undefined {
  const kind = manifest?.kind;
  const paths = typeof kind === 'string' ? POD_SPEC_PATHS.get(kind) : undefined;
  if (!paths) return undefined;
  let holder: Json;
  let spec = manifest;
  for (const s of paths.segments) {
    holder = spec;
    spec = spec?.[s];
  }
  if (spec === null || typeof spec !== 'object') return undefined;
  return { spec, pointer: paths.pointer, dotted: paths.dotted, kind, holder };
}

/**
 * Rewrites a `validatePodSpec` path (rooted at `spec`) to a path inside the manifest.
 * @internal
 */
export function manifestPath(location: PodTemplateLocation, podSpecPath: string): string {
  return location.dotted + podSpecPath.slice('spec'.length);
}

/**
 * Escapes a key for use as a JSON-pointer segment (RFC 6901).
 * @internal
 */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The node label of the OS, and its deprecated beta form that older manifests still use.
 * @internal
 */
export const OS_LABELS: readonly string[] = [LABEL_OS, 'beta.kubernetes.io/os'];
const LINUX = 1;
const WINDOWS = 2;
const BOTH = LINUX | WINDOWS;
/** The OS a value names as a bit; none for any other value. */
function osBit(value: unknown): number {
  return value === 'linux' ? LINUX : value === 'windows' ? WINDOWS : 0;
}
/** The OSes of each mask, in one order (Linux first). */
const OS_NAMES: ReadonlyArray<readonly string[]> = [[], ['linux'], ['windows'], ['linux', 'windows']];

/**
 * What a pod template asks for: one OS, either of both, nothing, or something no node can be.
 * @internal
 */
export interface PodOsIntent {
  /** `open` when nothing constrains it; `conflicting` when no OS satisfies every constraint. */
  readonly os: 'linux' | 'windows' | 'both' | 'open' | 'conflicting';
  /** The constraints found, for messages (`spec.os.name=linux`, `nodeSelector kubernetes.io/os=windows`). */
  readonly sources: readonly string[];
  /** The OSes each constraint of `sources` admits, in the same order. */
  readonly admits?: ReadonlyArray<readonly string[]>;
}

/**
 * The OS a pod template asks for, from everything the API server and scheduler read: `spec.os.name`,
 * the `kubernetes.io/os` (or `beta.kubernetes.io/os`) node selector, required node affinity on
 * those labels (`In`, `NotIn`; terms are alternatives), and the scheduling of the pod's
 * RuntimeClass, which RuntimeClass admission merges into the pod (kubernetes
 * plugin/pkg/admission/runtimeclass). `runtimeClassOs` resolves a RuntimeClass name to the OS its
 * `scheduling.nodeSelector` picks.
 * @internal
 */
export function osIntent(spec: Json, runtimeClassOs: (name: string) => string | undefined = () => undefined): PodOsIntent {
  // The OSes as bits (LINUX | WINDOWS): every rule asks this of every pod template, several times.
  let allowed = BOTH;
  const sources: string[] = [];
  const admits: Array<readonly string[]> = [];
  const constrain = (mask: number, source: string) => {
    allowed &= mask;
    sources.push(source);
    admits.push(OS_NAMES[mask]);
  };
  const osName = spec?.os?.name;
  if (osName) constrain(osBit(osName), `spec.os.name=${osName}`);
  const nodeSelector = spec?.nodeSelector;
  if (nodeSelector) {
    for (const label of OS_LABELS) {
      const value = nodeSelector[label];
      if (value !== undefined && value !== null) constrain(osBit(value), `nodeSelector ${label}=${value}`);
    }
  }
  const terms: Json = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (Array.isArray(terms) && terms.length > 0) {
    // Terms are ORed; within a term, expressions are ANDed. A term without an OS expression admits any OS.
    let union = 0;
    let everyTermNamesOs = true;
    for (const term of terms) {
      let termMask: number | undefined;
      for (const e of Array.isArray(term?.matchExpressions) ? term.matchExpressions : []) {
        if (!OS_LABELS.includes(e?.key)) continue;
        const values = Array.isArray(e.values) ? e.values.reduce((m: number, v: unknown) => m | osBit(v), 0) : 0;
        const base = termMask ?? BOTH;
        termMask = e.operator === 'In' ? base & values : e.operator === 'NotIn' ? base & ~values : base;
      }
      if (termMask === undefined) everyTermNamesOs = false;
      else union |= termMask;
    }
    if (everyTermNamesOs) constrain(union, 'required node affinity on the OS label');
  }
  const runtimeClass = spec?.runtimeClassName;
  const classOs = typeof runtimeClass === 'string' ? runtimeClassOs(runtimeClass) : undefined;
  if (classOs !== undefined) constrain(osBit(classOs), `RuntimeClass ${runtimeClass} (scheduling ${LABEL_OS}=${classOs})`);

  if (sources.length === 0) return { os: 'open', sources, admits };
  if (allowed === 0) return { os: 'conflicting', sources, admits };
  if (allowed === BOTH) return { os: 'both', sources, admits };
  return { os: allowed === LINUX ? 'linux' : 'windows', sources, admits };
}

/**
 * Whether a pod spec asks for Windows alone, in any of the ways the scheduler or API server understands.
 * @internal
 */
export function targetsWindows(spec: Json, runtimeClassOs?: (name: string) => string | undefined): boolean {
  return osIntent(spec, runtimeClassOs).os === 'windows';
}

/**
 * Kubernetes toleration matching (k8s.io/api/core/v1 Toleration.ToleratesTaint).
 * @internal
 */
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
