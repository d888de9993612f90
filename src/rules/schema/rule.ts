import { ManifestGraph, ManifestRule, ManifestSource, Json, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { DEFAULT_KUBERNETES_VERSION } from './versions';
import type { CustomResourceDefinition, SchemaResult, SchemaValidator } from './validator';

/** What the schema check judges against. */
export interface SchemaRuleOptions {
  /**
   * The Kubernetes minor whose API schema core objects are checked against (`KUBERNETES_MINORS`).
   * @default DEFAULT_KUBERNETES_VERSION, the newest minor the library supports
   */
  readonly kubernetesVersion?: string;
  /**
   * CRDs (apiextensions.k8s.io/v1 objects) of custom resources beyond the ones this library knows;
   * CRDs among the judged objects count too.
   * @default - the pinned CRDs of Cluster API, CAPA, CAPZ, k0smotron and Karpenter, and those judged
   */
  readonly crds?: readonly CustomResourceDefinition[];
  /**
   * An object whose kind no schema covers is a violation rather than advice.
   * @default false
   */
  readonly strict?: boolean;
}

function load(): typeof import('./validator') {
  // The generated schemas and ajv cost tens of milliseconds to load: only a run that checks pays it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./validator') as typeof import('./validator');
}

/**
 * The schema check as a rule: every object against its kind's schema, as the API server checks it
 * on `kubectl apply` (unknown fields refused, types, enums, required fields, a CRD's CEL rules).
 * An object of a kind no schema covers is reported as not checked (advice; a violation with
 * `strict`); one of a Kubernetes API group in a version that minor does not serve is refused.
 */
export function schemaRule(options: SchemaRuleOptions = {}): ManifestRule {
  const minor = options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  let plain: SchemaValidator | undefined;
  // One judgement per graph, read by check and advise alike.
  const judged = new WeakMap<ManifestGraph, Array<{ source: ManifestSource; result: SchemaResult }>>();
  const judge = (graph: ManifestGraph) => {
    let results = judged.get(graph);
    if (results) return results;
    const inGraph = graph.sources.map((s) => s.manifest as Json).filter((m) => m.kind === 'CustomResourceDefinition' && String(m.apiVersion).startsWith('apiextensions.k8s.io/'));
    const crds = [...(options.crds ?? []), ...inGraph];
    const { SchemaValidator } = load();
    const validator = crds.length === 0 ? (plain ??= new SchemaValidator(minor)) : new SchemaValidator(minor, crds);
    results = graph.sources.map((source) => ({ source, result: validator.check(source.manifest) }));
    judged.set(graph, results);
    return results;
  };
  const unchecked = (graph: ManifestGraph, asViolation: boolean): Finding[] => judge(graph).flatMap(({ source, result }) =>
    !result.checked && (result.refused || options.strict) === asViolation ? [violation(source, result.what, result.fix, result.refused ? 'apiVersion' : undefined)] : []);
  return rule<ManifestGraph>({
    name: 'schema',
    // Every object of the app once, at synth: compiling a kind's schema is not for each construct.
    scope: 'graph',
    description: `Every object passes its kind's schema as the API server checks it on kubectl apply (unknown fields refused, types, enums, required fields): core objects against the Kubernetes ${minor} API, and the pinned CRDs of Cluster API, CAPA, CAPZ, k0smotron and Karpenter and any CRD given, with their CEL rules`,
    source: 'kubernetes/kubernetes api/openapi-spec of each minor, as @kubernetes/client-node is generated from it (enums: kubernetes-models); the pinned CRDs; kubectl --validate=strict',
    check: (graph) => [
      ...judge(graph).flatMap(({ source, result }) => (result.checked ? result.problems.map((p) => violation(source, `${p.field ? `${p.field}: ` : ''}${p.what}`, p.fix, p.field)) : [])),
      ...unchecked(graph, true),
    ],
    advise: (graph) => unchecked(graph, false),
  });
}

/** The schema check against the newest supported minor and the pinned CRDs: what synth runs. */
export const SCHEMA_RULE: ManifestRule = schemaRule();
