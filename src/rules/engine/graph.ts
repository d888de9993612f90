import { problem, trimPeriod } from '../../core/errors';

// The rules take manifests from anywhere (this library's synth, `kubectl get -o yaml`, a YAML
// file), so they read them loosely typed and never assume a field is present.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A Kubernetes object as written to YAML: `apiVersion`, `kind`, `metadata`, and the rest. */
export interface Manifest {
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion?: string;
  /** The object's kind, e.g. `MachineDeployment`. */
  readonly kind?: string;
  /** Name, namespace (absent: the namespace the object is applied to) and the rest of the metadata. */
  readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly [key: string]: Json };
  readonly [key: string]: Json;
}

/** A manifest with what its producer knows about it. */
export interface ManifestSource {
  /** The object itself, as written (after patches). */
  readonly manifest: Manifest;
  /**
   * Construct path of the object, when it came from a cdk8s app; messages name it.
   * @default - messages name the object's kind and name
   */
  readonly path?: string;
  /**
   * The object's name ends in a digest of its `spec.template.spec` (this library's templates):
   * a template whose content changed after naming is reported, since it would not roll out.
   * @default false
   */
  readonly contentNamed?: boolean;
}

/** One broken rule: which object, which rule, and a message naming the value and the fix. */
export interface ManifestViolation {
  /** The rule's name, e.g. `version-skew`. */
  readonly rule: string;
  /** The object's kind (`?` when it has none). */
  readonly kind: string;
  /** The object's `metadata.name` (`?` when it has none). */
  readonly name: string;
  /** The object's `metadata.namespace`, when written. */
  readonly namespace?: string;
  /** Construct path of the object, when known. */
  readonly path?: string;
  /** What is wrong, naming the value (no trailing period). */
  readonly what: string;
  /** What to do about it (no trailing period). */
  readonly fix: string;
  /** The printed line: "<what>. Fix: <fix>." */
  readonly message: string;
  /** Where in the object: a dotted field path such as `spec.replicas`. */
  readonly field?: string;
}

/**
 * What a rule needs to see to judge an object. `object`: the object and what it references (a
 * pool's own objects and its cluster's), so it runs as soon as a construct has built them and
 * again at synth. `graph`: every object of the app (names unique across charts, a Linux worker
 * somewhere in the cluster), so it runs at synth only.
 */
export type RuleScope = 'object' | 'graph';

/** A rule over the whole set of objects. Rules are pure: they read the graph and report. */
export interface ManifestRule {
  /** The rule's name, reported in each violation and in `HybridConfigError.rule`, e.g. `version-skew`. */
  readonly name: string;
  /**
   * What the rule needs to see.
   * @default 'graph' - it runs at synth and in `validateManifests`, not at construction
   */
  readonly scope?: RuleScope;
  /** The violations in `graph`; an empty list when the objects pass. */
  check(graph: ManifestGraph): ManifestViolation[];
  /**
   * Recommendations that are not requirements: reported by `adviseManifests` and the plugin's
   * report, never as a violation.
   * @default - none
   */
  advise?(graph: ManifestGraph): ManifestViolation[];
}

/** A rule of object scope unless it says otherwise (`RuleScope`). */
export function rule(name: string, check: (graph: ManifestGraph) => ManifestViolation[], scope: RuleScope = 'object'): ManifestRule {
  return { name, check, scope };
}

/** The value when it is an array, else none: foreign YAML may hold anything anywhere. */
export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value : [];
}

/** Whether an object is of an API group (`cluster.x-k8s.io`, `infrastructure.cluster.x-k8s.io`). */
export function isCapi(source: ManifestSource, group: string): boolean {
  return groupOf(source.manifest.apiVersion) === group;
}

/** `group/version` → `group`; core objects have no group. */
export function groupOf(apiVersion: unknown): string {
  return typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** An object reference in either form: CAPI v1beta2 `apiGroup` or a classic `apiVersion`. */
export interface Reference {
  /** The group (CAPI v1beta2 references), e.g. `infrastructure.cluster.x-k8s.io`. */
  readonly apiGroup?: string;
  /** `group/version` (classic references); read when `apiGroup` is absent. */
  readonly apiVersion?: string;
  /** The kind of the object referred to. */
  readonly kind?: string;
  /** The name of the object referred to, in the referring object's namespace. */
  readonly name?: string;
}

/**
 * The objects indexed for the rules: by kind, and by group/kind/namespace/name for references.
 * A reference resolves within the referring object's namespace, as CAPI resolves it.
 */
export class ManifestGraph {
  /** Every object, in the order given. */
  public readonly sources: readonly ManifestSource[];
  private readonly byKind = new Map<string, ManifestSource[]>();
  private readonly byKey = new Map<string, ManifestSource[]>();

  public constructor(sources: readonly ManifestSource[]) {
    this.sources = sources;
    for (const source of sources) {
      const m = source.manifest;
      const kind = String(m.kind ?? '');
      ManifestGraph.add(this.byKind, kind, source);
      ManifestGraph.add(this.byKey, ManifestGraph.key(groupOf(m.apiVersion), kind, namespaceOf(m), m.metadata?.name), source);
    }
  }

  /** Appends in place: copying the list on each add made indexing quadratic in the objects of a kind. */
  private static add(index: Map<string, ManifestSource[]>, key: string, source: ManifestSource): void {
    const list = index.get(key);
    if (list) list.push(source);
    else index.set(key, [source]);
  }

  private static key(group: string, kind: string, namespace: string, name: unknown): string {
    return `${group}|${kind}|${namespace}|${String(name)}`;
  }

  /** Every object of a kind. */
  public ofKind(kind: string): ManifestSource[] {
    return this.byKind.get(kind) ?? [];
  }

  /** Groups of objects that share group, kind, namespace and name. */
  public duplicates(): ManifestSource[][] {
    return [...this.byKey.values()].filter((list) => list.length > 1);
  }

  /** The object `ref` names from `from`'s namespace, or undefined. */
  public resolve(from: ManifestSource, ref: Reference | undefined): ManifestSource | undefined {
    if (!ref?.kind || !ref.name) return undefined;
    const group = ref.apiGroup ?? groupOf(ref.apiVersion);
    return this.byKey.get(ManifestGraph.key(group, ref.kind, namespaceOf(from.manifest), ref.name))?.[0];
  }

  /** The Cluster named `clusterName` in `from`'s namespace. */
  public cluster(from: ManifestSource, clusterName: unknown): ManifestSource | undefined {
    return this.ofKind('Cluster').find((c) => groupOf(c.manifest.apiVersion) === 'cluster.x-k8s.io'
      && c.manifest.metadata?.name === clusterName && namespaceOf(c.manifest) === namespaceOf(from.manifest));
  }
}

/** The namespace as written; objects without one land in the namespace they are applied to. */
export function namespaceOf(m: Manifest): string {
  return String(m.metadata?.namespace ?? '');
}

/** A violation of `rule` by `source`, in the one error shape. */
export function violation(rule: string, source: ManifestSource, what: string, fix: string, field?: string): ManifestViolation {
  const m = source.manifest;
  return {
    rule,
    kind: String(m.kind ?? '?'),
    name: String(m.metadata?.name ?? '?'),
    namespace: m.metadata?.namespace,
    path: source.path,
    ...whatAndFix(what, fix),
    field,
  };
}

/** `Kind name` (with its namespace when it has one), for messages. */
export function describe(source: ManifestSource): string {
  const m = source.manifest;
  const ns = m.metadata?.namespace ? `${m.metadata.namespace}/` : '';
  return `${m.kind ?? '?'} ${ns}${m.metadata?.name ?? '?'}`;
}

/** A violation's text fields: `what` and `fix` as given (trailing periods trimmed), and the printed `message`. */
export function whatAndFix(what: string, fix: string): { what: string; fix: string; message: string } {
  return { what: trimPeriod(what), fix: trimPeriod(fix), message: problem(what, fix) };
}
