/**
 * Azure Kubernetes Service with Windows node pools (CDK Terrain): `import … from
 * 'cdk-hybrid-windows/aks'`. Kept out of the package root; the Terraform CDK and the provider come
 * through ../terraform only.
 * @module cdk-hybrid-windows/aks
 */
// First, so that the modules below are read from Node.js's compile cache (src/core/compile-cache.ts).
import '../core/compile-cache';
export * from './hybrid-aks-stack';
export * from './aks-cluster';
export * from './linux-node-pool';
export * from './windows-node-pool';
export * from './node-pool';
/** The base the managed clouds' node pools share (one vocabulary, the OS part). */
export { ManagedNodePool } from '../terraform/managed-node-pool';
export type { ManagedNodePoolOptions, ManagedPoolBuild, ManagedOsPart } from '../terraform/managed-node-pool';
export { AKS_WINDOWS_OS_SKUS, AksNetworkPolicy, AksNodeOsUpgradeChannel, AksSkuTier, AksSupportPlan, AksWindowsLicense } from '../platform/aks';
/** The Terraform rules the stacks run at synth, for a `cdk.tf.json` from anywhere (also in the package root). */
export { formatTerraformViolation, validateTerraform } from '../terraform/index';
export type { TerraformJson, ValidateTerraformOptions } from '../terraform/index';
