import { Testing } from 'cdktn';
import { WINDOWS_NODE_TAINT, WindowsEdition, WindowsVersion } from '../../src';
import { EKS_WINDOWS_AMI_TYPES, EksLinuxNodeGroup, EksWindowsNodeGroup } from '../../src/eks';
import { eksWindowsAmiType, parseEksWindowsAmiType } from '../../src/platform/eks';
import { all, refTo, synthTf } from '../support/tf';
import { eksStack, hybridStack, withLinux } from './fixture';
import { EKS_WINDOWS_2025_PROVIDER, admitsVersionAtLeast } from '../../src/platform/provider-version';

describe('the synthesized EKS stack', () => {
  const { stack } = hybridStack();
  const tf = synthTf(stack);
  const cluster = all(tf, 'aws_eks_cluster')[0];
  const clusterName = refTo(tf, 'aws_eks_cluster', () => true, 'name');
  const addon = (name: string) => all(tf, 'aws_eks_addon').find((a) => a.addon_name === name);
  const group = (name: string) => all(tf, 'aws_eks_node_group').find((g) => g.node_group_name === name);
  const launchTemplateOf = (name: string) => {
    const id = group(name).launch_template.id as string;
    return Object.entries(tf.resource?.aws_launch_template ?? {}).find(([logicalId]) => id === `\${aws_launch_template.${logicalId}.id}`)?.[1];
  };

  test('the cluster uses access entries only, IPv4, the created private subnets, and no self-managed add-ons', () => {
    expect(cluster.access_config).toEqual({ authentication_mode: 'API', bootstrap_cluster_creator_admin_permissions: true });
    expect(cluster.kubernetes_network_config).toEqual({ ip_family: 'ipv4' });
    expect(cluster.version).toBe('1.34');
    expect(cluster.bootstrap_self_managed_addons).toBe(false);
    expect(cluster.vpc_config.subnet_ids).toEqual(['10.0.0.0/19', '10.0.32.0/19'].map((c) => refTo(tf, 'aws_subnet', (s) => s.cidr_block === c)));
    expect(cluster.vpc_config).toMatchObject({ endpoint_private_access: true, endpoint_public_access: false });
  });

  test('publicAccessCidrs opens the public endpoint to those blocks only', () => {
    const open = synthTf(withLinux(eksStack({ publicAccessCidrs: ['203.0.113.7/32'] })));
    expect(all(open, 'aws_eks_cluster')[0].vpc_config).toMatchObject({ endpoint_public_access: true, public_access_cidrs: ['203.0.113.7/32'] });
  });

  test('the cluster role is assumed by EKS and carries AmazonEKSClusterPolicy and AmazonEKSVPCResourceController', () => {
    const roleName = cluster.role_arn.replace(/\.arn}$/, '.name}');
    const role = Object.entries(tf.resource?.aws_iam_role ?? {}).find(([id]) => cluster.role_arn === `\${aws_iam_role.${id}.arn}`)?.[1];
    expect(JSON.parse(role.assume_role_policy).Statement[0].Principal).toEqual({ Service: ['eks.amazonaws.com'] });
    const policies = all(tf, 'aws_iam_role_policy_attachment').filter((a) => a.role === roleName).map((a) => a.policy_arn);
    expect(policies.map((p: string) => p.split('/').pop())).toEqual(['AmazonEKSClusterPolicy', 'AmazonEKSVPCResourceController']);
    expect(policies.every((p: string) => /^arn:\$\{data\.aws_partition\.[^}]+\.partition}:iam::aws:policy\//.test(p))).toBe(true);
  });

  test('vpc-cni turns Windows IPAM on through its configuration values and overwrites conflicts; kube-proxy and coredns are managed too', () => {
    expect(JSON.parse(addon('vpc-cni').configuration_values)).toEqual({ enableWindowsIpam: 'true' });
    for (const name of ['vpc-cni', 'kube-proxy', 'coredns']) {
      expect(addon(name)).toMatchObject({ cluster_name: clusterName, resolve_conflicts_on_create: 'OVERWRITE', resolve_conflicts_on_update: 'OVERWRITE' });
    }
    // No hand-written amazon-vpc-cni ConfigMap anywhere in the stack.
    expect(JSON.stringify(tf)).not.toContain('enable-windows-ipam');
  });

  test('node groups wait for vpc-cni and kube-proxy; coredns waits for the Linux group', () => {
    const fqn = (type: string, match: (b: Record<string, unknown>) => boolean) => refTo(tf, type, match, 'x').replace(/^\$\{(.*)\.x}$/, '$1');
    for (const name of ['linux', 'windows']) {
      expect(group(name).depends_on).toEqual(expect.arrayContaining([fqn('aws_eks_addon', (a) => a.addon_name === 'vpc-cni'), fqn('aws_eks_addon', (a) => a.addon_name === 'kube-proxy')]));
    }
    expect(addon('coredns').depends_on).toEqual([fqn('aws_eks_node_group', (g) => g.node_group_name === 'linux')]);
  });

  test('the Windows group: Windows 2022 Core AMI type, the workloads\' taint in EKS spelling, a role of its own with an EC2_WINDOWS entry it waits for', () => {
    expect(group('windows')).toMatchObject({ ami_type: 'WINDOWS_CORE_2022_x86_64', instance_types: ['m6i.xlarge'], cluster_name: clusterName });
    expect(group('windows').taint).toEqual([{ key: WINDOWS_NODE_TAINT.key, value: WINDOWS_NODE_TAINT.value, effect: 'NO_SCHEDULE' }]);
    expect(group('windows').node_role_arn).not.toEqual(group('linux').node_role_arn);
    // The Linux role's entry is EKS's to create (EC2_LINUX); the Windows role's is ours.
    expect(all(tf, 'aws_eks_access_entry')).toEqual([{ cluster_name: clusterName, principal_arn: group('windows').node_role_arn, type: 'EC2_WINDOWS' }]);
    expect(group('windows').depends_on.filter((d: string) => d.startsWith('aws_eks_access_entry.'))).toHaveLength(1);
    expect(group('linux').depends_on.some((d: string) => d.startsWith('aws_eks_access_entry.'))).toBe(false);
    expect(group('linux')).toMatchObject({ ami_type: 'AL2023_x86_64_STANDARD', scaling_config: { min_size: 2, desired_size: 2, max_size: 2 } });
    expect(group('linux').taint).toBeUndefined();
  });

  test('each node role has the worker, ECR and CNI policies and is assumed by EC2', () => {
    for (const name of ['linux', 'windows']) {
      const roleName = group(name).node_role_arn.replace(/\.arn}$/, '.name}');
      const policies = all(tf, 'aws_iam_role_policy_attachment').filter((a) => a.role === roleName).map((a) => a.policy_arn.split('/').pop());
      expect(policies.sort()).toEqual(['AmazonEC2ContainerRegistryReadOnly', 'AmazonEKSWorkerNodePolicy', 'AmazonEKS_CNI_Policy']);
    }
  });

  test('launch templates: no AMI id (EKS bootstraps), IMDSv2 with hop limit 1, encrypted gp3 on the AMI\'s root device', () => {
    for (const [name, device, size] of [['linux', '/dev/xvda', 20], ['windows', '/dev/sda1', 50]] as const) {
      const lt = launchTemplateOf(name);
      expect(lt.image_id).toBeUndefined();
      expect(lt.metadata_options).toEqual({ http_endpoint: 'enabled', http_tokens: 'required', http_put_response_hop_limit: 1 });
      expect(lt.block_device_mappings).toEqual([{ device_name: device, ebs: { volume_size: size, volume_type: 'gp3', encrypted: 'true', delete_on_termination: 'true' } }]);
      expect(lt.user_data).toBeUndefined();
    }
  });

  test('the subnets carry the cluster and load balancer tags EKS load balancers look for', () => {
    const tags = all(tf, 'aws_subnet').map((s) => s.tags);
    expect(tags.filter((t) => t['kubernetes.io/role/elb'] === '1')).toHaveLength(2);
    expect(tags.filter((t) => t['kubernetes.io/role/internal-elb'] === '1')).toHaveLength(2);
    expect(tags.every((t) => t['kubernetes.io/cluster/eks-test'] === 'shared')).toBe(true);
  });
});

describe('props', () => {
  test('preBootstrapPowerShell becomes <powershell> user data, which EKS runs before its bootstrap', () => {
    const stack = eksStack();
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'] });
    new EksWindowsNodeGroup(stack.cluster, 'win', { instanceTypes: ['m6i.large'], preBootstrapPowerShell: 'Set-TimeZone -Id UTC' });
    const lt = all(synthTf(stack), 'aws_launch_template').find((l) => l.block_device_mappings[0].device_name === '/dev/sda1');
    expect(Buffer.from(lt.user_data, 'base64').toString()).toBe('<powershell>\nSet-TimeZone -Id UTC\n</powershell>\n');
  });

  test('windowsVersion and edition choose the AMI type; sizes, subnets, disk, labels and name reach the group', () => {
    const stack = eksStack({ kubernetesVersion: '1.35' });
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['m7g.large'] });
    new EksWindowsNodeGroup(stack.cluster, 'win', {
      instanceTypes: ['m6i.large'], windowsVersion: WindowsVersion.SERVER_2025, edition: WindowsEdition.FULL,
      minSize: 1, desiredSize: 2, maxSize: 5, subnetIds: ['subnet-0123456789abcdef0'], diskSizeGiB: 80, labels: { team: 'web' }, nodeGroupName: 'iis',
    });
    const tf = synthTf(stack);
    const win = all(tf, 'aws_eks_node_group').find((g) => g.node_group_name === 'iis');
    expect(win).toMatchObject({ ami_type: 'WINDOWS_FULL_2025_x86_64', scaling_config: { min_size: 1, desired_size: 2, max_size: 5 }, subnet_ids: ['subnet-0123456789abcdef0'], labels: { team: 'web' } });
    expect(all(tf, 'aws_launch_template').map((l) => l.block_device_mappings[0].ebs.volume_size).sort()).toEqual([20, 80]);
    expect(all(tf, 'aws_eks_node_group').find((g) => g.node_group_name === 'linux').ami_type).toBe('AL2023_ARM_64_STANDARD');
  });

  // hashicorp/terraform-provider-aws internal/service/eks/node_group.go: resourceNodeGroupUpdate sends
  // UpdateNodegroupConfig with expandNodegroupScalingConfig(d.Get("scaling_config")), and an ignored
  // desired_size is planned as the state's: a minSize raised above it is refused by EKS (issue 24 point 11).
  test('manageDesiredSize: the desired size is ignored on later applies only for an autoscaled group, unless managed', () => {
    const stack = eksStack();
    new EksLinuxNodeGroup(stack.cluster, 'fixed', { instanceTypes: ['t3.large'], minSize: 2, maxSize: 2 });
    new EksLinuxNodeGroup(stack.cluster, 'scaled', { instanceTypes: ['t3.large'], minSize: 1, maxSize: 4 });
    new EksLinuxNodeGroup(stack.cluster, 'raised', { instanceTypes: ['t3.large'], minSize: 3, desiredSize: 3, maxSize: 6, manageDesiredSize: true });
    new EksLinuxNodeGroup(stack.cluster, 'pinned', { instanceTypes: ['t3.large'], minSize: 2, maxSize: 2, manageDesiredSize: false });
    const groups = Object.fromEntries(all(synthTf(stack), 'aws_eks_node_group').map((g) => [g.node_group_name, g.lifecycle?.ignore_changes]));
    expect(groups).toEqual({ fixed: undefined, scaled: ['scaling_config[0].desired_size'], raised: undefined, pinned: ['scaling_config[0].desired_size'] });
  });

  test('addonVersions pin the add-ons; unset, EKS picks the default for the Kubernetes version', () => {
    const pinned = synthTf(withLinux(eksStack({ addonVersions: { vpcCni: 'v1.20.4-eksbuild.1' } })));
    const versions = Object.fromEntries(all(pinned, 'aws_eks_addon').map((a) => [a.addon_name, a.addon_version]));
    expect(versions).toEqual({ 'vpc-cni': 'v1.20.4-eksbuild.1', 'kube-proxy': undefined, coredns: undefined });
  });

  test('bad input is refused in the constructor with the construct path, the value and a fix', () => {
    expect(() => eksStack({ kubernetesVersion: '1.34.2' })).toThrow(/^\[eks-test\/Cluster] kubernetesVersion: aws_eks_cluster\.\w+: Kubernetes version "1\.34\.2" is not an EKS Kubernetes version \(the minor version, e\.g\. "1\.34"\)\. Fix:/);
    const stack = eksStack();
    expect(() => new EksWindowsNodeGroup(stack.cluster, 'w', { instanceTypes: ['m6i.large'], minSize: 3, maxSize: 2 }))
      .toThrow(/^\[eks-test\/Cluster\/w] minSize, desiredSize and maxSize: aws_eks_node_group\.\w+: min_size 3, desired_size 3 and max_size 2 are out of order\. Fix: keep minNodes <= desiredNodes <= maxNodes and maxNodes >= 1, as EKS requires\./);
    expect(() => new EksWindowsNodeGroup(stack.cluster, 'x', { instanceTypes: ['m6i.large'], preBootstrapPowerShell: '<powershell>x</powershell>' })).toThrow('<powershell> tags');
    expect(() => new EksWindowsNodeGroup(stack.cluster, 'z', { instanceTypes: ['m6i.large'], preBootstrapPowerShell: '& "C:\\Program Files\\Amazon\\EKS\\Start-EKSBootstrap.ps1" -EKSClusterName x' }))
      .toThrow(/^\[eks-test\/Cluster\/z] preBootstrapPowerShell: aws_launch_template\.\w+: the launch template's user data \(.*\) is calling Start-EKSBootstrap\.ps1, which EKS runs itself right after it\. Fix: remove the call: EKS runs the bootstrap with its own arguments\./);
    expect(() => new EksLinuxNodeGroup(stack.cluster, 'y', { instanceTypes: ['m6i.large', 'm7g.large'] }))
      .toThrow(/^\[eks-test\/Cluster\/y] instanceTypes: aws_eks_node_group\.\w+: instance types m7g\.large are not amd64, the architecture of the AMI type AL2023_x86_64_STANDARD; a node group has one AMI\. Fix: put each architecture in a node group of its own\./);
    expect(() => eksStack({ network: {}, existingNetwork: { vpcId: 'vpc-01234567', publicSubnetIds: ['subnet-01234567'], privateSubnetIds: ['subnet-89abcdef'] } })).toThrow('both network and existingNetwork');
  });

  test('network and defaultTags reach the created VPC and the provider', () => {
    const tf = synthTf(withLinux(eksStack({ network: { vpcCidr: '10.42.0.0/16' }, defaultTags: { team: 'platform' } })));
    expect(all(tf, 'aws_vpc')[0].cidr_block).toBe('10.42.0.0/16');
    expect(tf.provider?.aws[0].default_tags).toEqual([{ tags: { team: 'platform' } }]);
  });

  test('existingNetwork: the cluster runs on those private subnets, tagged for it', () => {
    const tf = synthTf(withLinux(eksStack({ existingNetwork: { vpcId: 'vpc-01234567', publicSubnetIds: ['subnet-01234567'], privateSubnetIds: ['subnet-89abcdef', 'subnet-89abcde0'] } })));
    expect(all(tf, 'aws_eks_cluster')[0].vpc_config.subnet_ids).toEqual(['subnet-89abcdef', 'subnet-89abcde0']);
    expect(all(tf, 'aws_ec2_tag')).toEqual(expect.arrayContaining([{ resource_id: 'subnet-89abcdef', key: 'kubernetes.io/role/internal-elb', value: '1' }]));
    expect(all(tf, 'aws_vpc')).toEqual([]);
  });
});

describe('Windows AMI types', () => {
  // Edition, year and type together: a swapped Core/Full or year fails here (terraform-aws-eks#3736).
  test.each([
    [WindowsVersion.SERVER_2019, WindowsEdition.CORE, 'WINDOWS_CORE_2019_x86_64'],
    [WindowsVersion.SERVER_2019, WindowsEdition.FULL, 'WINDOWS_FULL_2019_x86_64'],
    [WindowsVersion.SERVER_2022, WindowsEdition.CORE, 'WINDOWS_CORE_2022_x86_64'],
    [WindowsVersion.SERVER_2022, WindowsEdition.FULL, 'WINDOWS_FULL_2022_x86_64'],
    [WindowsVersion.SERVER_2025, WindowsEdition.CORE, 'WINDOWS_CORE_2025_x86_64'],
    [WindowsVersion.SERVER_2025, WindowsEdition.FULL, 'WINDOWS_FULL_2025_x86_64'],
  ])('Windows Server %s %s is %s, and back', (version, edition, amiType) => {
    expect(eksWindowsAmiType(version, edition)).toBe(amiType);
    expect(parseEksWindowsAmiType(amiType)).toEqual({ version, edition });
  });

  test('the table has one distinct type per release and edition, and Linux types are not Windows', () => {
    const types = Object.values(EKS_WINDOWS_AMI_TYPES).flatMap((row) => Object.values(row));
    expect(new Set(types).size).toBe(Object.values(WindowsVersion).length * Object.values(WindowsEdition).length);
    expect(parseEksWindowsAmiType('AL2023_x86_64_STANDARD')).toBeUndefined();
  });

  test('the provider the library is built with (hashicorp/aws 6.66.0 via @cdktn/provider-aws 25.7.0) is what docs/eks.md speaks of, and it knows the 2025 AMI types', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkg = require('@cdktn/provider-aws/package.json') as { version: string; cdktn: { provider: { version: string } } };
    expect(pkg.version).toBe('25.7.0');
    expect(pkg.cdktn.provider.version).toBe('6.66.0');
    expect(admitsVersionAtLeast(pkg.cdktn.provider.version, EKS_WINDOWS_2025_PROVIDER)).toBe(true);
  });
});

test('Testing.synth of the example app passes its own checks', () => {
  expect(() => Testing.synth(hybridStack().stack, true)).not.toThrow();
});
