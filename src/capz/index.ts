/**
 * Windows workers on Cluster API's kubeadm bootstrap, on Azure (Cluster API Provider Azure):
 * `CapzCluster` (Cluster, KubeadmControlPlane on Linux, AzureCluster, AzureClusterIdentity),
 * `CapzLinuxWorkerPool` and `CapzWindowsWorkerPool` (MachineDeployment, KubeadmConfigTemplate,
 * AzureMachineTemplate, MachineHealthCheck), and `CapzWindowsAddons` (Calico for Windows,
 * kube-proxy and csi-proxy as ClusterResourceSets). docs/capz.md is the guide.
 * @module cdk-hybrid-windows/capz
 */
// First, so that the modules below are read from Node.js's compile cache (src/core/compile-cache.ts).
import '../core/compile-cache';
export { CapzCluster, CapzIdentityType } from './capz-cluster';
export type { CapzClusterIdentity, CapzClusterProps } from './capz-cluster';
export { CapzLinuxWorkerPool, CapzWindowsWorkerPool } from './worker-pools';
export type { CapzImage, CapzWorkerPoolProps, CapzWindowsWorkerPoolProps } from './worker-pools';
export { CapzWindowsAddons } from './windows-addons';
export type { CapzWindowsAddonsProps } from './windows-addons';
export { KUBELET_SERVICE_ANNOTATION, WindowsKubeletService } from '../platform/capz';
export { WindowsVersion } from '../platform/windows';
