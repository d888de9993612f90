import type { Json } from '../../rules/engine/graph';
import { Finding, registry, rule } from '../../rules/engine/rule';
import { parseCidr } from '../../platform/cidr';
import { EKS_CLUSTER_POLICIES, EKS_KUBERNETES_VERSIONS, EKS_LIMITS, EksIpFamily, NodeAccessEntryType, eksKubernetesVersionProblem, parseEksWindowsAmiType, sharedNodeRoleProblem } from '../../platform/eks';
import { TerraformBlock, TerraformGraph, TerraformRule, blockViolation, isExpression, list, single } from '../graph';
import { KARPENTER_SOURCE, KARPENTER_WINDOWS_LIMITS } from '../../platform/karpenter';

import { subnetProblems } from './eks-common';
import { eksNodeGroups, launchTemplateNames, nodeGroupNames, providerVersion } from './eks-node-group-rules';

/**
 * The EKS rules over the final Terraform JSON: what the EKS API and hashicorp/terraform-provider-aws
 * refuse (or accept and then fail on at apply), and what a cluster with Windows node groups needs
 * to run Windows pods. Each rule cites the code or document whose behaviour it encodes.
 */

/**
 * The cluster: a name EKS and the provider take, a Kubernetes version EKS offers, subnets in two
 * zones or more (EKS User Guide network-reqs.adoc: "at least two subnets that are in different
 * Availability Zones"), public access CIDRs the provider takes (`verify.ValidCIDRNetworkAddress`:
 * a network address), and an IP family of the API's enum.
 */
const eksCluster = rule<TerraformGraph>({
  name: 'eks-cluster',
  scope: 'object',
  description: 'An EKS cluster: a name EKS takes, a version EKS offers, subnets in two zones or more, valid public access CIDRs and IP family',
  source: 'Amazon EKS User Guide network-reqs.adoc; hashicorp/terraform-provider-aws v6.66 internal/service/eks/cluster.go',
  check: (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
    const out: Finding[] = [];
    const v = (what: string, fix: string, field: string) => out.push(blockViolation(cluster, what, fix, field));
    const body = cluster.body;
    const name = body.name;
    if (!isExpression(name)) {
      const { max, pattern } = EKS_LIMITS.clusterName;
      if (typeof name !== 'string' || name.length > max || !pattern.test(name)) {
        v(`cluster name ${JSON.stringify(name)} is not an EKS cluster name`, `use 2 to ${max} letters, digits, - and _, starting with a letter or digit`, 'name');
      }
    }
    if (body.version !== undefined && !isExpression(body.version)) {
      const p = eksKubernetesVersionProblem(body.version, graph.day);
      if (p) v(p, `write a minor version EKS creates clusters of on ${graph.day}, e.g. "${EKS_KUBERNETES_VERSIONS.at(-1)!.version}"`, 'version');
    }
    const vpc = single(body.vpc_config);
    const subnetFix = 'give the private subnets of the network, in two availability zones or more (ClusterNetwork, or existingNetwork\'s privateSubnetIds)';
    const subnetIssues = subnetProblems(graph, cluster, 'vpc_config.subnet_ids', vpc.subnet_ids, subnetFix);
    out.push(...subnetIssues);
    if (subnetIssues.length === 0 && !isExpression(vpc.subnet_ids)) {
    // Each subnet's zone where the graph tells it; a subnet of unknown zone counts as a zone of its own.
      const ids = list(vpc.subnet_ids);
      const zones = new Set(ids.map((id) => {
        const subnet = graph.resolve(cluster, id);
        const zone = subnet?.body.availability_zone ?? subnet?.body.availability_zone_id;
        return typeof zone === 'string' ? zone : String(id);
      }));
      if (zones.size < EKS_LIMITS.clusterZones) {
        v(ids.length < EKS_LIMITS.clusterZones
          ? `the cluster has one subnet (${ids[0]}), and EKS requires subnets in at least ${EKS_LIMITS.clusterZones} availability zones`
          : `the cluster's ${ids.length} subnets are all in one availability zone (${[...zones][0]}), and EKS requires subnets in at least ${EKS_LIMITS.clusterZones}`,
        subnetFix, 'vpc_config.subnet_ids');
      }
    }
    for (const [i, cidr] of list(vpc.public_access_cidrs).entries()) {
      if (typeof cidr !== 'string' || isExpression(cidr) || cidr.includes(':')) continue; // IPv6 blocks: left to the provider
      try {
        parseCidr(cidr);
      } catch (e) {
        v(`vpc_config.public_access_cidrs[${i}]: ${(e as Error).message}`, 'write an IPv4 network such as 203.0.113.0/24', 'vpc_config.public_access_cidrs');
      }
    }
    const family = single(body.kubernetes_network_config).ip_family;
    if (family !== undefined && !isExpression(family) && !(Object.values(EksIpFamily) as unknown[]).includes(family)) {
      v(`ip_family ${JSON.stringify(family)} is neither ipv4 nor ipv6`, 'use EksIpFamily.IPV4', 'kubernetes_network_config.ip_family');
    }
    return out;
  }),
});

// EKS add-on versions as DescribeAddonVersions lists them: v<major>.<minor>.<patch>-eksbuild.<n>.
const ADDON_VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/;

/** Add-on versions that are versions (CreateAddon `addonVersion`, as `aws eks describe-addon-versions` lists them). */
const eksAddons = rule<TerraformGraph>({
  name: 'eks-addon',
  scope: 'object',
  description: 'Add-on versions are versions as EKS lists them',
  source: 'Amazon EKS API CreateAddon (addonVersion); aws eks describe-addon-versions',
  check: (graph) => graph.ofType('aws_eks_addon').flatMap((addon) => {
    const version = addon.body.addon_version;
    if (version === undefined || isExpression(version) || (typeof version === 'string' && ADDON_VERSION.test(version))) return [];
    return [blockViolation(addon, `add-on ${addon.body.addon_name} version ${JSON.stringify(version)} is not an add-on version`,
      `write a version that \`aws eks describe-addon-versions --addon-name ${addon.body.addon_name}\` lists, such as v1.20.4-eksbuild.1, or leave it unset for the default`, 'addon_version')];
  }),
});

/** Where a block's provider points: region and account settings of its `aws` configuration, or undefined when unknown. */
function regionAndAccount(graph: TerraformGraph, block: TerraformBlock): string | undefined {
  const config = graph.providerOf(block, 'aws')?.body;
  if (!config || typeof config.region !== 'string' || isExpression(config.region)) return undefined;
  return JSON.stringify([config.region, config.profile, config.assume_role, config.allowed_account_ids]);
}

/**
 * Two EKS clusters of one name in one region and account, in any of the stacks: the second to be
 * applied fails. Each is reported, naming the other, since the stacks are applied in any order.
 */
const clusterNames = rule<TerraformGraph>({
  name: 'eks-cluster-names',
  scope: 'graph',
  description: 'EKS cluster names are unique per region and account across the stacks',
  source: 'Amazon EKS API CreateCluster (ResourceInUseException)',
  check: (graph) => {
    const byKey = new Map<string, TerraformBlock[]>();
    for (const cluster of graph.ofType('aws_eks_cluster')) {
      const name = cluster.body.name;
      const where = regionAndAccount(graph, cluster);
      if (typeof name !== 'string' || isExpression(name) || where === undefined) continue;
      byKey.set(`${where}|${name}`, [...(byKey.get(`${where}|${name}`) ?? []), cluster]);
    }
    return [...byKey.values()].filter((l) => l.length > 1).flatMap((clusters) => clusters.map((cluster) => {
      const others = clusters.filter((c) => c !== cluster).map((c) => `${c.path ?? c.id} (stack ${c.stack})`).join(', ');
      return blockViolation(cluster, `EKS cluster name "${cluster.body.name}" is also the name of ${others}, in the same region and account, and EKS takes one cluster per name there`,
        'give each cluster its own clusterName, or put them in different regions', 'name');
    }));
  },
});

/** The cluster role's managed policies: the VPC resource controller hands Windows pods their addresses under it. */
const clusterRole = rule<TerraformGraph>({
  name: 'eks-cluster-role',
  scope: 'graph',
  description: 'The cluster role has the managed policies the VPC resource controller needs to give Windows pods addresses',
  source: 'Amazon EKS User Guide windows-support.adoc (AmazonEKSVPCResourceController)',
  check: (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
    const role = graph.resolve(cluster, cluster.body.role_arn);
    if (role?.type !== 'aws_iam_role') return [];
    const roleName = TerraformGraph.reference(role, 'name');
    const attached = graph.ofType('aws_iam_role_policy_attachment')
      .filter((b) => b.stack === cluster.stack && b.body.role === roleName)
      .map((b) => String(b.body.policy_arn).split('/').pop());
    return EKS_CLUSTER_POLICIES.filter((p) => !attached.includes(p)).map((policy) => blockViolation(cluster,
      `the cluster role has no ${policy}` + (policy === 'AmazonEKSVPCResourceController' ? ', so the VPC resource controller cannot give Windows pods addresses' : ''),
      `keep the ${policy} attachment (drop the override that removed it)`, 'role_arn'));
  }),
});

/** The blocks of a type whose `cluster_name` is the cluster's. */
function ofCluster(graph: TerraformGraph, cluster: TerraformBlock, type: string): TerraformBlock[] {
  const name = TerraformGraph.reference(cluster, 'name');
  return graph.ofType(type).filter((b) => b.stack === cluster.stack && (b.body.cluster_name === name || (b.body.cluster_name === cluster.body.name && !isExpression(b.body.cluster_name))));
}

/** One access entry per IAM principal and cluster (EKS CreateAccessEntry: the second fails). */
const accessEntries = rule<TerraformGraph>({
  name: 'eks-access-entries',
  scope: 'graph',
  description: 'One access entry per IAM principal and cluster',
  source: 'Amazon EKS API CreateAccessEntry (ResourceInUseException)',
  check: (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
    const byPrincipal = new Map<unknown, TerraformBlock[]>();
    for (const e of ofCluster(graph, cluster, 'aws_eks_access_entry')) byPrincipal.set(e.body.principal_arn, [...(byPrincipal.get(e.body.principal_arn) ?? []), e]);
    return [...byPrincipal].filter(([, entries]) => entries.length > 1).map(([principal, entries]) => blockViolation(entries[1],
      `${entries.length} access entries name ${principal}, and EKS allows one per IAM principal (the second fails to create)`, 'keep one entry per role', 'principal_arn'));
  }),
});

function windowsIpam(addon: TerraformBlock | undefined): unknown {
  const values = addon?.body.configuration_values;
  if (typeof values !== 'string') return undefined;
  try {
    return (JSON.parse(values) as Record<string, Json>).enableWindowsIpam;
  } catch {
    return undefined;
  }
}

/**
 * A cluster with Windows node groups: IPv4 (EKS Windows nodes have no
 * IPv6), Windows IPAM on in the vpc-cni add-on, and an EC2_WINDOWS access entry for the node role
 * of every Windows group, a role no Linux group shares (`sharedNodeRoleProblem`).
 */
const windowsCluster = rule<TerraformGraph>({
  name: 'eks-windows-cluster',
  scope: 'graph',
  description: 'A cluster with Windows nodes (node groups or Karpenter\'s EC2_WINDOWS roles): IPv4, Windows IPAM in vpc-cni, no VPC CNI custom networking beside Karpenter\'s, an EC2_WINDOWS access entry for a node role no Linux group shares',
  source: `Amazon EKS User Guide windows-support.adoc; aws/amazon-vpc-resource-controller-k8s; ${KARPENTER_SOURCE} website/content/en/docs (faq.md, concepts/nodeclasses.md)`,
  check: (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
    const groups = ofCluster(graph, cluster, 'aws_eks_node_group');
    const windows = groups.filter((g) => parseEksWindowsAmiType(g.body.ami_type) !== undefined);
    const launched = karpenterWindowsRoles(graph, cluster, groups);
    if (windows.length === 0 && launched.length === 0) return [];
    const linux = groups.filter((g) => !windows.includes(g));
    const out: Finding[] = [];
    const v = (block: TerraformBlock, what: string, fix: string, field?: string) => out.push(blockViolation(block, what, fix, field));
    const nodes = windowsNodes(windows, launched);
    const family = single(cluster.body.kubernetes_network_config).ip_family ?? EksIpFamily.IPV4;
    if (family !== EksIpFamily.IPV4) {
      v(cluster, `ipFamily is ${family}, and EKS Windows nodes support IPv4 only (${nodes}${launched.length > 0 ? `; ${KARPENTER_WINDOWS_LIMITS.ipv6}` : ''})`, 'use EksIpFamily.IPV4', 'kubernetes_network_config.ip_family');
    }
    // Windows IPAM is judged only where the JSON shows it: the vpc-cni add-on's configuration values
    // (OVERWRITE sets a hand-written amazon-vpc-cni ConfigMap back to them). Without the add-on, the
    // EKS User Guide's own setup turns it on with a ConfigMap the JSON need not hold (`kubectl apply`,
    // latest/ug/clusters/windows-support.adoc, "Enable Windows support"): nothing to refuse.
    const vpcCni = ofCluster(graph, cluster, 'aws_eks_addon').find((a) => a.body.addon_name === 'vpc-cni');
    const ipam = windowsIpam(vpcCni);
    const overwrites = vpcCni !== undefined && [vpcCni.body.resolve_conflicts_on_update, vpcCni.body.resolve_conflicts_on_create, vpcCni.body.resolve_conflicts].includes('OVERWRITE');
    if (vpcCni !== undefined && !isExpression(vpcCni.body.configuration_values) && ipam !== 'true' && (ipam !== undefined || overwrites)) {
      v(vpcCni,
        `Windows IPAM is off: the vpc-cni add-on has configuration values ${JSON.stringify(vpcCni.body.configuration_values ?? null)}${ipam === undefined ? ' and overwrites the amazon-vpc-cni ConfigMap with them' : ''}, so Windows pods get no IP address`,
        'keep the vpc-cni add-on with configuration values {"enableWindowsIpam":"true"} (not a hand-written amazon-vpc-cni ConfigMap, which the add-on overwrites)', 'configuration_values');
    }
    // The add-on's env block sets aws-node's variables (aws/amazon-vpc-cni-k8s README, AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG).
    if (launched.length > 0 && vpcCni !== undefined && customNetworking(vpcCni)) {
      v(vpcCni, `the vpc-cni add-on turns on custom networking (env AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG), and Karpenter cannot launch Windows nodes with it (${KARPENTER_WINDOWS_LIMITS.customNetworking})`,
        'turn custom networking off, or give Windows nodes managed node groups in the pod subnets', 'configuration_values');
    }
    const entries = ofCluster(graph, cluster, 'aws_eks_access_entry');
    for (const role of new Set(windows.map((g) => g.body.node_role_arn))) {
      const sharing = linux.filter((g) => g.body.node_role_arn === role);
      if (sharing.length > 0) {
        const { what, fix } = sharedNodeRoleProblem(String(role), sharing.map((g) => g.body.node_group_name), windows.filter((g) => g.body.node_role_arn === role).map((g) => g.body.node_group_name));
        v(sharing[0], what, fix, 'node_role_arn');
      }
      const types = entries.filter((e) => e.body.principal_arn === role).map((e) => e.body.type);
      // Without an access entry, a role is mapped by the aws-auth ConfigMap wherever the cluster
      // reads it (authentication_mode CONFIG_MAP, the API's default, or API_AND_CONFIG_MAP: EKS User
      // Guide latest/ug/manage-access/k8s-access/grant-k8s-access.adoc, the authentication modes), which the JSON need
      // not hold; only a cluster of API mode shows the entry missing.
      const mode = single(cluster.body.access_config).authentication_mode;
      if (types.length === 0 && mode !== 'API') continue;
      if (!types.includes(NodeAccessEntryType.EC2_WINDOWS)) {
        const mine = windows.filter((g) => g.body.node_role_arn === role);
        v(mine[0],
          `the node role ${role} of Windows node groups ${groupNames(mine)} has ${types.length === 0 ? 'no access entry' : `a ${types.join(', ')} access entry`}, not EC2_WINDOWS; ` +
          'EKS may register it as EC2_LINUX (aws/containers-roadmap#2327), and then its Windows nodes lack the eks:kube-proxy-windows group that kube-proxy on Windows needs',
          'keep the EC2_WINDOWS access entry the Windows node group creates (drop the override that removed or changed it)', 'node_role_arn');
      }
    }
    return out;
  }),
});

/** Node group names, a `replaceBeforeDestroy` group's by its prefix. */
function groupNames(list: readonly TerraformBlock[]): string {
  return list.map((g) => g.body.node_group_name ?? g.body.node_group_name_prefix).join(', ');
}

/**
 * The `EC2_WINDOWS` access entries of roles no node group uses: the node roles of the Windows
 * nodes Karpenter launches (`KarpenterWindowsNodeRole`).
 */
function karpenterWindowsRoles(graph: TerraformGraph, cluster: TerraformBlock, groups: readonly TerraformBlock[]): TerraformBlock[] {
  return ofCluster(graph, cluster, 'aws_eks_access_entry')
    .filter((e) => e.body.type === NodeAccessEntryType.EC2_WINDOWS && !groups.some((g) => g.body.node_role_arn === e.body.principal_arn));
}

/** Windows nodes for messages: the node groups and Karpenter's roles. */
function windowsNodes(windows: readonly TerraformBlock[], launched: readonly TerraformBlock[]): string {
  return [windows.length > 0 ? `node groups ${groupNames(windows)}` : '', launched.length > 0 ? `Karpenter node roles ${launched.map((e) => e.body.principal_arn).join(', ')}` : '']
    .filter(Boolean).join('; ');
}

/** Whether the vpc-cni add-on's configuration values turn on custom networking. */
function customNetworking(addon: TerraformBlock): boolean {
  const values = addon.body.configuration_values;
  if (typeof values !== 'string') return false;
  try {
    return String((JSON.parse(values) as { env?: Record<string, unknown> }).env?.AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG).toLowerCase() === 'true';
  } catch {
    return false;
  }
}

/**
 * A Linux node that cannot scale away, for CoreDNS: its pods select Linux nodes only, and the
 * `coredns` add-on becomes ACTIVE only once they run, so Terraform waits for it until the create
 * times out (hashicorp/terraform-provider-aws `internal/service/eks/addon.go`,
 * `waitAddonCreated`, 20 minutes by default) when no Linux node exists. A node group of
 * `min_size` 0 gives none: the cluster autoscaler may scale it to 0, and then DNS is gone for
 * every pod, Windows ones included. The k0smotron path asks the same of its pools (`windows-cluster`).
 */
const coreDns = rule<TerraformGraph>({
  name: 'eks-coredns',
  scope: 'graph',
  description: 'A cluster with the coredns add-on or Windows node groups has a Linux node group that cannot scale to 0',
  source: 'hashicorp/terraform-provider-aws internal/service/eks/addon.go (Timeouts.Create 20 minutes, waitAddonCreated)',
  check: (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
    const groups = ofCluster(graph, cluster, 'aws_eks_node_group');
    const windows = groups.filter((g) => parseEksWindowsAmiType(g.body.ami_type) !== undefined);
    const launched = karpenterWindowsRoles(graph, cluster, groups);
    const addon = ofCluster(graph, cluster, 'aws_eks_addon').find((a) => a.body.addon_name === 'coredns');
    if (windows.length === 0 && launched.length === 0 && addon === undefined) return [];
    const linux = groups.filter((g) => !windows.includes(g));
    const minSize = (g: TerraformBlock) => single(g.body.scaling_config).min_size;
    if (linux.some((g) => isExpression(minSize(g)) || Number(minSize(g)) >= 1)) return [];
    const names = groupNames;
    const fix = 'add an EksLinuxNodeGroup with minNodes >= 1';
    if (windows.length > 0) {
      return [blockViolation(cluster, `Windows node groups (${names(windows)}) need a Linux node for CoreDNS, and the cluster has no Linux node group with minNodes >= 1`, fix)];
    }
    if (launched.length > 0) {
      return [blockViolation(cluster, `Windows nodes (${windowsNodes(windows, launched)}) need a Linux node for CoreDNS, and the cluster has no Linux node group with minNodes >= 1`, fix)];
    }
    const has = linux.length === 0 ? 'has no Linux node group' : `has only Linux node groups that can scale to 0 (${names(linux)}: minNodes 0)`;
    return [blockViolation(addon!, `the coredns add-on runs on Linux nodes only, and the cluster ${has}, so the add-on never becomes ACTIVE and the apply waits for it until it times out`,
      `${fix} (a group of minNodes 0 may be scaled to 0 by the autoscaler, taking DNS with it)`)];
  }),
});

/** Every EKS rule, in the order messages are reported. */
export const EKS_RULES: readonly TerraformRule[] = registry<TerraformRule>([
  eksCluster, eksAddons, eksNodeGroups, launchTemplateNames, nodeGroupNames, clusterNames, clusterRole, accessEntries, coreDns, windowsCluster, providerVersion,
]);
