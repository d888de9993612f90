import type { Json, ManifestViolation, RuleScope } from '../../rules/engine/graph';
import { parseCidr } from '../../platform/cidr';
import {
  EKS_CLUSTER_POLICIES, EKS_LIMITS, EKS_ROOT_SNAPSHOT_GIB, EKS_TAINT_EFFECT, EKS_WINDOWS_TAINT, EksIpFamily, NodeAccessEntryType,
  eksKubernetesVersionProblem, eksLinuxAmiArchitecture, parseEksWindowsAmiType, sharedNodeRoleProblem,
} from '../../platform/eks';
import { EC2_USER_DATA_MAX_BYTES } from '../../platform/aws';
import { Architecture, InstanceType, windowsInstanceTypeProblem } from '../../platform/instance-type';
import { labelKeyProblem, labelValueProblem, nodeLabelProblem } from '../../platform/labels';
import { integerProblem } from '../../platform/numbers';
import { EKS_WINDOWS_2025_PROVIDER, EKS_WINDOWS_2025_PROVIDER_ADVICE, admitsVersionAtLeast } from '../../platform/provider-version';
import { WindowsPlatform, windowsSupport } from '../../platform/support';
import { WindowsVersion } from '../../platform/windows';
import { KARPENTER_WINDOWS_LIMITS } from '../../platform/karpenter';
import { TerraformBlock, TerraformGraph, TerraformRule, address, blockViolation, isExpression, list, single } from '../graph';

/**
 * The EKS rules over the final Terraform JSON: what the EKS API and hashicorp/terraform-provider-aws
 * refuse (or accept and then fail on at apply), and what a cluster with Windows node groups needs
 * to run Windows pods. Each rule cites the code or document whose behaviour it encodes.
 */

function rule(name: string, check: (graph: TerraformGraph) => ManifestViolation[], scope: RuleScope = 'object'): TerraformRule {
  return { name, check, scope };
}

// EC2 resource ids: a prefix and 8 or 17 hex digits (EC2 User Guide, "Resource IDs").
const SUBNET_ID = /^subnet-([0-9a-f]{8}|[0-9a-f]{17})$/;

/** The minor of `1.NN`, or undefined. */
function minorOf(version: unknown): number | undefined {
  const m = typeof version === 'string' ? /^1\.(\d+)$/.exec(version) : null;
  return m ? Number(m[1]) : undefined;
}

/** The cluster a block's `cluster_name` refers to (`${aws_eks_cluster.x.name}`), if it is in the graph. */
function clusterOf(graph: TerraformGraph, block: TerraformBlock): TerraformBlock | undefined {
  const target = graph.resolve(block, block.body.cluster_name);
  return target?.type === 'aws_eks_cluster' ? target : undefined;
}

/**
 * Subnet ids as EKS takes them (CreateCluster `resourcesVpcConfig.subnetIds`, CreateNodegroup
 * `subnets`; the provider's `subnet_ids`, MinItems 1): subnet ids or references to subnets. A
 * `vpc-` id or a reference to another kind of resource fails at apply.
 */
function subnetProblems(ruleName: string, graph: TerraformGraph, block: TerraformBlock, field: string, value: unknown, fix: string): ManifestViolation[] {
  if (isExpression(value)) return []; // a whole list from an expression: known at plan time only
  const ids = list(value);
  if (ids.length === 0) {
    return [blockViolation(ruleName, block, `${field} is empty, and EKS needs at least one subnet`, fix, field)];
  }
  return ids.flatMap((id, i) => {
    if (isExpression(id)) {
      const target = graph.resolve(block, id);
      const ok = target === undefined || ['aws_subnet', 'aws_default_subnet'].includes(target.type) || (target.mode === 'data' && target.type === 'aws_subnet');
      return ok ? [] : [blockViolation(ruleName, block, `${field}[${i}] ${id} is the ${TerraformGraph.attributeOf(id)} of ${address(target!)}, not of a subnet`, fix, field)];
    }
    return typeof id === 'string' && SUBNET_ID.test(id) ? [] : [blockViolation(ruleName, block,
      `${field}[${i}] ${JSON.stringify(id)} is not a subnet id${typeof id === 'string' && id.startsWith('vpc-') ? ' (it is a VPC id)' : ''}`, fix, field)];
  });
}

/**
 * The cluster: a name EKS and the provider take, a Kubernetes version EKS offers, subnets in two
 * zones or more (EKS User Guide network-reqs.adoc: "at least two subnets that are in different
 * Availability Zones"), public access CIDRs the provider takes (`verify.ValidCIDRNetworkAddress`:
 * a network address), and an IP family of the API's enum.
 */
const eksCluster = rule('eks-cluster', (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
  const out: ManifestViolation[] = [];
  const v = (what: string, fix: string, field: string) => out.push(blockViolation('eks-cluster', cluster, what, fix, field));
  const body = cluster.body;
  const name = body.name;
  if (!isExpression(name)) {
    const { max, pattern } = EKS_LIMITS.clusterName;
    if (typeof name !== 'string' || name.length > max || !pattern.test(name)) {
      v(`cluster name ${JSON.stringify(name)} is not an EKS cluster name`, `use 2 to ${max} letters, digits, - and _, starting with a letter or digit`, 'name');
    }
  }
  if (body.version !== undefined && !isExpression(body.version)) {
    const p = eksKubernetesVersionProblem(body.version);
    if (p) v(p, 'write a minor version EKS offers, e.g. "1.34"', 'version');
  }
  const vpc = single(body.vpc_config);
  const subnetFix = 'give the private subnets of the network, in two availability zones or more (ClusterNetwork, or existingNetwork\'s privateSubnetIds)';
  const subnetIssues = subnetProblems('eks-cluster', graph, cluster, 'vpc_config.subnet_ids', vpc.subnet_ids, subnetFix);
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
}));

// EKS add-on versions as DescribeAddonVersions lists them: v<major>.<minor>.<patch>-eksbuild.<n>.
const ADDON_VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/;

/** Add-on versions that are versions (CreateAddon `addonVersion`, as `aws eks describe-addon-versions` lists them). */
const eksAddons = rule('eks-addon', (graph) => graph.ofType('aws_eks_addon').flatMap((addon) => {
  const version = addon.body.addon_version;
  if (version === undefined || isExpression(version) || (typeof version === 'string' && ADDON_VERSION.test(version))) return [];
  return [blockViolation('eks-addon', addon, `add-on ${addon.body.addon_name} version ${JSON.stringify(version)} is not an add-on version`,
    `write a version that \`aws eks describe-addon-versions --addon-name ${addon.body.addon_name}\` lists, such as v1.20.4-eksbuild.1, or leave it unset for the default`, 'addon_version')];
}));

/** The node group's root volume and user data, from the launch template it names. */
function launchTemplateProblems(graph: TerraformGraph, group: TerraformBlock, windows: boolean): ManifestViolation[] {
  const template = graph.resolve(group, single(group.body.launch_template).id);
  if (template?.type !== 'aws_launch_template') return [];
  const out: ManifestViolation[] = [];
  const v = (what: string, fix: string, field: string) => out.push(blockViolation('eks-node-group', template, what, fix, field));
  const snapshot = windows ? EKS_ROOT_SNAPSHOT_GIB.windows : EKS_ROOT_SNAPSHOT_GIB.linux;
  for (const [i, mapping] of list(template.body.block_device_mappings).entries()) {
    const size = single(mapping?.ebs).volume_size;
    if (size === undefined || isExpression(size)) continue;
    const field = `block_device_mappings[${i}].ebs.volume_size`;
    // EBS gp3 volumes: 1 to 16,384 GiB (EBS User Guide, "Amazon EBS volume types").
    const bad = integerProblem(size, 1, 16384);
    if (bad) v(`root volume size ${bad}`, 'use a whole number of GiB, e.g. 50', field);
    else if (size < snapshot) {
      v(`the root volume of ${size} GiB is smaller than the ${windows ? 'Windows' : 'Amazon Linux 2023'} AMI's ${snapshot} GiB snapshot, and EC2 refuses to launch it`,
        `give at least ${snapshot} GiB`, field);
    }
  }
  const userData = template.body.user_data;
  if (typeof userData === 'string' && !isExpression(userData)) {
    const text = Buffer.from(userData, 'base64');
    // EC2 User Guide, instancedata-add-user-data: "User data is limited to 16 KB, in raw form, before it is base64-encoded."
    if (text.length > EC2_USER_DATA_MAX_BYTES) {
      v(`the launch template's user data is ${text.length} bytes, and EC2 takes at most ${EC2_USER_DATA_MAX_BYTES} (16 KB, before base64)`,
        'move the bulk of the script elsewhere (S3, an image) and fetch it from a short script', 'user_data');
    }
    if (windows) {
      const script = text.toString();
      if (BOOTSTRAP_CALL.test(script)) {
        v(`the launch template's user data (${JSON.stringify(script.slice(0, 40))}…) is calling Start-EKSBootstrap.ps1, which EKS runs itself right after it`,
          'remove the call: EKS runs the bootstrap with its own arguments', 'user_data');
      } else if (!POWERSHELL_BLOCK.test(script)) {
        v(`the launch template's user data (${JSON.stringify(script.slice(0, 40))}…) is not one <powershell> block, the only user data EKS runs on Windows nodes before its bootstrap`,
          'set preBootstrapPowerShell instead of overriding user_data', 'user_data');
      }
    }
  }
  return out;
}

/**
 * EKS User Guide, launch-templates.adoc ("Windows user data"): with no AMI id in the launch
 * template, EKS puts its own bootstrap after the user's PowerShell in one <powershell> block, and
 * the user data must not run the bootstrap script itself.
 */
const BOOTSTRAP_CALL = /Start-EKSBootstrap/i;
const POWERSHELL_BLOCK = /^\s*<powershell>[\s\S]*<\/powershell>\s*$/;

/** Labels as EKS takes them (key and value 1 to 63 characters) and the kubelet applies them (`--node-labels`). */
function labelProblems(group: TerraformBlock): ManifestViolation[] {
  const labels = group.body.labels;
  if (labels === undefined || isExpression(labels) || labels === null || typeof labels !== 'object') return [];
  const max = EKS_LIMITS.labelLength;
  return Object.entries(labels as Record<string, unknown>).flatMap(([key, value]) => {
    if (isExpression(key) || isExpression(value)) return [];
    const why = key.length > max ? `label key "${key}" is ${key.length} characters, and EKS takes at most ${max} for the whole key`
      : value === '' ? `label ${key} has an empty value, and EKS takes 1 to ${max} characters`
        : nodeLabelProblem(key, value);
    return why ? [blockViolation('eks-node-group', group, why, 'drop or rename the label (the kubelet sets kubernetes.io/os and kubernetes.io/arch itself)', 'labels')] : [];
  });
}

/** Taints as the provider and EKS take them: at most 50; key and value as a label's, 63 characters at most; an EKS effect. */
function taintProblems(group: TerraformBlock): ManifestViolation[] {
  const taints = list(group.body.taint);
  const out: ManifestViolation[] = [];
  const v = (what: string) => out.push(blockViolation('eks-node-group', group, what, `write taints as key=value:effect with effect ${Object.values(EKS_TAINT_EFFECT).join(', ')}`, 'taint'));
  if (taints.length > EKS_LIMITS.taints) v(`${taints.length} taints; EKS takes at most ${EKS_LIMITS.taints}`);
  for (const t of taints) {
    if ([t?.key, t?.value, t?.effect].some(isExpression)) continue;
    const why = typeof t?.key !== 'string' ? `a taint has the key ${JSON.stringify(t?.key)}`
      : t.key.length > EKS_LIMITS.taintLength ? `taint key "${t.key}" is ${t.key.length} characters; EKS takes at most ${EKS_LIMITS.taintLength}`
        : labelKeyProblem(t.key)?.replace(/^label/, 'taint')
          ?? (t.value === undefined ? undefined : labelValueProblem(t.key, t.value)?.replace(/^label/, 'taint'))
          ?? (Object.values(EKS_TAINT_EFFECT).includes(t.effect) ? undefined : `taint ${t.key} has the effect ${JSON.stringify(t.effect)}`);
    if (why) v(why);
  }
  return out;
}

/**
 * A managed node group as the EKS API and the provider take it (node_group.go: `node_group_name`
 * 0 to 63 characters, `scaling_config` sizes at least 0/1/0, `subnet_ids` MinItems 1, `taint`
 * MaxItems 50), instance types a node of its OS can run, a version its cluster can run, and the
 * root volume and user data of its launch template. Windows groups: a release EKS offers for the
 * cluster's version, the Windows taint, x86 types with 8 GiB or more.
 */
const eksNodeGroups = rule('eks-node-group', (graph) => graph.ofType('aws_eks_node_group').flatMap((group) => {
  const out: ManifestViolation[] = [];
  const v = (what: string, fix: string, field: string) => out.push(blockViolation('eks-node-group', group, what, fix, field));
  const body = group.body;
  const image = parseEksWindowsAmiType(body.ami_type);
  const windows = image !== undefined;

  const name = body.node_group_name;
  if (name !== undefined && !isExpression(name)) {
    const { max, pattern } = EKS_LIMITS.nodeGroupName;
    if (typeof name !== 'string' || name.length > max || !pattern.test(name)) {
      v(`node group name ${JSON.stringify(name)} is not an EKS node group name`, `use 1 to ${max} letters, digits, - and _, starting with a letter or digit`, 'node_group_name');
    }
  }

  const scaling = single(body.scaling_config);
  const sizes = { min_size: [scaling.min_size, 0], desired_size: [scaling.desired_size, 0], max_size: [scaling.max_size, 1] } as const;
  let sizesKnown = true;
  for (const [key, [value, min]] of Object.entries(sizes)) {
    if (isExpression(value)) {
      sizesKnown = false;
      continue;
    }
    const why = integerProblem(value, min);
    if (why) {
      sizesKnown = false;
      v(`scaling_config.${key} ${why}`, `use a whole number, ${min} or more`, `scaling_config.${key}`);
    }
  }
  if (sizesKnown && !(scaling.min_size <= scaling.desired_size && scaling.desired_size <= scaling.max_size)) {
    v(`min_size ${scaling.min_size}, desired_size ${scaling.desired_size} and max_size ${scaling.max_size} are out of order`, 'keep minSize <= desiredSize <= maxSize and maxSize >= 1, as EKS requires', 'scaling_config');
  }

  // provider node_group.go update_config: max_unavailable 1 to 100 (EKS UpdateNodegroupConfig maxUnavailable).
  const unavailable = single(body.update_config).max_unavailable;
  if (unavailable !== undefined && !isExpression(unavailable)) {
    const why = integerProblem(unavailable, 1);
    if (why || unavailable > 100) v(`update_config.max_unavailable ${why ?? `${unavailable} is above 100`}`, 'use a whole number from 1 to 100', 'update_config.max_unavailable');
  }

  const types = body.instance_types;
  if (Array.isArray(types) && types.length === 0) {
    v('instance_types is empty, which the provider sends as no instance types, so EKS launches its default t3.medium', "name at least one instance type, e.g. ['m6i.xlarge']", 'instance_types');
  }
  const parsed = list(types).filter((t) => !isExpression(t)).map((t) => [t, InstanceType.parse(t)] as const);
  for (const [text, type] of parsed) {
    if (typeof type === 'string') {
      // A family this library does not know is left to EKS; a name of the wrong form is not.
      if (typeof InstanceType.parse(text, { arch: Architecture.AMD64 }) === 'string') v(type, 'use a name such as m7i.large', 'instance_types');
    } else if (windows) {
      const verdict = windowsInstanceTypeProblem(type);
      if (verdict) v(verdict.what, verdict.fix, 'instance_types');
    } else if (type.isMac) {
      v(`instance type ${text} is an EC2 Mac, which runs macOS only, and EKS has no macOS AMI`, 'pick an instance type such as m7i.large', 'instance_types');
    }
  }
  const linuxArch = eksLinuxAmiArchitecture(body.ami_type);
  const foreign = parsed.filter(([, t]) => typeof t !== 'string' && linuxArch !== undefined && t.arch !== undefined && t.arch !== linuxArch && !t.isMac);
  if (foreign.length > 0) {
    v(`instance types ${foreign.map(([n]) => n).join(', ')} are not ${linuxArch}, the architecture of the AMI type ${body.ami_type}; a node group has one AMI`,
      'put each architecture in a node group of its own', 'instance_types');
  }

  out.push(...subnetProblems('eks-node-group', graph, group, 'subnet_ids', body.subnet_ids, 'leave subnetIds unset for the cluster\'s subnets, or name subnets (subnet-…) of the cluster\'s VPC'));
  out.push(...labelProblems(group), ...taintProblems(group));

  const cluster = clusterOf(graph, group);
  const clusterVersion = cluster?.body.version;
  const version = body.version ?? clusterVersion;
  const [own, control] = [minorOf(body.version), minorOf(clusterVersion)];
  // Kubernetes version skew policy: a kubelet may not be newer than the API server, nor more than three minors older.
  if (own !== undefined && control !== undefined && (own > control || own < control - 3)) {
    v(`the node group runs Kubernetes ${body.version} and its cluster ${clusterVersion}; kubelets may be up to three minor versions older than the control plane, never newer`,
      'leave the node group\'s version unset (the cluster\'s), or upgrade the cluster first', 'version');
  }
  if (image) {
    const support = windowsSupport(WindowsPlatform.EKS, image.version);
    const minor = minorOf(version);
    if (!support.supported) {
      v(`AMI type ${body.ami_type}: EKS has no Windows Server ${image.version} nodes (${support.source})`, 'pick another windowsVersion', 'ami_type');
    } else if (support.minimumVersion !== undefined && minor !== undefined && minor < Number(support.minimumVersion.split('.')[1])) {
      v(`AMI type ${body.ami_type} needs Kubernetes ${support.minimumVersion} or newer, and the node group runs ${version} (${support.source})`,
        `raise kubernetesVersion to ${support.minimumVersion}, or use WindowsVersion.SERVER_2022`, 'ami_type');
    }
    const taints = list(body.taint);
    if (!taints.some((t) => t?.key === EKS_WINDOWS_TAINT.key && t?.value === EKS_WINDOWS_TAINT.value && t?.effect === EKS_WINDOWS_TAINT.effect)) {
      v(`the node group lacks the taint ${EKS_WINDOWS_TAINT.key}=${EKS_WINDOWS_TAINT.value}:${EKS_WINDOWS_TAINT.effect}, so Linux pods would be scheduled onto Windows nodes`,
        'keep the taint the construct sets (drop the override that changed it)', 'taint');
    }
  }
  out.push(...launchTemplateProblems(graph, group, windows));
  return out;
}));

/**
 * Launch template `name_prefix` as the provider takes it (`verify.ValidLaunchTemplateName`: 3 to
 * 99 of letters, digits and `()./_-`); the node groups' prefix is `<cluster>-<node group>-`.
 */
const launchTemplateNames = rule('launch-template-name', (graph) => graph.ofType('aws_launch_template').flatMap((template) => {
  const prefix = template.body.name_prefix;
  if (prefix === undefined || isExpression(prefix)) return [];
  const ok = typeof prefix === 'string' && prefix.length >= 3 && prefix.length <= 99 && /^[0-9A-Za-z()./_-]+$/.test(prefix);
  return ok ? [] : [blockViolation('launch-template-name', template,
    `launch template name_prefix ${JSON.stringify(prefix)} is ${String(prefix).length} characters; the provider takes 3 to 99 of letters, digits and ()./_-`,
    'shorten the cluster or node group name (the prefix is "<clusterName>-<nodeGroupName>-")', 'name_prefix')];
}));

/** Two node groups of one name in one cluster: the second fails at apply (the name is the group's id in the cluster). */
const nodeGroupNames = rule('eks-node-group-names', (graph) => {
  const seen = new Map<string, TerraformBlock>();
  return graph.ofType('aws_eks_node_group').flatMap((group) => {
    const { cluster_name: cluster, node_group_name: name } = group.body;
    if (typeof name !== 'string' || isExpression(name) || typeof cluster !== 'string') return [];
    const key = `${group.stack}|${cluster}|${name}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, group);
      return [];
    }
    return [blockViolation('eks-node-group-names', group, `node group name "${name}" is also the name of ${first.path ?? first.id} in the same cluster, and EKS takes one node group per name`,
      'give each node group its own nodeGroupName (the default is the construct id)', 'node_group_name')];
  });
}, 'graph');

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
const clusterNames = rule('eks-cluster-names', (graph) => {
  const byKey = new Map<string, TerraformBlock[]>();
  for (const cluster of graph.ofType('aws_eks_cluster')) {
    const name = cluster.body.name;
    const where = regionAndAccount(graph, cluster);
    if (typeof name !== 'string' || isExpression(name) || where === undefined) continue;
    byKey.set(`${where}|${name}`, [...(byKey.get(`${where}|${name}`) ?? []), cluster]);
  }
  return [...byKey.values()].filter((l) => l.length > 1).flatMap((clusters) => clusters.map((cluster) => {
    const others = clusters.filter((c) => c !== cluster).map((c) => `${c.path ?? c.id} (stack ${c.stack})`).join(', ');
    return blockViolation('eks-cluster-names', cluster, `EKS cluster name "${cluster.body.name}" is also the name of ${others}, in the same region and account, and EKS takes one cluster per name there`,
      'give each cluster its own clusterName, or put them in different regions', 'name');
  }));
}, 'graph');

/** The cluster role's managed policies: the VPC resource controller hands Windows pods their addresses under it. */
const clusterRole = rule('eks-cluster-role', (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
  const role = graph.resolve(cluster, cluster.body.role_arn);
  if (role?.type !== 'aws_iam_role') return [];
  const roleName = TerraformGraph.reference(role, 'name');
  const attached = graph.ofType('aws_iam_role_policy_attachment')
    .filter((b) => b.stack === cluster.stack && b.body.role === roleName)
    .map((b) => String(b.body.policy_arn).split('/').pop());
  return EKS_CLUSTER_POLICIES.filter((p) => !attached.includes(p)).map((policy) => blockViolation('eks-cluster-role', cluster,
    `the cluster role has no ${policy}` + (policy === 'AmazonEKSVPCResourceController' ? ', so the VPC resource controller cannot give Windows pods addresses' : ''),
    `keep the ${policy} attachment (drop the override that removed it)`, 'role_arn'));
}), 'graph');

/** The blocks of a type whose `cluster_name` is the cluster's. */
function ofCluster(graph: TerraformGraph, cluster: TerraformBlock, type: string): TerraformBlock[] {
  const name = TerraformGraph.reference(cluster, 'name');
  return graph.ofType(type).filter((b) => b.stack === cluster.stack && (b.body.cluster_name === name || (b.body.cluster_name === cluster.body.name && !isExpression(b.body.cluster_name))));
}

/** One access entry per IAM principal and cluster (EKS CreateAccessEntry: the second fails). */
const accessEntries = rule('eks-access-entries', (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
  const byPrincipal = new Map<unknown, TerraformBlock[]>();
  for (const e of ofCluster(graph, cluster, 'aws_eks_access_entry')) byPrincipal.set(e.body.principal_arn, [...(byPrincipal.get(e.body.principal_arn) ?? []), e]);
  return [...byPrincipal].filter(([, entries]) => entries.length > 1).map(([principal, entries]) => blockViolation('eks-access-entries', entries[1],
    `${entries.length} access entries name ${principal}, and EKS allows one per IAM principal (the second fails to create)`, 'keep one entry per role', 'principal_arn'));
}), 'graph');

/** The vpc-cni add-on's configuration values, or {} when there are none or they are no JSON object. */
function cniConfiguration(addon: TerraformBlock | undefined): Record<string, Json> {
  const values = addon?.body.configuration_values;
  if (typeof values !== 'string') return {};
  try {
    const parsed = JSON.parse(values) as unknown;
    return parsed !== null && typeof parsed === 'object' ? parsed as Record<string, Json> : {};
  } catch {
    return {};
  }
}

/**
 * A cluster with Windows nodes (managed node groups of a Windows AMI type, or roles with an
 * `EC2_WINDOWS` access entry and no node group: the nodes Karpenter launches,
 * `KarpenterWindowsNodeRole`): a Linux node for CoreDNS, IPv4 (EKS Windows nodes have no IPv6),
 * Windows IPAM on in the vpc-cni add-on, no custom networking beside Karpenter's Windows nodes,
 * and an EC2_WINDOWS access entry for the node role of every Windows group, a role no Linux group
 * shares (`sharedNodeRoleProblem`).
 */
const windowsCluster = rule('eks-windows-cluster', (graph) => graph.ofType('aws_eks_cluster').flatMap((cluster) => {
  const groups = ofCluster(graph, cluster, 'aws_eks_node_group');
  const windows = groups.filter((g) => parseEksWindowsAmiType(g.body.ami_type) !== undefined);
  const entries = ofCluster(graph, cluster, 'aws_eks_access_entry');
  const launched = entries.filter((e) => e.body.type === NodeAccessEntryType.EC2_WINDOWS && !groups.some((g) => g.body.node_role_arn === e.body.principal_arn));
  if (windows.length === 0 && launched.length === 0) return [];
  const linux = groups.filter((g) => !windows.includes(g));
  const names = (list: TerraformBlock[]): string => list.map((g) => g.body.node_group_name ?? g.body.node_group_name_prefix).join(', ');
  const nodes = [windows.length > 0 ? `node groups ${names(windows)}` : '', launched.length > 0 ? `Karpenter node roles ${launched.map((e) => e.body.principal_arn).join(', ')}` : '']
    .filter(Boolean).join('; ');
  const out: ManifestViolation[] = [];
  const v = (block: TerraformBlock, what: string, fix: string, field?: string) => out.push(blockViolation('eks-windows-cluster', block, what, fix, field));
  if (!linux.some((g) => Number(single(g.body.scaling_config).min_size) >= 1)) {
    v(cluster, `Windows nodes (${nodes}) need a Linux node for CoreDNS, and the cluster has no Linux node group with minSize >= 1`, 'add an EksLinuxNodeGroup with minSize >= 1');
  }
  const family = single(cluster.body.kubernetes_network_config).ip_family ?? EksIpFamily.IPV4;
  if (family !== EksIpFamily.IPV4) {
    v(cluster, `ipFamily is ${family}, and EKS Windows nodes support IPv4 only (${nodes}${launched.length > 0 ? `; ${KARPENTER_WINDOWS_LIMITS.ipv6}` : ''})`, 'use EksIpFamily.IPV4', 'kubernetes_network_config.ip_family');
  }
  const vpcCni = ofCluster(graph, cluster, 'aws_eks_addon').find((a) => a.body.addon_name === 'vpc-cni');
  const cni = cniConfiguration(vpcCni);
  if (cni.enableWindowsIpam !== 'true') {
    v(vpcCni ?? cluster,
      `Windows IPAM is off: the vpc-cni add-on ${vpcCni === undefined ? 'is missing' : `has configuration values ${JSON.stringify(vpcCni.body.configuration_values ?? null)}`}, so Windows pods get no IP address`,
      'keep the vpc-cni add-on with configuration values {"enableWindowsIpam":"true"} (not a hand-written amazon-vpc-cni ConfigMap, which the add-on overwrites)', 'configuration_values');
  }
  // The add-on's env block sets aws-node's variables (aws/amazon-vpc-cni-k8s README, AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG).
  if (launched.length > 0 && String(cni.env?.AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG).toLowerCase() === 'true') {
    v(vpcCni!, `the vpc-cni add-on turns on custom networking (env AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG), and Karpenter cannot launch Windows nodes with it (${KARPENTER_WINDOWS_LIMITS.customNetworking})`,
      'turn custom networking off, or give Windows nodes managed node groups in the pod subnets', 'configuration_values');
  }
  for (const role of new Set(windows.map((g) => g.body.node_role_arn))) {
    const sharing = linux.filter((g) => g.body.node_role_arn === role);
    if (sharing.length > 0) {
      const { what, fix } = sharedNodeRoleProblem(String(role), sharing.map((g) => g.body.node_group_name), windows.filter((g) => g.body.node_role_arn === role).map((g) => g.body.node_group_name));
      v(sharing[0], what, fix, 'node_role_arn');
    }
    const types = entries.filter((e) => e.body.principal_arn === role).map((e) => e.body.type);
    if (!types.includes(NodeAccessEntryType.EC2_WINDOWS)) {
      const mine = windows.filter((g) => g.body.node_role_arn === role);
      v(mine[0],
        `the node role ${role} of Windows node groups ${names(mine)} has ${types.length === 0 ? 'no access entry' : `a ${types.join(', ')} access entry`}, not EC2_WINDOWS; ` +
          'EKS may register it as EC2_LINUX (aws/containers-roadmap#2327), and then its Windows nodes lack the eks:kube-proxy-windows group that kube-proxy on Windows needs',
        'keep the EC2_WINDOWS access entry the Windows node group creates (drop the override that removed or changed it)', 'node_role_arn');
    }
  }
  return out;
}), 'graph');

/**
 * Windows Server 2025 AMI types with a hashicorp/aws constraint that admits no release knowing
 * them (`src/platform/provider-version.ts`): the plan fails with "expected ami_type to be one of".
 */
const providerVersion = rule('eks-provider-version', (graph) => graph.ofType('aws_eks_node_group').flatMap((group) => {
  const image = parseEksWindowsAmiType(group.body.ami_type);
  const provider = graph.terraformOf(group).required_providers?.aws?.version;
  if (image?.version !== WindowsVersion.SERVER_2025 || typeof provider !== 'string' || admitsVersionAtLeast(provider, EKS_WINDOWS_2025_PROVIDER) !== false) return [];
  return [blockViolation('eks-provider-version', group,
    `AMI type ${group.body.ami_type} is unknown to hashicorp/aws ${provider}, whose AWS SDK predates the Windows Server 2025 AMI types (EKS API of 2026-02-11), so the plan fails with "expected ami_type to be one of"`,
    `use CDK Terrain's @cdktn/provider-aws 25 (hashicorp/aws 6.66), or allow a newer provider: stack.addOverride('terraform.required_providers.aws.version', '${EKS_WINDOWS_2025_PROVIDER_ADVICE}'), then terraform init -upgrade`, 'ami_type')];
}), 'graph');

/** Every EKS rule, in the order messages are reported. */
export const EKS_RULES: readonly TerraformRule[] = [
  eksCluster, eksAddons, eksNodeGroups, launchTemplateNames, nodeGroupNames, clusterNames, clusterRole, accessEntries, windowsCluster, providerVersion,
];
