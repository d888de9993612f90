import { App, Chart } from 'cdk8s';
import { PodCredentialMechanism, ServiceAccountRole } from '../../src/eks';
import { WindowsWorkload, awsRoleServiceAccount } from '../../src/workloads';
import { only, synthObjects } from '../support/synth';
import { all, refTo, synthTf, thrownMessage } from '../support/tf';
import { hybridStack } from './fixture';
import { IamPolicy } from '../../src/terraform/providers/aws';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const ACCOUNT = '123456789012';

describe('pod credentials on EKS (issue 27.1)', () => {
  test('IRSA: a Windows workload\'s service account gets a role it can assume, in the Terraform JSON and the objects', () => {
    const { stack } = hybridStack({ podCredentials: { irsa: true } });
    const role = new ServiceAccountRole(stack.cluster, 'ShopRole', { namespace: 'shop', serviceAccount: 'web', windows: true, policyArns: ['arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess'] });
    expect(role.mechanism).toBe(PodCredentialMechanism.IRSA);
    const tf = synthTf(stack);

    // The provider: the cluster's issuer, the STS audience (enable-iam-roles-for-service-accounts.adoc).
    const [provider] = all(tf, 'aws_iam_openid_connect_provider');
    expect(provider.url).toBe(`\${${refTo(tf, 'aws_eks_cluster', () => true, 'identity').slice(2, -1)}[0].oidc[0].issuer}`);
    expect(provider.client_id_list).toEqual(['sts.amazonaws.com']);

    // The role: federated to that provider, for system:serviceaccount:shop:web only.
    const iamRole = all(tf, 'aws_iam_role').find((r) => r.name === 'eks-test-shop-web');
    // The condition keys hold a Terraform expression with quotes of its own, which Terraform
    // evaluates before IAM reads the JSON: stand in for it to parse the rest.
    const issuerHost = `\${replace(${refTo(tf, 'aws_eks_cluster', () => true, 'identity').slice(2, -1)}[0].oidc[0].issuer, "https://", "")}`;
    const [statement] = JSON.parse(iamRole.assume_role_policy.split(issuerHost).join('ISSUER')).Statement;
    expect(statement.Principal.Federated).toBe(refTo(tf, 'aws_iam_openid_connect_provider', () => true, 'arn'));
    expect(statement.Action).toBe('sts:AssumeRoleWithWebIdentity');
    const conditions = Object.entries(statement.Condition.StringEquals as Record<string, string>);
    expect(conditions).toEqual([['ISSUER:sub', 'system:serviceaccount:shop:web'], ['ISSUER:aud', 'sts.amazonaws.com']]);
    expect(all(tf, 'aws_iam_role_policy_attachment').some((a) => a.policy_arn === 'arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess' && a.role.includes('aws_iam_role.'))).toBe(true);

    // The objects: the Windows pods run as that service account, which names that role.
    const app = new App();
    const chart = new Chart(app, 'apps', { namespace: 'shop' });
    const serviceAccount = awsRoleServiceAccount(chart, 'web', { name: 'web', roleArn: `arn:aws:iam::${ACCOUNT}:role/${role.roleName}` });
    new WindowsWorkload(chart, 'iis', { image: IIS, serviceAccount });
    const objects = synthObjects(app);
    const sa = only(objects, 'ServiceAccount');
    const pod = only(objects, 'Deployment').spec.template.spec;
    expect([sa.metadata.namespace, sa.metadata.name]).toEqual(['shop', 'web']);
    expect(sa.metadata.annotations['eks.amazonaws.com/role-arn']).toBe(`arn:aws:iam::${ACCOUNT}:role/${iamRole.name}`);
    expect(pod.serviceAccountName).toBe('web');
    expect(pod.os.name).toBe('windows');
  });

  test('Pod Identity: the agent add-on, a role for pods.eks.amazonaws.com and the association, for Linux pods', () => {
    const { stack } = hybridStack({ podCredentials: { podIdentity: true } });
    new ServiceAccountRole(stack.cluster, 'Api', { namespace: 'shop', serviceAccount: 'api' });
    const tf = synthTf(stack);
    expect(all(tf, 'aws_eks_addon').map((a) => a.addon_name)).toContain('eks-pod-identity-agent');
    const iamRole = all(tf, 'aws_iam_role').find((r) => r.name === 'eks-test-shop-api');
    expect(JSON.parse(iamRole.assume_role_policy).Statement[0]).toEqual({ Effect: 'Allow', Principal: { Service: 'pods.eks.amazonaws.com' }, Action: ['sts:AssumeRole', 'sts:TagSession'] });
    const [association] = all(tf, 'aws_eks_pod_identity_association');
    expect([association.namespace, association.service_account, association.role_arn]).toEqual(['shop', 'api', refTo(tf, 'aws_iam_role', (r) => r.name === 'eks-test-shop-api', 'arn')]);
    expect(all(tf, 'aws_iam_openid_connect_provider')).toEqual([]);
  });

  test('Pod Identity for Windows pods is refused, citing the EKS User Guide', () => {
    const { stack } = hybridStack({ podCredentials: { irsa: true, podIdentity: true } });
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'Win', { namespace: 'shop', serviceAccount: 'web', windows: true, mechanism: PodCredentialMechanism.POD_IDENTITY })))
      .toMatch(/\[eks-test\/Cluster\/Win\] mechanism pod-identity: EKS Pod Identity gives no credentials to pods on Windows nodes \("Pods that run on Windows Amazon EC2 instances aren't supported", EKS User Guide, pod-identities\.adoc.*Fix: use PodCredentialMechanism\.IRSA/);
  });

  test('a role without the mechanism set up on the cluster is refused; none by default', () => {
    const { stack } = hybridStack();
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'R', { namespace: 'a', serviceAccount: 'b' }))).toMatch(/no way to give pods AWS credentials.*Fix: set podCredentials: \{ irsa: true \}/);
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'S', { namespace: 'a', serviceAccount: 'b', mechanism: PodCredentialMechanism.IRSA }))).toMatch(/no IAM OIDC provider/);
    const tf = synthTf(hybridStack().stack);
    expect(all(tf, 'aws_iam_openid_connect_provider')).toEqual([]);
    expect(all(tf, 'aws_eks_addon').map((a) => a.addon_name)).not.toContain('eks-pod-identity-agent');
  });

  test('a role name IAM would refuse is refused at construction, naming the props it was made of', () => {
    const { stack } = hybridStack({ podCredentials: { irsa: true } });
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'R', { namespace: 'n'.repeat(40), serviceAccount: 's'.repeat(30) })))
      .toMatch(/the role name made of the cluster, namespace and serviceAccount, "eks-test-n+-s+", has 80 characters.*Fix: give roleName/);
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'S', { namespace: 'a', serviceAccount: 'b', roleName: 'x'.repeat(65) }))).toMatch(/roleName: "x+"… \(65 characters\) is longer than 64 characters\. Fix: give at most 64/);
  });

  // EKS User Guide associate-service-account-role.adoc: the trust's sub condition is
  // system:serviceaccount:<namespace>:<name>, the sub of the pod's projected token; Kubernetes names
  // are lower case (namespaces DNS-1123 labels, service accounts DNS-1123 subdomains), so another
  // string matches no token and the pods never get the role.
  test('a namespace or service account name no token can carry is refused, so the trust is never dead', () => {
    const { stack } = hybridStack({ podCredentials: { irsa: true } });
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'A', { namespace: 'Shop', serviceAccount: 'iis' })))
      .toMatch(/\[eks-test\/Cluster\/A\] namespace: "Shop" must be lower-case.*so no service account token names it and the role's trust matches none/);
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'B', { namespace: 'shop', serviceAccount: '' }))).toMatch(/serviceAccount: "" is empty\. Fix: give the service account's name/);
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'C', { namespace: 'shop', serviceAccount: 'IIS_web' }))).toMatch(/serviceAccount: "IIS_web" must be lower-case/);
  });

  // IAM AttachRolePolicy takes a PolicyArn (IAM API Reference); a policy's name is refused by the API at apply.
  test('a policy name where an ARN is needed is refused, offering the ARN; a Terraform reference passes', () => {
    const { stack } = hybridStack({ podCredentials: { irsa: true } });
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'A', { namespace: 'shop', serviceAccount: 'iis', policyArns: ['AmazonS3ReadOnlyAccess'] })))
      .toMatch(/policyArns\[0\]: "AmazonS3ReadOnlyAccess" is not an IAM policy ARN\. Fix: write the ARN: arn:aws:iam::aws:policy\/AmazonS3ReadOnlyAccess for an AWS managed policy/);
    expect(thrownMessage(() => new ServiceAccountRole(stack.cluster, 'B', { namespace: 'shop', serviceAccount: 'iis', policyArns: 'arn:aws:iam::aws:policy/X' as unknown as string[] }))).toMatch(/policyArns: "arn:aws:iam::aws:policy\/X" is not a list/);
    const role = new ServiceAccountRole(stack.cluster, 'C', { namespace: 'shop', serviceAccount: 'iis', policyArns: ['arn:aws-us-gov:iam::123456789012:policy/team/Read', new IamPolicy(stack, 'Read', { policy: '{}' }).arn] });
    expect(role.roleName).toBe('eks-test-shop-iis');
  });

  test('awsRoleServiceAccount refuses what is not a role ARN', () => {
    expect(thrownMessage(() => awsRoleServiceAccount(new Chart(new App(), 'c'), 'sa', { name: 'web', roleArn: 'web-role' }))).toMatch(/roleArn: "web-role" is not an IAM role ARN/);
  });
});

describe('EKS control-plane logs (issue 27.3)', () => {
  test('api, audit and authenticator by default, into a log group with a retention created first', () => {
    const tf = synthTf(hybridStack().stack);
    const [cluster] = all(tf, 'aws_eks_cluster');
    expect(cluster.enabled_cluster_log_types).toEqual(['api', 'audit', 'authenticator']);
    const [group] = all(tf, 'aws_cloudwatch_log_group');
    expect([group.name, group.retention_in_days]).toEqual(['/aws/eks/eks-test/cluster', 90]);
    expect(cluster.depends_on).toContain(refTo(tf, 'aws_cloudwatch_log_group', () => true, '').replace(/^\$\{(.*)\.\}$/, '$1'));
  });

  test('[] turns them off; the retention is a prop', () => {
    const off = synthTf(hybridStack({ controlPlaneLogTypes: [] }).stack);
    expect(all(off, 'aws_eks_cluster')[0].enabled_cluster_log_types).toBeUndefined();
    expect(all(off, 'aws_cloudwatch_log_group')).toEqual([]);
    expect(all(synthTf(hybridStack({ controlPlaneLogRetentionDays: 7 }).stack), 'aws_cloudwatch_log_group')[0].retention_in_days).toBe(7);
  });
});

describe('pod credential props', () => {
  test('roleName names the role; podIdentityAgentVersion pins the add-on; awsRoleServiceAccount takes a namespace', () => {
    const { stack } = hybridStack({ podCredentials: { irsa: true, podIdentity: true, podIdentityAgentVersion: 'v1.3.8-eksbuild.2' } });
    new ServiceAccountRole(stack.cluster, 'R', { namespace: 'shop', serviceAccount: 'web', roleName: 'shop-web-reader' });
    const tf = synthTf(stack);
    expect(all(tf, 'aws_iam_role').map((r) => r.name)).toContain('shop-web-reader');
    expect(all(tf, 'aws_eks_addon').find((a) => a.addon_name === 'eks-pod-identity-agent').addon_version).toBe('v1.3.8-eksbuild.2');
    const app = new App();
    awsRoleServiceAccount(new Chart(app, 'c'), 'sa', { name: 'web', namespace: 'shop', roleArn: `arn:aws:iam::${ACCOUNT}:role/shop-web-reader` });
    expect(only(synthObjects(app), 'ServiceAccount').metadata.namespace).toBe('shop');
  });
});
