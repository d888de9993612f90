/**
 * The finding type the output formats (formats.ts) and the SARIF locations (sarif-location.ts) both
 * read, in a module of its own so that neither imports the other for it.
 */

/** One finding of `validate`, as every output format prints it. */
export interface Finding {
  /** The rule's name (`ManifestRule.name`, `TerraformRule.name`). */
  readonly rule: string;
  /** `violation` fails the run; `advice` is a recommendation and never does. */
  readonly severity: 'violation' | 'advice';
  /** The input as named on the command line (`<stdin>` for standard input). */
  readonly file: string;
  /** 1-based line and column of the object (a Kubernetes object's first key, a Terraform block's key). */
  readonly line: number;
  readonly column: number;
  /** Where the YAML shows the field (or the deepest part of its path it shows), when it is located. */
  readonly fieldLine?: number;
  readonly fieldColumn?: number;
  /** The object's kind (a Terraform resource type). */
  readonly kind: string;
  /** The object's namespace, when written. */
  readonly namespace?: string;
  /** The object's name (a Terraform logical id). */
  readonly name: string;
  /** The field at fault, a dotted path in the object. */
  readonly field?: string;
  /** What is wrong. */
  readonly what: string;
  /** How to fix it in the YAML (or the JSON). */
  readonly fix: string;
  /** The Helm template the object came from (its `# Source:` comment). */
  readonly template?: string;
  /** Why it is suppressed, when it is (an annotation on the object, or the config file). */
  readonly suppressed?: string;
  /** What suppressed it: an annotation on the object (in the source) or the config file (outside it). */
  readonly suppressedBy?: 'annotation' | 'config';
}
