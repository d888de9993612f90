import { App, Chart } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { buildCapzCluster } from '../../examples/capz/main';
import { adviseManifests, HybridConfigError, validateManifests } from '../../src';
import {
  CapzCloudProviderInstall, CapzCluster, CapzClusterProps, CapzIdentityType, CapzLinuxWorkerPool, CapzWindowsAddons, CapzWindowsWorkerPool, CapzWindowsWorkerPoolProps, WindowsKubeletService, WindowsVersion,
} from '../../src/capz';
import { crdViolations, describeWithCrds } from '../support/crd-schemas';
import { ACCEPTED_KEYS, DSA_KEY } from '../support/openssh-keys';
import { K8sObject, only, synthObjects } from '../support/synth';

const example = () => { const app = new App(); buildCapzCluster(app); return synthObjects(app); };

const CLIENT = '11111111-1111-1111-1111-111111111111';
const MACHINE_IDENTITY = '/subscriptions/s/resourceGroups/ids/providers/Microsoft.ManagedIdentity/userAssignedIdentities/cloud-provider';
const CLUSTER: CapzClusterProps = {
  kubernetesVersion: 'v1.34.4', location: 'westeurope', subscriptionId: '00000000-0000-0000-0000-000000000000',
  identity: { type: CapzIdentityType.WORKLOAD_IDENTITY, clientId: CLIENT, tenantId: 't' }, cloudProvider: CapzCloudProviderInstall.HELM_CHART_PROXY,
  machineIdentity: MACHINE_IDENTITY,
};
/** A cluster with a Linux pool and a Windows pool of these props, synthesized. */
function build(windows: Partial<CapzWindowsWorkerPoolProps> = {}, cluster: Partial<CapzClusterProps> = {}, addons = false): K8sObject[] {
  const app = new App();
  const cl = new CapzCluster(new Chart(app, 'c', { namespace: 'default', disableResourceNameHashes: true }), 'demo', { ...CLUSTER, ...cluster });
  new CapzLinuxWorkerPool(cl, 'linux', { vmSize: 'Standard_D4s_v3' });
  new CapzWindowsWorkerPool(cl, 'win', { vmSize: 'Standard_D4s_v3', kubeletService: WindowsKubeletService.NSSM, ...windows });
  if (addons) new CapzWindowsAddons(cl, 'addons');
  return synthObjects(app);
}
const windowsOf = (objects: K8sObject[]) => ({
  config: objects.find((o) => o.kind === 'KubeadmConfigTemplate' && o.metadata.name.startsWith('demo-win-'))!,
  machine: objects.find((o) => o.kind === 'AzureMachineTemplate' && o.metadata.name.startsWith('demo-win-'))!,
  mhc: only(objects, 'MachineHealthCheck', 'demo-win'),
});

describeWithCrds('the CAPZ example against the pinned CRDs', () => {
  test('every object passes its CRD\'s schema and CEL rules, CAPZ\'s v1beta1 kinds included; the rules find nothing', () => {
    const objects = example();
    const kinds = objects.map((o) => o.kind);
    expect(new Set(kinds)).toEqual(new Set(['AzureClusterIdentity', 'AzureCluster', 'AzureMachineTemplate', 'KubeadmControlPlane', 'Cluster', 'KubeadmConfigTemplate', 'MachineDeployment', 'MachineHealthCheck', 'ConfigMap', 'ClusterResourceSet']));
    expect(objects.filter((o) => o.kind !== 'ConfigMap').flatMap((o) => crdViolations(o))).toEqual([]);
    expect(validateManifests(objects)).toEqual([]);
    expect(adviseManifests(objects)).toEqual([]);
  });
});

describe('CapzWindowsWorkerPool', () => {
  test('writes osType Windows, the named pipe, kubelet flags as a v1beta2 list, and a health check of at least 20 minutes', () => {
    const { config, machine, mhc } = windowsOf(build());
    expect(machine.spec.template.spec.osDisk).toEqual({ osType: 'Windows', diskSizeGB: 128, managedDisk: { storageAccountType: 'Premium_LRS' } });
    expect(machine.spec.template.metadata.annotations).toEqual({ runtime: 'containerd', windowsServerVersion: 'windows-2022' });
    expect(machine.metadata.annotations).toEqual({ 'windows.cdk-hybrid-windows.io/kubelet-service': 'nssm' });
    const registration = config.spec.template.spec.joinConfiguration.nodeRegistration;
    expect(registration.criSocket).toBe('npipe:////./pipe/containerd-containerd');
    expect(registration.kubeletExtraArgs).toEqual([
      { name: 'cloud-provider', value: 'external' },
      { name: 'register-with-taints', value: 'node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule' },
      { name: 'node-labels', value: 'node.cluster.x-k8s.io/pool=win' },
      { name: 'windows-priorityclass', value: 'ABOVE_NORMAL_PRIORITY_CLASS' },
    ]);
    expect(config.spec.template.spec.files[0]).toEqual({ path: 'c:/k/azure.json', permissions: '0644', contentFrom: { secret: { name: `${machine.metadata.name}-azure-json`, key: 'worker-node-azure.json' } } });
    expect(config.spec.template.spec.postKubeadmCommands).toEqual(['nssm set kubelet start SERVICE_AUTO_START', 'powershell C:/defender-exclude-calico.ps1']);
    expect(mhc.spec.checks.nodeStartupTimeoutSeconds).toBeGreaterThanOrEqual(1200);
  });

  test('kubeletService: a native service is refused on CAPZ (its nodes never get the cloud taint the node manager initializes by); labels are refused there; it must be said', () => {
    // image-builder v0.1.55 ansible/windows/roles/kubernetes/tasks/sc.yml: no --cloud-provider=external on the
    // native service's command line; cloud-provider-azure pkg/nodemanager/nodemanager.go handleNodeEvent skips a node without the taint.
    expect(() => build({ kubeletService: WindowsKubeletService.WINDOWS_SERVICE }))
      .toThrow(/\[c\/demo\/win\] AzureMachineTemplate demo-win-windows-2022-[0-9a-f]+: the image runs the kubelet as a native service, whose command line has no --cloud-provider=external/);
    expect(() => build({ kubeletService: WindowsKubeletService.WINDOWS_SERVICE, labels: { team: 'web' } })).toThrow(/\[c\/demo\/win\] labels \(or hyperV's label\) reach a node only as the kubelet's --node-labels/);
    expect(() => build({ kubeletService: undefined })).toThrow(/\[c\/demo\/win\] kubeletService: not given, and it is required\. Fix: set `kubeletService: WindowsKubeletService.NSSM`/);
  });

  test('windowsVersion names the release CAPZ\'s default image is looked up for; 2025 is refused (Calico), unless acknowledged', () => {
    expect(() => build({ windowsVersion: WindowsVersion.SERVER_2025 })).toThrow(/Windows Server 2025 is not supported by CAPZ with Calico \(.*projectcalico\/calico#11691/);
    const { machine } = windowsOf(build({ windowsVersion: WindowsVersion.SERVER_2019 }));
    expect(machine.spec.template.metadata.annotations.windowsServerVersion).toBe('windows-2019');
    expect(machine.metadata.name).toMatch(/^demo-win-windows-2019-[0-9a-f]{8}$/);
    // An image of one's own: no lookup annotations.
    const own = windowsOf(build({ image: { computeGallery: { gallery: 'g', name: 'my-win-2022', version: '1.34.4' } } })).machine;
    expect(own.spec.template.metadata).toBeUndefined();
    expect(own.spec.template.spec.image).toEqual({ computeGallery: { gallery: 'g', name: 'my-win-2022', version: '1.34.4' } });
  });

  test('a Linux image under a Windows pool is refused at construction, naming the prop', () => {
    expect(() => build({ image: { marketplace: { publisher: 'cncf-upstream', offer: 'capi', sku: 'ubuntu-2404-gen1', version: 'latest' } } })).toThrow(/^\[c\/demo\/win\] image: AzureMachineTemplate demo-win-[0-9a-f]{8}: osDisk\.osType is "Windows" and the image \(capi ubuntu-2404-gen1\) is a Linux image\. Fix: use a Windows image/);
  });

  // cloudbase-init writes the keys, unchecked, into the capi user's authorized_keys, which Windows
  // OpenSSH's sshd reads: one fact of the lines it takes (src/platform/windows-openssh.ts).
  test('sshAuthorizedKeys: a key of every type Windows OpenSSH takes reaches the capi user; DSA and a broken body are refused, naming the item', () => {
    const keys = Object.values(ACCEPTED_KEYS);
    expect(windowsOf(build({ sshAuthorizedKeys: keys })).config.spec.template.spec.users).toEqual([{ name: 'capi', groups: 'Administrators', sshAuthorizedKeys: keys }]);
    expect(() => build({ sshAuthorizedKeys: [keys[0], DSA_KEY] })).toThrow(new HybridConfigError('c/demo/win',
      `sshAuthorizedKeys[1]: ${JSON.stringify(DSA_KEY.slice(0, 40))}… (${DSA_KEY.length} characters) is a DSA key, which Windows OpenSSH refuses (not among sshd's accepted key types, and not built in from Win32-OpenSSH v9.8.1.0)`,
      'make a key of a type Windows OpenSSH takes (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com), e.g. `ssh-keygen -t ed25519`, and give the line of its .pub file'));
    // Formerly taken: any non-space text after the type.
    for (const broken of ['ssh-ed25519 AAAA admin', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIReplaceWithYourKey admin', ACCEPTED_KEYS['ecdsa-sha2-nistp256'].replace('ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384')]) {
      expect(() => build({ sshAuthorizedKeys: [broken] })).toThrow(/^\[c\/demo\/win\] sshAuthorizedKeys\[0\]: ".*"(… \(\d+ characters\))? (has a|holds a) .*\. Fix: give the whole line of the key's \.pub file, as ssh-keygen wrote it\.$/);
    }
  });
});

describe('CapzCluster', () => {
  test('the identity: secrets by reference, the chart\'s namespace allowed; version and replicas judged by the rules', () => {
    const objects = build({}, { identity: { type: CapzIdentityType.SERVICE_PRINCIPAL, clientId: CLIENT, tenantId: 't', clientSecret: { name: 'sp-secret' } } });
    expect(only(objects, 'AzureClusterIdentity').spec).toEqual({ type: 'ServicePrincipal', clientID: CLIENT, tenantID: 't', clientSecret: { name: 'sp-secret' }, allowedNamespaces: { list: ['default'] } });
    expect(only(objects, 'KubeadmControlPlane').spec.machineTemplate.spec.infrastructureRef.kind).toBe('AzureMachineTemplate');
    expect(() => build({}, { controlPlane: { replicas: 2 } })).toThrow(/control plane replicas 2 is not an odd number/);
    expect(() => build({}, { kubernetesVersion: '1.34' })).toThrow(/version "1.34" is not a semantic version/);
  });
});

describe('CapzWindowsAddons', () => {
  test('ClusterResourceSets select the cluster; kube-proxy runs the cluster\'s version; Calico VXLAN without BGP on the HNS dataplane', () => {
    const objects = build({}, {}, true);
    const cluster = only(objects, 'Cluster');
    expect(cluster.metadata.labels['windows-addons.cdk-hybrid-windows.io/cluster']).toBe('demo');
    const sets = objects.filter((o) => o.kind === 'ClusterResourceSet');
    expect(sets.map((s) => [s.metadata.name, s.spec.strategy])).toEqual([['demo-calico-windows', 'ApplyOnce'], ['demo-kube-proxy-windows', 'Reconcile'], ['demo-csi-proxy', 'Reconcile']]);
    const carried = (name: string) => parseAllDocuments(Object.values(only(objects, 'ConfigMap', name).data)[0] as string).map((d) => d.toJS());
    expect(carried('demo-kube-proxy-windows')[0].spec.template.spec.containers[0].image).toBe('sigwindowstools/kube-proxy:v1.34.4-calico-hostprocess');
    expect(carried('demo-calico-windows')[0].spec).toEqual({
      // Each written against tigera/operator v1.36.9's fillDefaults (BGP Enabled, windowsDataplane
      // Disabled, IPIP pools) and MTU detection (the NIC's 1500; Azure's network carries 1400).
      calicoNetwork: { bgp: 'Disabled', windowsDataplane: 'HNS', mtu: 1350, ipPools: [{ name: 'default-ipv4-ippool', cidr: '192.168.0.0/16', encapsulation: 'VXLAN', natOutgoing: 'Enabled' }] },
      serviceCIDRs: ['10.96.0.0/12'],
    });
    // The rules read what the sets carry: a version that moves on without kube-proxy is refused.
    const drifted = objects.map((o) => (o.kind === 'KubeadmControlPlane' ? { ...o, spec: { ...o.spec, version: 'v1.35.0' } } : o));
    expect(validateManifests(drifted).filter((v) => v.rule === 'windows-kube-proxy').length).toBe(1);
  });
});

test('cloudProvider: the Cluster carries the label CAPZ\'s HelmChartProxy selects, or says the chart is installed by hand; it must be said', () => {
  // cluster-api-provider-azure v1.26.0 templates/addons/cluster-api-helm/cloud-provider-azure.yaml selects `cloud-provider: azure`.
  const proxy = only(build(), 'Cluster', 'demo');
  expect(proxy.metadata.labels['cloud-provider']).toBe('azure');
  expect(proxy.metadata.annotations?.['windows.cdk-hybrid-windows.io/cloud-provider']).toBeUndefined();
  const helm = only(build({}, { cloudProvider: CapzCloudProviderInstall.HELM_INSTALL }), 'Cluster', 'demo');
  expect(helm.metadata.labels['cloud-provider']).toBeUndefined();
  expect(helm.metadata.annotations['windows.cdk-hybrid-windows.io/cloud-provider']).toBe('helm-install');
  expect(() => build({}, { cloudProvider: undefined })).toThrow(/\[c\/demo\] cloudProvider: not given, and it is required\. Fix: set `cloudProvider: CapzCloudProviderInstall.HELM_CHART_PROXY`/);
  expect(() => build({}, { cloudProvider: 'helm' as CapzCloudProviderInstall })).toThrow(/\[c\/demo\] cloudProvider/);
  // Either way the validator sees how the chart is installed: no advice from capz-cloud-node-manager.
  for (const install of Object.values(CapzCloudProviderInstall)) {
    expect(adviseManifests(build({}, { cloudProvider: install })).filter((v) => v.rule === 'capz-cloud-node-manager')).toEqual([]);
  }
});

test('machineIdentity: every machine template carries it as CAPZ reads it for azure.json; without it the HelmChartProxy\'s cloud provider has no credential', () => {
  // cluster-api-provider-azure v1.26.0 controllers/helpers.go (GetCloudProviderSecret: UserAssigned → useManagedIdentityExtension,
  // userAssignedIdentityID; None → the AzureClusterIdentity's client id and secret, and a workload identity has no secret).
  const templates = build().filter((o) => o.kind === 'AzureMachineTemplate');
  expect(templates.map((t) => t.metadata.name.replace(/-[a-z0-9]+$/, '')).sort()).toEqual(['demo-control-plane', 'demo-linux', 'demo-win-windows-2022']);
  for (const t of templates) {
    expect(t.spec.template.spec).toMatchObject({ identity: 'UserAssigned', userAssignedIdentities: [{ providerID: `azure://${MACHINE_IDENTITY}` }] });
  }
  expect(() => build({}, { machineIdentity: undefined })).toThrow(/\[c\/demo\] identity.type is WorkloadIdentity and no machineIdentity is set, so the azure.json CAPZ writes holds no credential/);
  expect(() => build({}, { machineIdentity: '/subscriptions/s/resourceGroups/ids/providers/Microsoft.Compute/virtualMachines/x' })).toThrow(/\[c\/demo\] machineIdentity: .* is not a user-assigned managed identity's resource id/);
  // A service principal's secret reaches azure.json, and a chart installed by hand may take its cloud config elsewhere.
  const sp = build({}, { machineIdentity: undefined, identity: { type: CapzIdentityType.SERVICE_PRINCIPAL, clientId: CLIENT, tenantId: 't', clientSecret: { name: 'sp' } } });
  expect(sp.filter((o) => o.kind === 'AzureMachineTemplate').map((t) => t.spec.template.spec.identity)).toEqual([undefined, undefined, undefined]);
  expect(() => build({}, { machineIdentity: undefined, cloudProvider: CapzCloudProviderInstall.HELM_INSTALL })).not.toThrow();
}, 30_000);

test('image: exactly one reference, as CAPZ\'s webhook takes it (v1.26.0 internal/webhooks/azureimage_validation.go, ValidateImage)', () => {
  expect(() => build({ image: {} })).toThrow('[c/demo/win] image: {} names no image. Fix: give one of id, computeGallery or marketplace, or leave image out for CAPZ\'s default image.');
  expect(() => build({ image: { id: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/images/win2022', marketplace: { publisher: 'p', offer: 'o', sku: 's', version: 'latest' } } }))
    .toThrow(/^\[c\/demo\/win\] image\.id and image\.marketplace: .* both given\. Fix: give one of id, computeGallery or marketplace\.$/);
  expect(() => build({ osDiskSizeGiB: 4096 })).toThrow(/\[c\/demo\/win\] osDiskSizeGiB: 4096 /);
  const image = { computeGallery: { gallery: 'g', name: 'capi-win-2022-containerd', version: '1.34.4' } };
  expect(windowsOf(build({ image })).machine.spec.template.spec.image).toEqual(image);
});

test('location: a region\'s name, not its display name, which would put a space in the API server\'s DNS name (CAPZ v1.26.0 azure/scope/cluster.go, GenerateFQDN)', () => {
  expect(() => build({}, { location: 'West Europe' })).toThrow(/^\[c\/demo\] location: "West Europe" is not an Azure region name\. Fix: give an Azure region name/);
  expect(only(build({}, { location: 'WestEurope' }), 'AzureCluster').spec.location).toBe('WestEurope');
});
