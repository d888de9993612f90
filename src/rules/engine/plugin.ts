import { adviseManifests, validateManifests } from '../index';
import { CLUSTER_RULES } from '../cluster/cluster-rules';
import { EKS_WORKLOAD_RULES, WORKLOAD_RULES } from '../pods/workload-rules';
import { Manifest, ManifestSource } from './graph';

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
   * Which rule sets to apply: `cluster`, `workloads`, and `eks` for workloads meant for Amazon EKS
   * (`EKS_WORKLOAD_RULES`).
   * @default ['cluster', 'workloads']
   */
  readonly ruleSets?: ReadonlyArray<'cluster' | 'workloads' | 'eks'>;
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
    const sets = this.props.ruleSets ?? ['cluster', 'workloads'];
    const rules = [
      ...(sets.includes('cluster') ? CLUSTER_RULES : []),
      ...(sets.includes('workloads') ? WORKLOAD_RULES : []),
      ...(sets.includes('eks') ? EKS_WORKLOAD_RULES : []),
    ];
    const sources: Array<ManifestSource & { file: string }> = [];
    for (const file of context.manifests) {
      for (const manifest of context.parseManifest(file).filter((m) => m && typeof m === 'object')) {
        sources.push({ manifest, file });
      }
    }
    const violations = validateManifests(sources, { rules });
    // Advice joins the report under its own rule name and never fails it.
    const advice = adviseManifests(sources, { rules }).map((v) => ({ ...v, rule: `${v.rule} (advice)` }));
    for (const v of [...violations, ...advice]) {
      const file = sources.find((s) => s.manifest.kind === v.kind && s.manifest.metadata?.name === v.name)?.file ?? '';
      const [what, fix] = v.message.split(' Fix: ');
      context.report.addViolation({
        ruleName: v.rule,
        recommendation: `${v.kind} ${v.name}: ${what}`,
        fix: fix ?? '',
        // cdk8s-cli adds the construct path by looking the resource name up in the app's construct
        // metadata, which is keyed by object name (cdk8s-cli lib/plugins/validation.js, addViolation).
        violatingResources: [{ resourceName: v.name, locations: v.field ? [v.field] : [], manifestPath: file }],
      });
    }
    context.report.submit(violations.length > 0 ? 'failure' : 'success');
  }
}
