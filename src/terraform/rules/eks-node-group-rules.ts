import { Finding, rule } from '../../rules/engine/rule';
import { EKS_LIMITS, EKS_ROOT_SNAPSHOT_GIB, EKS_TAINT_EFFECT, EKS_WINDOWS_TAINT, eksLinuxAmiArchitecture, eksReleaseMinor, parseEksWindowsAmiType } from '../../platform/eks';
import { EC2_USER_DATA_MAX_BYTES } from '../../platform/aws';
import { Architecture, InstanceType, windowsInstanceTypeProblem } from '../../platform/instance-type';
import { labelKeyProblem, labelValueProblem, nodeLabelProblem } from '../../platform/labels';
import { integerProblem } from '../../core/numbers';
import { EKS_WINDOWS_2025_PROVIDER, EKS_WINDOWS_2025_PROVIDER_ADVICE, admitsVersionAtLeast } from '../../platform/provider-version';
import { WindowsPlatform, windowsSupport } from '../../platform/support';
import { WindowsVersion } from '../../platform/windows';
import { TerraformBlock, TerraformGraph, blockViolation, isExpression, list, repeatedKeys, single } from '../graph';

import { clusterOf, minorOf, subnetProblems } from './eks-common';

/** The EKS rules over managed node groups and their launch templates. */

/** The node group's root volume and user data, from the launch template it names. */
function launchTemplateProblems(graph: TerraformGraph, group: TerraformBlock, windows: boolean): Finding[] {
  const template = graph.resolve(group, single(group.body.launch_template).id);
  if (template?.type !== 'aws_launch_template') return [];
  const out: Finding[] = [];
  const v = (what: string, fix: string, field: string) => out.push(blockViolation(template, what, fix, field));
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
function labelProblems(group: TerraformBlock): Finding[] {
  const labels = group.body.labels;
  if (labels === undefined || isExpression(labels) || labels === null || typeof labels !== 'object') return [];
  const max = EKS_LIMITS.labelLength;
  return Object.entries(labels as Record<string, unknown>).flatMap(([key, value]) => {
    if (isExpression(key) || isExpression(value)) return [];
    const why = key.length > max ? `label key "${key}" is ${key.length} characters, and EKS takes at most ${max} for the whole key`
      : value === '' ? `label ${key} has an empty value, and EKS takes 1 to ${max} characters`
      : nodeLabelProblem(key, value);
    return why ? [blockViolation(group, why, 'drop or rename the label (the kubelet sets kubernetes.io/os and kubernetes.io/arch itself)', 'labels')] : [];
  });
}

/** Taints as the provider and EKS take them: at most 50; key and value as a label's, 63 characters at most; an EKS effect. */
function taintProblems(group: TerraformBlock): Finding[] {
  const taints = list(group.body.taint);
  const out: Finding[] = [];
  const v = (what: string) => out.push(blockViolation(group, what, `write taints as key=value:effect with effect ${Object.values(EKS_TAINT_EFFECT).join(', ')}`, 'taint'));
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
export const eksNodeGroups = rule<TerraformGraph>({
  name: 'eks-node-group',
  scope: 'object',
  description: 'A managed node group as EKS and the provider take it: name, sizes, subnets, taints, instance types, version, an AMI release of that version, root volume, user data; Windows groups a release EKS offers, the Windows taint, x86 with 8 GiB or more',
  source: 'hashicorp/terraform-provider-aws v6.66 internal/service/eks/node_group.go; Amazon EKS User Guide windows-support.adoc, eks-ami-versions-windows.adoc (AMI releases k8s_major_version.k8s_minor_version-release_date)',
  check: (graph) => graph.ofType('aws_eks_node_group').flatMap((group) => {
    const out: Finding[] = [];
    const v = (what: string, fix: string, field: string) => out.push(blockViolation(group, what, fix, field));
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
      v(`min_size ${scaling.min_size}, desired_size ${scaling.desired_size} and max_size ${scaling.max_size} are out of order`, 'keep minNodes <= desiredNodes <= maxNodes and maxNodes >= 1, as EKS requires', 'scaling_config');
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

    out.push(...subnetProblems(graph, group, 'subnet_ids', body.subnet_ids, 'leave subnetIds unset for the cluster\'s subnets, or name subnets (subnet-…) of the cluster\'s VPC'));
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
    // An AMI release is of one Kubernetes minor: EKS refuses a release of another than the group's
    // version (UpdateNodegroupVersion / CreateNodegroup), e.g. after a version upgrade that kept an old releaseVersion.
    const release = body.release_version;
    const amazonLinux = typeof body.ami_type === 'string' && body.ami_type.startsWith('AL2');
    if (typeof release === 'string' && !isExpression(release) && (image || amazonLinux)) {
      const parsed = eksReleaseMinor(release, image !== undefined);
      const minor = minorOf(version);
      if ('problem' in parsed) v(parsed.problem, 'copy the AMI version from the EKS user guide\'s AMI version list, or leave releaseVersion unset for the newest', 'release_version');
      else if (minor !== undefined && parsed.minor !== minor) {
        v(`release_version ${release} is an AMI of Kubernetes 1.${parsed.minor}, and the node group runs ${version}`,
          `give a release of 1.${minor} (e.g. 1.${minor}-<date> on Windows), or leave releaseVersion unset when raising kubernetesVersion: the newest release of the new version is taken`, 'release_version');
      }
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
  }),
});

/**
 * Launch template `name_prefix` as the provider takes it (`verify.ValidLaunchTemplateName`: 3 to
 * 99 of letters, digits and `()./_-`); the node groups' prefix is `<cluster>-<node group>-`.
 */
export const launchTemplateNames = rule<TerraformGraph>({
  name: 'launch-template-name',
  scope: 'object',
  description: 'Launch template name prefixes are 3 to 99 letters, digits and ()./_-',
  source: 'hashicorp/terraform-provider-aws v6.66 internal/verify/validate.go (ValidLaunchTemplateName)',
  check: (graph) => graph.ofType('aws_launch_template').flatMap((template) => {
    const prefix = template.body.name_prefix;
    if (prefix === undefined || isExpression(prefix)) return [];
    const ok = typeof prefix === 'string' && prefix.length >= 3 && prefix.length <= 99 && /^[0-9A-Za-z()./_-]+$/.test(prefix);
    return ok ? [] : [blockViolation(template,
      `launch template name_prefix ${JSON.stringify(prefix)} is ${String(prefix).length} characters; the provider takes 3 to 99 of letters, digits and ()./_-`,
      'shorten the cluster or node group name (the prefix is "<clusterName>-<poolName>-")', 'name_prefix')];
  }),
});

/** Two node groups of one name in one cluster: the second fails at apply (the name is the group's id in the cluster). */
export const nodeGroupNames = rule<TerraformGraph>({
  name: 'eks-node-group-names',
  scope: 'graph',
  description: 'Node group names are unique in their cluster',
  source: 'Amazon EKS API CreateNodegroup (ResourceInUseException)',
  check: (graph) => {
    return repeatedKeys(graph.ofType('aws_eks_node_group'), (group) => {
      const { cluster_name: cluster, node_group_name: name } = group.body;
      return typeof name !== 'string' || isExpression(name) || typeof cluster !== 'string' ? undefined : `${group.stack}|${cluster}|${name}`;
    }).map(([group, first]) => blockViolation(group, `node group name "${group.body.node_group_name}" is also the name of ${first.path ?? first.id} in the same cluster, and EKS takes one node group per name`,
      'give each node group its own poolName (the default is the construct id)', 'node_group_name'));
  },
});

/**
 * Windows Server 2025 AMI types with a hashicorp/aws constraint that admits no release knowing
 * them (`src/platform/provider-version.ts`): the plan fails with "expected ami_type to be one of".
 */
export const providerVersion = rule<TerraformGraph>({
  name: 'eks-provider-version',
  scope: 'graph',
  description: 'Windows Server 2025 AMI types come with a hashicorp/aws version that knows them',
  source: 'hashicorp/terraform-provider-aws CHANGELOG (AL2023/WINDOWS_*_2025 ami_type values)',
  check: (graph) => graph.ofType('aws_eks_node_group').flatMap((group) => {
    const image = parseEksWindowsAmiType(group.body.ami_type);
    const provider = graph.terraformOf(group).required_providers?.aws?.version;
    if (image?.version !== WindowsVersion.SERVER_2025 || typeof provider !== 'string' || admitsVersionAtLeast(provider, EKS_WINDOWS_2025_PROVIDER) !== false) return [];
    return [blockViolation(group,
      `AMI type ${group.body.ami_type} is unknown to hashicorp/aws ${provider}, whose AWS SDK predates the Windows Server 2025 AMI types (EKS API of 2026-02-11), so the plan fails with "expected ami_type to be one of"`,
      `use CDK Terrain's @cdktn/provider-aws 25 (hashicorp/aws 6.66), or allow a newer provider: stack.addOverride('terraform.required_providers.aws.version', '${EKS_WINDOWS_2025_PROVIDER_ADVICE}'), then terraform init -upgrade`, 'ami_type')];
  }),
});
