import { HybridConfigError } from '../core/errors';
import { isCalendarDay } from '../platform/calendar';
import { registry, RuleSet, whatAndFix } from '../rules/engine/rule';
import type { ManifestViolation } from '../rules/engine/graph';
import { AKS_RULES } from './rules/aks-rules';
import { AWS_RULES } from './rules/aws-rules';
import { EKS_RULES } from './rules/eks-rules';
import { GKE_RULES } from './rules/gke-rules';
import { TerraformGraph, TerraformJson, TerraformRule } from './graph';

export { AKS_RULES } from './rules/aks-rules';
export { AWS_RULES } from './rules/aws-rules';
export { EKS_RULES } from './rules/eks-rules';
export { GKE_RULES } from './rules/gke-rules';
export type { TerraformBlock, TerraformJson, TerraformRule } from './graph';
export { TerraformGraph } from './graph';

/** The Terraform rule sets, one registry per cloud, all selected as `terraform` (`validate --rules`). */
export const TERRAFORM_RULE_SETS: readonly RuleSet<TerraformRule>[] = Object.freeze([
  { name: 'terraform', registry: 'AWS_RULES', title: 'Terraform: AWS', description: 'the Terraform JSON of the AWS and EKS stacks (`validateTerraform`).', input: 'terraform', byDefault: true, rules: AWS_RULES },
  { name: 'terraform', registry: 'EKS_RULES', title: 'Terraform: EKS', description: 'the Terraform JSON of the EKS stack.', input: 'terraform', byDefault: true, rules: EKS_RULES },
  { name: 'terraform', registry: 'AKS_RULES', title: 'Terraform: AKS', description: 'the azurerm Terraform JSON of the AKS stack, or written anywhere (`validateTerraform`).', input: 'terraform', byDefault: true, rules: AKS_RULES },
  { name: 'terraform', registry: 'GKE_RULES', title: 'Terraform: GKE', description: 'the Terraform JSON of the GKE stack.', input: 'terraform', byDefault: true, rules: GKE_RULES },
]);

/** Every Terraform rule: the AWS stack's, the EKS stack's, the AKS stack's and the GKE stack's. */
export const TERRAFORM_RULES: readonly TerraformRule[] = registry<TerraformRule>(...TERRAFORM_RULE_SETS.map((s) => s.rules));

/** Options of `validateTerraform`. */
export interface ValidateTerraformOptions {
  /**
   * The rules to apply.
   * @default TERRAFORM_RULES
   */
  readonly rules?: readonly TerraformRule[];
  /**
   * The day (`YYYY-MM-DD`) the dated facts are read on: a Kubernetes version is refused from the
   * day EKS stops creating clusters of it, or AKS stops creating them without long-term support.
   * Pin it for a build that must give the same answer on any day (or set `SOURCE_DATE_EPOCH`,
   * which the stacks' own validation reads too).
   * @default - `SOURCE_DATE_EPOCH` when set, else today (UTC)
   */
  readonly day?: string;
}

/**
 * Applies this library's Terraform rules to the JSON of one stack (a `cdk.tf.json` that
 * `cdktf synth` wrote, parsed with `JSON.parse`) or of several stacks of one app (two clusters of
 * one name in one region are then found too). The same rules run in every synth of the AWS, EKS
 * and AKS stacks; here they reach JSON from anywhere, escape hatches and hand edits included.
 *
 * @returns every violation, empty when the JSON passes.
 */
export function validateTerraform(json: TerraformJson | readonly TerraformJson[], options: ValidateTerraformOptions = {}): ManifestViolation[] {
  const stacks = (Array.isArray(json) ? json : [json]).filter((s) => s !== null && typeof s === 'object');
  if (options.day !== undefined && !isCalendarDay(options.day)) {
    throw new HybridConfigError('validateTerraform', `day ${JSON.stringify(options.day)} is not a calendar day`, 'write it as YYYY-MM-DD, e.g. 2026-06-01');
  }
  const graph = new TerraformGraph(stacks, options.day);
  return (options.rules ?? TERRAFORM_RULES).flatMap((r) => {
    try {
      return r.check(graph);
    } catch (e) {
      // Only for JSON no Terraform would take (a string where a block belongs): report the rule
      // that could not read it rather than a stack trace.
      return [{ rule: r.name, kind: '?', name: '?', ...whatAndFix(`rule ${r.name} could not read the Terraform JSON (${(e as Error).message})`, 'check the JSON against the provider\'s schema') }];
    }
  });
}

/** A violation of a Terraform rule as one line: `[<construct path>] <address>: <message>`. */
export function formatTerraformViolation(v: ManifestViolation): string {
  const address = `${v.kind}.${v.name}`;
  return v.path ? `[${v.path}] ${address}: ${v.message}` : `${address}: ${v.message}`;
}
