/**
 * Windows workers on Cluster API's kubeadm bootstrap, on Azure (Cluster API Provider Azure):
 * `CapzCluster` (Cluster, KubeadmControlPlane on Linux, AzureCluster, AzureClusterIdentity),
 * `CapzLinuxWorkerPool` and `CapzWindowsWorkerPool` (MachineDeployment, KubeadmConfigTemplate,
 * AzureMachineTemplate, MachineHealthCheck), and `CapzWindowsAddons` (Calico for Windows,
 * kube-proxy and csi-proxy as ClusterResourceSets). docs/capz.md is the guide.
 * @module cdk-hybrid-windows/capz
 */
export { CAPZ_CLUSTER_PROPS, CapzCluster, CapzIdentityType } from './capz-cluster';
export type { CapzClusterIdentity, CapzClusterProps } from './capz-cluster';
export { CAPZ_LINUX_WORKER_POOL_PROPS, CAPZ_WINDOWS_WORKER_POOL_PROPS, CapzLinuxWorkerPool, CapzWindowsWorkerPool } from './worker-pools';
export type { CapzImage, CapzWorkerPoolProps, CapzWindowsWorkerPoolProps } from './worker-pools';
export { CAPZ_WINDOWS_ADDONS_PROPS, CapzWindowsAddons } from './windows-addons';
export type { CapzWindowsAddonsProps } from './windows-addons';
export { CapzCloudProviderInstall, CLOUD_PROVIDER_ANNOTATION, KUBELET_SERVICE_ANNOTATION, WindowsKubeletService } from '../platform/capz';
export { WindowsVersion } from '../platform/windows';
