import { EksLinuxNodeGroup, EksWindowsNodeGroup } from '../../src/eks';
import { WindowsVersion } from '../../src';
import { eksStack, hybridStack, synthError } from './fixture';
import { all, synthTf, thrownMessage } from '../support/tf';

// hashicorp/terraform-provider-aws internal/service/eks/node_group.go (resourceNodeGroupUpdate): a change
// of version, release_version or the launch template is one UpdateNodegroupVersion, a rolling replacement
// of the nodes; `version` is Optional and Computed, so a group that never writes it is never upgraded.
describe('EKS node groups follow the cluster and take patches', () => {
  test('raising the stack\'s kubernetesVersion changes every node group\'s version', () => {
    const versions = (kubernetesVersion: string) => {
      const { stack } = hybridStack({ kubernetesVersion });
      new EksWindowsNodeGroup(stack.cluster, 'win2019', { instanceTypes: ['m6i.xlarge'], windowsVersion: WindowsVersion.SERVER_2019 });
      return all(synthTf(stack), 'aws_eks_node_group').map((g) => [g.node_group_name, g.version]).sort();
    };
    expect(versions('1.34')).toEqual([['linux', '1.34'], ['win2019', '1.34'], ['windows', '1.34']]);
    expect(versions('1.35')).toEqual([['linux', '1.35'], ['win2019', '1.35'], ['windows', '1.35']]);
  });

  test('a group may stay up to three minors behind, never ahead (the version-skew part of eks-node-group)', () => {
    const { stack } = hybridStack({ kubernetesVersion: '1.35' });
    new EksLinuxNodeGroup(stack.cluster, 'old', { instanceTypes: ['t3.large'], kubernetesVersion: '1.34' });
    expect(all(synthTf(stack), 'aws_eks_node_group').find((g) => g.node_group_name === 'old').version).toBe('1.34');
    expect(thrownMessage(() => new EksLinuxNodeGroup(hybridStack({ kubernetesVersion: '1.34' }).stack.cluster, 'new', { instanceTypes: ['t3.large'], kubernetesVersion: '1.35' })))
      .toMatch(/kubernetesVersion: aws_eks_node_group\.\S+: the node group runs Kubernetes 1\.35 and its cluster 1\.34/);
  });

  test('release version and max unavailable are written; max unavailable defaults to 1', () => {
    const stack = eksStack();
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
    new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], releaseVersion: '1.34-2026.01.13', maxUnavailable: 2 });
    const [linux, windows] = all(synthTf(stack), 'aws_eks_node_group');
    expect(linux.update_config).toEqual({ max_unavailable: 1 });
    expect(linux.release_version).toBeUndefined();
    expect(windows.update_config).toEqual({ max_unavailable: 2 });
    expect(windows.release_version).toBe('1.34-2026.01.13');
  });

  test('max unavailable outside 1-100 is refused at construction (provider: IntBetween(1, 100))', () => {
    expect(thrownMessage(() => new EksLinuxNodeGroup(eksStack().cluster, 'linux', { instanceTypes: ['t3.large'], maxUnavailable: 0 })))
      .toMatch(/maxUnavailable: aws_eks_node_group\.\S+: update_config\.max_unavailable .*Fix: use a whole number from 1 to 100/);
    expect(thrownMessage(() => new EksLinuxNodeGroup(eksStack().cluster, 'linux', { instanceTypes: ['t3.large'], maxUnavailable: 101 })))
      .toMatch(/update_config\.max_unavailable 101 is above 100/);
  });

  test('replaceBeforeDestroy: create_before_destroy with the name as a prefix, and the checks still name the group', () => {
    const stack = eksStack();
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
    new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], replaceBeforeDestroy: true });
    const windows = all(synthTf(stack), 'aws_eks_node_group')[1];
    expect(windows.node_group_name).toBeUndefined();
    expect(windows.node_group_name_prefix).toBe('windows-');
    // min 1 = max 1: the desired size is the stack's to manage, so only the replacement order is set.
    expect(windows.lifecycle).toEqual({ create_before_destroy: true });
    const alone = eksStack();
    new EksWindowsNodeGroup(alone.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], replaceBeforeDestroy: true });
    expect(synthError(alone)).toContain('Windows node groups (windows-) need a Linux node for CoreDNS');
  });
});

// kubernetes/autoscaler cluster-autoscaler-1.36.1 cluster-autoscaler/cloudprovider/aws/aws_manager.go:
// buildGenericLabels gives a template node kubernetes.io/os=linux; extractLabelsFromAsg and
// extractTaintsFromAsg read these tags (taint values `<value>:<Effect>`).
describe('cluster-autoscaler tags on a Windows group\'s ASG', () => {
  test('the OS label, the build and the taint, on the ASG EKS made; none on Linux groups', () => {
    const stack = eksStack();
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
    new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], minSize: 0, windowsVersion: WindowsVersion.SERVER_2019 });
    const tf = synthTf(stack);
    const tags = all(tf, 'aws_autoscaling_group_tag');
    expect(tags.map((t) => [t.tag.key, t.tag.value, t.tag.propagate_at_launch])).toEqual([
      ['k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os', 'windows', false],
      ['k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/windows-build', '10.0.17763', false],
      ['k8s.io/cluster-autoscaler/node-template/taint/os', 'windows:NoSchedule', false],
    ]);
    const windowsGroup = Object.keys(tf.resource!.aws_eks_node_group).find((id) => id.includes('windows'));
    for (const t of tags) expect(t.autoscaling_group_name).toBe(`\${aws_eks_node_group.${windowsGroup}.resources[0].autoscaling_groups[0].name}`);
  });
});
