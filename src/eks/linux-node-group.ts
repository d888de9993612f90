import { fail } from '../core/errors';
import { InstanceType } from '../platform/instance-type';
import { EKS_LINUX_AMI_TYPES } from '../platform/eks';
import type { HybridEksCluster } from './eks-cluster';
import { EKS_NODE_GROUP_OPTIONS, EksNodeGroupBase, EksNodeGroupOptions, EksOsPart, eksNodeGroupSpec } from './node-group';
import { dependable } from '../terraform/providers/aws';

/** Props of `EksLinuxNodeGroup`: those of every managed node group; the AMI type follows the instance types' architecture. */
export type EksLinuxNodeGroupProps = EksNodeGroupOptions;

/**
 * The spec of `EksLinuxNodeGroupProps`.
 * @internal
 */
export const EKS_LINUX_NODE_GROUP_PROPS = eksNodeGroupSpec<EksLinuxNodeGroupProps>('EksLinuxNodeGroup', EKS_NODE_GROUP_OPTIONS);

/**
 * A managed node group of Amazon Linux 2023 nodes, x86_64 or Graviton after the instance types.
 * CoreDNS runs here: a cluster with Windows node groups needs one with `minNodes >= 1`, and the
 * coredns add-on waits for these groups.
 */
export class EksLinuxNodeGroup extends EksNodeGroupBase<EksLinuxNodeGroupProps> {
  public constructor(cluster: HybridEksCluster, id: string, props: EksLinuxNodeGroupProps) {
    super(cluster, id, EKS_LINUX_NODE_GROUP_PROPS, props);
    cluster.coreDns.dependsOn = [...(cluster.coreDns.dependsOn ?? []), dependable(this.resources.nodeGroup)];
  }

  protected osPart(props: EksLinuxNodeGroupProps): EksOsPart {
    // The AMI type follows the first instance type; the rules refuse types of another architecture.
    const arch = props.machineTypes!.map((name) => {
      const type = InstanceType.parse(name);
      return typeof type === 'string' ? fail(this, `machineTypes: ${type}`, 'name an EC2 instance type such as m7i.large') : type.arch;
    })[0];
    return { amiType: EKS_LINUX_AMI_TYPES[arch ?? 'amd64'], rootDevice: '/dev/xvda', defaultDiskSizeGiB: 20 };
  }
}
