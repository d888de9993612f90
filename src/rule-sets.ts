import type { RuleSet } from './rules/engine/rule';
import { MANIFEST_RULE_SETS } from './rules/sets';
import { TERRAFORM_RULE_SETS } from './terraform/index';

/**
 * Every rule set of the library, Kubernetes first, then Terraform: the one table that
 * `validate --rules` and `--list-rules`, suppressions, SARIF's rule metadata and docs/rules.md
 * read. Composed here, above both, so that `src/rules` never imports `src/terraform`.
 */
export const RULE_SETS: readonly RuleSet[] = Object.freeze([...MANIFEST_RULE_SETS, ...TERRAFORM_RULE_SETS]);
