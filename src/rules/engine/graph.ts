import type { ClusterInfra } from '../../infra/cluster-infra';
import { trimPeriod } from '../../core/errors';
import { BUILT_IN_INFRASTRUCTURES, K0smotronInfrastructure } from '../../platform/infrastructures';
import type { NodeTaint, WindowsPlatform } from '../../platform/support';
import { Infrastructures } from './infrastructure';
import { Finding, Rule, whatAndFix } from './rule';

export type { ManifestViolation, RuleScope } from './rule';
export { whatAndFix } from './rule';

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
  /**
   * The AWS stack's outputs the object's cluster was built with (`HybridCluster` `infra`): the
   * `hand-off` rule judges the object against them.
   * @default - the object is judged on its own
   */
  readonly infra?: ClusterInfra;
  /**
   * The declaration of the k0smotron infrastructure whose construct built the object: every rule
   * then knows that infrastructure's kinds for this run, beside `ManifestGraphContext.infrastructures`.
   * @default - the object's kinds are looked up among the run's infrastructures
   */
  readonly infrastructure?: K0smotronInfrastructure;
}

/** A rule over Kubernetes objects (`rule()` in the engine defines this library's). */
export type ManifestRule = Rule<ManifestGraph>;

/** The value when it is an array, else none: foreign YAML may hold anything anywhere. */
export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Calls `visit` with the object, or, for a `v1 List` (what `kubectl get -o yaml` writes; kubectl
 * applies each item), with each item and the prefix of its fields (`items[i].`).
 */
export function eachItem(manifest: Manifest, visit: (item: Json, prefix: string) => void): void {
  if (manifest.kind === 'List' && Array.isArray(manifest.items)) manifest.items.forEach((item: Json, i: number) => visit(item, `items[${i}].`));
  else visit(manifest, '');
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

/** What the engine knows about where the objects run, beyond the objects themselves. */
export interface ManifestGraphContext {
  /**
   * The taint the cluster's Windows nodes carry, which Windows pods must tolerate.
   * @default - not known: a Windows pod need tolerate no taint (it must still select Windows)
   */
  readonly windowsTaint?: NodeTaint;
  /**
   * The platform the objects are for: what it runs (`WINDOWS_SUPPORT`) decides whether Windows
   * pods can be scheduled at all.
   * @default - not known: Windows nodes are assumed
   */
  readonly platform?: WindowsPlatform;
  /**
   * The k0smotron infrastructures the rules know by their kinds (a Cluster's `infrastructureRef`, a
   * machine template), beside those the objects carry (`ManifestSource.infrastructure`).
   * @default - the built-in ones, AWS and remote hosts (`BUILT_IN_INFRASTRUCTURES`)
   */
  readonly infrastructures?: readonly K0smotronInfrastructure[];
}

/**
 * The objects indexed for the rules: by kind, and by group/kind/namespace/name for references.
 * A reference resolves within the referring object's namespace, as CAPI resolves it.
 */
export class ManifestGraph {
  /** Every object, in the order given. */
  public readonly sources: readonly ManifestSource[];
  /** Where the objects run (`ManifestGraphContext`). */
  public readonly context: ManifestGraphContext;
  /** The infrastructures this run knows: the context's, and those the objects carry. */
  public readonly infrastructures: Infrastructures;
  private readonly byKind = new Map<string, ManifestSource[]>();
  private readonly byKey = new Map<string, ManifestSource[]>();

  public constructor(sources: readonly ManifestSource[], context: ManifestGraphContext = {}) {
    this.sources = sources;
    this.context = context;
    const carried = sources.flatMap((s) => (s.infrastructure ? [s.infrastructure] : []));
    this.infrastructures = new Infrastructures([...(context.infrastructures ?? BUILT_IN_INFRASTRUCTURES), ...carried]);
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

/** A finding about `source`, in the one error shape; the engine adds the rule's name. */
export function violation(source: ManifestSource, what: string, fix: string, field?: string, yamlFix?: string): Finding {
  const m = source.manifest;
  return {
    kind: String(m.kind ?? '?'),
    name: String(m.metadata?.name ?? '?'),
    namespace: m.metadata?.namespace,
    path: source.path,
    ...whatAndFix(what, fix),
    field,
    ...(yamlFix !== undefined ? { yamlFix: trimPeriod(yamlFix) } : {}),
  };
}

/** `Kind name` (with its namespace when it has one), for messages. */
export function describe(source: ManifestSource): string {
  const m = source.manifest;
  const ns = m.metadata?.namespace ? `${m.metadata.namespace}/` : '';
  return `${m.kind ?? '?'} ${ns}${m.metadata?.name ?? '?'}`;
}
