import type { Json } from '../../rules/engine/graph';
import { Finding, registry, rule } from '../../rules/engine/rule';
import {
  AKS_CRITICAL_ADDONS_TAINT, AKS_KUBERNETES_VERSIONS, AKS_LIMITS, AKS_TAINT, AKS_WINDOWS_2025_NEWEST_REFUSING, AKS_WINDOWS_2025_PROVIDER_ADVICE, AksNetworkPlugin, AksNetworkPolicy,
  aksKubernetesVersionProblem, aksMinor, parseAksWindowsOsSku,
} from '../../platform/aks';
import { blockSize, parseCidr } from '../../platform/cidr';
import { labelKeyProblem, labelValueProblem, nodeLabelProblem } from '../../platform/labels';
import { integerProblem } from '../../platform/numbers';
import { admitsVersionAtLeast } from '../../platform/provider-version';
import { WindowsPlatform, windowsNodeTaint, windowsSupport } from '../../platform/support';
import { WindowsVersion, taintArgument } from '../../platform/windows';
import { TerraformBlock, TerraformGraph, TerraformRule, blockViolation, isExpression, list, single } from '../graph';

/**
 * The AKS rules over the final Terraform JSON of azurerm resources: what hashicorp/azurerm
 * (v4.73.0, internal/services/containers) or AKS refuse, or accept and then fail on, and what a
 * cluster with Windows node pools needs to run Windows pods. Each rule cites the code or document
 * whose behaviour it encodes; the facts are in src/platform/aks.ts.
 */

const CLUSTER = 'azurerm_kubernetes_cluster';
const POOL = 'azurerm_kubernetes_cluster_node_pool';

/**
 * One node pool as the rules see it: the cluster's `default_node_pool` (always Linux, the System
 * pool azurerm creates with the cluster) or an `azurerm_kubernetes_cluster_node_pool`.
 */
interface Pool {
  /** The block the pool is written in (the cluster for the default pool). */
  readonly block: TerraformBlock;
  readonly body: Json;
  /** `default_node_pool.` for the default pool, else ''. */
  readonly at: string;
  readonly cluster?: TerraformBlock;
  readonly windows: boolean;
  readonly system: boolean;
}

function defaultPool(cluster: TerraformBlock): Pool | undefined {
  const body = cluster.body.default_node_pool;
  if (body === undefined) return undefined;
  return { block: cluster, body: single(body), at: 'default_node_pool.', cluster, windows: parseAksWindowsOsSku(single(body).os_sku) !== undefined, system: true };
}

function extraPool(graph: TerraformGraph, block: TerraformBlock): Pool {
  const target = graph.resolve(block, block.body.kubernetes_cluster_id);
  return {
    block, body: block.body, at: '', cluster: target?.type === CLUSTER ? target : undefined,
    windows: block.body.os_type === 'Windows', system: block.body.mode === 'System',
  };
}

/** Every pool of the graph: each cluster's default pool, then the separate pools. */
function pools(graph: TerraformGraph): Pool[] {
  return [
    ...graph.ofType(CLUSTER).flatMap((c) => defaultPool(c) ?? []),
    ...graph.ofType(POOL).map((p) => extraPool(graph, p)),
  ];
}

/** The pools of one cluster (separate pools found by their `kubernetes_cluster_id` reference). */
function poolsOf(graph: TerraformGraph, cluster: TerraformBlock): Pool[] {
  return pools(graph).filter((p) => p.cluster === cluster);
}

const poolName = (p: Pool): string => String(p.body.name);

/** The nodes a pool may have: `max_count` when it autoscales, else `node_count`; undefined when unknown. */
function maxNodes(p: Pool): number | undefined {
  const n = p.body.auto_scaling_enabled === true ? p.body.max_count : p.body.node_count;
  return typeof n === 'number' ? n : undefined;
}

/** The nodes a pool keeps: `min_count` when it autoscales, else `node_count`. */
function minNodes(p: Pool): number | undefined {
  const n = p.body.auto_scaling_enabled === true ? p.body.min_count : p.body.node_count;
  return typeof n === 'number' ? n : undefined;
}

/** The Kubernetes version a pool runs: its `orchestrator_version`, else its cluster's. */
function versionOf(p: Pool): unknown {
  return p.body.orchestrator_version ?? p.cluster?.body.kubernetes_version;
}

/**
 * The cluster's and the pools' Kubernetes versions: versions AKS offers (src/platform/aks.ts, the
 * AKS release calendar; azurerm itself takes any non-empty string), and a pool no newer than its
 * cluster (AKS "Upgrade a node pool": a node pool's version cannot exceed the control plane's).
 */
const kubernetesVersion = rule<TerraformGraph>({
  name: 'aks-kubernetes-version',
  scope: 'object',
  description: "The cluster's and the pools' Kubernetes versions are versions AKS offers, no pool newer than its cluster",
  source: 'AKS docs "Supported Kubernetes versions" (release calendar, 2026-11) and "Upgrade a node pool"; hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/kubernetes_cluster_resource.go (kubernetes_version: StringIsNotEmpty)',
  check: (graph) => [
  ...graph.ofType(CLUSTER).flatMap((cluster) => {
    const version = cluster.body.kubernetes_version;
    const p = version === undefined || isExpression(version) ? undefined : aksKubernetesVersionProblem(version);
    return p ? [blockViolation(cluster, p, 'write a version AKS offers, e.g. "1.34" (az aks get-versions --location <region>)', 'kubernetes_version')] : [];
  }),
  ...graph.ofType(POOL).flatMap((block) => {
    const pool = extraPool(graph, block);
    const version = block.body.orchestrator_version;
    if (version === undefined || isExpression(version)) return [];
    const p = aksKubernetesVersionProblem(version);
    if (p) return [blockViolation(block, p, 'write a version AKS offers, or leave it unset for the cluster\'s', 'orchestrator_version')];
    const [mine, theirs] = [aksMinor(version), aksMinor(pool.cluster?.body.kubernetes_version)];
    return mine !== undefined && theirs !== undefined && mine > theirs
      ? [blockViolation(block, `the pool runs Kubernetes ${version} and its cluster ${pool.cluster?.body.kubernetes_version}; AKS refuses a node pool newer than the control plane`,
        'upgrade the cluster first, or leave orchestrator_version unset', 'orchestrator_version')]
      : [];
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
    if (min !== undefined && min < 1) return v(`the System pool keeps ${min} nodes; AKS needs at least one`, 'keep minCount >= 1 on the system pool', 'default_node_pool.min_count');
    return [];
  }),
  ...graph.ofType(POOL).filter((b) => b.body.os_type === 'Windows' && b.body.mode === 'System').map((block) => blockViolation(block,
    `Windows pool ${block.body.name} has mode System, and AKS allows System mode on Linux pools only`, 'leave mode unset (User)', 'mode')),
],
});

/**
 * Pool names azurerm and AKS take: `^[a-z][a-z0-9]{0,11}$` (azurerm validate/kubernetes.go
 * `KubernetesAgentPoolName`), at most 6 characters for Windows (AKS "Windows Server node pools
 * FAQ": Windows computer names are 15 characters, AKS appends the scale set's suffix). A Windows
 * pool carries the Windows taint, which AKS does not set (so Linux pods would land there) and the
 * workload constructs tolerate (`windowsNodeTaint(WindowsPlatform.AKS)`).
 */
const nodePool = rule<TerraformGraph>({
  name: 'aks-node-pool',
  scope: 'object',
  description: 'Pool names azurerm takes, Windows pool names of 6 characters at most, and the Windows taint on Windows pools',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/validate/kubernetes.go (KubernetesAgentPoolName); AKS docs "Windows Server node pools FAQ" (6 characters)',
  check: (graph) => pools(graph).flatMap((pool) => {
  const out: Finding[] = [];
  const v = (what: string, fix: string, field: string) => out.push(blockViolation(pool.block, what, fix, `${pool.at}${field}`));
  const name = pool.body.name;
  if (name !== undefined && !isExpression(name)) {
    const { max, pattern } = AKS_LIMITS.poolName;
    if (typeof name !== 'string' || !pattern.test(name)) {
      v(`pool name ${JSON.stringify(name)} is not an AKS pool name`, `use 1 to ${max} lower-case letters and digits, starting with a letter`, 'name');
    } else if (pool.windows && name.length > AKS_LIMITS.windowsPoolName) {
      v(`Windows pool name "${name}" is ${name.length} characters, and AKS takes at most ${AKS_LIMITS.windowsPoolName} for a Windows pool (azurerm's pattern allows 12, so only AKS refuses it, at apply)`,
        `use at most ${AKS_LIMITS.windowsPoolName} lower-case letters and digits, e.g. "win22"`, 'name');
    }
  }
  if (pool.windows && pool.at === '') {
    const taint = taintArgument(windowsNodeTaint(WindowsPlatform.AKS));
    const taints = list(pool.body.node_taints);
    if (!isExpression(pool.body.node_taints) && !taints.includes(taint)) {
      v(`Windows pool ${name} has no ${taint} taint; AKS taints no Windows node, so Linux pods would be scheduled there and fail`,
        `keep the ${taint} taint (AksWindowsNodePool writes it; the workload constructs tolerate it)`, 'node_taints');
    }
  }
  return out;
}),
});

/** The variable `${var.<name>}` names, if the graph's stack declares it. */
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
 * user name as azurerm takes it (validate/kubernetes.go `KubernetesAdminUserName`).
 */
const windowsPassword = rule<TerraformGraph>({
  name: 'aks-windows-password',
  scope: 'object',
  description: 'The Windows admin password is never a literal in the JSON, its variable sensitive without a default, 14 to 123 characters where known',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/kubernetes_cluster_resource.go (windows_profile.admin_password StringLenBetween(8, 123)), validate/kubernetes.go (KubernetesAdminUserName); az aks create --windows-admin-password (14 to 123)',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
  const profile = single(cluster.body.windows_profile);
  if (cluster.body.windows_profile === undefined) return [];
  const out: Finding[] = [];
  const v = (what: string, fix: string, field: string) => out.push(blockViolation(cluster, what, fix, `windows_profile.${field}`));
  const { min, max } = AKS_LIMITS.password;
  const user = profile.admin_username;
  if (user !== undefined && !isExpression(user) && (typeof user !== 'string' || !AKS_LIMITS.adminUsername.test(user))) {
    v(`Windows admin user ${JSON.stringify(user)} is not a name azurerm takes`, 'start with a letter; use letters, digits, _ and -', 'admin_username');
  }
  const password = profile.admin_password;
  const secretFix = 'leave windowsAdminPassword unset (a sensitive Terraform variable, set with TF_VAR_windows_admin_password) or pass a reference to a secret (e.g. a Key Vault secret\'s value)';
  if (password === undefined || password === null) return out;
  if (!isExpression(password)) {
    const length = typeof password === 'string' ? password.length : 0;
    v(`the Windows admin password is a literal (${length} characters), so it sits in the synthesized JSON and the Terraform state${length < min || length > max ? `, and AKS takes ${min} to ${max} characters` : ''}`, secretFix, 'admin_password');
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

/**
 * Windows `os_sku` against the Kubernetes version the pool runs, from the support rows
 * (`windowsSupport(WindowsPlatform.AKS, …)`): Windows2019 is refused for new pools on 1.33+,
 * Windows2022 on 1.37+, Windows2025 below its first version. Without a version AKS picks its
 * default, which is past 2019's last. A Linux SKU on a Windows pool is refused by AKS too.
 */
const windowsOsSku = rule<TerraformGraph>({
  name: 'aks-windows-os-sku',
  scope: 'object',
  description: "A Windows pool's os_sku is a Windows SKU AKS runs on the pool's Kubernetes version",
  source: 'WINDOWS_SUPPORT[aks] (src/platform/support.ts): AKS docs "Windows Server node pools FAQ", "Upgrade the OS version of Windows workloads"; Azure/AKS#5904',
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
  // Without a version AKS picks its default, never older than AKS_KUBERNETES_VERSIONS.defaultAtLeast.
  if (last !== undefined && (minor === undefined ? version === undefined && last < AKS_KUBERNETES_VERSIONS.defaultAtLeast : minor > last)) {
    return v(`${sku} runs on Kubernetes ${support.maximumVersion} at most, and the pool runs ${version ?? 'AKS\'s default version, which is newer'} (${support.source})`,
      release === WindowsVersion.SERVER_2019 ? `use WindowsVersion.SERVER_2022, or Kubernetes ${support.maximumVersion}`
        : `use Kubernetes ${support.maximumVersion}, or WindowsVersion.SERVER_2025 once azurerm accepts it (docs/aks.md)`);
  }
  if (first !== undefined && minor !== undefined && minor < first) {
    return v(`${sku} needs Kubernetes ${support.minimumVersion} or newer, and the pool runs ${version}`, `use Kubernetes ${support.minimumVersion} or newer, or WindowsVersion.SERVER_2022`);
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

/** A taint of `node_taints`, or why it is not one AKS takes. */
function taintProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') return `taint ${JSON.stringify(text)} is not a string`;
  const m = AKS_TAINT.exec(text);
  if (!m) return `taint "${text}" is not key=value:Effect with Effect NoSchedule, PreferNoSchedule or NoExecute`;
  return labelKeyProblem(m[1])?.replace(/^label/, 'taint') ?? (m[2] === undefined ? undefined : labelValueProblem(m[1], m[2])?.replace(/^label/, 'taint'));
}

/**
 * Labels and taints as the kubelet takes them (src/platform/labels.ts: AKS passes `node_labels`
 * to the kubelet's `--node-labels`) and as AKS parses `node_taints` (`key=value:Effect`). AKS
 * reserves the `kubernetes.azure.com` prefix for its own labels (AKS "Use labels in an AKS cluster").
 */
const labelsAndTaints = rule<TerraformGraph>({
  name: 'aks-node-labels',
  scope: 'object',
  description: 'Node labels the kubelet takes outside kubernetes.azure.com, and node taints of the form key=value:Effect',
  source: 'kubernetes/kubernetes v1.34 cmd/kubelet/app/options/options.go (--node-labels), k8s.io/apimachinery validation.go; AKS docs "Use labels in an AKS cluster" and "Use node taints"',
  check: (graph) => pools(graph).flatMap((pool) => {
  const out: Finding[] = [];
  const labels = pool.body.node_labels;
  if (labels !== null && typeof labels === 'object' && !Array.isArray(labels)) {
    for (const [key, value] of Object.entries(labels as Record<string, unknown>)) {
      if (isExpression(key) || isExpression(value)) continue;
      const why = key.split('/')[0].endsWith('kubernetes.azure.com') && key.includes('/') ? `label ${key} is in kubernetes.azure.com, which AKS reserves for its own labels` : nodeLabelProblem(key, value);
      if (why) out.push(blockViolation(pool.block, why, 'drop or rename the label (AKS sets kubernetes.io/os, the agent pool and the mode itself)', `${pool.at}node_labels`));
    }
  }
  for (const taint of isExpression(pool.body.node_taints) ? [] : list(pool.body.node_taints)) {
    if (isExpression(taint)) continue;
    const why = taintProblem(taint);
    if (why) out.push(blockViolation(pool.block, why, 'write taints as key=value:Effect, e.g. dedicated=gpu:NoSchedule', `${pool.at}node_taints`));
  }
  return out;
}),
});

/** Addresses each node takes from its subnet: one with Azure CNI Overlay, max pods + 1 with flat Azure CNI, one with kubenet. */
function addressesPerNode(cluster: TerraformBlock | undefined, pool: Pool): number | undefined {
  const network = single(cluster?.body.network_profile);
  if (network.network_plugin !== AksNetworkPlugin.AZURE || network.network_plugin_mode === 'overlay' || pool.body.pod_subnet_id !== undefined) return 1;
  const pods = pool.body.max_pods ?? AKS_LIMITS.maxPods.flatDefault;
  return typeof pods === 'number' ? pods + 1 : undefined;
}

/** Surge nodes during an upgrade: `upgrade_settings.max_surge` (a count or a percentage; AKS's default 10%, at least one). */
function surge(pool: Pool, nodes: number): number {
  const value = single(pool.body.upgrade_settings).max_surge ?? '10%';
  const m = typeof value === 'string' ? /^(\d+)(%?)$/.exec(value) : null;
  if (!m) return 1;
  return m[2] ? Math.max(1, Math.ceil((nodes * Number(m[1])) / 100)) : Number(m[1]);
}

/** The usable addresses of a subnet block (its first prefix) and its CIDR, or undefined. */
function subnetCapacity(subnet: TerraformBlock | undefined): { cidr: string; usable: number } | undefined {
  const cidr = list(subnet?.body.address_prefixes)[0];
  if (typeof cidr !== 'string' || isExpression(cidr)) return undefined;
  try {
    return { cidr, usable: blockSize(parseCidr(cidr).prefix) - AKS_LIMITS.subnetReserved };
  } catch {
    return undefined;
  }
}

/**
 * Max pods per node within what AKS takes (10 to 250, 30 or more on System pools: AKS "Configure
 * Azure CNI Overlay networking", Maximum pods per node), and the nodes of every pool in a subnet,
 * upgrade surge included, within the subnet's addresses (Azure reserves 5 per subnet): one address
 * per node with Azure CNI Overlay, max pods + 1 with flat Azure CNI (AKS "Plan IP addressing").
 * With Overlay each node takes a /24 of the pod CIDR, which bounds the cluster's nodes.
 */
const maxPods = rule<TerraformGraph>({
  name: 'aks-max-pods',
  scope: 'object',
  description: 'Max pods of 10 to 250 (30 on System pools), the pools of a subnet within its addresses, the nodes within the Overlay pod CIDR',
  source: 'AKS docs "Configure Azure CNI Overlay networking" (max pods, a /24 per node), "Plan IP addressing"; Azure Virtual Network FAQ (5 reserved addresses per subnet)',
  check: (graph) => {
  const out: Finding[] = [];
  const all = pools(graph);
  for (const pool of all) {
    const pods = pool.body.max_pods;
    if (pods === undefined || isExpression(pods)) continue;
    const min = pool.system ? AKS_LIMITS.maxPods.systemMin : AKS_LIMITS.maxPods.min;
    const why = integerProblem(pods, min, AKS_LIMITS.maxPods.max);
    if (why) {
      out.push(blockViolation(pool.block, `max_pods ${why}${pool.system ? ' (a System pool runs the system pods: AKS wants 30 or more)' : ''}`,
        `use ${min} to ${AKS_LIMITS.maxPods.max} (AKS's default with Azure CNI Overlay is ${AKS_LIMITS.maxPods.overlayDefault})`, `${pool.at}max_pods`));
    }
  }
  const bySubnet = new Map<TerraformBlock, Pool[]>();
  for (const pool of all) {
    const subnet = graph.resolve(pool.block, pool.body.vnet_subnet_id);
    if (subnet?.type === 'azurerm_subnet') bySubnet.set(subnet, [...(bySubnet.get(subnet) ?? []), pool]);
  }
  for (const [subnet, members] of bySubnet) {
    const capacity = subnetCapacity(subnet);
    if (!capacity) continue;
    let needed = 0;
    for (const pool of members) {
      const nodes = maxNodes(pool);
      const perNode = addressesPerNode(pool.cluster, pool);
      if (nodes === undefined || perNode === undefined) continue;
      needed += (nodes + surge(pool, nodes)) * perNode;
    }
    if (needed > capacity.usable) {
      const last = members[members.length - 1];
      out.push(blockViolation(last.block,
        `the pools in subnet ${capacity.cidr} (${members.map(poolName).join(', ')}) need ${needed} addresses at their largest, upgrade surge included, and the subnet has ${capacity.usable} (Azure reserves ${AKS_LIMITS.subnetReserved})`,
        'give the nodes a larger subnet (subnetCidr), fewer nodes (maxCount), or, with flat Azure CNI, fewer pods per node', `${last.at}vnet_subnet_id`));
    }
  }
  for (const cluster of graph.ofType(CLUSTER)) {
    const network = single(cluster.body.network_profile);
    if (network.network_plugin_mode !== 'overlay' || typeof network.pod_cidr !== 'string' || isExpression(network.pod_cidr)) continue;
    let prefix: number;
    try {
      prefix = parseCidr(network.pod_cidr).prefix;
    } catch {
      continue;
    }
    const room = prefix > AKS_LIMITS.overlayNodePrefix ? 0 : blockSize(prefix) / blockSize(AKS_LIMITS.overlayNodePrefix);
    const nodes = poolsOf(graph, cluster).reduce((sum, p) => sum + (maxNodes(p) ?? 0), 0);
    if (nodes > room) {
      out.push(blockViolation(cluster, `pod CIDR ${network.pod_cidr} holds ${room} nodes (a /${AKS_LIMITS.overlayNodePrefix} each with Azure CNI Overlay), and the pools may grow to ${nodes}`,
        'use a larger podCidr, e.g. a /16', 'network_profile.pod_cidr'));
    }
  }
  return out;
},
});

/** Two pools of one name in one cluster (the default pool included): the name is the agent pool's id, so the second fails at apply. */
const poolNames = rule<TerraformGraph>({
  name: 'aks-pool-names',
  scope: 'object',
  description: 'No two pools of one name in a cluster, the default pool included',
  source: 'AKS agent pools: the name is the pool\'s id in the cluster (hashicorp/terraform-provider-azurerm v4.73.0 kubernetes_cluster_node_pool_resource.go, name ForceNew)',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
  const seen = new Map<string, Pool>();
  return poolsOf(graph, cluster).flatMap((pool) => {
    const name = pool.body.name;
    if (typeof name !== 'string' || isExpression(name)) return [];
    const first = seen.get(name);
    if (!first) {
      seen.set(name, pool);
      return [];
    }
    return [blockViolation(pool.block, `pool name "${name}" is also the name of ${first.at ? 'the cluster\'s default pool' : first.block.path ?? first.block.id}, and AKS takes one pool per name in a cluster`,
      'give each pool its own name (the default is the construct id)', `${pool.at}name`)];
  });
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
    'keep the default (system) pool Linux with at least one node, or add an AksLinuxNodePool with minCount >= 1 and no taints', 'default_node_pool')];
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
    `use WindowsVersion.SERVER_2022 on Kubernetes 1.36 or older, or, once a release accepts it, allow it: stack.addOverride('terraform.required_providers.azurerm.version', '${AKS_WINDOWS_2025_PROVIDER_ADVICE}') (docs/aks.md)`, 'os_sku')];
}),
});

/** Every AKS rule, in the order messages are reported. */
export const AKS_RULES: readonly TerraformRule[] = registry<TerraformRule>([
  kubernetesVersion, systemPool, nodePool, windowsPassword, windowsOsSku, windowsNetwork, labelsAndTaints, maxPods, poolNames, coreDns, providerVersion,
]);
