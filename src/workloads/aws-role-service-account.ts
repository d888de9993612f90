import { Construct } from 'constructs';
import { kplus } from './cdk8s-plus';
import { optional, propsSpec, required, text } from '../core/props-spec';
import { dnsLabelProblem } from '../platform/dns';
import { IRSA_ROLE_ANNOTATION } from '../platform/eks';
import { dnsSubdomainProblem } from '../platform/object-meta';

/** Props of `awsRoleServiceAccount`. */
export interface AwsRoleServiceAccountProps {
  /** The service account's name: the one the role trusts (`ServiceAccountRole` `serviceAccount`). */
  readonly name: string;
  /**
   * Its namespace: the one the role trusts.
   * @default - the chart's
   */
  readonly namespace?: string;
  /**
   * The ARN of the IAM role (`ServiceAccountRole`: `arn:<partition>:iam::<account>:role/<roleName>`,
   * or the Terraform output of its `arn`). Only for IRSA: a Pod Identity association needs no
   * annotation.
   */
  readonly roleArn: string;
}

/**
 * The spec of `AwsRoleServiceAccountProps`: a service account's name is a DNS subdomain, its
 * namespace a DNS label (kubernetes pkg/apis/core/validation ValidateServiceAccountName,
 * ValidateNamespaceName); the annotation an IAM role ARN the pod identity webhook hands to the SDKs
 * as `AWS_ROLE_ARN`, which STS AssumeRoleWithWebIdentity refuses unless it is one.
 * @internal
 */
export const AWS_ROLE_SERVICE_ACCOUNT_PROPS = propsSpec<AwsRoleServiceAccountProps>('AwsRoleServiceAccountProps', {
  name: required(text({ max: 253, form: 'a service account name (a DNS subdomain)', example: 'iis', problem: dnsSubdomainProblem }), 'give the service account\'s name, the one the role trusts'),
  namespace: optional(text({ max: 63, form: 'a namespace name (a DNS label)', example: 'shop', problem: dnsLabelProblem })),
  roleArn: required(text({
    max: 2048, pattern: /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/, form: 'an IAM role ARN',
    fix: 'give arn:<partition>:iam::<account id>:role/<roleName>, e.g. the ServiceAccountRole\'s roleName in your account',
  }), 'give the ARN of the IAM role, e.g. the ServiceAccountRole\'s arn'),
});

/**
 * A service account whose pods assume an IAM role through IRSA: the `eks.amazonaws.com/role-arn`
 * annotation, from which the EKS pod identity webhook gives every pod of the service account the
 * projected token and `AWS_ROLE_ARN`/`AWS_WEB_IDENTITY_TOKEN_FILE` (aws/amazon-eks-pod-identity-webhook,
 * README "EKS Walkthrough"). The webhook mutates pods by their service account, whatever their
 * OS, and no node agent is involved, so Windows pods get credentials this way
 * (`PodCredentialMechanism`). Pass it as a workload's `serviceAccount`.
 */
export function awsRoleServiceAccount(scope: Construct, id: string, given: AwsRoleServiceAccountProps): kplus.ServiceAccount {
  // Errors name the service account about to be made, `<scope>/<id>`.
  const props = AWS_ROLE_SERVICE_ACCOUNT_PROPS.parse(`${scope.node.path}/${id}`, given);
  return new kplus.ServiceAccount(scope, id, {
    metadata: { name: props.name, namespace: props.namespace, annotations: { [IRSA_ROLE_ANNOTATION]: props.roleArn } },
    automountToken: false,
  });
}
