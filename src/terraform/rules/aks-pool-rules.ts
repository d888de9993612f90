import { Finding, rule } from '../../rules/engine/rule';
import { AKS_LIMITS, AKS_TAINT, AksNetworkPlugin } from '../../platform/aks';
import { blockSize, parseCidr } from '../../platform/cidr';
import { labelKeyProblem, labelValueProblem, nodeLabelProblem } from '../../platform/labels';
import { integerProblem } from '../../core/numbers';
import { WINDOWS_NODE_TAINT, taintArgument } from '../../platform/windows';
import { TerraformBlock, TerraformGraph, blockViolation, isExpression, list, single } from '../graph';
import { CLUSTER, Pool, maxNodes, poolName, pools, poolsOf } from './aks-common';

/**
 * The AKS rules over each node pool (the default pool included): names, labels and taints, max
 * pods and the addresses the pools need. Registered in AKS_RULES (aks-rules.ts).
 */

/**
 * Pool names azurerm and AKS take: `^[a-z][a-z0-9]{0,11}$` (azurerm validate/kubernetes.go
 * `KubernetesAgentPoolName`), at most 6 characters for Windows (AKS "Windows Server node pools
 * FAQ": Windows computer names are 15 characters, AKS appends the scale set's suffix). A Windows
 * pool carries the Windows taint, which AKS does not set (so Linux pods would land there) and the
 * workload constructs tolerate (`WINDOWS_NODE_TAINT`, `windowsNodeTaint(WindowsPlatform.AKS)`).
 */
const nodePool = rule<TerraformGraph>({
  name: 'aks-node-pool',
  scope: 'object',
  description: 'Pool names azurerm takes, Windows pool names of 6 characters at most, rotation names AKS takes for the pool, autoscaling counts azurerm takes, zones 1 to 3, os_type Linux or Windows, and the Windows taint on Windows pools',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/validate/kubernetes.go (KubernetesAgentPoolName), kubernetes_nodepool.go and kubernetes_cluster_node_pool_resource.go (`max_count` must be >= `min_count`, min/max with and without autoscaling, os_type StringInSlice, temporary_name_for_rotation KubernetesAgentPoolName and the cycle in update); AKS docs "Windows Server node pools FAQ" (6 characters), "Use availability zones" (zones 1, 2, 3)',
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
    const rotation = pool.body.temporary_name_for_rotation;
    if (rotation !== undefined && rotation !== null && !isExpression(rotation)) {
      const { max, pattern } = AKS_LIMITS.poolName;
      if (typeof rotation !== 'string' || !pattern.test(rotation)) {
        v(`temporary_name_for_rotation ${JSON.stringify(rotation)} is not an AKS pool name`, `use 1 to ${max} lower-case letters and digits, starting with a letter`, 'temporary_name_for_rotation');
      } else if (pool.windows && rotation.length > AKS_LIMITS.windowsPoolName) {
        v(`Windows pool ${name} rotates through a temporary pool "${rotation}" of ${rotation.length} characters, and AKS takes at most ${AKS_LIMITS.windowsPoolName} for a Windows pool, so a change of its size, zones or max pods fails mid-rotation`,
          `use at most ${AKS_LIMITS.windowsPoolName} lower-case letters and digits (temporaryNameForRotation)`, 'temporary_name_for_rotation');
      } else if (rotation === name) {
        v(`pool ${name} rotates through a temporary pool of its own name`, 'give the temporary pool another name (temporaryNameForRotation)', 'temporary_name_for_rotation');
      }
    }
    // azurerm refuses these before calling AKS: "`max_count` must be >= `min_count`", "`max_count` must
    // be configured when `auto_scaling_enabled` is set to `true`", "`max_count` and `min_count` must be
    // set to `null` when auto_scaling_enabled is set to `false`" (kubernetes_nodepool.go
    // ExpandDefaultNodePool; kubernetes_cluster_node_pool_resource.go, create and update).
    const { min_count: min, max_count: max, auto_scaling_enabled: autoscaling } = pool.body;
    const set = (n: unknown) => n !== undefined && n !== null;
    if (autoscaling === true && typeof min === 'number' && typeof max === 'number' && min > max) {
      v(`pool ${name} has min_count ${min} above max_count ${max}, which azurerm refuses at plan ("max_count must be >= min_count")`,
        'keep the minimum at or below the maximum', 'max_count');
    } else if (autoscaling === true && (!set(max) || !set(min))) {
      v(`pool ${name} autoscales without ${set(max) ? 'min_count' : 'max_count'}, and azurerm refuses it ("must be configured when auto_scaling_enabled is set to true")`,
        'give both min_count and max_count (minNodes, maxNodes)', set(max) ? 'min_count' : 'max_count');
    } else if (autoscaling !== true && !isExpression(autoscaling) && ((typeof min === 'number' && min > 0) || (typeof max === 'number' && max > 0))) {
      v(`pool ${name} does not autoscale and keeps min_count or max_count, and azurerm refuses it ("must be set to null when auto_scaling_enabled is set to false")`,
        'set min_count and max_count to null when autoscaling is off (addOverride(\'min_count\', null)), and give node_count', 'auto_scaling_enabled');
    }
    // os_type is case-sensitive (kubernetes_cluster_node_pool_resource.go `os_type` StringInSlice(…, false)).
    const os = pool.body.os_type;
    if (pool.at === '' && os !== undefined && !isExpression(os) && os !== 'Linux' && os !== 'Windows') {
      v(`os_type ${JSON.stringify(os)} is not "Linux" or "Windows" (azurerm compares with case), and the plan fails`, 'write "Windows" or "Linux" (AksWindowsNodePool and AksLinuxNodePool do)', 'os_type');
    }
    // Azure's zones are the logical "1", "2" and "3" of a region with zones (Azure "What are availability
    // zones?"; AKS "Use availability zones": --zones 1 2 3); azurerm takes any string, AKS refuses the rest at apply.
    const zones = pool.body.zones;
    if (Array.isArray(zones)) {
      const bad = zones.filter((z) => !isExpression(z) && !['1', '2', '3'].includes(z as string));
      if (bad.length > 0) v(`pool ${name} names zones ${bad.map((z) => JSON.stringify(z)).join(', ')}, and Azure's availability zones are "1", "2" and "3"`, 'list zones from "1", "2" and "3" (or none in a region without zones)', 'zones');
    }
    if (pool.windows && pool.at === '') {
      const taint = taintArgument(WINDOWS_NODE_TAINT);
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
          'give the nodes a larger subnet (subnetCidr), fewer nodes (maxNodes), or, with flat Azure CNI, fewer pods per node', `${last.at}vnet_subnet_id`));
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

/**
 * Two pools of one name in one cluster (the default pool included): the name is the agent pool's
 * id, so the second fails at apply. Nor a temporary rotation name that is another pool's name or
 * temporary name: azurerm creates the temporary pool beside the others (kubernetes_cluster_node_pool_resource.go
 * update: it reuses a temporary pool that exists, so a clash takes another pool's place).
 */
const poolNames = rule<TerraformGraph>({
  name: 'aks-pool-names',
  scope: 'object',
  description: 'No two pools of one name in a cluster, the default pool included, and no temporary rotation name that another pool or rotation uses',
  source: 'AKS agent pools: the name is the pool\'s id in the cluster (hashicorp/terraform-provider-azurerm v4.73.0 kubernetes_cluster_node_pool_resource.go, name ForceNew)',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
    const seen = new Map<string, Pool>();
    const all = poolsOf(graph, cluster);
    const where = (p: Pool) => p.at ? 'the cluster\'s default pool' : p.block.path ?? p.block.id;
    const names = all.flatMap((pool) => {
      const name = pool.body.name;
      if (typeof name !== 'string' || isExpression(name)) return [];
      const first = seen.get(name);
      if (!first) {
        seen.set(name, pool);
        return [];
      }
      return [blockViolation(pool.block, `pool name "${name}" is also the name of ${where(first)}, and AKS takes one pool per name in a cluster`,
        'give each pool its own name (the default is the construct id)', `${pool.at}name`)];
    });
    // A temporary pool lives beside every pool of the cluster while it rotates, and Terraform may rotate two at once.
    const rotations = new Map<string, Pool>();
    const temporary = all.flatMap((pool) => {
      const rotation = pool.body.temporary_name_for_rotation;
      if (typeof rotation !== 'string' || isExpression(rotation)) return [];
      const other = seen.get(rotation) ?? rotations.get(rotation);
      rotations.set(rotation, rotations.get(rotation) ?? pool);
      return other && other !== pool ? [blockViolation(pool.block, `temporary_name_for_rotation "${rotation}" is also the ${seen.get(rotation) ? 'name' : 'temporary name'} of ${where(other)}, so a rotation of this pool would fail or take that pool's place`,
        'give each pool a temporary name of its own (temporaryNameForRotation)', `${pool.at}temporary_name_for_rotation`)] : [];
    });
    return [...names, ...temporary];
  }),
});

/** The pool rules, in the order messages are reported. */
export const AKS_POOL_RULES = [nodePool, labelsAndTaints, maxPods, poolNames];
