// Facts about Windows workers on Cluster API Provider Azure (CAPZ) with Cluster API's kubeadm
// bootstrap (CABPK), and the programs that consume what those objects say: cloudbase-init on the
// machine, the kubelet service of the image (kubernetes-sigs/image-builder), kubeadm's join.

/** CAPZ's machine templates, and the cluster object its Clusters reference. */
export const CAPZ_KINDS = { cluster: 'AzureCluster', machineTemplate: 'AzureMachineTemplate', identity: 'AzureClusterIdentity' } as const;

/**
 * `osDisk.osType` of an AzureMachine(Template): `Windows` makes a Windows VM; the CRD defaults an
 * absent one to `Linux` and has no enum, so a Windows image without it is asked for as a Linux VM
 * (cluster-api-provider-azure v1.26.0 api/v1beta1/types.go, OSDisk.OSType `+kubebuilder:default:=Linux`;
 * azure/defaults.go, WindowsOS).
 */
export const CAPZ_OS_TYPE = { windows: 'Windows', linux: 'Linux', default: 'Linux' } as const;

/**
 * The AzureMachine annotations CAPZ reads for the default Windows image when no `image` is
 * written (v1.26.0 azure/scope/machine.go, GetVMImage; azure/services/virtualmachineimages/images.go,
 * GetDefaultWindowsImage): `runtime` must be empty or `containerd`, `windowsServerVersion` must
 * match `WINDOWS_SERVER_VERSION_ANNOTATION`, else CAPZ fails to create the VM. An AzureMachine
 * takes them from its template's `spec.template.metadata.annotations`.
 */
export const CAPZ_IMAGE_ANNOTATIONS = { runtime: 'runtime', windowsServerVersion: 'windowsServerVersion' } as const;
/** The runtimes CAPZ's default Windows image lookup takes (images.go, GetDefaultWindowsImage). */
export const CAPZ_WINDOWS_RUNTIMES: readonly string[] = ['', 'containerd'];
/** The form of `windowsServerVersion` CAPZ takes (images.go: `^windows-(\d{4})$`). */
export const WINDOWS_SERVER_VERSION_ANNOTATION = /^windows-(\d{4})$/;

/**
 * CAPZ's default Windows image: the Azure Compute Gallery (community) image `capi-win-2022-containerd`,
 * with the year of `windowsServerVersion` substituted and the Machine's Kubernetes version as the
 * image version (v1.26.0 azure/defaults.go DefaultPublicGalleryName, DefaultWindowsGalleryImageName;
 * images.go GetDefaultWindowsImage). So each Kubernetes patch needs a published image.
 */
export const CAPZ_DEFAULT_WINDOWS_IMAGE = { gallery: 'ClusterAPI-f72ceb4f-5159-4c26-a0fe-2ea738f0d019', name: 'capi-win-2022-containerd' } as const;

/**
 * Windows computer names are at most 15 characters (NetBIOS); CAPZ names a Windows VM after its
 * AzureMachine, and for a longer name takes its first 9 characters (a trailing "-" dropped), "-"
 * and its last 5 (v1.26.0 azure/scope/machine.go, MachineScope.Name; the VM's ComputerName is that
 * name: azure/services/virtualmachines/spec.go). docs/book/src/self-managed/windows.md, "VM and VMSS naming".
 */
export const WINDOWS_COMPUTER_NAME_MAX = 15;

/** The computer name CAPZ gives the Windows VM of an AzureMachine named `machine`. */
export function capzWindowsComputerName(machine: string): string {
  if (machine.length <= WINDOWS_COMPUTER_NAME_MAX) return machine;
  return `${machine.slice(0, 9).replace(/-$/, '')}-${machine.slice(-5)}`;
}

/**
 * Why a Windows computer name is refused, or undefined: Windows takes letters, digits and "-", not
 * digits alone (Azure/PSRule.Rules.Azure docs/en/rules/Azure.VM.ComputerName.md, after Microsoft
 * Learn "Naming rules and restrictions for Azure resources"). A Kubernetes name may also hold ".",
 * which then reaches the VM's computer name.
 */
export function windowsComputerNameProblem(name: string): string | undefined {
  if (/[^A-Za-z0-9-]/.test(name)) return `holds ${JSON.stringify(name.replace(/[A-Za-z0-9-]/g, '')[0])}, and a Windows computer name takes only letters, digits and "-"`;
  return /^\d+$/.test(name) ? 'is digits only, which a Windows computer name may not be' : undefined;
}

/**
 * The Secret CAPZ writes the cloud provider's azure.json into for a machine template's machines:
 * `<AzureMachineTemplate name>-azure-json` (v1.26.0 controllers/azurejson_machinetemplate_controller.go,
 * Reconcile → controllers/helpers.go GetCloudProviderSecret). A bootstrap file read from another
 * name waits for a Secret nobody writes.
 */
export function capzAzureJsonSecret(machineTemplate: string): string {
  return `${machineTemplate}-azure-json`;
}
/** The suffix of those Secrets' names. */
export const CAPZ_AZURE_JSON_SUFFIX = '-azure-json';

/**
 * The credential CAPZ writes into a machine template's azure.json (v1.26.0 controllers/helpers.go,
 * GetCloudProviderSecret, for `control-plane-azure.json` and `worker-node-azure.json` alike), by
 * the template's VM identity (`spec.template.spec.identity`, api/v1beta1/types.go VMIdentity,
 * default `None`): `SystemAssigned` and `UserAssigned` (with the client id of
 * `userAssignedIdentities[0]`, controllers/azurejson_machinetemplate_controller.go) turn on
 * `useManagedIdentityExtension`, the VM's own identity; `None` copies the AzureClusterIdentity's
 * client id and secret (newCloudProviderConfig: ClientID(), ClientSecret()), and only a service
 * principal's password is a secret cloud-provider-azure can use (azure/scope/identity.go,
 * hasClientSecret; a `ServicePrincipalCertificate` Secret's certificate lands in `aadClientSecret`,
 * which cloud-provider-azure sends as a password). cloud-provider-azure authenticates with
 * workload identity, a managed identity, a client secret or a certificate file
 * (kubernetes-sigs/cloud-provider-azure v1.34.9 pkg/azclient/auth.go, NewAuthProvider), and
 * otherwise starts without credentials and calls Azure with none (pkg/provider/azure.go: "Azure
 * cloud provider is starting without credentials").
 */
export const CAPZ_AZURE_JSON_CREDENTIAL = {
  /** The VM identities whose managed identity azure.json names. */
  vmIdentities: ['SystemAssigned', 'UserAssigned'],
  /** The AzureClusterIdentity types whose client secret azure.json carries when the VM identity is `None`. */
  clientSecretIdentities: ['ServicePrincipal', 'ManualServicePrincipal'],
} as const;

/**
 * containerd's named pipe, the CRI socket of Windows workers (`criSocket` in kubeadm's
 * nodeRegistration; CAPZ v1.26.0 templates/flavors/windows/machine-deployment-windows.yaml).
 */
export const WINDOWS_CRI_SOCKET = 'npipe:////./pipe/containerd-containerd';

/**
 * The cloud-config modules cloudbase-init runs, the whole list (cloudbase/cloudbase-init 1.1.4,
 * which image-builder's Windows images install, to 1.1.8:
 * cloudbaseinit/plugins/common/userdataplugins/cloudconfigplugins/factory.py, PLUGINS).
 */
export const CLOUDBASE_INIT_MODULES: readonly string[] = ['write_files', 'set_timezone', 'timezone', 'set_hostname', 'hostname', 'ntp', 'groups', 'users', 'runcmd'];

/**
 * The KubeadmConfig fields CABPK renders into cloud-config modules cloudbase-init does not run, by
 * field, with the module (cluster-api v1.14.0 bootstrap/kubeadm/pkg/cloudinit/node.go and
 * cloudinit.go: bootcmd, disk_setup/fs_setup, mounts), so on Windows they are dropped in silence.
 */
export const CLOUDBASE_INIT_IGNORED_FIELDS: Readonly<Record<string, string>> = {
  bootCommands: 'bootcmd',
  diskSetup: 'disk_setup and fs_setup',
  mounts: 'mounts',
};

/**
 * How a Windows image runs the kubelet, which decides whether kubeadm's kubelet flags reach it.
 * kubernetes-sigs/image-builder builds Windows images with `windows_service_manager` `nssm` up to
 * v0.1.52 and `windows_service` from v0.1.53 on (packer/config/windows/common.json, PR #2046): the
 * nssm service starts the kubelet through StartKubelet.ps1, which reads kubeadm's
 * `/var/lib/kubelet/kubeadm-flags.env` (kubeletExtraArgs, and a worker's join taints as
 * `--register-with-taints`); the native service (`sc.exe`) starts it with a fixed command line and
 * reads only `--config` (v0.1.55 ansible/windows/roles/kubernetes/tasks/sc.yml: "Does not support
 * kubeadm KUBELET_KUBEADM_ARGS"), so both are dropped in silence (image-builder#2011, open), and
 * `nssm` does not exist on the machine.
 */
export enum WindowsKubeletService {
  /** The kubelet runs under nssm (image-builder up to v0.1.52, and CAPZ's own flavor assumes it). */
  NSSM = 'nssm',
  /** The kubelet is a native Windows service (image-builder v0.1.53 and later by default). */
  WINDOWS_SERVICE = 'windows-service',
}

/**
 * Where objects say which kubelet service their Windows image runs (`WindowsKubeletService`): an
 * annotation on the AzureMachineTemplate (the image is its property), since no CAPZ field says it.
 */
export const KUBELET_SERVICE_ANNOTATION = 'windows.cdk-hybrid-windows.io/kubelet-service';

/**
 * The kube-proxy image of sig-windows' HostProcess DaemonSet that CAPZ's Windows add-ons run:
 * its tag is the cluster's Kubernetes version with "+" written "_" (CAPZ v1.26.0
 * templates/addons/windows/calico/kube-proxy-windows.yaml: `sigwindowstools/kube-proxy:${KUBERNETES_VERSION/+/_}-calico-hostprocess`).
 */
export const WINDOWS_KUBE_PROXY_IMAGE = 'sigwindowstools/kube-proxy';
/** The tag of that image for a Kubernetes version. */
export function windowsKubeProxyTag(kubernetesVersion: string): string {
  return `${kubernetesVersion.replace('+', '_')}-calico-hostprocess`;
}

/**
 * Calico on Windows: VXLAN encapsulation with BGP off and the HNS dataplane, as CAPZ's Windows
 * add-ons install it (v1.26.0 templates/addons/cluster-api-helm/calico.yaml: `bgp: Disabled`,
 * `windowsDataplane: HNS`, `mtu: 1350`, every pool `encapsulation: VXLAN`); Calico for Windows has
 * no IP-in-IP, and BGP only without encapsulation on networks that route pod addresses, which
 * Azure's does not. Each must be written: the tigera operator that Calico v3.29.4 ships with
 * (tigera/operator v1.36.9) fills an absent `windowsDataplane` with Disabled, `bgp` with Enabled
 * and a pool's encapsulation with IPIP for Calico's CNI (pkg/controller/installation/core_controller.go
 * and pkg/controller/ippool/defaults.go, fillDefaults), and an absent `mtu` lets Calico detect it
 * from the NIC (pkg/render/windows.go, createCalicoPluginConfig: 0), 1500 on Azure, whose network
 * carries 1400 (CAPZ templates/addons/calico/patches/azure-mtu.yaml: 1400 less VXLAN's 50 bytes).
 */
export const CALICO_WINDOWS = { encapsulations: ['VXLAN'], bgp: 'Disabled', dataplane: 'HNS', mtu: 1350 } as const;

/**
 * Calico does not support Windows Server 2025 (projectcalico/calico#11691, open on 2026-11-28),
 * though CAPZ publishes `capi-win-2025-containerd` images (CAPZ #5317).
 */
export const CALICO_WINDOWS_2025 = 'projectcalico/calico#11691 (Windows Server 2025 support, open)';

/**
 * kubernetes-sigs/cloud-provider-azure, the external cloud provider every CAPZ kubelet runs with
 * (`cloud-provider: external`). Its chart (helm/cloud-provider-azure, chart 1.36.0) runs the
 * cloud-controller-manager with `--controllers=*,-cloud-node`, so only its node manager, a
 * DaemonSet per OS (`cloud-node-manager`, and `cloud-node-manager-windows` as a HostProcess pod
 * as SYSTEM with the host network), sets a node's providerID and removes the
 * `node.cloudprovider.kubernetes.io/uninitialized` taint the kubelet registers with
 * (pkg/nodemanager/nodemanager.go): a Windows node without it takes no pod and its Machine never
 * gets a node. The chart picks the images by the cluster's Kubernetes minor
 * (templates/cloud-provider-azure.yaml, `cloudProviderAzureVersion`). CAPZ v1.26.0 installs the
 * chart with a HelmChartProxy that selects Clusters labelled `cloud-provider: azure`
 * (templates/addons/cluster-api-helm/cloud-provider-azure.yaml), or by `helm install` on the
 * workload cluster (docs/book/src/self-managed/addons.md, "External Cloud Provider").
 */
export const CLOUD_PROVIDER_AZURE = {
  chart: 'cloud-provider-azure',
  nodeManagerImage: 'azure-cloud-node-manager',
  helmChartProxyLabel: { key: 'cloud-provider', value: 'azure' },
} as const;

/** How the cloud provider of a CAPZ cluster is installed in it (cloud-provider-azure's chart). */
export enum CapzCloudProviderInstall {
  /**
   * By CAPZ's HelmChartProxy (Cluster API add-on provider for Helm): the Cluster carries the
   * label `cloud-provider: azure` it selects.
   */
  HELM_CHART_PROXY = 'helm-chart-proxy',
  /** By you, with `helm install` on the workload cluster once its API server answers (CAPZ's docs). */
  HELM_INSTALL = 'helm-install',
}

/** Where a Cluster says its cloud provider is installed by other means than its objects show (`CapzCloudProviderInstall`). */
export const CLOUD_PROVIDER_ANNOTATION = 'windows.cdk-hybrid-windows.io/cloud-provider';

/** An AzureMachine(Template)'s `image`, as far as its names go (api/v1beta1 types.go, Image). */
export interface CapzImageRef {
  readonly id?: unknown;
  readonly computeGallery?: { readonly name?: unknown };
  readonly sharedGallery?: { readonly name?: unknown; readonly offer?: unknown; readonly sku?: unknown };
  readonly marketplace?: { readonly offer?: unknown; readonly sku?: unknown };
}

/**
 * The names of an image reference that say which OS it holds: a gallery image's definition name,
 * a marketplace or shared-gallery offer and SKU, and of an `id` only its image segment (after
 * `/images/`, as in managed-image and gallery-version ids and CAPZ's community gallery ids:
 * v1.26.0 azure/converters/image.go, ImageToSDK), never its subscription, resource group,
 * gallery or version, which are anyone's words.
 */
export function capzImageNames(image: CapzImageRef | undefined): string[] {
  if (image === null || typeof image !== 'object') return [];
  const segment = typeof image.id === 'string' ? /\/images\/([^/]+)/i.exec(image.id)?.[1] : undefined;
  return [segment, image.computeGallery?.name, image.sharedGallery?.name, image.sharedGallery?.offer, image.sharedGallery?.sku, image.marketplace?.offer, image.marketplace?.sku]
    .filter((s): s is string => typeof s === 'string' && s !== '');
}

/**
 * The OS an image's names tell, word by word, or undefined where they tell none or both. Windows:
 * the word `win`, `win<digits>` or `windows…` (CAPZ's `capi-win-2022-containerd` gallery images,
 * image-builder's `capi-windows` offer with `windows-2022-containerd-gen1` SKUs, Microsoft's
 * `WindowsServer` offer). Linux: a distribution's word (CAPZ's `capi-ubun2-2404` gallery image and
 * `ubuntu-2404-gen1` SKUs, Flatcar's `flatcar-container-linux-free`, `azurelinux`, …). Words that only
 * contain "win" (`darwin`, `winter`, `twin`) tell nothing.
 */
export function capzImageOs(image: CapzImageRef | undefined): 'windows' | 'linux' | undefined {
  const words = capzImageNames(image).flatMap((n) => n.toLowerCase().split(/[^a-z0-9]+/));
  const windows = words.some((w) => w === 'win' || /^win(\d+|dows\w*)$/.test(w));
  const linux = words.some((w) => /linux$/.test(w) || /^(ubuntu\w*|ubun\d+|flatcar|rhel\d*|centos\d*|mariner\d*|cblmariner|debian\d*|sles\d*|suse|opensuse\w*|rocky\d*|alma\d*)$/.test(w));
  return windows === linux ? undefined : windows ? 'windows' : 'linux';
}

/** The Windows Server year an image's names carry (`2022` in `capi-win-2022-containerd`, `windows-2022-containerd-gen1`, `2022-datacenter`), if any. */
export function capzImageYear(image: CapzImageRef | undefined): string | undefined {
  return capzImageNames(image).flatMap((n) => n.toLowerCase().split(/[^a-z0-9]+/)).map((w) => /^(?:win)?(20\d\d)$/.exec(w)?.[1]).find((y) => y !== undefined);
}
