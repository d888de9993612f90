import { LAUNCH_TEMPLATE_NAME_PREFIX } from '../platform/eks';
import { contentHash } from '../core/hash';
import { PropsOfFields } from '../rules/engine/refusal';
import { flag, instance, list, optional, PropEntry, required, text, whole } from '../core/props-spec';
import { ManagedNodePool, ManagedNodePoolOptions, managedNodePoolEntries, ManagedPoolBuild, ManagedOsPart, vocabularySpec, VocabularySpec } from '../terraform/managed-node-pool';
import type { HybridEksCluster } from './eks-cluster';
import { EksNodeRole } from './node-role';
import { EksNodeGroup, EksNodeGroupTaint, LaunchTemplate, Token } from '../terraform/providers/aws';

/**
 * What Linux and Windows managed node groups share, in the managed clouds' one vocabulary
 * (`ManagedNodePoolOptions`); the former names are deprecated aliases. What each prop takes, as the
 * construct checks it: docs/props.md.
 */
export interface EksNodeGroupOptions extends ManagedNodePoolOptions {
  /**
   * EC2 instance types, e.g. `['m6i.xlarge']`; several give the group more capacity to draw on.
   * `[]` is refused: EKS would launch its default t3.medium.
   * @default - none: required, unless given by its former name `instanceTypes`
   */
  readonly machineTypes?: readonly string[];
  /**
   * The fewest nodes the group keeps. A cluster with Windows node groups needs a Linux group with
   * `minNodes >= 1`, for CoreDNS.
   * @default 1
   */
  readonly minNodes?: number;
  /**
   * The nodes the group starts with. Where `manageDesiredNodes` is false, later applies leave it as
   * the cluster autoscaler (or a person) set it: Terraform ignores changes to it.
   * @default - minNodes
   */
  readonly desiredNodes?: number;
  /**
   * Whether every apply sets the group's desired size to `desiredNodes`. When Terraform ignores the
   * desired size, an update sends the desired size of its state with the new sizes
   * (hashicorp/terraform-provider-aws `internal/service/eks/node_group.go`: `UpdateNodegroupConfig`
   * with `expandNodegroupScalingConfig` of the planned `scaling_config`, whose ignored
   * `desired_size` is the state's), so raising `minNodes` above the running desired size fails at
   * apply ("Minimum capacity … can't be greater than desired size"). A fixed-size group
   * (`minNodes` = `maxNodes`) has nothing for an autoscaler to change and is managed; to raise
   * `minNodes` of an autoscaled group, set this to true with `desiredNodes` at least the new
   * `minNodes` for that apply (the autoscaler's current size is then reset to it).
   * @default - true when minNodes equals maxNodes, else false (the autoscaler owns the desired size)
   */
  readonly manageDesiredNodes?: boolean;
  /**
   * The most nodes the group may scale to.
   * @default - the larger of desiredNodes and 1
   */
  readonly maxNodes?: number;
  /**
   * Subnets for the nodes. `[]` is refused (EKS needs one): leave it unset for the cluster's.
   * @default - the cluster's subnets
   */
  readonly subnetIds?: readonly string[];
  /**
   * The node role, shared with other node groups of the same OS only (`sharedNodeRoleProblem`:
   * a role has one access entry per cluster, and Linux and Windows nodes need different types). A
   * Windows group gives it an `EC2_WINDOWS` access entry; a Linux group's role gets `EC2_LINUX` from EKS.
   * @default - a role of its own
   */
  readonly nodeRole?: EksNodeRole;
  /**
   * Root volume size in GiB (gp3, encrypted).
   * @default - 20 on Linux, 50 on Windows
   */
  readonly diskSizeGiB?: number;
  /**
   * The nodes' Kubernetes minor version: set it to upgrade node groups one at a time after the
   * control plane (at most three minors older, never newer).
   * @default - the cluster's `kubernetesVersion`, so raising it upgrades every node group on the same apply, after the control plane
   */
  readonly kubernetesVersion?: string;
  /**
   * The EKS-optimized AMI release (`release_version`), e.g. `1.34.4-20260120` on Amazon Linux or
   * `1.34-2026.01.13` on Windows (EKS User Guide, eks-ami-versions-windows.adoc). Raise it to patch
   * the nodes: EKS replaces them, `maxUnavailable` at a time. EKS keeps Windows AMIs about four months.
   * @default - the newest release when the group is created or its version changes; later applies do not patch
   */
  readonly releaseVersion?: string;
  /**
   * How many nodes an update (a new version, release or launch template) may take down at once:
   * `update_config.max_unavailable`. EKS surges new nodes first and drains the old ones.
   * @default 1
   */
  readonly maxUnavailable?: number;
  /**
   * Create the replacement node group before destroying this one, when a change needs a new
   * group (AMI type, instance types, subnets, disk): Terraform's `create_before_destroy`, with the
   * group named from `poolName` as a prefix, since two groups cannot share a name.
   * @default false - the group is destroyed first, and its pods wait for the new one
   */
  readonly replaceBeforeDestroy?: boolean;
  /**
   * The former name of `machineTypes`, which takes the same values; giving both is refused.
   * @deprecated use `machineTypes`.
   * @default - machineTypes
   */
  readonly instanceTypes?: readonly string[];
  /**
   * The former name of `minNodes`, which takes the same values; giving both is refused.
   * @deprecated use `minNodes`.
   * @default - minNodes
   */
  readonly minSize?: number;
  /**
   * The former name of `desiredNodes`, which takes the same values; giving both is refused.
   * @deprecated use `desiredNodes`.
   * @default - desiredNodes
   */
  readonly desiredSize?: number;
  /**
   * The former name of `manageDesiredNodes`, which takes the same values; giving both is refused.
   * @deprecated use `manageDesiredNodes`.
   * @default - manageDesiredNodes
   */
  readonly manageDesiredSize?: boolean;
  /**
   * The former name of `maxNodes`, which takes the same values; giving both is refused.
   * @deprecated use `maxNodes`.
   * @default - maxNodes
   */
  readonly maxSize?: number;
  /**
   * The former name of `poolName`, which takes the same values; giving both is refused.
   * @deprecated use `poolName`.
   * @default - poolName
   */
  readonly nodeGroupName?: string;
}

/** The deprecated names of `EksNodeGroupOptions`' props, each to its prop. */
const EKS_FORMER_NAMES = { instanceTypes: 'machineTypes', minSize: 'minNodes', desiredSize: 'desiredNodes', manageDesiredSize: 'manageDesiredNodes', maxSize: 'maxNodes', nodeGroupName: 'poolName' };

/**
 * The entries of `EksNodeGroupOptions`, which the Linux and Windows node groups' specs share. The
 * Terraform rules judge the values further (`eks-node-group`: sizes, names, labels, disk, instance
 * types).
 * @internal
 */
export const EKS_NODE_GROUP_OPTIONS: { readonly [K in Exclude<keyof EksNodeGroupOptions, keyof typeof EKS_FORMER_NAMES>]-?: PropEntry } = {
  machineTypes: required(list(text({ max: 64, form: 'an EC2 instance type', example: 'm6i.xlarge', judgedBy: 'eks-node-group' })), 'give machineTypes, e.g. ["m6i.xlarge"]'),
  minNodes: optional(whole()),
  desiredNodes: optional(whole()),
  manageDesiredNodes: optional(flag()),
  maxNodes: optional(whole()),
  subnetIds: optional(list(text({ max: 256, form: 'a subnet id', example: 'subnet-0123456789abcdef0', judgedBy: 'eks-node-group' }))),
  nodeRole: optional(instance('an EksNodeRole', (v) => v instanceof EksNodeRole, 'pass new EksNodeRole(scope, id, { partition: cluster.partition })')),
  diskSizeGiB: optional(whole(0, undefined, 'eks-node-group')),
  ...managedNodePoolEntries({ max: 1024, form: 'an EKS node group name', example: 'windows', judgedBy: 'eks-node-group' }),
  kubernetesVersion: optional(text({ max: 64, form: 'a Kubernetes minor version', example: '1.34', judgedBy: 'eks-node-group' })),
  releaseVersion: optional(text({ max: 128, form: 'an EKS AMI release version', example: '1.34-2026.01.13' })),
  maxUnavailable: optional(whole(0, undefined, 'eks-node-group')),
  replaceBeforeDestroy: optional(flag()),
};

/**
 * The spec of an EKS node group's props: `entries` (`EKS_NODE_GROUP_OPTIONS` and the OS's own),
 * the deprecated names taken as aliases.
 * @internal
 */
export function eksNodeGroupSpec<P extends EksNodeGroupOptions>(name: string, entries: { readonly [K in Exclude<keyof P, keyof typeof EKS_FORMER_NAMES>]-?: PropEntry }): VocabularySpec<P> {
  return vocabularySpec<P, typeof EKS_FORMER_NAMES>(name, entries, EKS_FORMER_NAMES);
}

/** What the operating system decides of an EKS node group: the OS part of `EksNodeGroupBase`. */
export interface EksOsPart extends ManagedOsPart {
  /** The EKS AMI type. */
  readonly amiType: string;
  /** The AMI's root device name. */
  readonly rootDevice: string;
  /** The root volume's size when `diskSizeGiB` is not given. */
  readonly defaultDiskSizeGiB: number;
  /** The node group's taints. */
  readonly taints?: EksNodeGroupTaint[];
  /** Base64 user data, or undefined for none. */
  readonly userData?: string;
}

/** The resources of one managed node group. */
export interface EksNodeGroupResources {
  /** The `aws_eks_node_group` resource. */
  readonly nodeGroup: EksNodeGroup;
  /** Its launch template: no AMI id (EKS picks it from the AMI type), IMDSv2 only, an encrypted gp3 root volume, and the user data. */
  readonly launchTemplate: LaunchTemplate;
  /** Its node role: `nodeRole`, or the one the group created. */
  readonly nodeRole: EksNodeRole;
}

/** The former name of `EksNodeGroupResources`, kept for code that names it (prefer the new name). */
export type NodeGroupParts = EksNodeGroupResources;

/** Which prop sets which field of the node group and its launch template, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  'aws_eks_node_group node_group_name': 'poolName',
  'aws_launch_template name_prefix': 'poolName',
  'aws_eks_node_group instance_types': 'machineTypes',
  'aws_eks_node_group scaling_config.min_size': 'minNodes',
  'aws_eks_node_group scaling_config.desired_size': 'desiredNodes',
  'aws_eks_node_group scaling_config.max_size': 'maxNodes',
  'aws_eks_node_group scaling_config': 'minNodes, desiredNodes and maxNodes',
  'aws_eks_node_group subnet_ids': 'subnetIds',
  'aws_eks_node_group labels': 'labels',
  'aws_eks_node_group version': 'kubernetesVersion',
  'aws_eks_node_group release_version': 'releaseVersion',
  'aws_eks_node_group update_config.max_unavailable': 'maxUnavailable',
  'aws_launch_template block_device_mappings.ebs.volume_size': 'diskSizeGiB',
};

/**
 * The launch template's `name_prefix`, `<cluster>-<node group>-`, shortened with a digest of both
 * when it would pass the 99 characters the provider takes (`ValidLaunchTemplateName`): EKS takes
 * cluster names of 100 characters and node group names of 63, and a valid pair must not be
 * refused for a name derived from it.
 */
function launchTemplatePrefix(clusterName: string, groupName: string): string {
  const full = `${clusterName}-${groupName}-`;
  const { max } = LAUNCH_TEMPLATE_NAME_PREFIX;
  return full.length <= max ? full : `${full.slice(0, max - 10)}-${contentHash([clusterName, groupName])}-`;
}

/**
 * An EKS managed node group: a launch template without an AMI id (EKS picks the AMI from the AMI
 * type and adds its own bootstrap to the user data) that requires IMDSv2 and encrypts the root
 * volume, and the node group that uses it. `EksLinuxNodeGroup` and `EksWindowsNodeGroup` give
 * the OS part.
 */
export abstract class EksNodeGroupBase<P extends EksNodeGroupOptions> extends ManagedNodePool<HybridEksCluster, P, EksOsPart, EksNodeGroupResources> {
  /**
   * The node group, its launch template and its role.
   * @deprecated use `resources`.
   */
  public get parts(): EksNodeGroupResources {
    return this.resources;
  }

  protected createPool(cluster: HybridEksCluster, options: P, os: EksOsPart): ManagedPoolBuild<EksNodeGroupResources> {
    const name = options.poolName ?? this.node.id;
    const { machineTypes, subnetIds, labels } = options;
    const minSize = options.minNodes ?? 1;
    const desiredSize = options.desiredNodes ?? minSize;
    const maxSize = options.maxNodes ?? Math.max(desiredSize, 1);
    const diskSizeGiB = options.diskSizeGiB ?? os.defaultDiskSizeGiB;

    const nodeRole = options.nodeRole ?? new EksNodeRole(this, 'NodeRole', { partition: cluster.partition });
    const launchTemplate = new LaunchTemplate(this, 'LaunchTemplate', {
      namePrefix: launchTemplatePrefix(cluster.clusterName, name),
      updateDefaultVersion: true,
      // IMDSv2 only. Hop limit 1 keeps pods in their own network namespace away from the node's
      // credentials; aws-node and kube-proxy use the host network, and on Windows the CNI runs on the host.
      metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: 1 },
      blockDeviceMappings: [{ deviceName: os.rootDevice, ebs: { volumeSize: diskSizeGiB, volumeType: 'gp3', encrypted: 'true', deleteOnTermination: 'true' } }],
      userData: os.userData,
    });
    const replace = options.replaceBeforeDestroy ?? false;
    const managed = options.manageDesiredNodes ?? minSize === maxSize;
    const nodeGroup = new EksNodeGroup(this, 'NodeGroup', {
      clusterName: cluster.cluster.name,
      nodeGroupName: replace ? undefined : name,
      nodeGroupNamePrefix: replace ? `${name}-` : undefined,
      version: options.kubernetesVersion ?? cluster.kubernetesVersion,
      releaseVersion: options.releaseVersion,
      updateConfig: { maxUnavailable: options.maxUnavailable ?? 1 },
      nodeRoleArn: nodeRole.arn,
      subnetIds: [...(subnetIds ?? cluster.nodeSubnetIds)],
      amiType: os.amiType,
      // The spec requires machineTypes (or its deprecated name).
      instanceTypes: [...machineTypes!],
      scalingConfig: { minSize, desiredSize, maxSize },
      launchTemplate: { id: launchTemplate.id, version: Token.asString(launchTemplate.latestVersion) },
      labels: labels === undefined ? undefined : { ...labels },
      taint: os.taints,
      // Nodes become Ready only with the CNI and kube-proxy, and join only once their role has its policies.
      dependsOn: [cluster.vpcCni, cluster.kubeProxy, ...nodeRole.attachments],
      // The cluster autoscaler (or a person) changes the desired size of an autoscaled group; the next
      // apply should not reset it (see manageDesiredNodes for what that costs when minNodes rises).
      lifecycle: managed && !replace ? undefined : {
        ignoreChanges: managed ? undefined : ['scaling_config[0].desired_size'],
        createBeforeDestroy: replace || undefined,
      },
    });
    nodeRole.addNodeGroup(this, nodeGroup, name, os.windowsVersion !== undefined);
    return { resources: { nodeGroup, launchTemplate, nodeRole }, judged: [nodeGroup, launchTemplate] };
  }

  protected propsOfFields(): PropsOfFields {
    return PROPS_OF_FIELDS;
  }
}
