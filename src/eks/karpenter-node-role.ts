import { Construct } from 'constructs';
import { fail } from '../core/errors';
import { optional, propsSpec, text } from '../core/props-spec';
import { show } from '../core/values';
import { NodeAccessEntryType } from '../platform/eks';
import { IAM_ROLE_NAME, iamRoleNameProblem } from '../platform/aws';
import { KARPENTER_CONTROLLER } from '../platform/karpenter';
import type { HybridEksCluster } from './eks-cluster';
import { EksNodeRole } from './node-role';
import { DataAwsIamRole, IamRolePolicy } from '../terraform/providers/aws';
import type { EksAccessEntry } from '../terraform/providers/aws';

/** Props of `KarpenterWindowsNodeRole`. */
export interface KarpenterWindowsNodeRoleProps {
  /**
   * The IAM role name, which the EC2NodeClass names (`KarpenterWindowsNodePool` `role`): 1 to 64
   * letters, digits and `+=,.@_-`.
   * @default - `<cluster>-<id>`
   */
  readonly roleName?: string;
  /**
   * The IAM role Karpenter's controller runs as, which must be allowed to pass this role to EC2:
   * Karpenter adds the node role to the instance profile it makes for the EC2NodeClass, and its
   * documented controller policy passes only `KarpenterNodeRole-<cluster>`. This construct gives
   * the controller role an inline policy allowing `iam:PassRole` on this role alone.
   * @default - `<cluster>-karpenter`, the role Karpenter's getting-started guide creates
   */
  readonly controllerRoleName?: string;
}

/** An IAM role name as IAM CreateRole takes it. */
const ROLE_NAME = { max: 64, pattern: IAM_ROLE_NAME, form: 'an IAM role name (IAM CreateRole: letters, digits and +=,.@_-)' };

/**
 * The spec of `KarpenterWindowsNodeRoleProps`.
 * @internal
 */
export const KARPENTER_WINDOWS_NODE_ROLE_PROPS = propsSpec<KarpenterWindowsNodeRoleProps>('KarpenterWindowsNodeRole', {
  roleName: optional(text({ ...ROLE_NAME, example: 'KarpenterNodeRole-shop', fix: 'give a roleName of at most 64 letters, digits and +=,.@_-' })),
  controllerRoleName: optional(text({ ...ROLE_NAME, example: 'shop-karpenter', fix: 'give the name of the IAM role Karpenter\'s controller runs as (its service account\'s role, e.g. "<cluster>-karpenter")' })),
});

/**
 * The node role of the Windows nodes Karpenter launches in a `HybridEksCluster`, with its
 * `EC2_WINDOWS` access entry and the permission Karpenter's controller needs to pass it. Karpenter's
 * nodes join through the role's access entry, not a managed node group, and Windows nodes need
 * `EC2_WINDOWS` for the `eks:kube-proxy-windows` group (EKS User Guide, grant-k8s-access.adoc). A
 * role of its own: a role has one entry per cluster, and Linux nodes need `EC2_LINUX`. With it the
 * cluster's Windows rules hold for these nodes too (a Linux node group for CoreDNS, IPv4, Windows
 * IPAM, no custom networking).
 *
 * Karpenter builds the EC2NodeClass's instance profile from `spec.role` with
 * `iam:AddRoleToInstanceProfile` (aws/karpenter-provider-aws v1.14.1
 * pkg/providers/instanceprofile/instanceprofile.go), which IAM allows only to a caller that may
 * `iam:PassRole` the role; the controller policy Karpenter documents allows that on its own node
 * role only (website/content/en/docs/getting-started/getting-started-with-karpenter/cloudformation.yaml,
 * `AllowPassingInstanceRole`). So the construct reads the controller role (`data.aws_iam_role`: a
 * plan that cannot find it fails before anything is created) and puts an inline policy on it that
 * allows passing this role to EC2, with the same condition as Karpenter's own statement.
 */
export class KarpenterWindowsNodeRole extends Construct {
  /** The role (EKS_NODE_POLICIES attached). */
  public readonly nodeRole: EksNodeRole;
  /** Its `EC2_WINDOWS` access entry in the cluster. */
  public readonly accessEntry: EksAccessEntry;
  /** The role's name: the EC2NodeClass's `spec.role`. */
  public readonly roleName: string;
  /** The inline policy on Karpenter's controller role that lets it pass this role to EC2. */
  public readonly passRolePolicy: IamRolePolicy;

  public constructor(cluster: HybridEksCluster, id: string, given: KarpenterWindowsNodeRoleProps = {}) {
    super(cluster, id);
    const props = KARPENTER_WINDOWS_NODE_ROLE_PROPS.parse(this.node.path, given);
    // The names made of the cluster's name when not given: the cluster's name and the id are the user's.
    this.roleName = props.roleName ?? `${cluster.clusterName}-${id}`;
    if (!IAM_ROLE_NAME.test(this.roleName)) {
      fail(this, `the role name made of the cluster's name and the id, ${show(this.roleName)}, ${iamRoleNameProblem(this.roleName)}`, 'give a roleName, or a shorter id');
    }
    const controllerRoleName = props.controllerRoleName ?? KARPENTER_CONTROLLER.roleName(cluster.clusterName);
    if (!IAM_ROLE_NAME.test(controllerRoleName)) {
      fail(this, `the controller's role name made of the cluster's name, ${show(controllerRoleName)}, ${iamRoleNameProblem(controllerRoleName)}`, 'give controllerRoleName, the name of the IAM role Karpenter\'s controller runs as');
    }
    this.nodeRole = new EksNodeRole(this, 'NodeRole', { partition: cluster.partition, roleName: this.roleName });
    this.accessEntry = cluster.addNodeAccessEntry(`${id}AccessEntry`, this.nodeRole, NodeAccessEntryType.EC2_WINDOWS);
    const controller = new DataAwsIamRole(this, 'ControllerRole', { name: controllerRoleName });
    this.passRolePolicy = new IamRolePolicy(this, 'ControllerPassRole', {
      role: controller.name,
      name: `PassRole-${this.roleName}`,
      policy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [{
          Sid: 'AllowPassingWindowsInstanceRole',
          Effect: 'Allow',
          Action: 'iam:PassRole',
          Resource: this.nodeRole.arn,
          Condition: { StringEquals: { 'iam:PassedToService': [...KARPENTER_CONTROLLER.passedToServices] } },
        }],
      }),
    });
  }
}
