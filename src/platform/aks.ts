import { WindowsVersion } from './windows';

/**
 * Facts about Azure Kubernetes Service that the AKS constructs write and the Terraform rules
 * judge: names, OS SKUs, network plugins, the Kubernetes versions AKS offers, and the azurerm
 * releases that know an OS SKU. Sources are hashicorp/terraform-provider-azurerm v4.73.0 (the
 * release `@cdktn/provider-azurerm` 16.1.0 wraps) and the AKS documentation, as of 2026-11.
 */

/**
 * Node pool `os_sku` per Windows Server release (AKS API `OSSKU`; azurerm
 * internal/services/containers/kubernetes_cluster_node_pool_resource.go `os_sku`, whose
 * `StringInSlice` takes Windows2019 and Windows2022 of the Windows SKUs in v4.73.0: see
 * `AKS_WINDOWS_2025_NEWEST_REFUSING`).
 */
export const AKS_WINDOWS_OS_SKUS: Readonly<Record<WindowsVersion, string>> = {
  [WindowsVersion.SERVER_2019]: 'Windows2019',
  [WindowsVersion.SERVER_2022]: 'Windows2022',
  [WindowsVersion.SERVER_2025]: 'Windows2025',
};

/**
 * Windows releases whose AKS pools must run FIPS: Windows Server 2025 pools "require a FIPS-enabled
 * image" and "don't support disabling FIPS" (MicrosoftDocs/azure-aks-docs at fb060abe,
 * articles/aks/upgrade-windows-os.md, enable-fips-nodes.md). azurerm sends `enableFIPS: false` when
 * `fips_enabled` is absent (v4.73.0 kubernetes_cluster_node_pool_resource.go, create:
 * `EnableFIPS: pointer.To(d.Get("fips_enabled").(bool))`), so such a pool writes `fips_enabled = true`.
 */
export const AKS_FIPS_REQUIRED: readonly WindowsVersion[] = [WindowsVersion.SERVER_2025];

/** The Windows release of an `os_sku`, or undefined when it is not a Windows SKU. */
export function parseAksWindowsOsSku(osSku: unknown): WindowsVersion | undefined {
  return (Object.keys(AKS_WINDOWS_OS_SKUS) as WindowsVersion[]).find((v) => AKS_WINDOWS_OS_SKUS[v] === osSku);
}

/**
 * Limits of what azurerm and AKS take.
 * - Pool names: azurerm validate/kubernetes.go `KubernetesAgentPoolName`, `^[a-z]{1}[a-z\d]{0,11}$`
 *   (1 to 12); AKS takes at most 6 for a Windows pool (MicrosoftDocs/azure-aks-docs fb060abe
 *   articles/aks/create-node-pools.md: "For Windows node pools, the length must be between 1-6
 *   characters"), since Windows computer names are 15 characters and AKS appends the scale set's suffix.
 * - The Windows admin password: azurerm's schema checks 8 to 123 characters
 *   (kubernetes_cluster_resource.go `windows_profile.admin_password`, `StringLenBetween(8, 123)`);
 *   AKS refuses fewer than 14 (`az aks create --windows-admin-password`: "length between 14 and 123").
 * - The Windows admin user: azurerm takes any string (kubernetes_cluster_resource.go
 *   `windows_profile.admin_username` has no ValidateFunc); AKS takes 1 to 20 characters, not ending
 *   in ".", none of `AKS_DISALLOWED_WINDOWS_ADMIN_NAMES` (AKS API
 *   ManagedClusterWindowsProfile.adminUsername, learn.microsoft.com @azure/arm-containerservice).
 * - Max pods: 10 to 250 per node; 30 or more on a System pool (AKS "Configure Azure CNI Overlay
 *   networking", "Maximum pods per node": Azure CNI Overlay defaults to 250, the minimum is 10, and
 *   system pools need at least 30 for the system pods).
 * - Cluster names: 1 to 63 letters, digits, "-" and "_", starting and ending with a letter or digit
 *   (azurerm validate/kubernetes.go `KubernetesClusterName`, the AKS rule; azurerm's
 *   `azurerm_kubernetes_cluster.name` only checks `StringIsNotEmpty`, so AKS refuses the rest at apply).
 * - DNS prefixes: 1 to 54 letters, digits and "-", starting and ending with a letter or digit
 *   (validate/kubernetes.go `KubernetesDNSPrefix`, `dns_prefix`'s ValidateFunc): no "_", shorter
 *   than a cluster name may be (`aksDnsPrefix`).
 * - Subnets: Azure reserves 5 addresses in every subnet (Azure Virtual Network FAQ).
 * - Azure CNI Overlay gives each node a /24 of the pod CIDR (AKS "Azure CNI Overlay networking").
 */
export const AKS_LIMITS = {
  clusterName: /^[a-zA-Z0-9]$|^[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]$/,
  dnsPrefix: { max: 54, pattern: /^[a-zA-Z\d]$|^[a-zA-Z\d][-a-zA-Z\d]{0,52}[a-zA-Z\d]$/ },
  poolName: { max: 12, pattern: /^[a-z][a-z0-9]{0,11}$/ },
  windowsPoolName: 6,
  password: { min: 14, max: 123, providerMin: 8 },
  adminUsername: { max: 20 },
  maxPods: { min: 10, max: 250, systemMin: 30, overlayDefault: 250, flatDefault: 30 },
  subnetReserved: 5,
  overlayNodePrefix: 24,
  /** Azure virtual network names: 2 to 64 characters (Azure "Naming rules and restrictions for Azure resources", Microsoft.Network/virtualNetworks). */
  vnetName: 64,
  /** The Service CIDR "must be smaller than /12" (MicrosoftDocs/azure-aks-docs fb060abe articles/aks/concepts-network-azure-cni-overlay.md, "Kubernetes service address range"). */
  serviceCidrLargestPrefix: 13,
  /** Node pool versions: "the control plane can be up to three minor versions ahead of node pools" (supported-kubernetes-versions.md, FAQ). */
  poolVersionSkew: 3,
  /** Maintenance windows (`maintenance_window_node_os.duration`, kubernetes_cluster_resource.go IntBetween(4, 24)). */
  maintenanceHours: { min: 4, max: 24 },
  /** Pods per node AKS recommends on Windows nodes at most ("For Windows Server containers, the maximum recommended value is 110", concepts-network-azure-cni-overlay.md). */
  windowsMaxPods: 110,
} as const;

/** Windows admin user names AKS refuses (ManagedClusterWindowsProfile.adminUsername, "Disallowed values"; Windows compares user names without case). */
export const AKS_DISALLOWED_WINDOWS_ADMIN_NAMES: readonly string[] = [
  'administrator', 'admin', 'user', 'user1', 'test', 'user2', 'test1', 'user3', 'admin1', '1', '123', 'a', 'actuser', 'adm', 'admin2', 'aspnet', 'backup',
  'console', 'david', 'guest', 'john', 'owner', 'root', 'server', 'sql', 'support', 'support_388945a0', 'sys', 'test2', 'test3', 'user4', 'user5',
];

/** Why AKS refuses a Windows admin user name, or undefined. */
export function aksWindowsAdminProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return `Windows admin user ${JSON.stringify(name)} is not a user name`;
  if (name.length > AKS_LIMITS.adminUsername.max) return `Windows admin user "${name}" is ${name.length} characters, and AKS takes at most ${AKS_LIMITS.adminUsername.max}`;
  if (name.endsWith('.')) return `Windows admin user "${name}" ends in ".", which AKS refuses`;
  if (AKS_DISALLOWED_WINDOWS_ADMIN_NAMES.includes(name.toLowerCase())) return `Windows admin user "${name}" is one of the names AKS refuses (administrator, admin, user, root, guest, test, …)`;
  return undefined;
}

/**
 * Address ranges AKS reserves for its own use in every cluster: the Service, pod and VNet ranges
 * must not overlap them ("AKS rejects pod CIDRs that overlap a reserved range during cluster
 * creation or update", MicrosoftDocs/azure-aks-docs fb060abe articles/aks/concepts-network-cni-overview.md,
 * "AKS CNI networking prerequisites").
 */
export const AKS_RESERVED_CIDRS: readonly string[] = ['169.254.0.0/16', '192.0.2.0/24', '172.30.0.0/16', '172.31.0.0/16'];

/**
 * The name of the temporary pool azurerm creates when a change of `vm_size`, `max_pods`, `zones`,
 * `vnet_subnet_id`, `fips_enabled` (and the other "cycle" properties) rotates a pool: it creates
 * the temporary pool with the new values, deletes the pool, creates it again and deletes the
 * temporary one, without cordon or drain (azurerm v4.73.0 kubernetes_cluster_node_pool_resource.go
 * update, `cycleNodePoolProperties`: "`temporary_name_for_rotation` must be specified"). It obeys
 * the pool name rules (`KubernetesAgentPoolName`; 6 characters for a Windows pool, since AKS names
 * the temporary pool's VMs after it): `<name>tmp` when that fits, else the name's head, "t" and two
 * characters of a hash of the name, so that pools of one prefix get different names.
 */
export function aksRotationName(name: string, windows: boolean): string {
  const max = windows ? AKS_LIMITS.windowsPoolName : AKS_LIMITS.poolName.max;
  if (name.length + 3 <= max) return `${name}tmp`;
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.charCodeAt(0)) % 1296;
  return `${name.slice(0, max - 3)}t${hash.toString(36).padStart(2, '0')}`;
}

/**
 * The DNS prefix of a cluster named `name`: the name with "_" as "-", cut to the 54 characters
 * `dns_prefix` takes and trimmed of a trailing "-", so every name AKS takes gets a prefix azurerm takes.
 */
export function aksDnsPrefix(name: string): string {
  return name.replace(/_/g, '-').slice(0, AKS_LIMITS.dnsPrefix.max).replace(/-+$/, '');
}

/** The network plugin: `network_profile.network_plugin`; without a `network_profile` AKS uses kubenet. */
export enum AksNetworkPlugin {
  /** Azure CNI (flat, or Overlay with `network_plugin_mode = "overlay"`): the only plugin for Windows nodes. */
  AZURE = 'azure',
  /** kubenet: Linux nodes only. */
  KUBENET = 'kubenet',
  /** No CNI (bring your own): Linux nodes only. */
  NONE = 'none',
}

/**
 * The network policy engine (`network_profile.network_policy`). Calico runs on Windows nodes; Azure
 * Network Policy Manager does no more from `AKS_NPM_WINDOWS_RETIRED`; Cilium does not (AKS "Azure
 * CNI Powered by Cilium", Limitations: "Windows node pools aren't supported"). Changing it between
 * Calico and Azure replaces the cluster (azurerm v4.73.0 kubernetes_cluster_resource.go
 * CustomizeDiff: only a change to Cilium is in place).
 */
export enum AksNetworkPolicy {
  /** Calico, on Linux and Windows nodes: the default. */
  CALICO = 'calico',
  /** Azure Network Policy Manager: Linux nodes only since 2026-09-30, refused beside Windows pools. */
  AZURE = 'azure',
  /** Cilium (Azure CNI Powered by Cilium): Linux nodes only, refused beside Windows pools. */
  CILIUM = 'cilium',
}

/**
 * The day AKS stopped supporting Azure Network Policy Manager on Windows nodes: "Starting on
 * September 30, 2026, Azure Kubernetes Service (AKS) no longer supports Azure Network Policy
 * Manager (NPM) on Windows nodes" (MicrosoftDocs/azure-aks-docs fb060abe
 * articles/aks/includes/azure-network-policy-manager-windows-retirement.md).
 */
export const AKS_NPM_WINDOWS_RETIRED = '2026-09-30';

/** How AKS patches node images (`node_os_upgrade_channel`, azurerm kubernetes_cluster_resource.go). */
export enum AksNodeOsUpgradeChannel {
  /** A new node image, applied by reimaging nodes in the maintenance window: azurerm's default, and how Windows nodes get their patches. */
  NODE_IMAGE = 'NodeImage',
  /** Security patches applied in place on Linux nodes (AKS "Autoupgrade node OS images"). */
  SECURITY_PATCH = 'SecurityPatch',
  /** The OS's own update mechanism (Linux unattended upgrades); nothing for Windows nodes. */
  UNMANAGED = 'Unmanaged',
  /** No automatic node OS updates. */
  NONE = 'None',
}

/** The Windows license of the nodes (`windows_profile.license`). */
export enum AksWindowsLicense {
  /** Pay for Windows Server in the VM price. */
  PAY_AS_YOU_GO = 'None',
  /** Azure Hybrid Benefit: bring your Windows Server licenses. */
  WINDOWS_SERVER = 'Windows_Server',
}

/**
 * Windows Server 2025 pools: no azurerm release accepts `os_sku = "Windows2025"` yet (the list in
 * kubernetes_cluster_node_pool_resource.go stops at Windows2022 in every release from v4.73.0 to
 * v5.2.0, the newest read on 2026-11-25: the resource builds on the vendored go-azure-sdk
 * containerservice/2025-10-01/agentpools, whose `OSSKU` has no Windows2025; v5.2.0 vendors 2026-04-01
 * with `OSSKUWindowsTwoZeroTwoFive` but does not use it there; hashicorp/terraform-provider-azurerm#33451
 * and #33463 open, #32084 closed because the API spec lacked the value). A constraint that admits
 * nothing newer than this is refused.
 */
export const AKS_WINDOWS_2025_NEWEST_REFUSING: readonly [number, number, number] = [5, 2, 0];
/** What to allow once a release accepts Windows2025, for messages and docs. */
export const AKS_WINDOWS_2025_PROVIDER_ADVICE = '> 5.2.0';

/**
 * A Kubernetes minor version on AKS's release calendar. AKS gives each version one year of
 * community support, then one year of long-term support (LTS) to clusters that enable it; "All
 * supported Kubernetes versions are eligible for LTS" (MicrosoftDocs/azure-aks-docs at fb060abe,
 * articles/aks/long-term-support.md).
 */
export interface AksKubernetesVersion {
  /** The minor version: 31 for 1.31. */
  readonly minor: number;
  /** The month AKS made it generally available, `YYYY-MM` (the calendar gives months). */
  readonly ga: string;
  /** The last day of community support, `YYYY-MM-DD` (the calendar's "End of life"). */
  readonly communitySupportEnd: string;
  /** The last day of long-term support, `YYYY-MM-DD` (the calendar's "LTS End of life"). */
  readonly longTermSupportEnd: string;
}

/**
 * AKS's release calendar, oldest first: MicrosoftDocs/azure-aks-docs at fb060abe (2026-08-21),
 * articles/aks/supported-kubernetes-versions.md, "AKS Kubernetes release calendar" and "LTS
 * versions" ("Unless an explicit date is provided, the End of Life (EOL) date is the last day of
 * the specified month"; 1.30 and 1.31 have explicit community dates). A version is in support
 * through its end date. Older versions are refused; newer ones pass, since nothing here can know them.
 */
export const AKS_KUBERNETES_VERSIONS: readonly AksKubernetesVersion[] = [
  { minor: 29, ga: '2024-03', communitySupportEnd: '2025-03-31', longTermSupportEnd: '2026-04-30' },
  { minor: 30, ga: '2024-07', communitySupportEnd: '2025-08-22', longTermSupportEnd: '2026-07-31' },
  { minor: 31, ga: '2024-11', communitySupportEnd: '2025-11-01', longTermSupportEnd: '2026-11-30' },
  { minor: 32, ga: '2025-04', communitySupportEnd: '2026-03-31', longTermSupportEnd: '2027-03-31' },
  { minor: 33, ga: '2025-06', communitySupportEnd: '2026-07-31', longTermSupportEnd: '2027-07-31' },
  { minor: 34, ga: '2025-11', communitySupportEnd: '2026-11-30', longTermSupportEnd: '2027-11-30' },
  { minor: 35, ga: '2026-03', communitySupportEnd: '2027-03-31', longTermSupportEnd: '2028-03-31' },
  { minor: 36, ga: '2026-06', communitySupportEnd: '2027-06-30', longTermSupportEnd: '2028-06-30' },
  { minor: 37, ga: '2026-10', communitySupportEnd: '2027-10-31', longTermSupportEnd: '2028-10-31' },
];

/** The support AKS gives a Kubernetes version on a day. */
export enum AksSupport {
  /** Community support: every cluster. */
  COMMUNITY = 'community',
  /** Past community support, in long-term support: clusters with the LTS plan on the Premium tier only. */
  LONG_TERM = 'long-term',
  /** Past long-term support, or older than the calendar: AKS creates no cluster of it. */
  NONE = 'none',
}

/**
 * The support AKS gives Kubernetes 1.`minor` on `day` (`YYYY-MM-DD`), with its calendar row
 * (none for a version older or newer than the calendar; a newer one counts as in community support).
 * "You can create a new AKS cluster using an LTS version after its community support period ends
 * if you enable LTS" (long-term-support.md, FAQ); past community support without LTS, AKS's
 * platform support allows no cluster creation (supported-kubernetes-versions.md, "Platform support policy").
 */
export function aksSupportOn(minor: number, day: string): { support: AksSupport; release?: AksKubernetesVersion } {
  const release = AKS_KUBERNETES_VERSIONS.find((v) => v.minor === minor);
  if (release === undefined) return { support: minor < AKS_KUBERNETES_VERSIONS[0].minor ? AksSupport.NONE : AksSupport.COMMUNITY };
  if (day <= release.communitySupportEnd) return { support: AksSupport.COMMUNITY, release };
  return { support: day <= release.longTermSupportEnd ? AksSupport.LONG_TERM : AksSupport.NONE, release };
}

/** The calendar's generally available versions with `support` on `day`, oldest first. */
export function aksVersionsWith(support: AksSupport, day: string): AksKubernetesVersion[] {
  return AKS_KUBERNETES_VERSIONS.filter((v) => v.ga <= day.slice(0, 7) && aksSupportOn(v.minor, day).support === support);
}

/**
 * The oldest minor AKS's default version can be on `day`: the default is a version in community
 * support (the Azure CLI and portal take N-1, supported-kubernetes-versions.md), so never older
 * than the oldest one, nor than every calendar version once all have left community support.
 */
export function aksDefaultMinorAtLeast(day: string): number {
  return AKS_KUBERNETES_VERSIONS.find((v) => day <= v.communitySupportEnd)?.minor ?? AKS_KUBERNETES_VERSIONS.at(-1)!.minor + 1;
}

/**
 * The cluster's Kubernetes support plan (`support_plan`; azurerm v4.73.0
 * kubernetes_cluster_resource.go: `KubernetesOfficial` or `AKSLongTermSupport`, default
 * `KubernetesOfficial`, sent to AKS as `supportPlan`).
 */
export enum AksSupportPlan {
  /** Community support only: a version is creatable until its community support ends. */
  KUBERNETES_OFFICIAL = 'KubernetesOfficial',
  /** Long-term support: a year more per version; needs the Premium tier (`az aks create --k8s-support-plan AKSLongTermSupport`). */
  AKS_LONG_TERM_SUPPORT = 'AKSLongTermSupport',
}

/**
 * The cluster management tier (`sku_tier`; azurerm v4.73.0 kubernetes_cluster_resource.go: `Free`,
 * `Standard` or `Premium`, case-sensitive, default `Free`, sent to AKS as `sku.tier`).
 */
export enum AksSkuTier {
  /** No uptime SLA: azurerm's default. */
  FREE = 'Free',
  /** The uptime SLA. */
  STANDARD = 'Standard',
  /** Standard's SLA and long-term support: "Enabling LTS requires moving your cluster to the Premium tier" (long-term-support.md). */
  PREMIUM = 'Premium',
}

// azurerm takes any non-empty string (kubernetes_cluster_resource.go `kubernetes_version`,
// StringIsNotEmpty); AKS takes `1.NN` (latest patch) or `1.NN.P`.
const AKS_VERSION = /^1\.(\d{1,3})(\.\d+)?$/;

/** The minor of an AKS Kubernetes version (`1.34`, `1.34.2`), or undefined. */
export function aksMinor(version: unknown): number | undefined {
  const m = typeof version === 'string' ? AKS_VERSION.exec(version) : null;
  return m ? Number(m[1]) : undefined;
}

/** A taint as AKS and azurerm take it in `node_taints`: `key=value:Effect`. */
export const AKS_TAINT = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/;

/** AKS's taint on system pools with `only_critical_addons_enabled`, which CoreDNS tolerates. */
export const AKS_CRITICAL_ADDONS_TAINT = 'CriticalAddonsOnly=true:NoSchedule';
