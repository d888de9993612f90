/**
 * Google Kubernetes Engine with Windows Server node pools (CDK Terrain or cdktf):
 * `import … from 'cdk-hybrid-windows/gke'`. Like `cdk-hybrid-windows/eks`, kept out of the
 * package root; the Terraform CDK and the google resources come through ../terraform only.
 * @module cdk-hybrid-windows/gke
 */
// First, so that the modules below are read from Node.js's compile cache (src/core/compile-cache.ts).
import '../core/compile-cache';
export * from './hybrid-gke-stack';
export * from './gke-cluster';
export * from './gke-network';
export * from './linux-node-pool';
export * from './windows-node-pool';
export * from './node-pool';
/** The base the managed clouds' node pools share (one vocabulary, the OS part). */
export { ManagedNodePool } from '../terraform/managed-node-pool';
export type { ManagedNodePoolOptions, ManagedPoolBuild, ManagedOsPart } from '../terraform/managed-node-pool';
export { GKE_LINUX_IMAGE_TYPES, GKE_NODE_SERVICE_ACCOUNT_ROLE, GKE_WINDOWS_IMAGE_TYPE, GKE_WINDOWS_OS_VERSIONS, GkeReleaseChannel } from '../platform/gke';
export { GKE_WINDOWS_NODE_TAINT } from '../platform/support';
/** The google resources the constructs write (a typed layer over CDK Terrain's `TerraformResource`; docs/gke.md). */
export { ComputeNetwork, ComputeRouter, ComputeRouterNat, ComputeSubnetwork, ContainerCluster, ContainerNodePool, GOOGLE_PROVIDER_VERSION, GoogleProvider, ProjectIamMember, ServiceAccount } from '../terraform/providers/google';
export type {
  ComputeNetworkConfig, ComputeRouterConfig, ComputeRouterNatConfig, ComputeSubnetworkConfig, ComputeSubnetworkSecondaryIpRange, ContainerClusterConfig,
  ContainerNodePoolConfig, ContainerNodePoolNodeConfig, ContainerNodePoolNodeConfigTaint, GoogleProviderConfig, ProjectIamMemberConfig, ServiceAccountConfig,
} from '../terraform/providers/google';
/** The Terraform rules the stacks run at synth, for a `cdk.tf.json` from anywhere (also in the package root). */
export { formatTerraformViolation, validateTerraform } from '../terraform/index';
export type { TerraformJson, ValidateTerraformOptions } from '../terraform/index';
