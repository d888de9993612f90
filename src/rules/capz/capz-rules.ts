import type { ManifestRule } from '../engine/graph';
import { capzAzureJson, capzOsType, capzWindowsNames } from './azure-machines';
import { calicoWindows, calicoWindows2025, capzCloudNodeManager, kubeadmWindowsCluster, windowsKubeProxy } from './windows-addons';
import { capzCloudProviderCredential } from './cloud-provider-credential';
import { cloudbaseInitFields, windowsFiles, windowsKubeletService } from './windows-bootstrap';

/**
 * The rules of kubeadm pools on Cluster API Provider Azure, Windows ones above all: each follows
 * MachineDeployment → KubeadmConfigTemplate and AzureMachineTemplate, and ClusterResourceSet →
 * the add-ons it applies, and judges what CAPZ, cloudbase-init, the image's kubelet service and
 * Calico will do with them. Registered once, among the cluster rules.
 */
export const CAPZ_RULES: readonly ManifestRule[] = [
  capzOsType, capzWindowsNames, capzAzureJson, cloudbaseInitFields, windowsFiles, windowsKubeletService, kubeadmWindowsCluster, calicoWindows, calicoWindows2025, windowsKubeProxy, capzCloudNodeManager, capzCloudProviderCredential,
];
