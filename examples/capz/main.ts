/**
 * A kubeadm cluster on Azure with Windows workers, through Cluster API Provider Azure (CAPZ): a
 * Linux control plane, two Linux workers for CoreDNS and Linux add-ons, two Windows Server 2022
 * workers, and their add-ons (Calico for Windows, kube-proxy, csi-proxy) as ClusterResourceSets.
 * Run: `npm run synth` (writes dist/capz.k8s.yaml). docs/capz.md says what to install first
 * (`clusterctl init --infrastructure azure`, the identity, the tigera operator) and how to apply.
 */
import { App, Chart } from 'cdk8s';
import { CapzCloudProviderInstall, CapzCluster, CapzIdentityType, CapzLinuxWorkerPool, CapzWindowsAddons, CapzWindowsWorkerPool, WindowsKubeletService, WindowsVersion } from '../../src/capz';

/** The example's chart. */
export function buildCapzCluster(app: App): Chart {
  const chart = new Chart(app, 'capz', { namespace: 'default', disableResourceNameHashes: true });
  const cluster = new CapzCluster(chart, 'azwin', {
    kubernetesVersion: 'v1.34.4',
    location: 'westeurope',
    subscriptionId: '00000000-0000-0000-0000-000000000000',
    identity: { type: CapzIdentityType.WORKLOAD_IDENTITY, clientId: '11111111-1111-1111-1111-111111111111', tenantId: '22222222-2222-2222-2222-222222222222' },
    controlPlane: { replicas: 3, vmSize: 'Standard_D2s_v3' },
    // CAPZ's HelmChartProxy installs cloud-provider-azure (docs/capz.md, "The cloud provider").
    cloudProvider: CapzCloudProviderInstall.HELM_CHART_PROXY,
    // The identity the VMs carry, which CAPZ writes into azure.json for the cloud provider.
    machineIdentity: '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/identities/providers/Microsoft.ManagedIdentity/userAssignedIdentities/cloud-provider-user-identity',
  });
  new CapzLinuxWorkerPool(cluster, 'linux', { vmSize: 'Standard_D4s_v3', replicas: 2 });
  new CapzWindowsWorkerPool(cluster, 'win', {
    vmSize: 'Standard_D4s_v3',
    replicas: 2,
    windowsVersion: WindowsVersion.SERVER_2022,
    // CAPZ's default Windows images: say which kubelet service yours runs (docs/capz.md, "Which Windows image").
    kubeletService: WindowsKubeletService.NSSM,
  });
  new CapzWindowsAddons(cluster, 'addons');
  return chart;
}

if (require.main === module) {
  const app = new App();
  buildCapzCluster(app);
  app.synth();
}
