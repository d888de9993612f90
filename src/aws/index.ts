/**
 * The AWS foundation (CDK Terrain or cdktf): `import … from 'cdk-hybrid-windows/aws'`. Kept out of
 * the package root so that cdk8s-only users load no Terraform CDK; the Terraform CDK and the
 * provider come through ../terraform only.
 * @module cdk-hybrid-windows/aws
 */
// First, so that the modules below are read from Node.js's compile cache (src/core/compile-cache.ts).
import '../core/compile-cache';
export * from './hybrid-cluster-infra';
export * from './hybrid-cluster-infra-stack';
export * from './cluster-network';
export * from './existing-network';
export * from './cluster-vpc-endpoints';
export * from './cluster-api-iam';
export * from './iam-policies';
export * from './cluster-images';
export * from './subnet-plan';
/** The Terraform rules the stacks run at synth, for a `cdk.tf.json` from anywhere (also in the package root). */
export { formatTerraformViolation, validateTerraform } from '../terraform/index';
export type { TerraformJson, ValidateTerraformOptions } from '../terraform/index';
