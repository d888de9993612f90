/**
 * Amazon EKS with Windows managed node groups (CDK Terrain or cdktf):
 * `import … from 'cdk-hybrid-windows/eks'`. Like `cdk-hybrid-windows/aws`, kept out of the package
 * root; the Terraform CDK and the provider come through ../terraform only.
 * @module cdk-hybrid-windows/eks
 */
// First, so that the modules below are read from Node.js's compile cache (src/core/compile-cache.ts).
import '../core/compile-cache';
export * from './hybrid-eks-stack';
export * from './eks-cluster';
export * from './linux-node-group';
export * from './windows-node-group';
export * from './node-group';
/** The base the managed clouds' node pools share (one vocabulary, the OS part). */
export { ManagedNodePool } from '../terraform/managed-node-pool';
export type { ManagedNodePoolOptions, ManagedPoolBuild, ManagedOsPart } from '../terraform/managed-node-pool';
export * from './node-role';
export * from './karpenter-windows-node-pool';
export * from './karpenter-node-role';
export { EKS_CLUSTER_POLICIES, EKS_LINUX_AMI_TYPES, EKS_WINDOWS_AMI_TYPES, EKS_WINDOWS_TAINT, EksIpFamily, NodeAccessEntryType } from '../platform/eks';
/** The Terraform rules the stacks run at synth, for a `cdk.tf.json` from anywhere (also in the package root). */
export { formatTerraformViolation, validateTerraform } from '../terraform/index';
export type { TerraformJson, ValidateTerraformOptions } from '../terraform/index';
export * from './pod-credentials';
export { EksControlPlaneLogType, IRSA_ROLE_ANNOTATION, PodCredentialMechanism } from '../platform/eks';
