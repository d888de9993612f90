import { Construct } from 'constructs';
import { fail } from '../core/errors';
import { NodeAccessEntryType } from '../platform/eks';
import type { HybridEksCluster } from './eks-cluster';
import { EksNodeRole } from './node-role';
import type { EksAccessEntry } from '../terraform/providers/aws';

/** Props of `KarpenterWindowsNodeRole`. */
export interface KarpenterWindowsNodeRoleProps {
  /**
   * The IAM role name, which the EC2NodeClass names (`KarpenterWindowsNodePool` `role`): 1 to 64
   * letters, digits and `+=,.@_-`.
   * @default - `<cluster>-<id>`
   */
  readonly roleName?: string;
}

/** IAM role names (IAM CreateRole `RoleName`: `[\w+=,.@-]+`, 1 to 64 characters). */
const ROLE_NAME = /^[\w+=,.@-]{1,64}$/;

/**
 * The node role of the Windows nodes Karpenter launches in a `HybridEksCluster`, with its
 * `EC2_WINDOWS` access entry: Karpenter's nodes join through the role's access entry, not a
 * managed node group, and Windows nodes need `EC2_WINDOWS` for the `eks:kube-proxy-windows` group
 * (EKS User Guide, grant-k8s-access.adoc). A role of its own: a role has one entry per cluster,
 * and Linux nodes need `EC2_LINUX`. With it the cluster's Windows rules hold for these nodes too
 * (a Linux node group for CoreDNS, IPv4, Windows IPAM, no custom networking).
 */
export class KarpenterWindowsNodeRole extends Construct {
  /** The role (EKS_NODE_POLICIES attached). */
  public readonly nodeRole: EksNodeRole;
  /** Its `EC2_WINDOWS` access entry in the cluster. */
  public readonly accessEntry: EksAccessEntry;
  /** The role's name: the EC2NodeClass's `spec.role`. */
  public readonly roleName: string;

  public constructor(cluster: HybridEksCluster, id: string, props: KarpenterWindowsNodeRoleProps = {}) {
    super(cluster, id);
    this.roleName = props.roleName ?? `${cluster.clusterName}-${id}`;
    if (!ROLE_NAME.test(this.roleName)) {
      fail(this, `roleName "${this.roleName}" is not 1 to 64 letters, digits and +=,.@_- (IAM CreateRole)`, 'give a shorter roleName');
    }
    this.nodeRole = new EksNodeRole(this, 'NodeRole', { partition: cluster.partition, roleName: this.roleName });
    this.accessEntry = cluster.addNodeAccessEntry(`${id}AccessEntry`, this.nodeRole, NodeAccessEntryType.EC2_WINDOWS);
  }
}
