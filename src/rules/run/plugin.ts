import { judgeManifests } from '../index';
import { BUILT_IN_INFRASTRUCTURES, K0smotronInfrastructure, infrastructureProblem } from '../../platform/infrastructures';
import { NodeTaint, WindowsPlatform, parseNodeTaint } from '../../platform/support';
import { MANIFEST_RULE_SETS, manifestRulesOf } from '../sets';
import { Manifest, ManifestSource } from '../engine/graph';

/**
 * The parts of cdk8s-cli's validation plugin contract this plugin uses (cdk8s-cli
 * `lib/plugins/validation.d.ts`, 2.x: `Validation`, `ValidationContext`, `ValidationReport`).
 * Declared structurally so that the library does not depend on the CLI.
 */
export interface PluginValidationContext {
  /** Paths of the manifest files `cdk8s synth` wrote. */
  readonly manifests: readonly string[];
  /** The objects of one manifest file. */
  parseManifest(manifestPath: string): Manifest[];
  /** Where the plugin reports its violations and, last, whether validation passed. */
  readonly report: {
    addViolation(violation: {
      ruleName: string;
      recommendation: string;
      fix: string;
      violatingResources: Array<{ resourceName: string; locations: string[]; manifestPath: string }>;
    }): void;
    submit(status: 'success' | 'failure', metadata?: { readonly [key: string]: string }): void;
  };
}

/** Properties of the plugin, from `cdk8s.yaml` (`validations[].properties`). */
export interface HybridValidationProps {
  /**
   * Which rule sets to apply (`MANIFEST_RULE_SETS`): `cluster`, `workloads`, and `eks` for
   * workloads meant for Amazon EKS (`EKS_WORKLOAD_RULES`).
   * @default - the sets applied by default, `cluster` and `workloads`
   */
  readonly ruleSets?: ReadonlyArray<'cluster' | 'workloads' | 'eks'>;

  /**
   * The platform the manifests are for, as `validate --platform` names it (`k0smotron-aws`,
   * `k0smotron-remote`, `eks`, `aks`, `gke`): Windows pods must tolerate the taint its Windows
   * nodes carry, and its own workload rules apply (`eks`: `EKS_WORKLOAD_RULES`).
   * @default - none: a Windows pod must select Windows and need tolerate no taint
   */
  readonly platform?: string;

  /**
   * The taint Windows nodes carry, `key=value:Effect`, when it is not the platform's; `none` when
   * they carry none.
   * @default - the platform's
   */
  readonly windowsTaint?: string;

  /**
   * Declarations of k0smotron infrastructures this library does not build, written out in
   * `cdk8s.yaml` (`K0smotronInfrastructure`: name, platform, clusterKind, machineTemplateKind, ...):
   * their objects are judged as the objects of a construct that declares them are.
   * @default - only the built-in ones (AWS and remote hosts)
   */
  readonly infrastructures?: readonly K0smotronInfrastructure[];
}

/**
 * This library's rules as a cdk8s validation plugin, for manifests written with or without it.
 * In `cdk8s.yaml`:
 *
 * ```yaml
 * validations:
 *   - package: cdk-hybrid-windows
 *     class: HybridValidation
 *     version: 0.1.0
 * ```
 */
export class HybridValidation {
  private readonly props: HybridValidationProps;

  public constructor(props: HybridValidationProps = {}) {
    this.props = props ?? {};
  }

  /** Runs the rule sets over every manifest of `context` and reports each violation and the outcome (cdk8s-cli calls it). */
  public async validate(context: PluginValidationContext): Promise<void> {
    const sets = this.props.ruleSets;
    const platform = this.props.platform as WindowsPlatform | undefined;
    if (platform !== undefined && !Object.values(WindowsPlatform).includes(platform)) {
      throw new Error(`HybridValidation platform ${platform}: the platforms are ${Object.values(WindowsPlatform).join(', ')}`);
    }
    let windowsTaint: NodeTaint | 'none' | undefined;
    if (this.props.windowsTaint !== undefined) {
      windowsTaint = this.props.windowsTaint === 'none' ? 'none' : parseNodeTaint(this.props.windowsTaint);
      if (windowsTaint === undefined) throw new Error(`HybridValidation windowsTaint ${this.props.windowsTaint}: write key=value:Effect (NoSchedule, PreferNoSchedule or NoExecute), or none`);
    }
    const names = MANIFEST_RULE_SETS.map((s) => s.name);
    const unknown = (sets ?? []).filter((s) => !names.includes(s));
    if (unknown.length > 0) throw new Error(`HybridValidation ruleSets ${unknown.join(', ')}: the rule sets are ${names.join(', ')}`);
    const given = this.props.infrastructures ?? [];
    given.forEach((d, i) => {
      const problem = infrastructureProblem(d);
      if (problem) throw new Error(`HybridValidation infrastructures[${i}] ${problem}`);
    });
    const infrastructures = [...BUILT_IN_INFRASTRUCTURES, ...given];
    const rules = manifestRulesOf(sets, platform);
    const sources: Array<ManifestSource & { file: string }> = [];
    for (const file of context.manifests) {
      for (const manifest of context.parseManifest(file).filter((m) => m && typeof m === 'object')) {
        sources.push({ manifest, file });
      }
    }
    const { violations, advice } = judgeManifests(sources, { rules, platform, windowsTaint, infrastructures });
    // Advice joins the report under its own rule name and never fails it.
    for (const v of [...violations, ...advice.map((a) => ({ ...a, rule: `${a.rule} (advice)` }))]) {
      const file = sources.find((s) => s.manifest.kind === v.kind && s.manifest.metadata?.name === v.name)?.file ?? '';
      context.report.addViolation({
        ruleName: v.rule,
        // Each a sentence, as the printed message has them.
        recommendation: `${v.kind} ${v.name}: ${v.what}.`,
        fix: `${v.fix}.`,
        // cdk8s-cli adds the construct path by looking the resource name up in the app's construct
        // metadata, which is keyed by object name (cdk8s-cli lib/plugins/validation.js, addViolation).
        violatingResources: [{ resourceName: v.name, locations: v.field ? [v.field] : [], manifestPath: file }],
      });
    }
    context.report.submit(violations.length > 0 ? 'failure' : 'success');
  }
}
