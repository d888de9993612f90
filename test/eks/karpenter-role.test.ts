import { EksIpFamily, EksLinuxNodeGroup, KarpenterWindowsNodeRole } from '../../src/eks';
import { eksStack, synthError } from './fixture';
import { all, dataRef, refTo, synthTf, thrownMessage } from '../support/tf';

describe('KarpenterWindowsNodeRole', () => {
  const withLinux = (props: Parameters<typeof eksStack>[0] = {}) => {
    const stack = eksStack(props);
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
    return stack;
  };

  test('a named node role with the node policies and its EC2_WINDOWS access entry', () => {
    const stack = withLinux();
    const karpenter = new KarpenterWindowsNodeRole(stack.cluster, 'karpenter-windows');
    expect(karpenter.roleName).toBe('eks-test-karpenter-windows');
    const tf = synthTf(stack);
    const roles = all(tf, 'aws_iam_role').filter((r) => r.name === 'eks-test-karpenter-windows');
    expect(roles).toHaveLength(1);
    const entries = all(tf, 'aws_eks_access_entry');
    expect(entries).toEqual([expect.objectContaining({ type: 'EC2_WINDOWS', principal_arn: expect.stringMatching(/^\$\{aws_iam_role\..*karpenter.*\.arn\}$/) })]);
    expect(all(tf, 'aws_iam_role_policy_attachment').filter((a) => /karpenter/.test(a.role)).map((a) => a.policy_arn.split('/').pop()).sort())
      .toEqual(['AmazonEC2ContainerRegistryReadOnly', 'AmazonEKSWorkerNodePolicy', 'AmazonEKS_CNI_Policy']);
    expect(new KarpenterWindowsNodeRole(withLinux().cluster, 'k', { roleName: 'my-role' }).roleName).toBe('my-role');
  });

  /**
   * Whether some Allow statement of `statements` lets its holder pass `roleArn` to EC2: the IAM
   * evaluation of `iam:PassRole` for Karpenter's `AddRoleToInstanceProfile`, reduced to what these
   * policies use (exact resources, StringEquals on `iam:PassedToService`).
   */
  function mayPassToEc2(statements: ReadonlyArray<{ Effect?: string; Action?: unknown; Resource?: unknown; Condition?: { StringEquals?: Record<string, unknown> } }>, roleArn: string): boolean {
    const list = (v: unknown) => (Array.isArray(v) ? v : [v]);
    return statements.some((s) => s.Effect === 'Allow' && list(s.Action).includes('iam:PassRole') && list(s.Resource).includes(roleArn)
      && list(s.Condition?.StringEquals?.['iam:PassedToService'] ?? ['ec2.amazonaws.com']).includes('ec2.amazonaws.com'));
  }

  // aws/karpenter-provider-aws v1.14.1: Karpenter adds spec.role to the instance profile it makes
  // (pkg/providers/instanceprofile/instanceprofile.go, AddRoleToInstanceProfile), which needs iam:PassRole;
  // the controller policy of its getting-started guide passes KarpenterNodeRole-${ClusterName} only
  // (website/content/en/docs/getting-started/getting-started-with-karpenter/cloudformation.yaml,
  // AllowPassingInstanceRole), attached to the role `${CLUSTER_NAME}-karpenter` (scripts/step02-create-cluster.sh).
  test('Karpenter\'s controller role may pass the Windows node role to EC2: its documented policy alone may not', () => {
    const stack = withLinux();
    new KarpenterWindowsNodeRole(stack.cluster, 'karpenter-windows');
    const tf = synthTf(stack);
    const roleArn = refTo(tf, 'aws_iam_role', (r) => r.name === 'eks-test-karpenter-windows', 'arn');
    const documented = [{ Sid: 'AllowPassingInstanceRole', Effect: 'Allow', Resource: 'arn:aws:iam::111122223333:role/KarpenterNodeRole-eks-test', Action: 'iam:PassRole',
      Condition: { StringEquals: { 'iam:PassedToService': ['ec2.amazonaws.com', 'ec2.amazonaws.com.cn'] } } }];
    expect(mayPassToEc2(documented, roleArn)).toBe(false);

    expect(all(tf, 'aws_iam_role', 'data')).toEqual([expect.objectContaining({ name: 'eks-test-karpenter' })]);
    const policies = all(tf, 'aws_iam_role_policy');
    expect(policies).toEqual([expect.objectContaining({ role: dataRef(tf, 'aws_iam_role', 'name'), name: 'PassRole-eks-test-karpenter-windows' })]);
    const added = JSON.parse(policies[0].policy).Statement;
    expect(mayPassToEc2([...documented, ...added], roleArn)).toBe(true);
    // Passing it to any other service stays refused.
    expect(added[0].Condition.StringEquals['iam:PassedToService']).toEqual(['ec2.amazonaws.com', 'ec2.amazonaws.com.cn']);
  });

  test('controllerRoleName names the controller role of an install that is not the getting-started guide\'s', () => {
    const stack = withLinux();
    new KarpenterWindowsNodeRole(stack.cluster, 'karpenter-windows', { controllerRoleName: 'KarpenterControllerRole-eks-test' });
    expect(all(synthTf(stack), 'aws_iam_role', 'data')).toEqual([expect.objectContaining({ name: 'KarpenterControllerRole-eks-test' })]);
    expect(thrownMessage(() => new KarpenterWindowsNodeRole(withLinux().cluster, 'k', { controllerRoleName: 'arn:aws:iam::1:role/x' })))
      .toMatch(/\[eks-test\/Cluster\/k\] controllerRoleName: "arn:aws:iam::1:role\/x" is not an IAM role name.*Fix: give the name of the IAM role Karpenter's controller runs as/);
    expect(thrownMessage(() => new KarpenterWindowsNodeRole(withLinux().cluster, 'k', { controllerRoleName: '' }))).toMatch(/controllerRoleName: "" is empty/);
  });

  test('a role name IAM refuses is refused at construction', () => {
    expect(thrownMessage(() => new KarpenterWindowsNodeRole(withLinux().cluster, 'k', { roleName: 'x'.repeat(65) }))).toMatch(/\[eks-test\/Cluster\/k\] roleName: "x+"… \(65 characters\) is longer than 64 characters/);
  });

  test('Karpenter\'s Windows nodes need a Linux node group for CoreDNS, like Windows node groups', () => {
    const stack = eksStack();
    new KarpenterWindowsNodeRole(stack.cluster, 'karpenter-windows');
    expect(synthError(stack)).toMatch(/Windows nodes \(Karpenter node roles \$\{aws_iam_role\.\S+\.arn\}\) need a Linux node for CoreDNS/);
  });

  // aws/karpenter-provider-aws v1.14.1 website/content/en/docs/faq.md: "Windows nodes do not support IPv6".
  test('IPv6 is refused beside Karpenter\'s Windows nodes, citing Karpenter', () => {
    const stack = withLinux({ ipFamily: EksIpFamily.IPV6 });
    new KarpenterWindowsNodeRole(stack.cluster, 'karpenter-windows');
    expect(synthError(stack)).toMatch(/ipFamily is ipv6, and EKS Windows nodes support IPv4 only \(Karpenter node roles .*faq\.md: "Windows nodes do not support IPv6"\)\. Fix: use EksIpFamily\.IPV4/);
  });

  // aws/karpenter-provider-aws v1.14.1 website/content/en/docs/concepts/nodeclasses.md: "It's currently not
  // possible to specify custom networking with Windows nodes".
  test('VPC CNI custom networking is refused beside Karpenter\'s Windows nodes, and passes without them', () => {
    const custom = JSON.stringify({ enableWindowsIpam: 'true', env: { AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG: 'true' } });
    const stack = withLinux();
    new KarpenterWindowsNodeRole(stack.cluster, 'karpenter-windows');
    stack.cluster.vpcCni.addOverride('configuration_values', custom);
    expect(synthError(stack)).toMatch(/the vpc-cni add-on turns on custom networking \(env AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG\), and Karpenter cannot launch Windows nodes with it .*nodeclasses\.md/);
    const linuxOnly = withLinux();
    linuxOnly.cluster.vpcCni.addOverride('configuration_values', custom);
    expect(synthError(linuxOnly)).toBe('');
  });
});
