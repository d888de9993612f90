/**
 * Windows workers on Cluster API's kubeadm bootstrap, on Azure (Cluster API Provider Azure):
 * `CapzCluster` (Cluster, KubeadmControlPlane on Linux, AzureCluster, AzureClusterIdentity),
 * `CapzLinuxWorkerPool` and `CapzWindowsWorkerPool` (MachineDeployment, KubeadmConfigTemplate,
 * AzureMachineTemplate, MachineHealthCheck), and `CapzWindowsAddons` (Calico for Windows,
 * kube-proxy and csi-proxy as ClusterResourceSets). docs/capz.md is the guide.
 * @module cdk-hybrid-windows/capz
 */
// `export *`: the props specs (tagged internal, for docs/props.md and the property tests) reach the JS, not the declarations.
export * from './capz-cluster';
export * from './worker-pools';
export * from './windows-addons';
export { CapzCloudProviderInstall, CLOUD_PROVIDER_ANNOTATION, KUBELET_SERVICE_ANNOTATION, WindowsKubeletService } from '../platform/capz';
export { WindowsVersion } from '../platform/windows';
