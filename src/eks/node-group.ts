import { EksNodeGroup, EksNodeGroupTaint } from '@cdktf/provider-aws/lib/eks-node-group';
import { LaunchTemplate } from '@cdktf/provider-aws/lib/launch-template';
import { Construct } from 'constructs';
import { fail } from '../platform/errors';
import { integerProblem } from '../platform/numbers';
import { parseEksWindowsAmiType } from './ami-type';
import { Token } from './cdktf';
import type { HybridEksCluster } from './eks-cluster';
import { EksNodeRole } from './node-role';

/** What Linux and Windows managed node groups share. */
export interface EksNodeGroupOptions {
  /** EC2 instance types, e.g. `['m6i.xlarge']`; several give the group more capacity to draw on. */
  readonly instanceTypes: readonly string[];
  /**
   * The fewest nodes the group keeps. A cluster with Windows node groups needs a Linux group with
   * `minSize >= 1`, for CoreDNS.
   * @default 1
   */
  readonly minSize?: number;
  /**
   * The nodes the group starts with. Later applies leave it as the cluster autoscaler (or a
   * person) set it: Terraform ignores changes to it.
   * @default - minSize
   */
  readonly desiredSize?: number;
  /**
   * The most nodes the group may scale to.
   * @default - the larger of desiredSize and 1
   */
  readonly maxSize?: number;
  /**
   * Subnets for the nodes.
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
   * Kubernetes labels of the nodes.
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * The EKS node group name.
   * @default - the construct id
   */
  readonly nodeGroupName?: string;
}

/**
 * What the operating system decides.
 * @internal
 */
export interface NodeGroupPlatform {
  readonly amiType: string;
  /** The AMI's root device name. */
  readonly rootDevice: string;
  readonly defaultDiskSizeGiB: number;
  readonly taints?: EksNodeGroupTaint[];
  /** Base64 user data, or undefined for none. */
  readonly userData?: string;
}

/** The resources of one managed node group. */
export interface NodeGroupParts {
  /** The `aws_eks_node_group` resource. */
  readonly nodeGroup: EksNodeGroup;
  /** Its launch template: no AMI id (EKS picks it from the AMI type), IMDSv2 only, an encrypted gp3 root volume, and the user data. */
  readonly launchTemplate: LaunchTemplate;
  /** Its node role: `nodeRole`, or the one the group created. */
  readonly nodeRole: EksNodeRole;
}

// EKS CreateNodegroup nodegroupName: 1-63 characters, a letter or digit first, then letters, digits, - and _.
const NODE_GROUP_NAME = /^[0-9A-Za-z][A-Za-z0-9\-_]{0,62}$/;

/**
 * A launch template without an AMI id (EKS picks the AMI from the AMI type and adds its own
 * bootstrap to the user data) that requires IMDSv2 and encrypts the root volume, and the managed
 * node group that uses it. Used by `EksLinuxNodeGroup` and `EksWindowsNodeGroup`.
 * @internal
 */
export function createNodeGroup(scope: Construct, cluster: HybridEksCluster, options: EksNodeGroupOptions, platform: NodeGroupPlatform): NodeGroupParts {
  const name = options.nodeGroupName ?? scope.node.id;
  if (!NODE_GROUP_NAME.test(name)) fail(scope, `node group name "${name}" is not valid for EKS`, 'use 1 to 63 letters, digits, - and _, starting with a letter or digit (nodeGroupName)');
  if (options.instanceTypes.length === 0) fail(scope, 'instanceTypes is empty', "name at least one instance type, e.g. ['m6i.xlarge']");
  const minSize = options.minSize ?? 1;
  const desiredSize = options.desiredSize ?? minSize;
  const maxSize = options.maxSize ?? Math.max(desiredSize, 1);
  const sizes = { minSize, desiredSize, maxSize };
  for (const [prop, value] of Object.entries(sizes)) {
    const why = integerProblem(value);
    if (why) fail(scope, `${prop} ${why}`, `set ${prop} to a whole number, 0 or more`);
  }
  if (!(minSize <= desiredSize && desiredSize <= maxSize) || maxSize < 1) {
    fail(scope, `minSize ${minSize}, desiredSize ${desiredSize} and maxSize ${maxSize} are out of order`, 'keep minSize <= desiredSize <= maxSize and maxSize >= 1, as EKS requires');
  }
  const diskSizeGiB = options.diskSizeGiB ?? platform.defaultDiskSizeGiB;
  const diskProblem = integerProblem(diskSizeGiB, 1, 16384);
  if (diskProblem) fail(scope, `diskSizeGiB ${diskProblem}`, `use a gp3 size in GiB, e.g. ${platform.defaultDiskSizeGiB}`);

  const nodeRole = options.nodeRole ?? new EksNodeRole(scope, 'NodeRole', { partition: cluster.partition });
  const launchTemplate = new LaunchTemplate(scope, 'LaunchTemplate', {
    namePrefix: `${cluster.clusterName}-${name}-`,
    updateDefaultVersion: true,
    // IMDSv2 only. Hop limit 1 keeps pods in their own network namespace away from the node's
    // credentials; aws-node and kube-proxy use the host network, and on Windows the CNI runs on the host.
    metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: 1 },
    blockDeviceMappings: [{ deviceName: platform.rootDevice, ebs: { volumeSize: diskSizeGiB, volumeType: 'gp3', encrypted: 'true', deleteOnTermination: 'true' } }],
    userData: platform.userData,
  });
  const nodeGroup = new EksNodeGroup(scope, 'NodeGroup', {
    clusterName: cluster.cluster.name,
    nodeGroupName: name,
    nodeRoleArn: nodeRole.arn,
    subnetIds: [...(options.subnetIds ?? cluster.nodeSubnetIds)],
    amiType: platform.amiType,
    instanceTypes: [...options.instanceTypes],
    scalingConfig: sizes,
    launchTemplate: { id: launchTemplate.id, version: Token.asString(launchTemplate.latestVersion) },
    labels: options.labels,
    taint: platform.taints,
    // Nodes become Ready only with the CNI and kube-proxy, and join only once their role has its policies.
    dependsOn: [cluster.vpcCni, cluster.kubeProxy, ...nodeRole.attachments],
    // The cluster autoscaler (or a person) changes the desired size; the next apply should not reset it.
    lifecycle: { ignoreChanges: ['scaling_config[0].desired_size'] },
  });
  nodeRole.addNodeGroup(scope, nodeGroup, name, parseEksWindowsAmiType(platform.amiType) !== undefined);
  return { nodeGroup, launchTemplate, nodeRole };
}
