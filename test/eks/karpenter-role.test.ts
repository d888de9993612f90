import { EksIpFamily, EksLinuxNodeGroup, KarpenterWindowsNodeRole } from '../../src/eks';
import { eksStack, synthError } from './fixture';
import { all, synthTf, thrownMessage } from '../support/tf';

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

  test('a role name IAM refuses is refused at construction', () => {
    expect(thrownMessage(() => new KarpenterWindowsNodeRole(withLinux().cluster, 'k', { roleName: 'x'.repeat(65) }))).toMatch(/\[eks-test\/Cluster\/k\] roleName "x+" is not 1 to 64/);
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
