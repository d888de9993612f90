/**
 * The one module that imports CDK Terrain's core (`cdktn`), cloud-neutral; each provider package
 * has its own facade beside it (`providers/aws.ts`). Nothing else in `src/` names these packages,
 * so the flavour the library runs on is decided here.
 *
 * The names are CDK Terrain's (`cdktn` 0.24). A cdktf 0.21 project installs its packages under
 * these names (npm aliases, README "Using it in your project"): CDK Terrain forked cdktf with the
 * same classes, generated provider modules and `Symbol.for` brands (cdktn lib/terraform-stack.js
 * `cdktf/TerraformStack`, the token map on `global.__cdktfTokenMap`), so objects of either package
 * work with each other.
 */

/** Throws a one-line install instruction when a package the Terraform side builds on is missing. */
export function requireInstalled(name: string, fix: string): void {
  try {
    require.resolve(name);
  } catch {
    throw new Error(`[cdk-hybrid-windows] ${name} is not installed, and the Terraform stacks build on it. Fix: ${fix}`);
  }
}

requireInstalled('cdktn', 'in a CDK Terrain project, npm install cdktn; in a cdktf 0.21 project, install cdktf under this name: npm install cdktn@npm:cdktf@^0.21.0');

export type { TerraformMetaArguments } from 'cdktn';
export { App, DefaultTokenResolver, Fn, StringConcat, TerraformDataSource, TerraformElement, TerraformOutput, TerraformProvider, TerraformResource, TerraformStack, TerraformVariable, Token, Tokenization, dependable } from 'cdktn';
