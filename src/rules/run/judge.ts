import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { rendered } from '../../core/render';
import { oncePerSynth } from '../../core/synth-scope';
import { MANIFEST_RULE_SETS } from '../sets';
import type { ClusterInfra } from '../../infra/cluster-infra';
import type { K0smotronInfrastructure } from '../../platform/infrastructures';
import { Manifest, ManifestRule, ManifestSource, ManifestViolation } from '../engine/graph';
import { registry } from '../engine/rule';
import { validateManifests } from '../index';
import { PropsOfFields, refusal } from '../engine/refusal';

export type { PropsOfFields } from '../engine/refusal';

/**
 * How constructs ask the rules (`src/rules`) to judge their objects, twice:
 *
 * - `judgeOwnObjects`, right after a construct has built its objects: the rules of object scope
 *   over those objects and the ones they reference, the first violation thrown as a
 *   `HybridConfigError` that names the prop behind the field;
 * - `manifestProblems`, from the construct's validation at synth: every rule over the app's final
 *   objects, JSON patches included, once per validation pass, each violation reported by the
 *   construct that owns the object (its pool, else its cluster), and violations of objects
 *   outside any cluster (an `Include`d manifest, a hand-written `ApiObject`) by the app's first
 *   cluster.
 */

const PARTICIPANT = Symbol.for('cdk-hybrid-windows.manifest-checks');
const CONTENT_NAMED = new WeakSet<ApiObject>();
/** One validation pass's result: each participant's violations, and those of objects outside any. */
interface Pass {
  readonly first: IConstruct;
  readonly participants: ReadonlySet<IConstruct>;
  readonly owned: Map<IConstruct, ManifestViolation[]>;
  readonly orphans: ManifestViolation[];
}
const PASSES = new WeakMap<IConstruct, Pass>();

/** Cluster API, CAPA, k0smotron and Karpenter groups: the objects the cluster rules read. */
const CAPI_GROUP = /((^|\.)cluster\.x-k8s\.io|^karpenter\.sh|^karpenter\.k8s\.aws)\//;

const INFRA = Symbol.for('cdk-hybrid-windows.infra');
const INFRASTRUCTURE = Symbol.for('cdk-hybrid-windows.infrastructure');

/**
 * The rules over the cluster constructs' objects, as the rule sets say (`judgesConstructs`): the
 * cluster rules, and the API server's OS-independent object validation (`object-meta`), which is
 * registered among the workload rules (so `validateManifests` and the plugin run it once) but
 * holds for every object a cluster writes. Composed through `registry`, so a rule named twice
 * fails at load.
 */
const JUDGED_RULES = registry<ManifestRule>(...MANIFEST_RULE_SETS.map((s) => s.judgesConstructs ?? []));

/**
 * Marks a construct whose validation reports the rule violations of the objects beneath it;
 * `infra`, the AWS stack's outputs its objects are judged against (the `hand-off` rule).
 */
export function participate(construct: IConstruct, infra?: ClusterInfra): void {
  Object.defineProperty(construct, PARTICIPANT, { value: true });
  if (infra) Object.defineProperty(construct, INFRA, { value: infra });
}

/**
 * States the k0smotron infrastructure a construct's objects are of: the objects beneath it are
 * judged with its declaration (`ManifestSource.infrastructure`), so the rules know its kinds in
 * every run that judges them, and in no other.
 */
export function declareInfrastructure(construct: IConstruct, infrastructure: K0smotronInfrastructure): void {
  Object.defineProperty(construct, INFRASTRUCTURE, { value: infrastructure });
}

/** The value under `key` of the nearest construct above `c` (or `c` itself) that was given one. */
function nearest<T>(c: IConstruct, key: symbol): T | undefined {
  for (let at: IConstruct | undefined = c; at; at = at.node.scope) {
    const value = (at as unknown as Record<symbol, T | undefined>)[key];
    if (value) return value;
  }
  return undefined;
}

/** An object as the rules read it, with what the constructs above it state about it. */
function sourceOf(o: ApiObject, manifest: Manifest): ManifestSource {
  return { manifest, path: o.node.path, infra: nearest<ClusterInfra>(o, INFRA), infrastructure: nearest<K0smotronInfrastructure>(o, INFRASTRUCTURE) };
}

/** Marks a template whose name ends in a digest of its `spec.template.spec`. */
export function markContentNamed(obj: ApiObject): void {
  CONTENT_NAMED.add(obj);
}

function isParticipant(c: IConstruct): boolean {
  return (c as unknown as Record<symbol, unknown>)[PARTICIPANT] === true;
}

function run(root: IConstruct): Pass {
  const all = root.node.findAll();
  const participants = all.filter(isParticipant);
  const objects = all.filter((c): c is ApiObject => c instanceof ApiObject && CAPI_GROUP.test(c.apiVersion));
  const violations = validateManifests(
    objects.map((o) => ({ ...sourceOf(o, rendered(o)), contentNamed: CONTENT_NAMED.has(o) })),
    { rules: JUDGED_RULES },
  );
  const byPath = new Map(participants.map((p) => [p.node.path, p]));
  const pass: Pass = { first: participants[0], participants: new Set(participants), owned: new Map(), orphans: [] };
  for (const v of violations) {
    // The nearest participant above the object: its pool, else its cluster.
    let owner: IConstruct | undefined;
    for (let path = parentPath(v.path); path !== undefined && !owner; path = parentPath(path)) owner = byPath.get(path);
    if (!owner) pass.orphans.push(v);
    else if (pass.owned.has(owner)) pass.owned.get(owner)!.push(v);
    else pass.owned.set(owner, [v]);
  }
  PASSES.set(root, pass);
  return pass;
}

function parentPath(path: string | undefined): string | undefined {
  return path?.includes('/') ? path.slice(0, path.lastIndexOf('/')) : undefined;
}

/** The rule violations `construct` reports, as validation messages. */
export function manifestProblems(construct: IConstruct): string[] {
  const root = construct.node.root;
  // cdk8s validates in construct-tree pre-order, so the app's first participant runs the rules
  // afresh for each synth, and the others read its result. A construct added since is not in the
  // last pass, so it runs them too.
  const known = PASSES.get(root);
  const pass = !known || known.first === construct || !known.participants.has(construct) ? oncePerSynth(root, () => run(root)) : known;
  const own = (pass.owned.get(construct) ?? []).map((v) => `${v.kind} ${v.name}: ${v.message}`);
  const orphans = pass.first === construct ? pass.orphans.map((v) => `${v.path ?? '(no construct)'} (${v.kind} ${v.name}): ${v.message}`) : [];
  return [...own, ...orphans];
}

/**
 * Judges the objects a construct has just built (`own`) with the rules of object scope (`JUDGED_RULES`),
 * beside the objects they reference (`context`), and throws every violation of an `own` object
 * as one `HybridConfigError` naming the construct path, the prop behind the field (from
 * `props`), the rule, the object and the fix. The same rules judge the final objects at synth.
 */
export function judgeOwnObjects(construct: IConstruct, own: readonly ApiObject[], context: readonly ApiObject[], props: PropsOfFields): void {
  const mine = new Set(own.map((o) => o.node.path));
  const sources = [...own, ...context].map((o) => sourceOf(o, o.toJson()));
  const violations = validateManifests(sources, { rules: JUDGED_RULES.filter((r) => r.scope === 'object') })
    .filter((v) => v.path !== undefined && mine.has(v.path));
  const error = refusal(construct.node.path, violations, props, (v) => `${v.kind} ${v.name}`);
  if (error) throw error;
}
