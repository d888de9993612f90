import { Construct } from 'constructs';
import { PolicyDocument, controlPlanePolicy, controllersPolicy, nodesPolicy } from './iam-policies';
import { fail } from '../core/errors';
import { flag, optional, propsSpec, required, text } from '../core/props-spec';
import { IamInstanceProfile, IamPolicy, IamRole, IamRolePolicyAttachment } from '../terraform/providers/aws';

/** The suffix clusterawsadm gives every role, policy and instance profile it creates. */
export const CAPA_IAM_SUFFIX = '.cluster-api-provider-aws.sigs.k8s.io';

/** IAM limits role and instance profile names to 64 characters of this alphabet. */
const IAM_NAME_PATTERN = /^[\w+=,.@-]*$/;
const IAM_NAME_MAX = 64;

/** Props of `ClusterApiIam`. */
export interface ClusterApiIamProps {
  /**
   * Prepended to every name (`<prefix>control-plane.cluster-api-provider-aws.sigs.k8s.io`) so
   * that several clusters, or several management clusters, can share one account.
   * @default '' - clusterawsadm's own names
   */
  readonly namePrefix?: string;
  /** AWS partition (`aws`, `aws-cn`, `aws-us-gov`) for the ARNs in the policies. */
  readonly partition: string;
  /**
   * Also give the control-plane role the CAPA controllers policy, as clusterawsadm does, so that
   * the cluster can run its own Cluster API controllers after `clusterctl move` (a self-hosted
   * management cluster). That policy runs and terminates instances and passes the cluster's
   * roles; with `enableWorker`, any hostNetwork pod on a controller could use it through the
   * instance metadata service. Turn it on only when you move the management cluster there.
   * @default false
   */
  readonly selfHostedManagement?: boolean;
}

/**
 * The spec of `ClusterApiIamProps`; the construct judges the names the prefix makes.
 * @internal
 */
export const CLUSTER_API_IAM_PROPS = propsSpec<ClusterApiIamProps>('ClusterApiIam', {
  namePrefix: optional(text({ max: IAM_NAME_MAX, min: 0, form: 'an IAM name prefix', example: 'aws-test-' })),
  partition: required(text({ max: 64, form: 'an AWS partition', example: 'aws' }), 'give the partition, e.g. new DataAwsPartition(scope, id).partition'),
  selfHostedManagement: optional(flag()),
});

/**
 * The roles, managed policies and instance profiles `clusterawsadm bootstrap iam
 * create-cloudformation-stack` creates for `control-plane`, `nodes` and `controllers` (EKS off).
 * The control-plane role carries the nodes policy too (controllers may run workloads with
 * `enableWorker`); unlike clusterawsadm, it gets the controllers policy only with
 * `selfHostedManagement`.
 */
export class ClusterApiIam extends Construct {
  /** `control-plane`: the control-plane machines' role, with the control-plane and nodes policies (and the controllers policy with `selfHostedManagement`). */
  public readonly controlPlaneRole: IamRole;
  /** `nodes`: the worker machines' role, Linux and Windows, with the nodes policy. */
  public readonly nodesRole: IamRole;
  /** `controllers`: the role of a management cluster on EC2 that runs the CAPA controllers, with the controllers policy. */
  public readonly controllersRole: IamRole;
  /** The instance profile of `controlPlaneRole`, which the control plane's `AWSMachineTemplate` names. */
  public readonly controlPlaneInstanceProfile: IamInstanceProfile;
  /** The instance profile of `nodesRole`, which the worker pools' `AWSMachineTemplate`s name. */
  public readonly nodesInstanceProfile: IamInstanceProfile;
  /** The instance profile of `controllersRole`, for a management cluster's own EC2 machines. */
  public readonly controllersInstanceProfile: IamInstanceProfile;

  public constructor(scope: Construct, id: string, given: ClusterApiIamProps) {
    super(scope, id);
    const props = CLUSTER_API_IAM_PROPS.parse(this.node.path, given);
    const prefix = props.namePrefix ?? '';
    const name = (base: string): string => `${prefix}${base}${CAPA_IAM_SUFFIX}`;
    const longest = name('control-plane');
    if (!IAM_NAME_PATTERN.test(prefix) || longest.length > IAM_NAME_MAX) {
      fail(this, `iamNamePrefix "${prefix}" makes "${longest}" (${longest.length} characters); IAM names allow at most ${IAM_NAME_MAX} of letters, digits and +=,.@_-`,
        `use a prefix of at most ${IAM_NAME_MAX - longest.length + prefix.length} such characters`);
    }

    this.controlPlaneRole = this.role('ControlPlaneRole', name('control-plane'));
    this.nodesRole = this.role('NodesRole', name('nodes'));
    this.controllersRole = this.role('ControllersRole', name('controllers'));

    const controlPlane = this.policy('ControlPlanePolicy', name('control-plane'), 'For the Kubernetes Cloud Provider AWS Control Plane', controlPlanePolicy(props.partition));
    const nodes = this.policy('NodesPolicy', name('nodes'), 'For the Kubernetes Cloud Provider AWS nodes', nodesPolicy(props.partition));
    const controllers = this.policy(
      'ControllersPolicy',
      name('controllers'),
      'For the Kubernetes Cluster API Provider AWS Controllers',
      controllersPolicy(props.partition, [this.controlPlaneRole.arn, this.nodesRole.arn]),
    );

    this.attach(this.controlPlaneRole, 'ControlPlane', props.selfHostedManagement ? [controlPlane, nodes, controllers] : [controlPlane, nodes]);
    this.attach(this.nodesRole, 'Nodes', [nodes]);
    this.attach(this.controllersRole, 'Controllers', [controllers]);

    this.controlPlaneInstanceProfile = this.instanceProfile('ControlPlaneInstanceProfile', this.controlPlaneRole);
    this.nodesInstanceProfile = this.instanceProfile('NodesInstanceProfile', this.nodesRole);
    this.controllersInstanceProfile = this.instanceProfile('ControllersInstanceProfile', this.controllersRole);
  }

  private role(id: string, name: string): IamRole {
    return new IamRole(this, id, {
      name,
      assumeRolePolicy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['ec2.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      }),
    });
  }

  /** Plain JSON so the synthesized document is the policy itself; only the partition is a token. */
  private policy(id: string, name: string, description: string, document: PolicyDocument): IamPolicy {
    return new IamPolicy(this, id, { name, description, policy: JSON.stringify(document) });
  }

  private attach(role: IamRole, roleId: string, policies: IamPolicy[]): void {
    for (const policy of policies) {
      new IamRolePolicyAttachment(this, `${roleId}${policy.node.id}`, { role: role.name, policyArn: policy.arn });
    }
  }

  private instanceProfile(id: string, role: IamRole): IamInstanceProfile {
    return new IamInstanceProfile(this, id, { name: role.name, role: role.name });
  }
}
