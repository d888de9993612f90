import { problem, trimPeriod } from '../../core/errors';

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
  /** What to do about it (no trailing period), in the terms of its author: a construct's props for objects this library builds. */
  readonly fix: string;
  /**
   * What to change in the YAML, naming the field, when `fix` speaks of constructs and props
   * (`cdk-hybrid-windows validate` prints it; no trailing period).
   * @default - `fix`, which then names the field itself
   */
  readonly yamlFix?: string;
  /** The printed line: "<what>. Fix: <fix>." */
  readonly message: string;
  /** Where in the object: a dotted field path such as `spec.replicas`. */
  readonly field?: string;
}

/**
 * What a rule reports before the engine names it: a violation without its `rule`, which the
 * engine attaches from the rule's own name.
 */
export type Finding = Omit<ManifestViolation, 'rule'>;

/**
 * What a rule needs to see to judge an object. `object`: the object and what it references (a
 * pool's own objects and its cluster's), so it runs as soon as a construct has built them and
 * again at synth. `graph`: every object of the app (names unique across charts, a Linux worker
 * somewhere in the cluster), so it runs at synth only.
 */
export type RuleScope = 'object' | 'graph';

/**
 * A rule as data: its name, what it needs to see, what it judges and whose behaviour it encodes,
 * and the check. `G` is what it reads: a `ManifestGraph` (Kubernetes objects) or a
 * `TerraformGraph` (Terraform JSON). Rules are pure: they read the graph and report.
 */
export interface Rule<G> {
  /** The rule's name, reported in each violation and in `HybridConfigError.rule`, e.g. `version-skew`. */
  readonly name: string;
  /** What the rule needs to see (`RuleScope`): `object` rules also run at construction. */
  readonly scope: RuleScope;
  /** What the rule judges, in one line (the generated rule list, docs/rules.md, shows it). */
  readonly description: string;
  /**
   * The upstream code or document whose behaviour the rule encodes (repository, tag, path).
   * @default - none stated
   */
  readonly source?: string;
  /** The violations in `graph`; an empty list when it passes. */
  check(graph: G): ManifestViolation[];
  /**
   * Recommendations that are not requirements: reported by `adviseManifests` and the plugin's
   * report, never as a violation.
   * @default - none
   */
  advise?(graph: G): ManifestViolation[];
}

/**
 * One registry of rules as every reader names it: the defaults of `validateManifests` and
 * `validateTerraform`, the cdk8s plugin's `ruleSets`, `validate --rules` and `--list-rules`, the
 * construct judge and docs/rules.md all read the tables of these (`RULE_SETS`), never a list of
 * their own (kube-linter keeps one check registry for its command, config and docs the same way).
 */
export interface RuleSet<R extends { readonly name: string } = Rule<unknown>> {
  /**
   * The name `validate --rules`, the config file's `rules` and the plugin's `ruleSets` select it
   * by (`cluster`, `workloads`, `eks`, `terraform`); a set may span registries (`terraform`, one per cloud).
   */
  readonly name: string;
  /** The exported constant that holds its rules, e.g. `CLUSTER_RULES`. */
  readonly registry: string;
  /** Its heading in docs/rules.md, e.g. `Cluster objects`. */
  readonly title: string;
  /** What its rules judge and where they run, in one sentence. */
  readonly description: string;
  /** What its rules read: Kubernetes objects (`validateManifests`) or Terraform JSON (`validateTerraform`). */
  readonly input: 'kubernetes' | 'terraform';
  /** Whether a run that names no set applies it (`eks` only applies where the objects are for EKS). */
  readonly byDefault: boolean;
  /** Its rules, in the order their messages are reported. */
  readonly rules: readonly R[];
  /**
   * Rules of the set that hold on a platform and join the workload rules there
   * (`validateManifests`' `platform`, `validate --platform`), by the platform's name.
   * @default - none
   */
  readonly platforms?: Readonly<Record<string, readonly R[]>>;
  /**
   * Its rules that also judge the objects of this library's constructs, at construction (those of
   * object scope) and in their validation at synth.
   * @default - none
   */
  readonly judgesConstructs?: readonly R[];
}

/**
 * A rule's definition for `rule()`: its data, and checks that report findings, which the engine
 * names after the rule.
 * @internal
 */
export interface RuleDefinition<G> {
  readonly name: string;
  /** Stated on every rule: there is no default. */
  readonly scope: RuleScope;
  readonly description: string;
  readonly source: string;
  check(graph: G): Finding[];
  advise?(graph: G): Finding[];
}

/**
 * The one way this library defines a rule, for Kubernetes objects and Terraform JSON alike: the
 * engine attaches the rule's name to every finding, so a check never repeats it.
 * @internal
 */
export function rule<G>(definition: RuleDefinition<G>): Rule<G> {
  const { name, scope, description, source, check, advise } = definition;
  const named = (findings: Finding[]): ManifestViolation[] => findings.map((f) => ({ rule: name, ...f }));
  return {
    name, scope, description, source,
    check: (graph) => named(check(graph)),
    ...(advise ? { advise: (graph: G) => named(advise(graph)) } : {}),
  };
}

/**
 * A registry of rules, in the order their messages are reported: refuses two rules of one name,
 * since a violation's rule name is how users and `HybridConfigError.rule` tell them apart.
 * @internal
 */
export function registry<R extends { readonly name: string }>(...lists: ReadonlyArray<readonly R[]>): readonly R[] {
  const all = lists.flat();
  const seen = new Set<string>();
  for (const r of all) {
    if (seen.has(r.name)) throw new Error(`two rules are named "${r.name}": give each rule its own name`);
    seen.add(r.name);
  }
  return Object.freeze(all);
}

/** A violation's text fields: `what` and `fix` as given (trailing periods trimmed), and the printed `message`. */
export function whatAndFix(what: string, fix: string): { what: string; fix: string; message: string } {
  return { what: trimPeriod(what), fix: trimPeriod(fix), message: problem(what, fix) };
}

/**
 * What to change in the YAML for a violation: its `yamlFix`, else its `fix`, which is prefixed with
 * the field when it does not name it (`spec.version: write it like "v1.34.10+k0s.0"`).
 * @internal
 */
export function yamlFixOf(v: Pick<ManifestViolation, 'fix' | 'yamlFix' | 'field'>): string {
  if (v.yamlFix !== undefined) return v.yamlFix;
  return v.field !== undefined && !v.fix.includes(v.field) ? `${v.field}: ${v.fix}` : v.fix;
}
