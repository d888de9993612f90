import { Construct, IConstruct } from 'constructs';
import { fail } from '../core/errors';
import { optional, propsSpec, required, text } from '../core/props-spec';
import { IAM_ROLE_NAME } from '../platform/aws';
import { sharedNodeRoleProblem } from '../platform/eks';
import { IamRole, IamRolePolicyAttachment, dependable } from '../terraform/providers/aws';
import type { EksAccessEntry, EksNodeGroup } from '../terraform/providers/aws';

/** Props of `EksNodeRole`. */
export interface EksNodeRoleProps {
  /** AWS partition (`aws`, `aws-cn`, `aws-us-gov`) of the managed policy ARNs. */
  readonly partition: string;
  /**
   * The role's name, where something outside Terraform names it (Karpenter's EC2NodeClass `role`).
   * @default - a name Terraform makes unique
   */
  readonly roleName?: string;
}

/**
 * The spec of `EksNodeRoleProps`.
 * @internal
 */
export const EKS_NODE_ROLE_PROPS = propsSpec<EksNodeRoleProps>('EksNodeRole', {
  partition: required(text({ max: 64, form: 'an AWS partition', example: 'aws' }), 'give the partition, e.g. cluster.partition'),
  roleName: optional(text({ max: 64, pattern: IAM_ROLE_NAME, form: 'an IAM role name', example: 'KarpenterNodeRole-shop' })),
});

/**
 * The AWS managed policies of an EKS node role (EKS User Guide, create-node-role.adoc): the
 * kubelet's EC2 and EKS calls, image pulls from ECR, and the VPC CNI's ENI calls on Linux
 * (Windows pod addresses come from the VPC resource controller in the control plane, but a role
 * shared with Linux groups needs it, so every role gets it).
 */
export const EKS_NODE_POLICIES = ['AmazonEKSWorkerNodePolicy', 'AmazonEC2ContainerRegistryReadOnly', 'AmazonEKS_CNI_Policy'] as const;

/**
 * An IAM role for EKS managed node groups. Each node group creates its own unless given one, and
 * a role serves node groups of one OS (`sharedNodeRoleProblem`). EKS creates an `EC2_LINUX`
 * access entry for the role of a Linux group; a Windows group creates the role's `EC2_WINDOWS`
 * entry itself (`HybridEksCluster.addNodeAccessEntry`).
 */
export class EksNodeRole extends Construct {
  /** The IAM role, which EC2 may assume, with `EKS_NODE_POLICIES` attached. */
  public readonly role: IamRole;
  /** Node groups depend on these, so that no node boots before its role may join the cluster. */
  public readonly attachments: readonly IamRolePolicyAttachment[];
  /** The role's access entry in each cluster (an IAM principal can be in one entry per cluster). */
  private readonly entries = new Map<IConstruct, EksAccessEntry>();
  private readonly groups: Array<{ readonly group: EksNodeGroup; readonly name: string; readonly windows: boolean }> = [];

  public constructor(scope: Construct, id: string, given: EksNodeRoleProps) {
    super(scope, id);
    const props = EKS_NODE_ROLE_PROPS.parse(this.node.path, given);
    this.role = new IamRole(this, 'Role', {
      name: props.roleName,
      assumeRolePolicy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['ec2.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      }),
    });
    this.attachments = EKS_NODE_POLICIES.map(
      (policy) => new IamRolePolicyAttachment(this, policy, { role: this.role.name, policyArn: `arn:${props.partition}:iam::aws:policy/${policy}` }),
    );
  }

  /** The role's ARN. */
  public get arn(): string {
    return this.role.arn;
  }

  /** The role's access entry in `cluster`, if it has one (see `HybridEksCluster.addNodeAccessEntry`). */
  public accessEntryIn(cluster: IConstruct): EksAccessEntry | undefined {
    return this.entries.get(cluster);
  }

  /**
   * Records the role's entry in `cluster`; every node group of this role waits for it.
   * @internal
   */
  public addAccessEntry(cluster: IConstruct, entry: EksAccessEntry): void {
    this.entries.set(cluster, entry);
    this.groups.forEach(({ group }) => dependOn(group, entry));
  }

  /**
   * Called by the node groups that use this role, with the group's name and OS.
   * @throws HybridConfigError, naming `scope`, when the role already serves groups of the other OS
   * @internal
   */
  public addNodeGroup(scope: IConstruct, group: EksNodeGroup, name: string, windows: boolean): void {
    const others = this.groups.filter((g) => g.windows !== windows).map((g) => g.name);
    if (others.length > 0) {
      const { what, fix } = sharedNodeRoleProblem(this.node.path, windows ? others : [name], windows ? [name] : others);
      fail(scope, `nodeRole: ${what}`, fix);
    }
    this.groups.push({ group, name, windows });
    this.entries.forEach((entry) => dependOn(group, entry));
  }
}

function dependOn(group: EksNodeGroup, entry: EksAccessEntry): void {
  group.dependsOn = [...(group.dependsOn ?? []), dependable(entry)];
}
