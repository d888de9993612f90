import type { Json } from '../../rules/engine/graph';
import { Finding, registry, rule } from '../../rules/engine/rule';
import {
  AKS_CRITICAL_ADDONS_TAINT, AKS_FIPS_REQUIRED, AKS_KUBERNETES_VERSIONS, AKS_LIMITS, AKS_WINDOWS_2025_NEWEST_REFUSING, AKS_WINDOWS_2025_PROVIDER_ADVICE, AksNetworkPlugin, AksNetworkPolicy,
  AksSkuTier, AksSupport, AksSupportPlan, AksWindowsLicense, aksDefaultMinorAtLeast, aksWindowsAdminProblem, aksMinor, aksSupportOn, aksVersionsWith, parseAksWindowsOsSku,
} from '../../platform/aks';
import { admitsVersionAtLeast } from '../../platform/provider-version';
import { WindowsPlatform, windowsSupport } from '../../platform/support';
import { WindowsVersion } from '../../platform/windows';
import { TerraformBlock, TerraformGraph, TerraformRule, blockViolation, isExpression, list, single } from '../graph';
import { CLUSTER, POOL, Pool, defaultPool, extraPool, minNodes, poolName, poolsOf, versionOf } from './aks-common';
import { AKS_POOL_RULES } from './aks-pool-rules';
import { maintenanceWindow, network } from './aks-network-rules';

/**
 * The AKS rules over the final Terraform JSON of azurerm resources: what hashicorp/azurerm
 * (v4.73.0, internal/services/containers) or AKS refuse, or accept and then fail on, and what a
 * cluster with Windows node pools needs to run Windows pods. Each rule cites the code or document
 * whose behaviour it encodes; the facts are in src/platform/aks.ts. The rules over each pool are in
 * aks-pool-rules.ts, the shape of a pool in aks-common.ts.
 */

/**
 * The cluster's name and DNS prefix: AKS takes 1 to 63 letters, digits, "-" and "_" as a name,
 * azurerm 1 to 54 letters, digits and "-" as `dns_prefix` (src/platform/aks.ts `AKS_LIMITS`).
 * azurerm checks only that the name is not empty, so AKS refuses a bad one at apply.
 */
const clusterName = rule<TerraformGraph>({
  name: 'aks-cluster-name',
  scope: 'object',
  description: 'Cluster names AKS takes and DNS prefixes azurerm takes',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/validate/kubernetes.go (KubernetesClusterName, KubernetesDNSPrefix), kubernetes_cluster_resource.go (name: StringIsNotEmpty; dns_prefix: KubernetesDNSPrefix)',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
    const out: Finding[] = [];
    const { name, dns_prefix: prefix } = cluster.body;
    if (name !== undefined && !isExpression(name) && (typeof name !== 'string' || !AKS_LIMITS.clusterName.test(name))) {
      out.push(blockViolation(cluster, `cluster name ${JSON.stringify(name)} is not an AKS cluster name, and AKS refuses it at apply`,
        'use 1 to 63 letters, digits, "-" and "_", starting and ending with a letter or digit', 'name'));
    } else if (prefix !== undefined && !isExpression(prefix) && (typeof prefix !== 'string' || !AKS_LIMITS.dnsPrefix.pattern.test(prefix))) {
      out.push(blockViolation(cluster, `dns_prefix ${JSON.stringify(prefix)} is not a DNS prefix azurerm takes`,
        `use 1 to ${AKS_LIMITS.dnsPrefix.max} letters, digits and "-", starting and ending with a letter or digit (HybridAksCluster derives it from the name)`, 'dns_prefix'));
    }
    return out;
  }),
});

const LTS = `support_plan = "${AksSupportPlan.AKS_LONG_TERM_SUPPORT}" with sku_tier = "${AksSkuTier.PREMIUM}" (supportPlan: AksSupportPlan.AKS_LONG_TERM_SUPPORT)`;

/** `1.34 to 1.37`, or undefined for none. */
function range(support: AksSupport, day: string): string | undefined {
  const versions = aksVersionsWith(support, day).map((v) => `1.${v.minor}`);
  return versions.length <= 1 ? versions[0] : `${versions[0]} to ${versions.at(-1)}`;
}

/** What to write instead of a version AKS does not create on `day`: a version in community support, or one in long-term support with LTS. */
function versionFix(day: string): string {
  const community = range(AksSupport.COMMUNITY, day);
  const longTerm = range(AksSupport.LONG_TERM, day);
  return [
    community ? `write a version in AKS community support on ${day} (${community})` : `write a version newer than 1.${AKS_KUBERNETES_VERSIONS.at(-1)!.minor} (az aks get-versions --location <region>)`,
    longTerm ? `or ${longTerm} with long-term support: ${LTS}` : undefined,
  ].filter(Boolean).join(', ');
}

/**
 * Why AKS does not create a cluster of `version` on `day`, or undefined. `lts`: the cluster has
 * the LTS plan (undefined: unknown, a Terraform expression).
 */
function versionProblem(version: unknown, day: string, lts: boolean | undefined): { what: string; fix: string } | undefined {
  const minor = aksMinor(version);
  if (minor === undefined) {
    return { what: `Kubernetes version ${JSON.stringify(version)} is not an AKS Kubernetes version (1.NN or 1.NN.P, e.g. "1.35")`, fix: versionFix(day) };
  }
  const { support, release } = aksSupportOn(minor, day);
  if (support === AksSupport.NONE) {
    const oldest = AKS_KUBERNETES_VERSIONS[0];
    return {
      what: release ? `Kubernetes ${version} left AKS long-term support on ${release.longTermSupportEnd} (the calendar is read on ${day}), and AKS creates no cluster of it`
      : `Kubernetes ${version} is older than 1.${oldest.minor}, the oldest version on AKS's release calendar, and AKS creates no cluster of it`,
      fix: versionFix(day),
    };
  }
  if (support === AksSupport.LONG_TERM && lts === false) {
    return {
      what: `Kubernetes ${version} left AKS community support on ${release!.communitySupportEnd} (the calendar is read on ${day}), and AKS creates clusters of it only with long-term support (until ${release!.longTermSupportEnd}), which needs support_plan "${AksSupportPlan.AKS_LONG_TERM_SUPPORT}" on the ${AksSkuTier.PREMIUM} tier`,
      fix: versionFix(day),
    };
  }
  return undefined;
}

/**
 * The cluster's and the pools' Kubernetes versions against AKS's release calendar on the graph's
 * day (src/platform/aks.ts `AKS_KUBERNETES_VERSIONS`; azurerm itself takes any non-empty string):
 * past community support only with long-term support, which AKS enables on the Premium tier only;
 * past long-term support, never. A pool no newer than its cluster (AKS "Upgrade a node pool": a
 * node pool's version cannot exceed the control plane's). A pool's version is refused only past
 * long-term support: AKS's platform support still creates node pools of a version past community
 * support (supported-kubernetes-versions.md, "Platform support policy"), and the cluster's own
 * version is judged.
 */
/**
 * A pool's version against its cluster's: never newer, at most `AKS_LIMITS.poolVersionSkew` minors
 * older ("Starting with Kubernetes 1.28, the control plane can be up to three minor versions ahead
 * of node pools", supported-kubernetes-versions.md, FAQ).
 */
function skewProblem(pool: Pool, version: unknown): Finding[] {
  const clusterVersion = pool.cluster?.body.kubernetes_version;
  const [mine, theirs] = [aksMinor(version), aksMinor(clusterVersion)];
  if (mine === undefined || theirs === undefined) return [];
  const v = (what: string, fix: string) => [blockViolation(pool.block, what, fix, `${pool.at}orchestrator_version`)];
  if (mine > theirs) {
    return v(`the pool runs Kubernetes ${version} and its cluster ${clusterVersion}; AKS refuses a node pool newer than the control plane`, 'upgrade the cluster first, or leave the pool\'s kubernetesVersion unset to follow the cluster');
  }
  const skew = AKS_LIMITS.poolVersionSkew;
  if (theirs - mine > skew) {
    return v(`the pool runs Kubernetes ${version}, ${theirs - mine} minors behind its cluster's ${clusterVersion}, and AKS keeps node pools within ${skew} minors of the control plane`,
      `raise the pool's kubernetesVersion to 1.${theirs - skew} or newer (or leave it unset to follow the cluster), or upgrade the control plane in smaller steps`);
  }
  return [];
}

const kubernetesVersion = rule<TerraformGraph>({
  name: 'aks-kubernetes-version',
  scope: 'object',
  description: "The cluster's and the pools' Kubernetes versions are in AKS support on the day: community support, or long-term support with the LTS plan on the Premium tier; no pool newer than its cluster or more than 3 minors older",
  source: 'MicrosoftDocs/azure-aks-docs fb060abe articles/aks/supported-kubernetes-versions.md (release calendar, LTS versions, platform support), long-term-support.md, supported-kubernetes-versions.md FAQ (node pools up to three minors behind the control plane); AKS docs "Upgrade a node pool"; hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/kubernetes_cluster_resource.go (kubernetes_version StringIsNotEmpty; support_plan default KubernetesOfficial; sku_tier default Free)',
  check: (graph) => [
    ...graph.ofType(CLUSTER).flatMap((cluster) => {
      const out: Finding[] = [];
      const { kubernetes_version: version, support_plan: plan, sku_tier: tier } = cluster.body;
      if (plan === AksSupportPlan.AKS_LONG_TERM_SUPPORT && tier !== AksSkuTier.PREMIUM && !isExpression(tier)) {
        out.push(blockViolation(cluster, `the cluster has support_plan "${plan}" and sku_tier ${tier === undefined || tier === null ? 'unset (azurerm sends Free)' : JSON.stringify(tier)}, and AKS enables long-term support on the ${AksSkuTier.PREMIUM} tier only`,
          `set sku_tier = "${AksSkuTier.PREMIUM}" (skuTier: AksSkuTier.PREMIUM, the default with long-term support), or leave support_plan unset`, 'sku_tier'));
      }
      if (version === undefined || isExpression(version)) return out;
      // azurerm sends KubernetesOfficial for an absent support_plan.
      const p = versionProblem(version, graph.day, isExpression(plan) ? undefined : plan === AksSupportPlan.AKS_LONG_TERM_SUPPORT);
      if (p) out.push(blockViolation(cluster, p.what, p.fix, 'kubernetes_version'));
      return out;
    }),
    ...graph.ofType(POOL).flatMap((block) => {
      const pool = extraPool(graph, block);
      const version = block.body.orchestrator_version;
      if (version === undefined || isExpression(version)) return [];
      const p = versionProblem(version, graph.day, undefined);
      if (p) return [blockViolation(block, p.what, `${p.fix}; or leave orchestrator_version unset for the cluster's`, 'orchestrator_version')];
      return skewProblem(pool, version);
    }),
    ...graph.ofType(CLUSTER).flatMap((cluster) => {
      const pool = defaultPool(cluster);
      const version = pool?.body.orchestrator_version;
      return pool && version !== undefined && !isExpression(version) ? skewProblem(pool, version) : [];
    }),
  ],
});

/**
 * A Linux System pool: azurerm creates the cluster with `default_node_pool` (required), which AKS
 * makes the first System pool, and AKS refuses Windows System pools ("Windows Server node pools":
 * "the system node pool must be Linux"; azurerm lists Windows SKUs for the default pool too, so
 * it is refused at apply). System pools keep at least one node (azurerm kubernetes_nodepool.go
 * `min_count` IntBetween(1, 1000)).
 */
const systemPool = rule<TerraformGraph>({
  name: 'aks-system-pool',
  scope: 'object',
  description: 'The cluster has a default (System) pool, Linux, with at least one node; no Windows pool is a System pool',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/kubernetes_nodepool.go (default_node_pool, min_count 1 to 1000); AKS docs "Windows Server node pools FAQ" (the system pool must be Linux)',
  check: (graph) => [
    ...graph.ofType(CLUSTER).flatMap((cluster) => {
      const pool = defaultPool(cluster);
      const v = (what: string, fix: string, field: string) => [blockViolation(cluster, what, fix, field)];
      if (!pool) return v('the cluster has no default_node_pool, which azurerm requires and AKS makes its Linux System pool', 'give the cluster a default_node_pool (HybridAksStack always writes one)', 'default_node_pool');
      if (pool.windows) {
        return v(`the default node pool has os_sku ${pool.body.os_sku}, and AKS's System pool must be Linux`, 'leave default_node_pool.os_sku unset (Ubuntu) or use AzureLinux; add Windows nodes as an AksWindowsNodePool', 'default_node_pool.os_sku');
      }
      const min = minNodes(pool);
      if (min !== undefined && min < 1) return v(`the System pool keeps ${min} nodes; AKS needs at least one`, 'keep minNodes >= 1 on the system pool', 'default_node_pool.min_count');
      return [];
    }),
    ...graph.ofType(POOL).filter((b) => b.body.os_type === 'Windows' && b.body.mode === 'System').map((block) => blockViolation(block,
      `Windows pool ${block.body.name} has mode System, and AKS allows System mode on Linux pools only`, 'leave mode unset (User)', 'mode')),
  ],
});

function variableOf(graph: TerraformGraph, block: TerraformBlock, value: unknown): { name: string; body: Json } | undefined {
  const m = typeof value === 'string' ? /^\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)\}$/.exec(value) : null;
  const body = m ? (graph.stacks.get(block.stack) as Json | undefined)?.variable?.[m[1]] : undefined;
  return m && body !== undefined ? { name: m[1], body } : undefined;
}

/**
 * The cluster's Windows admin password (`windows_profile.admin_password`): never a literal, which
 * would sit in the synthesized JSON and the state file (a variable marked sensitive, without a
 * default, or another resource's attribute), and 14 to 123 characters where the JSON tells its
 * length (AKS refuses fewer than 14; azurerm checks only 8: `StringLenBetween(8, 123)`). The admin
 * user name as AKS takes it (azurerm has no check on it; `aksWindowsAdminProblem`), and the
 * license azurerm takes (`license` StringInSlice Windows_Server).
 */
const windowsPassword = rule<TerraformGraph>({
  name: 'aks-windows-password',
  scope: 'object',
  description: 'The Windows admin password is never a literal in the JSON, its variable sensitive without a default, 14 to 123 characters where known; an admin user name and a license AKS and azurerm take',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/kubernetes_cluster_resource.go (windows_profile.admin_password StringLenBetween(8, 123), admin_username without a check, license StringInSlice Windows_Server); az aks create --windows-admin-password (14 to 123); AKS API ManagedClusterWindowsProfile.adminUsername',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
    const profile = single(cluster.body.windows_profile);
    if (cluster.body.windows_profile === undefined) return [];
    const out: Finding[] = [];
    const v = (what: string, fix: string, field: string) => out.push(blockViolation(cluster, what, fix, `windows_profile.${field}`));
    const { min, max } = AKS_LIMITS.password;
    const user = profile.admin_username;
    const userProblem = user === undefined || isExpression(user) ? undefined : aksWindowsAdminProblem(user);
    if (userProblem) v(`${userProblem} (azurerm takes any name and AKS refuses it at create, after the resource group and network exist)`, `use 1 to ${AKS_LIMITS.adminUsername.max} characters, not ending in ".", other than the reserved names, e.g. "aksadmin" (the default)`, 'admin_username');
    const license = profile.license;
    if (license !== undefined && license !== null && !isExpression(license) && license !== AksWindowsLicense.WINDOWS_SERVER) {
      v(`windows_profile.license ${JSON.stringify(license)} is not one azurerm takes ("${AksWindowsLicense.WINDOWS_SERVER}"), and the plan fails`, `leave it unset (pay as you go) or write "${AksWindowsLicense.WINDOWS_SERVER}" (windowsLicense: AksWindowsLicense.WINDOWS_SERVER)`, 'license');
    }
    const password = profile.admin_password;
    const secretFix = 'leave windowsAdminPassword unset (a sensitive Terraform variable, set with TF_VAR_windows_admin_password) or pass a reference to a secret (e.g. a Key Vault secret\'s value)';
    if (password === undefined || password === null) return out;
    if (!isExpression(password)) {
      const length = typeof password === 'string' ? password.length : 0;
      v(`the Windows admin password is a literal (${length} characters), so it sits in the synthesized JSON and the Terraform state${length < min || length > max ? `, and AKS takes ${min} to ${max} characters${length >= AKS_LIMITS.password.providerMin && length < min ? ` (azurerm's plan accepts ${AKS_LIMITS.password.providerMin} or more, so only the apply would fail)` : ''}` : ''}`, secretFix, 'admin_password');
      return out;
    }
    const variable = variableOf(graph, cluster, password);
    if (variable) {
      if (variable.body.default !== undefined) {
        v(`the Windows admin password's variable ${variable.name} has a default, a literal in the synthesized JSON`, 'drop the default; set the variable at plan time (TF_VAR_' + variable.name + ')', 'admin_password');
      }
      if (variable.body.sensitive !== true) {
        v(`the Windows admin password's variable ${variable.name} is not marked sensitive, so plans print it`, 'mark the variable sensitive: true', 'admin_password');
      }
    }
    const generated = graph.resolve(cluster, password);
    const length = generated?.type === 'random_password' ? generated.body.length : undefined;
    if (typeof length === 'number' && (length < min || length > max)) {
      v(`the Windows admin password is generated with ${length} characters, and AKS takes ${min} to ${max}`, `generate ${min} to ${max} characters`, 'admin_password');
    }
    return out;
  }),
});

/** The safe way to move a pool that exists to another Windows release (AKS "Upgrade the OS version of Windows workloads"). */
const NEW_RELEASE_POOL = 'for a pool that exists, add an AksWindowsNodePool of the new release under a new name, move the workloads, then remove the old pool: changing windowsVersion in place replaces the pool (docs/aks.md, "Day 2")';

/**
 * Windows `os_sku` against the Kubernetes version the pool runs, from the support rows
 * (`windowsSupport(WindowsPlatform.AKS, …)`): Windows2019 is refused for new pools on 1.33+,
 * Windows2022 on 1.37+, Windows2025 below its first version. Without a version AKS picks its
 * default, which is past 2019's last. A Linux SKU on a Windows pool is refused by AKS too, and so
 * is a Windows2025 pool without FIPS (`AKS_FIPS_REQUIRED`).
 */
const windowsOsSku = rule<TerraformGraph>({
  name: 'aks-windows-os-sku',
  scope: 'object',
  description: "A Windows pool's os_sku is a Windows SKU AKS runs on the pool's Kubernetes version, with FIPS where the SKU requires it",
  source: 'WINDOWS_SUPPORT[aks] (src/platform/support.ts): AKS docs "Windows Server node pools FAQ", "Upgrade the OS version of Windows workloads"; Azure/AKS#5904; AKS_FIPS_REQUIRED (src/platform/aks.ts): AKS docs "Enable FIPS for AKS node pools"',
  check: (graph) => graph.ofType(POOL).flatMap((block) => {
    const pool = extraPool(graph, block);
    const sku = block.body.os_sku;
    if (!pool.windows || sku === undefined || isExpression(sku)) return [];
    const release = parseAksWindowsOsSku(sku);
    const v = (what: string, fix: string) => [blockViolation(block, what, fix, 'os_sku')];
    if (release === undefined) return v(`Windows pool ${block.body.name} has os_sku ${JSON.stringify(sku)}, not a Windows SKU`, 'use windowsVersion (Windows2022 or Windows2019)');
    const support = windowsSupport(WindowsPlatform.AKS, release);
    const version = versionOf(pool);
    const minor = aksMinor(version);
    const last = aksMinor(support.maximumVersion);
    const first = aksMinor(support.minimumVersion);
    // Without a version AKS picks its default, a version in community support on the day.
    if (last !== undefined && (minor === undefined ? version === undefined && last < aksDefaultMinorAtLeast(graph.day) : minor > last)) {
    // The SKU's last version as AKS offers it on the day: in community support, only with LTS, or no more.
      const lastSupport = aksSupportOn(last, graph.day).support;
      const lastVersion = lastSupport === AksSupport.COMMUNITY ? `Kubernetes ${support.maximumVersion}`
        : lastSupport === AksSupport.LONG_TERM ? `Kubernetes ${support.maximumVersion} with long-term support (supportPlan AksSupportPlan.AKS_LONG_TERM_SUPPORT)` : undefined;
      return v(`${sku} runs on Kubernetes ${support.maximumVersion} at most, and the pool runs ${version ?? 'AKS\'s default version, which is newer'} (${support.source})`,
        `${release === WindowsVersion.SERVER_2019 ? `use WindowsVersion.SERVER_2022${lastVersion ? `, or ${lastVersion}` : ''}`
        : `use ${lastVersion ? `${lastVersion}, or ` : ''}WindowsVersion.SERVER_2025 once azurerm accepts it`}; ${NEW_RELEASE_POOL}`);
    }
    if (first !== undefined && minor !== undefined && minor < first) {
      return v(`${sku} needs Kubernetes ${support.minimumVersion} or newer, and the pool runs ${version}`, `use Kubernetes ${support.minimumVersion} or newer, or WindowsVersion.SERVER_2022`);
    }
    const fips = block.body.fips_enabled;
    if (AKS_FIPS_REQUIRED.includes(release) && fips !== true && !isExpression(fips)) {
      return [blockViolation(block, `${sku} pools run FIPS, which AKS does not let them turn off, and the pool has fips_enabled ${fips === undefined || fips === null ? 'unset (azurerm sends false)' : JSON.stringify(fips)}`,
        'leave fipsEnabled unset (on for Windows Server 2025) or set it to true', 'fips_enabled')];
    }
    return [];
  }),
});

/**
 * Windows pools need Azure CNI: without `network_profile` azurerm creates a kubenet cluster
 * (AKS "Windows Server node pools": "you must use Azure CNI"), and Azure CNI Powered by Cilium
 * runs no Windows nodes (AKS "Azure CNI Powered by Cilium", Limitations).
 */
const windowsNetwork = rule<TerraformGraph>({
  name: 'aks-windows-network',
  scope: 'object',
  description: 'Windows pools are in a cluster with Azure CNI (kubenet without network_profile) and without Cilium',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 kubernetes_cluster_resource.go (network_profile absent: kubenet); AKS docs "Windows Server node pools FAQ" (Azure CNI) and "Azure CNI Powered by Cilium" (no Windows node pools)',
  check: (graph) => graph.ofType(POOL).flatMap((block) => {
    const pool = extraPool(graph, block);
    if (!pool.windows || !pool.cluster) return [];
    const network = single(pool.cluster.body.network_profile);
    const plugin = pool.cluster.body.network_profile === undefined ? AksNetworkPlugin.KUBENET : network.network_plugin;
    const v = (what: string, fix: string) => [blockViolation(block, what, fix, 'os_type')];
    if (plugin !== AksNetworkPlugin.AZURE && !isExpression(plugin)) {
      return v(`Windows pool ${block.body.name} is in a cluster whose network plugin is ${plugin}${pool.cluster.body.network_profile === undefined ? ' (no network_profile: kubenet)' : ''}, and Windows nodes need Azure CNI`,
        'keep the cluster\'s network_profile { network_plugin = "azure", network_plugin_mode = "overlay" } that HybridAksStack writes; the plugin cannot change after creation');
    }
    const cilium = [network.network_policy, network.network_data_plane].includes(AksNetworkPolicy.CILIUM);
    return cilium ? v(`Windows pool ${block.body.name} is in a cluster with Cilium, which runs no Windows nodes`, 'use networkPolicy AksNetworkPolicy.CALICO') : [];
  }),
});

/** Whether CoreDNS can run on a Linux pool: at least one node, and no taint but AKS's CriticalAddonsOnly (which CoreDNS tolerates). */
function runsCoreDns(pool: Pool): boolean {
  if (pool.windows || pool.body.os_type === 'Windows') return false;
  const nodes = minNodes(pool);
  const taints = list(pool.body.node_taints).filter((t) => t !== AKS_CRITICAL_ADDONS_TAINT && !/:PreferNoSchedule$/.test(String(t)));
  return (nodes === undefined || nodes >= 1) && taints.length === 0;
}

/**
 * Windows pools need a Linux node for CoreDNS (its pods run on Linux only): a Linux pool that
 * keeps a node and has no taint CoreDNS does not tolerate.
 */
const coreDns = rule<TerraformGraph>({
  name: 'aks-coredns',
  scope: 'graph',
  description: 'A cluster with Windows pools has a Linux pool that keeps a node CoreDNS can run on',
  source: 'AKS docs "Windows Server node pools FAQ" (CoreDNS and system pods run on Linux nodes); AKS docs "System node pools" (CriticalAddonsOnly)',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
    const all = poolsOf(graph, cluster);
    const windows = all.filter((p) => p.windows);
    if (windows.length === 0 || all.some(runsCoreDns)) return [];
    return [blockViolation(cluster, `Windows pools (${windows.map(poolName).join(', ')}) need a Linux node for CoreDNS, and no Linux pool of the cluster keeps one it can run on`,
      'keep the default (system) pool Linux with at least one node, or add an AksLinuxNodePool with minNodes >= 1 and no taints', 'default_node_pool')];
  }),
});

/**
 * Windows Server 2025 pools with an azurerm constraint that admits no release accepting
 * `os_sku = "Windows2025"` (src/platform/aks.ts: none up to v5.2.0): the plan fails with
 * "expected os_sku to be one of".
 */
const providerVersion = rule<TerraformGraph>({
  name: 'aks-provider-version',
  scope: 'graph',
  description: 'A Windows2025 pool only with an azurerm constraint admitting a release that may accept it',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 and v5.2.0 internal/services/containers/kubernetes_cluster_node_pool_resource.go (os_sku list ends at Windows2022); hashicorp/terraform-provider-azurerm#33451',
  check: (graph) => graph.ofType(POOL).flatMap((block) => {
    const provider = graph.terraformOf(block).required_providers?.azurerm?.version;
    if (parseAksWindowsOsSku(block.body.os_sku) !== WindowsVersion.SERVER_2025 || typeof provider !== 'string') return [];
    const [a, b, c] = AKS_WINDOWS_2025_NEWEST_REFUSING;
    if (admitsVersionAtLeast(provider, [a, b, c + 1]) !== false) return [];
    return [blockViolation(block,
      `os_sku Windows2025 is unknown to hashicorp/azurerm ${provider} (its os_sku list stops at Windows2022 up to v${AKS_WINDOWS_2025_NEWEST_REFUSING.join('.')}; hashicorp/terraform-provider-azurerm#33451), so the plan fails with "expected os_sku to be one of"`,
      `use WindowsVersion.SERVER_2022 on Kubernetes 1.36 or older, or, once a release accepts it, allow it: stack.addOverride('terraform.required_providers.azurerm.version', '${AKS_WINDOWS_2025_PROVIDER_ADVICE}') (docs/aks.md); ${NEW_RELEASE_POOL}`, 'os_sku')];
  }),
});

/** Every AKS rule, in the order messages are reported. */
export const AKS_RULES: readonly TerraformRule[] = registry<TerraformRule>(
  [clusterName, kubernetesVersion, systemPool, windowsPassword, windowsOsSku, windowsNetwork, network, maintenanceWindow], AKS_POOL_RULES, [coreDns, providerVersion],
);
