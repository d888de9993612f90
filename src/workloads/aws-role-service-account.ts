import { Construct } from 'constructs';
import { kplus } from './cdk8s-plus';
import { fail } from '../core/errors';
import { IRSA_ROLE_ANNOTATION } from '../platform/eks';

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
 * A service account whose pods assume an IAM role through IRSA: the `eks.amazonaws.com/role-arn`
 * annotation, from which the EKS pod identity webhook gives every pod of the service account the
 * projected token and `AWS_ROLE_ARN`/`AWS_WEB_IDENTITY_TOKEN_FILE` (aws/amazon-eks-pod-identity-webhook,
 * README "EKS Walkthrough"). The webhook mutates pods by their service account, whatever their
 * OS, and no node agent is involved, so Windows pods get credentials this way
 * (`PodCredentialMechanism`). Pass it as a workload's `serviceAccount`.
 */
export function awsRoleServiceAccount(scope: Construct, id: string, props: AwsRoleServiceAccountProps): kplus.ServiceAccount {
  if (!/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/.test(props.roleArn)) {
    fail(scope, `roleArn "${props.roleArn}" is not an IAM role ARN`, 'give arn:<partition>:iam::<account id>:role/<roleName>, e.g. the ServiceAccountRole\'s roleName in your account');
  }
  return new kplus.ServiceAccount(scope, id, {
    metadata: { name: props.name, namespace: props.namespace, annotations: { [IRSA_ROLE_ANNOTATION]: props.roleArn } },
    automountToken: false,
  });
}
