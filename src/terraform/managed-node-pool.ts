import { Construct, IConstruct } from 'constructs';
import { choice, Exclusion, optional, PropEntry, propsSpec, PropsSpec, stringRecord, text, TextOptions } from '../core/props-spec';
import { WindowsVersion } from '../platform/windows';
import type { PropsOfFields } from '../rules/engine/refusal';
import { judgeOwnResources } from './judge';
import type { TerraformElement } from './cdktn';

/**
 * What the managed clouds' node pools share (EKS node groups, AKS and GKE node pools): one
 * vocabulary for the props, the props spec that also takes each cloud's former names as
 * deprecated aliases, the Windows release, the OS part, and the refusals at construction naming
 * the prop the user wrote. A cloud is a base class of its own (`EksNodeGroupBase`,
 * `AksNodePoolBase`, `GkeNodePoolBase`) that makes its resources; its Linux and Windows pools
 * give the OS part (docs/architecture.md, "A new managed cloud").
 *
 * The words, one per concept (docs/architecture.md, "A new managed cloud"):
 * - `poolName`: the pool's name in the cloud;
 * - `machineType` (`machineTypes` on EKS, which takes several): the VM size;
 * - `minNodes` / `maxNodes` (and `desiredNodes` on EKS): the pool's node count, in total on EKS
 *   and AKS; GKE counts per zone (the provider's `min_node_count` is per zone), so its props keep
 *   `minNodesPerZone` / `maxNodesPerZone`, a different meaning under a different name;
 * - `diskSizeGiB`: the root disk (GKE's `disk_size_gb` is binary GB: Compute Engine's 64 TiB
 *   disks are its 65,536 "GB");
 * - `labels`, `kubernetesVersion`, `windowsVersion`: as before;
 * - `resources`: the Terraform resources the pool made (formerly `parts`, and `pool` on AKS).
 */

/** Props every managed node pool takes. */
export interface ManagedNodePoolOptions {
  /**
   * The pool's name in the cloud (the EKS node group name, the AKS or GKE node pool name).
   * @default - the construct id
   */
  readonly poolName?: string;
  /**
   * Kubernetes labels of the nodes.
   * @default - none
   */
  readonly labels?: Record<string, string>;
}

/**
 * The entries of `ManagedNodePoolOptions`, with the form of the cloud's pool names.
 * @internal
 */
export function managedNodePoolEntries(poolName: TextOptions): { readonly [K in keyof ManagedNodePoolOptions]-?: PropEntry } {
  return { poolName: optional(text(poolName)), labels: optional(stringRecord()) };
}

/**
 * The entry of a Windows pool's `windowsVersion`, the same in every cloud.
 * @internal
 */
export const WINDOWS_VERSION_ENTRY: PropEntry<WindowsVersion> = optional(choice(WindowsVersion, 'WindowsVersion'));

/**
 * The release of a Windows pool: `windowsVersion`, Windows Server 2022 unless given.
 * @internal
 */
export function windowsRelease(props: { readonly windowsVersion?: WindowsVersion }): WindowsVersion {
  return props.windowsVersion ?? WindowsVersion.SERVER_2022;
}

/**
 * What the operating system decides of a pool, beside what its cloud makes of the shared props:
 * each cloud extends it with its own fields (AMI type, `os_sku`, image type, taints).
 */
export interface ManagedOsPart {
  /** The Windows release of a Windows pool; undefined for Linux. */
  readonly windowsVersion?: WindowsVersion;
  /** Which props of the OS's construct set which fields, beyond the cloud's shared ones. */
  readonly propsOfFields?: PropsOfFields;
}

/**
 * A props spec whose props may also be given by their deprecated names.
 * @internal
 */
export interface VocabularySpec<P> extends PropsSpec<P> {
  /** The deprecated names, each to its prop. */
  readonly deprecated: Readonly<Record<string, string>>;
  /**
   * The props under their current names, and `named`, which rewrites a text naming props (a
   * props-of-fields table's values) in the vocabulary the user wrote: the deprecated names when
   * any was given.
   */
  parseNamed(path: string, props: unknown, prefix?: string): { readonly props: P; readonly named: (text: string) => string };
}

/**
 * A props spec of the `current` props where each of `deprecated` (old name → current name) is a
 * prop of its own, taking what the current one takes: giving one of the two is the same, giving both is refused naming
 * both. A required prop is missing only when neither name is given.
 * @internal
 */
export function vocabularySpec<P, D extends Readonly<Record<string, string>>>(
  name: string, current: { readonly [K in Exclude<keyof P, keyof D>]-?: PropEntry }, deprecated: D, exclusions: readonly Exclusion<P>[] = [], prefix = '',
): VocabularySpec<P> {
  const now = current as Readonly<Record<string, PropEntry>>;
  // Each deprecated name takes what its prop takes, never required itself.
  const all: Readonly<Record<string, PropEntry>> = { ...now, ...Object.fromEntries(Object.entries(deprecated).map(([was, is]) => [was, optional({ ...now[is].kind, constraint: `deprecated: the former name of \`${is}\`, ${now[is].kind.constraint}` })])) };
  const entries = all as { readonly [K in keyof P]-?: PropEntry };
  const strict = propsSpec<P>(name, entries, exclusions);
  const both: Exclusion<P>[] = Object.entries(deprecated).map(([old, now]) => ({
    props: [old, now] as unknown as Exclusion<P>['props'],
    what: `both ${prefix}${old} and ${prefix}${now} are set`,
    fix: `give ${prefix}${now} only (${prefix}${old} is its deprecated name)`,
  }));
  // Required under either name: the spec's parse takes both as optional, and the check follows.
  const loose = propsSpec<P>(name, Object.fromEntries(Object.entries(all).map(([k, e]) => [k, Object.values(deprecated).includes(k) ? { ...e, whenMissing: undefined } : e])) as never, [...exclusions, ...both]);
  const formerly = Object.fromEntries(Object.entries(deprecated).map(([was, now]) => [now, was]));
  const words = new RegExp(`\\b(${Object.values(deprecated).join('|') || '(?!)'})\\b`, 'g');
  const parseNamed = (path: string, props: unknown, at = prefix): { props: P; named: (text: string) => string } => {
    // The whole-object refusals, worded with the required props.
    if (props === null || typeof props !== 'object' || Array.isArray(props)) props = strict.parse(path, props, at);
    const parsed = loose.parse(path, props, at) as Record<string, unknown>;
    let old = false;
    for (const [was, now] of Object.entries(deprecated)) {
      if (!(was in parsed)) continue;
      parsed[now] = parsed[was];
      delete parsed[was];
      old = true;
    }
    for (const now of Object.values(deprecated)) {
      if (all[now].whenMissing !== undefined && !(now in parsed)) propsSpec(name, { [now]: all[now] }).parse(path, {}, at);
    }
    // A user who wrote a deprecated name reads every message in that vocabulary, not in a mix.
    return { props: parsed as P, named: old ? (t) => t.replace(words, (w) => formerly[w] ?? w) : (t) => t };
  };
  return {
    name,
    entries,
    exclusions: [...exclusions, ...both],
    deprecated,
    parse: (path, props, at) => {
      const { props: parsed, named } = parseNamed(path, props, at);
      // Kept on the parsed props for `namedOf`, where a spec parses them nested (`systemPool`).
      Object.defineProperty(parsed, NAMED, { value: named });
      return parsed;
    },
    parseNamed,
  };
}

const NAMED = Symbol('named');

/**
 * The `named` of props a `VocabularySpec` parsed as a nested props object (`record(spec)`), or
 * the identity for props it did not parse.
 * @internal
 */
export function namedOf(parsed: object | undefined): (text: string) => string {
  return (parsed as { [NAMED]?: (text: string) => string } | undefined)?.[NAMED] ?? ((t) => t);
}

/**
 * A props-of-fields table naming the props in the vocabulary the user wrote (`named`), so that a
 * refusal at construction names the prop as given; its fix is the rule's, in the current words.
 * @internal
 */
export function namedFields(table: PropsOfFields, named: (text: string) => string): PropsOfFields {
  return Object.fromEntries(Object.entries(table).map(([field, props]) => [field, named(props)]));
}

/** What a cloud's base makes of a pool: the resources it hands out, and those the rules judge at construction. */
export interface ManagedPoolBuild<R> {
  /** The resources the construct hands out (`resources`). */
  readonly resources: R;
  /** The Terraform elements judged at construction. */
  readonly judged: readonly TerraformElement[];
}

/**
 * A node pool of a managed cloud: parses its props (deprecated names included), asks its OS part,
 * makes the cloud's resources and has the Terraform rules judge them at once, naming the props the
 * user wrote. Each cloud extends it once; its Linux and Windows pools give the OS part.
 */
export abstract class ManagedNodePool<C extends IConstruct, P extends object, O extends ManagedOsPart, R> extends Construct {
  /** The Terraform resources the pool made, for their attributes and for escape hatches. */
  public readonly resources: R;
  /** What the pool's operating system decided. */
  protected readonly os: O;

  /** @internal */
  protected constructor(cluster: C, id: string, spec: VocabularySpec<P>, given: P) {
    super(cluster, id);
    const { props, named } = spec.parseNamed(this.node.path, given);
    this.os = this.osPart(props);
    const built = this.createPool(cluster, props, this.os);
    this.resources = built.resources;
    judgeOwnResources(this, built.judged, namedFields({ ...this.propsOfFields(), ...this.os.propsOfFields }, named));
  }

  /** The OS part of the pool, from its parsed props (refusing what its OS cannot run). */
  protected abstract osPart(props: P): O;

  /** The cloud's resources for the pool. */
  protected abstract createPool(cluster: C, props: P, os: O): ManagedPoolBuild<R>;

  /** Which prop (by its current name) sets which field of the cloud's resources, for messages at construction. */
  protected abstract propsOfFields(): PropsOfFields;
}

/**
 * The exclusion of a stack's `network` (to create) and `existingNetwork` (to use), the same on
 * every cloud.
 * @internal
 */
export function networkExclusion<P extends { readonly network?: unknown; readonly existingNetwork?: unknown }>(): Exclusion<P> {
  return { props: ['network', 'existingNetwork'] as unknown as Exclusion<P>['props'], what: 'both network and existingNetwork are set', fix: 'give network (to create one) or existingNetwork (to use yours), not both' };
}
