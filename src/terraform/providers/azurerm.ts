/**
 * The AzureRM provider's facade, for `cdk-hybrid-windows/aks`: the one module that imports
 * `@cdktn/provider-azurerm` (16.1, which wraps hashicorp/azurerm 4.73.0), with CDK Terrain's core
 * re-exported from `../cdktn`. Its peer range says `cdktn ^0.23`; with cdktn 0.24 it installs with
 * one npm `overrides` entry (README "Using it in your project").
 *
 * Provider resources are re-exported one by one from `…/lib/<resource>`: the package's index loads
 * every resource of the provider (hundreds of MB per synth).
 */
import { requireInstalled } from '../cdktn';

requireInstalled('@cdktn/provider-azurerm', 'in a CDK Terrain project, npm pkg set \'overrides.@cdktn/provider-azurerm.cdktn=$cdktn\' && npm install @cdktn/provider-azurerm@16.1.0');

export * from '../cdktn';

export { AzurermProvider } from '@cdktn/provider-azurerm/lib/provider';
export { KubernetesCluster } from '@cdktn/provider-azurerm/lib/kubernetes-cluster';
export { KubernetesClusterNodePool } from '@cdktn/provider-azurerm/lib/kubernetes-cluster-node-pool';
export { ResourceGroup } from '@cdktn/provider-azurerm/lib/resource-group';
export { RoleAssignment } from '@cdktn/provider-azurerm/lib/role-assignment';
export { Subnet } from '@cdktn/provider-azurerm/lib/subnet';
export { VirtualNetwork } from '@cdktn/provider-azurerm/lib/virtual-network';
