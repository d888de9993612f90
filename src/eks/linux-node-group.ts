import { Construct } from 'constructs';
import { propsSpec } from '../core/props-spec';
import { fail } from '../core/errors';
import { InstanceType } from '../platform/instance-type';
import { EKS_LINUX_AMI_TYPES } from '../platform/eks';
import type { HybridEksCluster } from './eks-cluster';
import { EKS_NODE_GROUP_OPTIONS, EksNodeGroupOptions, NodeGroupParts, createNodeGroup } from './node-group';
import { dependable } from '../terraform/providers/aws';

/** Props of `EksLinuxNodeGroup`: those of every managed node group; the AMI type follows the instance types' architecture. */
export type EksLinuxNodeGroupProps = EksNodeGroupOptions;

/**
 * The spec of `EksLinuxNodeGroupProps`.
 * @internal
 */
export const EKS_LINUX_NODE_GROUP_PROPS = propsSpec<EksLinuxNodeGroupProps>('EksLinuxNodeGroup', EKS_NODE_GROUP_OPTIONS);

/**
 * A managed node group of Amazon Linux 2023 nodes, x86_64 or Graviton after the instance types.
 * CoreDNS runs here: a cluster with Windows node groups needs one with `minSize >= 1`, and the
 * coredns add-on waits for these groups.
 */
export class EksLinuxNodeGroup extends Construct {
  /** The node group, its launch template and its role, for their attributes and for escape hatches. */
  public readonly parts: NodeGroupParts;

  public constructor(cluster: HybridEksCluster, id: string, given: EksLinuxNodeGroupProps) {
    super(cluster, id);
    const props = EKS_LINUX_NODE_GROUP_PROPS.parse(this.node.path, given);
    // The AMI type follows the first instance type; the rules refuse types of another architecture.
    const arch = props.instanceTypes.map((name) => {
      const type = InstanceType.parse(name);
      return typeof type === 'string' ? fail(this, `instanceTypes: ${type}`, 'name an EC2 instance type such as m7i.large') : type.arch;
    })[0];
    this.parts = createNodeGroup(this, cluster, props, {
      amiType: EKS_LINUX_AMI_TYPES[arch ?? 'amd64'],
      rootDevice: '/dev/xvda',
      defaultDiskSizeGiB: 20,
    });
    cluster.coreDns.dependsOn = [...(cluster.coreDns.dependsOn ?? []), dependable(this.parts.nodeGroup)];
  }
}
