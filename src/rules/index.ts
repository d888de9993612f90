import { Manifest, ManifestGraph, ManifestGraphContext, ManifestRule, ManifestSource, ManifestViolation, whatAndFix } from './engine/graph';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import { NodeTaint, WindowsPlatform, windowsNodeTaint } from '../platform/support';
import { manifestRulesOf } from './sets';

export { CLUSTER_RULES } from './cluster/cluster-rules';
export { EKS_WORKLOAD_RULES, WORKLOAD_RULES } from './pods/workload-rules';
export { MANIFEST_RULE_SETS, platformRules } from './sets';
export type { Manifest, ManifestGraphContext, ManifestRule, ManifestSource, ManifestViolation, Reference, RuleScope } from './engine/graph';
export { ManifestGraph } from './engine/graph';
export type { Infrastructures } from './engine/infrastructure';

/** Options of `validateManifests`. */
export interface ValidateManifestsOptions {
  /**
   * The rules to apply.
   * @default - the rule sets applied by default (`MANIFEST_RULE_SETS`: `CLUSTER_RULES` and `WORKLOAD_RULES`), and those of `platform`
   */
  readonly rules?: readonly ManifestRule[];

  /**
   * The platform the objects are for. Windows pods must tolerate the taint its Windows nodes carry
   * (`windowsNodeTaint`: this library's `os=windows:NoSchedule` on its k0smotron clusters and its
   * EKS and AKS pools, GKE's `node.kubernetes.io/os=windows:NoSchedule` on GKE, none on RKE2), on a
   * platform without Windows nodes (k3s) a Windows pod is refused (`windows-nodes`), and its own rules
   * are added to the default ones (`platformRules`): `WindowsPlatform.EKS` adds
   * `EKS_WORKLOAD_RULES` (a Windows pod gets an address only when its nodeSelector names Windows;
   * load balancers stay off Windows nodes), `WindowsPlatform.K0SMOTRON_AWS` the load balancer rule.
   * @default - none: only the rules that hold on every platform (a Windows pod must select
   * Windows, and need tolerate no taint)
   */
  readonly platform?: WindowsPlatform;

  /**
   * The taint Windows nodes carry, which Windows pods must tolerate, when it is not the
   * platform's (a cluster tainted by hand); `'none'` when they carry none.
   * @default - the platform's (`windowsNodeTaint(platform)`), none without a platform
   */
  readonly windowsTaint?: NodeTaint | 'none';

  /**
   * The k0smotron infrastructures the rules know by their kinds, for objects of an infrastructure
   * this library does not build (a construct's objects carry their own declaration,
   * `ManifestSource.infrastructure`). Give the built-in ones too to keep judging them:
   * `[...BUILT_IN_INFRASTRUCTURES, mine]`.
   * @default - the built-in ones (`BUILT_IN_INFRASTRUCTURES`: AWS and remote hosts)
   */
  readonly infrastructures?: readonly K0smotronInfrastructure[];
}

/**
 * The taint Windows pods must tolerate under `options`: the one named, else the platform's, else none.
 * @internal
 */
export function windowsTaintOf(options: Pick<ValidateManifestsOptions, 'platform' | 'windowsTaint'>): NodeTaint | undefined {
  if (options.windowsTaint !== undefined) return options.windowsTaint === 'none' ? undefined : options.windowsTaint;
  return options.platform === undefined ? undefined : windowsNodeTaint(options.platform);
}

/** Where the objects run, as the rules see it (`ManifestGraphContext`). */
function contextOf(options: ValidateManifestsOptions): ManifestGraphContext {
  return { platform: options.platform, windowsTaint: windowsTaintOf(options), infrastructures: options.infrastructures };
}

function isSource(item: Manifest | ManifestSource): item is ManifestSource {
  return typeof (item as ManifestSource).manifest === 'object' && (item as Manifest).kind === undefined;
}

/**
 * Applies this library's rules to a set of Kubernetes objects: those a cdk8s app synthesizes,
 * or YAML from anywhere else (parse it with the `yaml` package first). The set should be
 * complete: a reference to a template that is not in it is reported.
 *
 * @returns every violation, empty when the objects pass.
 */
export function validateManifests(objects: ReadonlyArray<Manifest | ManifestSource>, options: ValidateManifestsOptions = {}): ManifestViolation[] {
  return violationsOf(new ManifestGraph(sourcesOf(objects), contextOf(options)), options);
}

/** The rules a run applies: those given, else the default sets and the platform's. */
function rulesOf(options: ValidateManifestsOptions): readonly ManifestRule[] {
  return options.rules ?? manifestRulesOf(undefined, options.platform);
}

function violationsOf(graph: ManifestGraph, options: ValidateManifestsOptions): ManifestViolation[] {
  const all = rulesOf(options).flatMap((r) => {
    try {
      return r.check(graph);
    } catch (e) {
      // Only for objects no YAML of a real cluster holds (e.g. a `toString` key where a string
      // belongs): report the rule that could not read them rather than a stack trace.
      return [{
        rule: r.name, kind: '?', name: '?',
        ...whatAndFix(`rule ${r.name} could not read the objects (${(e as Error).message})`, 'check the objects against their CRD schemas'),
      }];
    }
  });
  // A template several MachineDeployments share (a pool's, one per zone) is judged through each of
  // them: report each finding once.
  const seen = new Set<string>();
  return all.filter((v) => {
    const key = JSON.stringify([v.rule, v.kind, v.namespace, v.name, v.path, v.field, v.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * What the rules recommend for a set of objects without requiring it (e.g. `spec.os.name` and
 * resource requests on Windows pods): objects that only draw advice are valid, and
 * `validateManifests` accepts them.
 */
export function adviseManifests(objects: ReadonlyArray<Manifest | ManifestSource>, options: ValidateManifestsOptions = {}): ManifestViolation[] {
  return adviceOf(new ManifestGraph(sourcesOf(objects), contextOf(options)), options);
}

function adviceOf(graph: ManifestGraph, options: ValidateManifestsOptions): ManifestViolation[] {
  return rulesOf(options).flatMap((r) => {
    try {
      return r.advise?.(graph) ?? [];
    } catch {
      // Advice never fails a caller; what cannot be read is reported by validateManifests.
      return [];
    }
  });
}

/** What `validateManifests` and `adviseManifests` return, from one pass. */
export interface ManifestJudgement {
  /** The violations (`validateManifests`). */
  readonly violations: ManifestViolation[];
  /** The advice (`adviseManifests`). */
  readonly advice: ManifestViolation[];
}

/**
 * `validateManifests` and `adviseManifests` in one pass over one index of the objects: what a rule
 * works out once per pass for both (the schema check, the pod templates' findings) is worked out
 * once, where calling the two in turn does it twice.
 */
export function judgeManifests(objects: ReadonlyArray<Manifest | ManifestSource>, options: ValidateManifestsOptions = {}): ManifestJudgement {
  const graph = new ManifestGraph(sourcesOf(objects), contextOf(options));
  return { violations: violationsOf(graph, options), advice: adviceOf(graph, options) };
}

function sourcesOf(objects: ReadonlyArray<Manifest | ManifestSource>): ManifestSource[] {
  return objects
    .filter((o) => o !== null && typeof o === 'object')
    .map((o) => (isSource(o) ? o : { manifest: o }));
}

/** A violation as one line: `<construct path or Kind name>: <message>`. */
export function formatViolation(v: ManifestViolation): string {
  return `${v.path ?? `${v.kind} ${v.namespace ? `${v.namespace}/` : ''}${v.name}`}: ${v.message}`;
}
