import { Construct } from 'constructs';
import { fail } from '../core/errors';
import { choice, flag, list, optional, propsSpec, required, text } from '../core/props-spec';
import { IAM_ROLE_NAME, iamRoleNameProblem } from '../platform/aws';
import { dnsLabelProblem } from '../platform/dns';
import { dnsSubdomainProblem } from '../platform/object-meta';
import { POD_IDENTITY_WINDOWS_PROBLEM, PodCredentialMechanism } from '../platform/eks';
import type { HybridEksCluster } from './eks-cluster';
import { EksPodIdentityAssociation, IamRole, IamRolePolicyAttachment } from '../terraform/providers/aws';

/** Props of `ServiceAccountRole`. */
export interface ServiceAccountRoleProps {
  /** Namespace of the service account. */
  readonly namespace: string;
  /** Name of the service account whose pods get the role. */
  readonly serviceAccount: string;
  /**
   * Whether the service account's pods run on Windows nodes: Pod Identity is refused for them.
   * @default false
   */
  readonly windows?: boolean;
  /**
   * How the pods get the role.
   * @default - IRSA when `podCredentials.irsa` is on, else Pod Identity when it is on
   */
  readonly mechanism?: PodCredentialMechanism;
  /**
   * ARNs of the IAM policies to attach to the role.
   * @default - none: attach your own to `role`
   */
  readonly policyArns?: readonly string[];
  /**
   * The IAM role name, so that the role's ARN is known before the apply (the service account's
   * `eks.amazonaws.com/role-arn` annotation names it). 64 characters at most.
   * @default `<cluster>-<namespace>-<serviceAccount>`
   */
  readonly roleName?: string;
}

/** IAM policy ARNs (IAM User Guide, reference_identifiers ARNs): `arn:<partition>:iam::<account or aws>:policy/<path and name>`. */
const IAM_POLICY_ARN = /^arn:aws(?:-[a-z-]+)?:iam::(?:aws|\d{12}):policy\/[\w+=,.@/-]+$/;

/** The consequence of a namespace or account name Kubernetes refuses: the token's sub names a real one. */
const NO_TOKEN = 'so no service account token names it and the role\'s trust matches none';

/**
 * The spec of `ServiceAccountRoleProps`. The token's sub is `system:serviceaccount:<namespace>:<name>`
 * of a real namespace (a DNS label) and service account (a DNS subdomain: kubernetes
 * pkg/apis/core/validation ValidateNamespaceName, ValidateServiceAccountName): a condition on any
 * other string matches no token, and the pods never get the role.
 * @internal
 */
export const SERVICE_ACCOUNT_ROLE_PROPS = propsSpec<ServiceAccountRoleProps>('ServiceAccountRole', {
  namespace: required(text({
    max: 63, form: 'a namespace name (a DNS label)', example: 'shop', fix: 'give the namespace as Kubernetes names it, e.g. shop',
    problem: (namespace) => { const p = dnsLabelProblem(namespace); return p && `${p}, ${NO_TOKEN}`; },
  }), 'give the namespace of the service account, e.g. shop'),
  serviceAccount: required(text({
    max: 253, form: 'a service account name (a DNS subdomain)', example: 'iis', fix: 'give the service account\'s name, e.g. iis',
    problem: (name) => { const p = dnsSubdomainProblem(name); return p && `${p}, ${NO_TOKEN}`; },
  }), 'give the service account\'s name, e.g. iis'),
  windows: optional(flag()),
  mechanism: optional(choice(PodCredentialMechanism, 'PodCredentialMechanism')),
  policyArns: optional(list(text({
    max: 2048, form: 'an IAM policy ARN', example: 'arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess',
    problem: (arn) => IAM_POLICY_ARN.test(arn) ? undefined : {
      what: 'is not an IAM policy ARN',
      fix: /^[\w+=,.@-]+$/.test(arn)
        ? `write the ARN: arn:aws:iam::aws:policy/${arn} for an AWS managed policy, arn:aws:iam::<account>:policy/${arn} for one of yours`
        : 'give arn:<partition>:iam::<account or aws>:policy/<name>',
    },
  }))),
  roleName: optional(text({ max: 64, pattern: IAM_ROLE_NAME, form: 'an IAM role name (IAM CreateRole: letters, digits and +=,.@_-)', example: 'shop-iis', fix: 'give at most 64 letters, digits and +=,.@_-' })),
});

/**
 * An IAM role that one Kubernetes service account's pods assume: through IRSA (a trust policy for
 * the cluster's OIDC provider, limited to `system:serviceaccount:<namespace>:<name>` and the
 * audience `sts.amazonaws.com`) or through Pod Identity (a trust policy for
 * `pods.eks.amazonaws.com` and an `aws_eks_pod_identity_association`). Create it with
 * `new ServiceAccountRole(cluster, id, props)`.
 */
export class ServiceAccountRole extends Construct {
  /** The IAM role. */
  public readonly role: IamRole;
  /** The role name, fixed before the apply. */
  public readonly roleName: string;
  /** How the pods get it. */
  public readonly mechanism: PodCredentialMechanism;
  /** The Pod Identity association, with `PodCredentialMechanism.POD_IDENTITY`. */
  public readonly association?: EksPodIdentityAssociation;

  public constructor(cluster: HybridEksCluster, id: string, given: ServiceAccountRoleProps) {
    super(cluster, id);
    const props = SERVICE_ACCOUNT_ROLE_PROPS.parse(this.node.path, given);
    const mechanism = props.mechanism
      ?? (cluster.oidcProvider !== undefined ? PodCredentialMechanism.IRSA : cluster.podIdentityAgent !== undefined ? PodCredentialMechanism.POD_IDENTITY : undefined);
    if (mechanism === undefined) {
      fail(this, 'the cluster sets up no way to give pods AWS credentials', 'set podCredentials: { irsa: true } on the cluster (or podIdentity: true for Linux pods only)');
    }
    if (mechanism === PodCredentialMechanism.POD_IDENTITY && props.windows === true) fail(this, `mechanism ${mechanism}: ${POD_IDENTITY_WINDOWS_PROBLEM.what}`, POD_IDENTITY_WINDOWS_PROBLEM.fix);
    if (mechanism === PodCredentialMechanism.IRSA && cluster.oidcProvider === undefined) {
      fail(this, 'mechanism irsa, and the cluster has no IAM OIDC provider', 'set podCredentials: { irsa: true } on the cluster');
    }
    if (mechanism === PodCredentialMechanism.POD_IDENTITY && cluster.podIdentityAgent === undefined) {
      // An association without the agent gives the pods environment variables pointing at a
      // link-local address nothing listens on (pod-identities.adoc: "The EKS Pod Identity Agent is required").
      fail(this, 'mechanism pod-identity, and the cluster has no eks-pod-identity-agent add-on', 'set podCredentials: { podIdentity: true } on the cluster');
    }
    this.mechanism = mechanism;
    this.roleName = props.roleName ?? `${cluster.clusterName}-${props.namespace}-${props.serviceAccount}`;
    if (!IAM_ROLE_NAME.test(this.roleName)) {
      fail(this, `the role name made of the cluster, namespace and serviceAccount, "${this.roleName}", ${iamRoleNameProblem(this.roleName)}`, 'give roleName, at most 64 letters, digits and +=,.@_-');
    }
    const policyArns = props.policyArns ?? [];

    const subject = `system:serviceaccount:${props.namespace}:${props.serviceAccount}`;
    const statement = mechanism === PodCredentialMechanism.IRSA
      ? {
        // EKS User Guide, associate-service-account-role.adoc: the provider's ARN as the federated
        // principal, and the issuer without https:// as the prefix of the sub and aud conditions.
        Effect: 'Allow',
        Principal: { Federated: cluster.oidcProvider!.arn },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: { StringEquals: { [`${cluster.oidcIssuerHost}:sub`]: subject, [`${cluster.oidcIssuerHost}:aud`]: 'sts.amazonaws.com' } },
      }
      : {
        // pod-identities.adoc: the one service principal, and sts:TagSession for the session tags EKS adds.
        Effect: 'Allow',
        Principal: { Service: 'pods.eks.amazonaws.com' },
        Action: ['sts:AssumeRole', 'sts:TagSession'],
      };
    this.role = new IamRole(this, 'Role', { name: this.roleName, assumeRolePolicy: JSON.stringify({ Version: '2012-10-17', Statement: [statement] }) });
    policyArns.forEach((policyArn, i) => new IamRolePolicyAttachment(this, `Policy${i}`, { role: this.role.name, policyArn }));
    if (mechanism === PodCredentialMechanism.POD_IDENTITY) {
      this.association = new EksPodIdentityAssociation(this, 'Association', {
        clusterName: cluster.cluster.name,
        namespace: props.namespace,
        serviceAccount: props.serviceAccount,
        roleArn: this.role.arn,
        dependsOn: [cluster.podIdentityAgent!],
      });
    }
  }

  /** The role's ARN (a Terraform reference). */
  public get arn(): string {
    return this.role.arn;
  }
}
