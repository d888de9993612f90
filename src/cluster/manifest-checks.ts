import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CLUSTER_RULES } from '../rules/cluster-rules';
import { ManifestViolation } from '../rules/graph';
import { validateManifests } from '../rules/index';

/**
 * Runs the cluster rules (`src/rules`) on the app's final objects from the cluster constructs'
 * validations: once per validation pass, each violation reported by the construct that owns the
 * object (its pool, else its cluster), and violations of objects outside any cluster (an
 * `Include`d manifest, a hand-written `ApiObject`) by the app's first cluster.
 */

const PARTICIPANT = Symbol.for('cdk-hybrid-windows.manifest-checks');
const CONTENT_NAMED = new WeakSet<ApiObject>();
const RESULTS = new WeakMap<IConstruct, ManifestViolation[]>();

/** Cluster API, CAPA and k0smotron groups: the objects the cluster rules read. */
const CAPI_GROUP = /(^|\.)cluster\.x-k8s\.io\//;

/** Marks a construct whose validation reports the rule violations of the objects beneath it. */
export function participate(construct: IConstruct): void {
  Object.defineProperty(construct, PARTICIPANT, { value: true });
}

/** Marks a template whose name ends in a digest of its `spec.template.spec`. */
export function markContentNamed(obj: ApiObject): void {
  CONTENT_NAMED.add(obj);
}

function isParticipant(c: IConstruct): boolean {
  return (c as unknown as Record<symbol, unknown>)[PARTICIPANT] === true;
}

function run(root: IConstruct): ManifestViolation[] {
  const objects = root.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && CAPI_GROUP.test(c.apiVersion));
  const violations = validateManifests(
    objects.map((o) => ({ manifest: o.toJson(), path: o.node.path, contentNamed: CONTENT_NAMED.has(o) })),
    { rules: CLUSTER_RULES },
  );
  RESULTS.set(root, violations);
  return violations;
}

/**
 * The rule violations `construct` reports, as validation messages. `said` drops the violations
 * the construct has already explained better from its props.
 */
export function manifestProblems(construct: IConstruct, said: (v: ManifestViolation) => boolean = () => false): string[] {
  const root = construct.node.root;
  const participants = root.node.findAll().filter(isParticipant);
  // cdk8s validates in construct-tree pre-order, so the first participant runs the rules afresh
  // for each synth and the others read its result.
  const first = participants[0] === construct;
  const violations = first ? run(root) : RESULTS.get(root) ?? run(root);
  const ownerOf = (path: string | undefined) => participants
    .filter((p) => path !== undefined && path.startsWith(`${p.node.path}/`))
    .sort((a, b) => b.node.path.length - a.node.path.length)[0];
  return violations.flatMap((v) => {
    const owner = ownerOf(v.path);
    if (owner === construct) return said(v) ? [] : [`${v.kind} ${v.name}: ${v.message}`];
    if (!owner && first) return [`${v.path ?? '(no construct)'} (${v.kind} ${v.name}): ${v.message}`];
    return [];
  });
}
