import { EksAccessEntry } from '@cdktn/provider-aws/lib/eks-access-entry';
import { WindowsEdition, WindowsVersion } from '../../src';
import { EksIpFamily, EksLinuxNodeGroup, EksNodeRole, EksWindowsNodeGroup, NodeAccessEntryType } from '../../src/eks';
import { synthTf } from '../support/tf';
import { eksStack, hybridStack, synthError } from './fixture';

/**
 * Every check reads the stack's synthesized Terraform JSON, so escape hatches (addOverride) that
 * undo a setting are caught; messages carry the construct path, the value and the fix.
 */
describe('checks at synth', () => {
  test('the working stack passes', () => {
    expect(synthError(hybridStack().stack)).toBe('');
  });

  test('Windows groups without a Linux group of at least one node (CoreDNS)', () => {
    const stack = eksStack();
    new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'] });
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/Cluster] aws_eks_cluster\.\w+: Windows node groups \(windows\) need a Linux node for CoreDNS, and the cluster has no Linux node group with minNodes >= 1\. Fix: add an EksLinuxNodeGroup with minNodes >= 1\./);

    const zero = eksStack();
    new EksLinuxNodeGroup(zero.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 0, maxSize: 3 });
    new EksWindowsNodeGroup(zero.cluster, 'windows', { instanceTypes: ['m6i.xlarge'] });
    expect(synthError(zero)).toContain('need a Linux node for CoreDNS');

    const { stack: overridden, linux } = hybridStack();
    linux.parts.nodeGroup.addOverride('scaling_config.min_size', 0);
    expect(synthError(overridden)).toContain('need a Linux node for CoreDNS');
  });

  // CoreDNS selects Linux nodes; the provider waits for the add-on to leave CREATING/DEGRADED for
  // 20 minutes (hashicorp/terraform-provider-aws internal/service/eks/addon.go, Timeouts.Create,
  // waitAddonCreated). Without Windows groups too, as the k0smotron path's windows-cluster asks.
  test('a cluster whose Linux node groups can all scale to 0, or that has none, is refused for the coredns add-on', () => {
    const none = eksStack();
    const message = synthError(none);
    expect(message).toMatch(/\[eks-test\/Cluster\/CoreDns] aws_eks_addon\.\w+: the coredns add-on runs on Linux nodes only, and the cluster has no Linux node group, so the add-on never becomes ACTIVE and the apply waits for it until it times out\. Fix: add an EksLinuxNodeGroup with minNodes >= 1/);

    const zero = eksStack();
    new EksLinuxNodeGroup(zero.cluster, 'a', { instanceTypes: ['t3.large'], minSize: 0, desiredSize: 1, maxSize: 3 });
    new EksLinuxNodeGroup(zero.cluster, 'b', { instanceTypes: ['m7g.large'], minSize: 0, maxSize: 3 });
    expect(synthError(zero)).toContain('the cluster has only Linux node groups that can scale to 0 (a, b: minNodes 0)');

    const one = eksStack();
    new EksLinuxNodeGroup(one.cluster, 'a', { instanceTypes: ['t3.large'], minSize: 0, maxSize: 3 });
    new EksLinuxNodeGroup(one.cluster, 'b', { instanceTypes: ['t3.large'], minSize: 1 });
    expect(synthError(one)).toBe('');
  });

  test('Windows Server 2025 below Kubernetes 1.35: refused at construction, and at synth when the group pins its own version', () => {
    const old = eksStack({ kubernetesVersion: '1.34' });
    new EksLinuxNodeGroup(old.cluster, 'linux', { instanceTypes: ['t3.large'] });
    expect(() => new EksWindowsNodeGroup(old.cluster, 'win2025', { instanceTypes: ['m6i.xlarge'], windowsVersion: WindowsVersion.SERVER_2025 }))
      .toThrow(/^\[eks-test\/Cluster\/win2025] windowsVersion: aws_eks_node_group\.\w+: AMI type WINDOWS_CORE_2025_x86_64 needs Kubernetes 1\.35 or newer, and the node group runs 1\.34/);

    const current = eksStack({ kubernetesVersion: '1.35' });
    new EksLinuxNodeGroup(current.cluster, 'linux', { instanceTypes: ['t3.large'] });
    const win = new EksWindowsNodeGroup(current.cluster, 'win2025', { instanceTypes: ['m6i.xlarge'], windowsVersion: WindowsVersion.SERVER_2025 });
    expect(synthError(current)).toBe('');
    win.parts.nodeGroup.addOverride('version', '1.33');
    expect(synthError(current)).toMatch(/\[eks-test\/Cluster\/win2025\/NodeGroup] aws_eks_node_group\.\w+: AMI type WINDOWS_CORE_2025_x86_64 needs Kubernetes 1\.35 or newer, and the node group runs 1\.33/);
  });

  test('IPv6 with Windows groups; IPv6 alone is fine', () => {
    expect(synthError(hybridStack({ ipFamily: EksIpFamily.IPV6 }).stack)).toMatch(/\[eks-test\/Cluster\/Cluster] aws_eks_cluster\.\w+: ipFamily is ipv6, and EKS Windows nodes support IPv4 only \(node groups windows\)\. Fix: use EksIpFamily\.IPV4\./);
    const linuxOnly = eksStack({ ipFamily: EksIpFamily.IPV6 });
    new EksLinuxNodeGroup(linuxOnly.cluster, 'linux', { instanceTypes: ['t3.large'] });
    expect(synthError(linuxOnly)).toBe('');
  });

  test('Graviton or under 8 GiB for Windows, from the instance type facts: at construction, and at synth after an override', () => {
    const stack = eksStack();
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'] });
    let message = '';
    try {
      new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m7g.large', 't3.medium', 'm6i.large'] });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^\[eks-test\/Cluster\/windows] instanceTypes: aws_eks_node_group\.\w+: instance type m7g\.large is arm64 \(AWS Graviton\), and Windows Server on EC2 is amd64 only\. Fix: pick an x86 type such as m7i\.large\.$/m);
    expect(message).toMatch(/^\[eks-test\/Cluster\/windows] instanceTypes: aws_eks_node_group\.\w+: instance type t3\.medium has 4 GiB of memory; Windows workers need at least 8 GiB/m);
    expect(message).not.toContain('instance type m6i.large');

    const { stack: overridden, windows } = hybridStack();
    windows.parts.nodeGroup.addOverride('instance_types', ['m7g.large']);
    expect(synthError(overridden)).toMatch(/\[eks-test\/Cluster\/windows\/NodeGroup] aws_eks_node_group\.\w+: instance type m7g\.large is arm64 \(AWS Graviton\)/);
  });

  test('the resource controller policy dropped from the cluster role by an escape hatch', () => {
    const { stack } = hybridStack();
    const attachment = stack.cluster.node.findChild('AmazonEKSVPCResourceController') as unknown as { addOverride(path: string, value: unknown): void };
    attachment.addOverride('policy_arn', 'arn:aws:iam::aws:policy/ReadOnlyAccess');
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/Cluster] aws_eks_cluster\.\w+: the cluster role has no AmazonEKSVPCResourceController, so the VPC resource controller cannot give Windows pods addresses/);
  });

  test('Windows IPAM switched off or the vpc-cni add-on emptied by an escape hatch', () => {
    const { stack } = hybridStack();
    stack.cluster.vpcCni.addOverride('configuration_values', JSON.stringify({ env: { WARM_IP_TARGET: '2' } }));
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/VpcCni] aws_eks_addon\.\w+: Windows IPAM is off: the vpc-cni add-on has configuration values/);
    stack.cluster.vpcCni.addOverride('configuration_values', JSON.stringify({ enableWindowsIpam: 'true', env: { WARM_IP_TARGET: '2' } }));
    expect(synthError(stack)).toBe('');
  });

  test('the Windows taint removed by an escape hatch', () => {
    const { stack, windows } = hybridStack();
    windows.parts.nodeGroup.addOverride('taint', undefined); // cdktf deletes the key; an array override would append
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/windows\/NodeGroup] aws_eks_node_group\.\w+: the node group lacks the taint os=windows:NO_SCHEDULE/);
  });

  test('user data on a Windows group that is not one <powershell> block, or runs the bootstrap itself, set by an escape hatch', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const { stack, windows } = hybridStack();
    windows.parts.launchTemplate.addOverride('user_data', b64('#!/bin/bash\n/etc/eks/bootstrap.sh eks-test\n'));
    expect(synthError(stack)).toContain('[eks-test/Cluster/windows/LaunchTemplate] aws_launch_template.Cluster_windows_LaunchTemplate_369B7D26: the launch template\'s user data ("#!/bin/bash\\n/etc/eks/bootstrap.sh eks-te"…) is not one <powershell> block');
    windows.parts.launchTemplate.addOverride('user_data', b64('<powershell>\nStart-EKSBootstrap.ps1 -EKSClusterName eks-test\n</powershell>'));
    expect(synthError(stack)).toContain('is calling Start-EKSBootstrap.ps1, which EKS runs itself right after it. Fix: remove the call: EKS runs the bootstrap with its own arguments.');
    windows.parts.launchTemplate.addOverride('user_data', b64('<powershell>\nSet-TimeZone -Id UTC\n</powershell>\n'));
    expect(synthError(stack)).toBe('');
  });

  test('Windows Server 2025 synthesizes on CDK Terrain (hashicorp/aws 6.66.0) and is refused with cdktf 0.21\'s 6.25.0, which predates the 2025 AMI types', () => {
    const stack = eksStack({ kubernetesVersion: '1.35' });
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'] });
    new EksWindowsNodeGroup(stack.cluster, 'win2025', { instanceTypes: ['m6i.xlarge'], windowsVersion: WindowsVersion.SERVER_2025, edition: WindowsEdition.FULL });
    // The version the wrapped provider writes is what the rule reads.
    expect(synthTf(stack).terraform.required_providers.aws.version).toBe('6.66.0');
    expect(synthError(stack)).toBe('');
    // What @cdktf/provider-aws 21.22.1 writes (the cdktf flavour; checked for real in CI's cdktf consumer).
    stack.addOverride('terraform.required_providers.aws.version', '6.25.0');
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/win2025\/NodeGroup] aws_eks_node_group\.\w+: AMI type WINDOWS_FULL_2025_x86_64 is unknown to hashicorp\/aws 6\.25\.0, whose AWS SDK predates the Windows Server 2025 AMI types/);
    expect(synthError(stack)).toContain("Fix: use CDK Terrain's @cdktn/provider-aws 25 (hashicorp/aws 6.66), or allow a newer provider: stack.addOverride('terraform.required_providers.aws.version', '>= 6.33.0')");
    for (const [constraint, refused] of [['~> 6.25.0', true], ['< 6.32', true], ['>= 6.33.0', false], ['~> 6.0', false], ['>= 6.0, < 7.0', false]] as const) {
      stack.addOverride('terraform.required_providers.aws.version', constraint);
      expect(synthError(stack).includes('is unknown to hashicorp/aws')).toBe(refused);
    }
    const win2022 = hybridStack().stack; // 2019 and 2022 types are in 6.25.0's enum
    win2022.addOverride('terraform.required_providers.aws.version', '6.25.0');
    expect(synthError(win2022)).toBe('');
  });

  // A role has one access entry per cluster and its type cannot change (EKS User Guide,
  // awsdocs/amazon-eks-user-guide latest/ug/manage-access/k8s-access/creating-access-entries.adoc);
  // EKS gives a Linux managed group's role EC2_LINUX. A Windows group added later to a Linux
  // group's role would fail at apply creating EC2_WINDOWS, so sharing is refused in either order.
  test('a node role shared by Linux and Windows groups is refused, whichever group comes first (issue 17.15)', () => {
    const linuxFirst = eksStack();
    const role = new EksNodeRole(linuxFirst, 'SharedRole', { partition: 'aws' });
    new EksLinuxNodeGroup(linuxFirst.cluster, 'linux', { instanceTypes: ['t3.large'], nodeRole: role });
    expect(() => new EksWindowsNodeGroup(linuxFirst.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], nodeRole: role }))
      .toThrow(/^\[eks-test\/Cluster\/windows\] nodeRole: node role eks-test\/SharedRole serves Linux node groups \(linux\) and Windows node groups \(windows\)\. A role has one access entry per cluster and its type cannot change: .*fails at apply creating its EC2_WINDOWS entry.*Fix: give the Windows node groups a role of their own/);

    const windowsFirst = eksStack();
    const shared = new EksNodeRole(windowsFirst, 'SharedRole', { partition: 'aws' });
    new EksWindowsNodeGroup(windowsFirst.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], nodeRole: shared });
    expect(() => new EksLinuxNodeGroup(windowsFirst.cluster, 'linux', { instanceTypes: ['t3.large'], nodeRole: shared }))
      .toThrow(/^\[eks-test\/Cluster\/linux\] nodeRole: node role eks-test\/SharedRole serves Linux node groups \(linux\) and Windows node groups \(windows\)/);
  });

  test('a role shared through an escape hatch is reported on the final JSON', () => {
    const { stack, linux, windows } = hybridStack();
    linux.parts.nodeGroup.addOverride('node_role_arn', windows.parts.nodeRole.arn);
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/linux\/NodeGroup] aws_eks_node_group\.\w+: node role \$\{aws_iam_role\.[^}]+\.arn} serves Linux node groups \(linux\) and Windows node groups \(windows\)\. A role has one access entry per cluster/);
  });

  test('an EC2_LINUX entry on a role that Windows groups use is refused, whichever comes first', () => {
    const linuxFirst = eksStack();
    const role = new EksNodeRole(linuxFirst, 'SharedRole', { partition: 'aws' });
    linuxFirst.cluster.addNodeAccessEntry('Entry', role, NodeAccessEntryType.EC2_LINUX);
    expect(() => new EksWindowsNodeGroup(linuxFirst.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], nodeRole: role }))
      .toThrow('[eks-test/Cluster] node role eks-test/SharedRole already has an EC2_LINUX access entry, and a role can have one entry per cluster. Fix: give the Windows node groups a role of their own');

    const windowsFirst = eksStack();
    const own = new EksWindowsNodeGroup(windowsFirst.cluster, 'windows', { instanceTypes: ['m6i.xlarge'] });
    expect(() => windowsFirst.cluster.addNodeAccessEntry('Entry', own.parts.nodeRole, NodeAccessEntryType.EC2_LINUX)).toThrow('already has an EC2_WINDOWS access entry');
  });

  test('the EC2_WINDOWS entry changed or removed by an escape hatch, or a second entry for the role', () => {
    const { stack, windows } = hybridStack();
    const entry = windows.parts.nodeRole.accessEntryIn(stack.cluster)!;
    entry.addOverride('type', 'EC2_LINUX');
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/windows\/NodeGroup] aws_eks_node_group\.\w+: the node role \$\{aws_iam_role\.[^}]+\.arn} of Windows node groups windows has a EC2_LINUX access entry, not EC2_WINDOWS; EKS may register it as EC2_LINUX/);

    const removed = hybridStack();
    removed.windows.parts.nodeRole.accessEntryIn(removed.stack.cluster)!.addOverride('cluster_name', 'another-cluster');
    expect(synthError(removed.stack)).toContain('of Windows node groups windows has no access entry, not EC2_WINDOWS');

    const twice = hybridStack();
    new EksAccessEntry(twice.stack, 'ByHand', { clusterName: twice.stack.cluster.cluster.name, principalArn: twice.windows.parts.nodeRole.arn, type: 'EC2_WINDOWS' });
    expect(synthError(twice.stack)).toMatch(/\[eks-test\/ByHand] aws_eks_access_entry\.\w+: 2 access entries name \$\{aws_iam_role\.[^}]+\.arn}, and EKS allows one per IAM principal/);
  });

  test('a Windows-only role shared by two Windows groups needs no explicit entry', () => {
    const stack = eksStack();
    const role = new EksNodeRole(stack, 'WindowsRole', { partition: 'aws' });
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'] });
    new EksWindowsNodeGroup(stack.cluster, 'w1', { instanceTypes: ['m6i.xlarge'], nodeRole: role });
    new EksWindowsNodeGroup(stack.cluster, 'w2', { instanceTypes: ['m6i.xlarge'], nodeRole: role, windowsVersion: WindowsVersion.SERVER_2019 });
    expect(synthError(stack)).toBe('');
  });
});
