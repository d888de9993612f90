import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CLUSTER_RULES, HybridConfigError, Manifest, ManifestViolation, validateManifests } from '../../src';
import { WorkerPool } from '../../src/k0s/worker-pool';
import { OBJECT_META_RULE } from '../../src/rules/meta/object-meta';
import { judged } from './judge-spy';

/** The rules the constructs are judged by at construction: the cluster rules and `object-meta`, of object scope. */
export const OBJECT_RULES = [...CLUSTER_RULES, OBJECT_META_RULE].filter((r) => r.scope === 'object');

/** The objects `c` wrote itself: beneath it, and not beneath a pool of its own. */
export function ownObjects(c: IConstruct): ApiObject[] {
  return c.node.findAll().filter((o): o is ApiObject => o instanceof ApiObject
    && o.node.scopes.slice(c.node.scopes.length, -1).every((s) => !(s instanceof WorkerPool)));
}

/** The objects `c`'s own reference: a pool's cluster's own (the Cluster, its control plane); none for the others. */
export function referenced(c: IConstruct): ApiObject[] {
  return c instanceof WorkerPool ? ownObjects(c.node.scope!) : [];
}

/** What the object-scope rules report of `own` (manifests at `ownPaths`), judged beside `context`. */
export function judge(own: readonly Manifest[], ownPaths: readonly string[], context: readonly ApiObject[] = []): ManifestViolation[] {
  const sources = [...own.map((manifest, i) => ({ manifest, path: ownPaths[i] })), ...context.map((o) => ({ manifest: o.toJson(), path: o.node.path }))];
  return validateManifests(sources, { rules: OBJECT_RULES }).filter((v) => v.path !== undefined && ownPaths.includes(v.path));
}

/** What the object-scope rules report of `c`'s own objects as they are now, beside what they reference. */
export function judgeOwn(c: IConstruct): ManifestViolation[] {
  const own = ownObjects(c);
  return judge(own.map((o) => o.toJson()), own.map((o) => o.node.path), referenced(c));
}

/**
 * The judgement at construction holds on its own (issue 21 step 4): a built cluster's constructs
 * each judged all their own objects, which the object-scope rules still pass, fed alone (beside
 * what they reference) once everything is built; a refusal by a rule is that rule's finding on
 * the objects written with the judge bypassed, judged among all the app's objects. A property
 * test that calls it mocks the judge module with `judgeModule` (test/support/judge-spy.ts).
 */
export function expectOwnJudgement(build: () => IConstruct): 'built' | 'refused by a rule' | 'refused' {
  const run = judged(build);
  if (run.built) {
    expect(run.calls.length).toBeGreaterThan(0);
    for (const call of run.calls) {
      // The constructor judged every object it wrote, and they still pass.
      expect(call.own.map((o) => o.node.path).sort()).toEqual(ownObjects(call.construct).map((o) => o.node.path).sort());
      expect(judgeOwn(call.construct).map((v) => `${v.path}: ${v.rule} ${v.message}`)).toEqual([]);
    }
    return 'built';
  }
  const refused = run.thrown;
  if (!(refused instanceof HybridConfigError) || refused.rule === undefined) return 'refused';
  const bypassed = judged(build, true);
  // Past the bypassed judge, a later constructor may still refuse a prop's form (no rule); anything else fails the test.
  if (bypassed.thrown !== undefined && !(bypassed.thrown instanceof HybridConfigError && bypassed.thrown.rule === undefined)) throw bypassed.thrown;
  const call = bypassed.calls.find((c) => c.construct.node.path === refused.path && c.error !== undefined)!;
  expect((call.error as HybridConfigError).message).toBe(refused.message);
  const objects = call.construct.node.root.node.findAll().filter((o): o is ApiObject => o instanceof ApiObject);
  const own = new Set(ownObjects(call.construct).map((o) => o.node.path));
  const found = validateManifests(objects.map((o) => ({ manifest: o.toJson(), path: o.node.path })), { rules: OBJECT_RULES })
    .filter((v) => v.path !== undefined && own.has(v.path));
  expect(found.map((v) => v.rule)).toContain(refused.rule);
  return 'refused by a rule';
}
