import { Testing } from 'cdktn';
import { EksLinuxNodeGroup, EksNodeGroupOptions, EksWindowsNodeGroup, EksWindowsNodeGroupProps, HybridEksStack, HybridEksStackProps } from '../../src/eks';
import { validateTerraform } from '../../src/terraform';
import { expectOneShape } from '../support/message-shape';
import { thrownMessage } from '../support/tf';
import { eksStack, hybridStack, synthError, withLinux } from './fixture';

/**
 * The EKS rules of issue 18 (points 1 to 4), each judged where the prop enters (a
 * HybridConfigError naming it) and on the final JSON at synth (an override cannot slip past), with
 * a valid neighbour that passes. Each case cites the provider (hashicorp/terraform-provider-aws,
 * the schema of the resource), the EKS API or the document whose behaviour the rule encodes.
 */

const linux = (props: Partial<EksNodeGroupOptions> = {}, stack: Partial<HybridEksStackProps> = {}) => () =>
  new EksLinuxNodeGroup(eksStack(stack).cluster, 'linux', { instanceTypes: ['t3.large'], ...props });
const windows = (props: Partial<EksWindowsNodeGroupProps> = {}) => () =>
  new EksWindowsNodeGroup(hybridStack().stack.cluster, 'win', { instanceTypes: ['m6i.xlarge'], ...props });

describe('names after prefixes and suffixes (point 1)', () => {
  // Provider internal/service/eks/validate.go validClusterName: 1 to 100, ^[0-9A-Za-z][A-Za-z0-9\-_]+$.
  test('cluster names: 100 characters of the alphabet pass, 101 or a dot do not', () => {
    expect(thrownMessage(() => eksStack({ clusterName: 'a'.repeat(100) }))).toBe('');
    for (const name of ['a'.repeat(101), 'my.cluster', '-lead', 'x']) {
      const message = thrownMessage(() => eksStack({ clusterName: name }));
      expect(message).toMatch(/^\[eks-test\/Cluster] clusterName: aws_eks_cluster\.\w+: cluster name ".*" is not an EKS cluster name\. Fix: use 2 to 100 letters/);
      expectOneShape(message);
    }
  });

  // Provider node_group.go node_group_name: StringLenBetween(0, 63); EKS CreateNodegroup nodegroupName.
  test('node group names: 63 characters pass, 64 do not', () => {
    expect(thrownMessage(linux({ nodeGroupName: 'n'.repeat(63) }, { clusterName: 'c' + 'c'.repeat(10) }))).toBe('');
    expect(thrownMessage(linux({ nodeGroupName: 'n'.repeat(64) }))).toMatch(/^\[eks-test\/Cluster\/linux] nodeGroupName: aws_eks_node_group\.\w+: node group name "n{64}" is not an EKS node group name/);
  });

  // Provider internal/verify/validate.go ValidLaunchTemplateName: a name_prefix of 3 to 99 characters.
  // The longest names EKS takes (a cluster of 100, a node group of 63) are valid input: the derived
  // prefix is shortened with a digest, never refused (issue 24 point 17); an override is still judged.
  test('the launch template name_prefix "<cluster>-<group>-" is shortened to 99 characters, never refused', () => {
    const prefix = (clusterName: string, nodeGroupName: string) => {
      const stack = eksStack({ clusterName });
      new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], nodeGroupName });
      expect(synthError(stack)).toBe('');
      return Object.values(JSON.parse(Testing.synth(stack, true)).resource.aws_launch_template as Record<string, { name_prefix: string }>)[0].name_prefix;
    };
    expect(prefix('c'.repeat(49), 'n'.repeat(48))).toBe(`${'c'.repeat(49)}-${'n'.repeat(48)}-`); // 99: as is
    const long = prefix('c'.repeat(100), 'n'.repeat(63));
    expect(long).toMatch(/^c{89}-[0-9a-f]{8}-$/);
    expect(long).toHaveLength(99);
    expect(prefix('c'.repeat(100), 'm'.repeat(63))).not.toBe(long); // the digest tells node groups apart
    expect(synthError(hybridStack({ clusterName: 'a'.repeat(100) }).stack)).toBe(''); // Linux and Windows groups, every derived name
    const stack = eksStack();
    const group = new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'] });
    group.parts.launchTemplate.addOverride('name_prefix', 'x'.repeat(100));
    expect(synthError(stack)).toMatch(/launch template name_prefix "x{100}" is 100 characters; the provider takes 3 to 99/);
  });
});

describe('versions (point 1)', () => {
  // EKS User Guide latest/ug/versioning/kubernetes-versions.adoc: the release calendar (src/platform/eks.ts).
  test('a Kubernetes version older than the calendar, or not a minor version, is refused; newer ones pass', () => {
    expect(thrownMessage(() => eksStack({ kubernetesVersion: '1.28' }))).toMatch(/kubernetesVersion: aws_eks_cluster\.\w+: Kubernetes 1\.28 is older than 1\.29/);
    expect(thrownMessage(() => eksStack({ kubernetesVersion: 'v1.34' }))).toMatch(/is not an EKS Kubernetes version/);
    // On a day 1.31 is still in extended support (its end is 2026-11-26), not on the clock's.
    const saved = process.env.SOURCE_DATE_EPOCH;
    try {
      process.env.SOURCE_DATE_EPOCH = String(Date.parse('2026-11-25T12:00:00Z') / 1000);
      for (const v of ['1.31', '1.34', '1.36']) expect(thrownMessage(() => eksStack({ kubernetesVersion: v }))).toBe('');
    } finally {
      if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
      else process.env.SOURCE_DATE_EPOCH = saved;
    }
  });

  // Same document: "On the end of extended support date, you can no longer create new Amazon EKS
  // clusters with the unsupported version" (1.29: 2026-03-23, 1.30: 2026-07-23). The day is
  // SOURCE_DATE_EPOCH when set (reproducible builds), else today; validateTerraform takes it too.
  test('a version past its end of extended support on the day of the synth is refused; the day can be pinned', () => {
    const epoch = (day: string) => String(Date.parse(`${day}T12:00:00Z`) / 1000);
    const saved = process.env.SOURCE_DATE_EPOCH;
    try {
      process.env.SOURCE_DATE_EPOCH = epoch('2026-03-22');
      expect(thrownMessage(() => eksStack({ kubernetesVersion: '1.29' }))).toBe('');
      process.env.SOURCE_DATE_EPOCH = epoch('2026-03-23');
      const message = thrownMessage(() => eksStack({ kubernetesVersion: '1.29' }));
      expect(message).toMatch(/^\[eks-test\/Cluster] kubernetesVersion: aws_eks_cluster\.\w+: Kubernetes 1\.29 reached the end of EKS extended support on 2026-03-23 \(the calendar is read on 2026-03-23\), and EKS creates no cluster of it from that day\. Fix: write a minor version EKS creates clusters of on 2026-03-23/);
      expectOneShape(message);
      expect(thrownMessage(() => eksStack({ kubernetesVersion: '1.30' }))).toBe('');
      process.env.SOURCE_DATE_EPOCH = 'yesterday';
      expect(thrownMessage(() => eksStack())).toMatch(/^\[SOURCE_DATE_EPOCH] "yesterday" is not a number of seconds/);
      // Unset: today. This machine's clock is past 2026-07-23, the end of 1.30.
      delete process.env.SOURCE_DATE_EPOCH;
      if (new Date().toISOString().slice(0, 10) >= '2026-07-23') expect(thrownMessage(() => eksStack({ kubernetesVersion: '1.30' }))).toMatch(/Kubernetes 1\.30 reached the end/);
    } finally {
      if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
      else process.env.SOURCE_DATE_EPOCH = saved;
    }
    const json = JSON.parse(Testing.synth(withLinux(eksStack({ kubernetesVersion: '1.34' })), true));
    json.resource.aws_eks_cluster[Object.keys(json.resource.aws_eks_cluster)[0]].version = '1.30';
    expect(validateTerraform(json, { day: '2026-07-22' }).filter((v) => v.rule === 'eks-cluster')).toEqual([]);
    expect(validateTerraform(json, { day: '2026-07-23' }).map((v) => v.what)).toContain('Kubernetes 1.30 reached the end of EKS extended support on 2026-07-23 (the calendar is read on 2026-07-23), and EKS creates no cluster of it from that day');
    expect(() => validateTerraform(json, { day: '23/07/2026' })).toThrow(/^\[validateTerraform] day "23\/07\/2026" is not a calendar day\. Fix: write it as YYYY-MM-DD/);
  });

  // Kubernetes version skew policy: a kubelet is never newer than the API server, at most three minors older.
  test('a node group newer than its cluster, or four minors older, set by an override', () => {
    const { stack, linux: group } = hybridStack();
    group.parts.nodeGroup.addOverride('version', '1.35');
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/linux\/NodeGroup] aws_eks_node_group\.\w+: the node group runs Kubernetes 1\.35 and its cluster 1\.34/);
    group.parts.nodeGroup.addOverride('version', '1.30');
    expect(synthError(stack)).toContain('the node group runs Kubernetes 1.30 and its cluster 1.34');
    group.parts.nodeGroup.addOverride('version', '1.31');
    expect(synthError(stack)).toBe('');
  });

  // EKS DescribeAddonVersions lists versions as v<major>.<minor>.<patch>-eksbuild.<n>.
  test('add-on versions that are not versions', () => {
    expect(thrownMessage(() => eksStack({ addonVersions: { coreDns: 'latest' } }))).toMatch(/addonVersions: aws_eks_addon\.\w+: add-on coredns version "latest" is not an add-on version/);
    expect(thrownMessage(() => eksStack({ addonVersions: { coreDns: 'v1.11.4-eksbuild.2', kubeProxy: 'v1.34.0-eksbuild.2' } }))).toBe('');
  });
});

describe('instance types (point 1)', () => {
  test('the form of the k0s side: lower case, family and size', () => {
    expect(thrownMessage(windows({ instanceTypes: ['M6i.large'] }))).toMatch(/instanceTypes: aws_eks_node_group\.\w+: instance type "M6i\.large" is not an EC2 instance type name/);
    const { stack, windows: group } = hybridStack();
    group.parts.nodeGroup.addOverride('instance_types', ['m6i large']);
    expect(synthError(stack)).toContain('instance type "m6i large" is not an EC2 instance type name');
  });

  test('families no EKS AMI runs: Mac everywhere, Graviton for Windows; unknown families are left to EKS', () => {
    expect(thrownMessage(linux({ instanceTypes: ['mac2.metal'] }))).toMatch(/instanceTypes: aws_eks_node_group\.\w+: instance type mac2\.metal is an EC2 Mac, which runs macOS only/);
    expect(thrownMessage(windows({ instanceTypes: ['mac1.metal'] }))).toContain('instance type mac1.metal is an EC2 Mac, which runs macOS only');
    expect(thrownMessage(windows({ instanceTypes: ['c7g.xlarge'] }))).toContain('instance type c7g.xlarge is arm64 (AWS Graviton)');
    expect(thrownMessage(windows({ instanceTypes: ['zz9.large'] }))).toBe('');
  });

  test('a Linux group\'s types of another architecture than its AMI type, also by an override', () => {
    const { stack, linux: group } = hybridStack();
    group.parts.nodeGroup.addOverride('instance_types', ['m7g.large']);
    expect(synthError(stack)).toContain('instance types m7g.large are not amd64, the architecture of the AMI type AL2023_x86_64_STANDARD');
    expect(thrownMessage(linux({ instanceTypes: ['m7g.large', 'c7g.large'] }))).toBe('');
  });

  // Provider node_group.go sends instance_types only when non-empty; EKS then picks t3.medium.
  test('an empty list is not "the default"', () => {
    expect(thrownMessage(linux({ instanceTypes: [] }))).toMatch(/^\[eks-test\/Cluster\/linux] instanceTypes: aws_eks_node_group\.\w+: instance_types is empty/);
  });
});

describe('disks and user data (point 1)', () => {
  // awslabs/amazon-eks-ami templates/al2023/variables-default.json: a 20 GiB root snapshot; EC2
  // refuses a root volume smaller than the AMI's snapshot. Windows: the 30 GiB of the base AMIs.
  test('root volumes below the AMI\'s snapshot, Linux and Windows', () => {
    expect(thrownMessage(linux({ diskSizeGiB: 19 }))).toMatch(/diskSizeGiB: aws_launch_template\.\w+: the root volume of 19 GiB is smaller than the Amazon Linux 2023 AMI's 20 GiB snapshot/);
    expect(thrownMessage(linux({ diskSizeGiB: 20 }))).toBe('');
    expect(thrownMessage(windows({ diskSizeGiB: 29 }))).toContain('smaller than the Windows AMI\'s 30 GiB snapshot');
    expect(thrownMessage(windows({ diskSizeGiB: 30 }))).toBe('');
    expect(thrownMessage(windows({ diskSizeGiB: 16385 }))).toContain('root volume size 16385 is above 16384');
  });

  // EC2 User Guide, instancedata-add-user-data: 16 KB in raw form, before base64.
  test('user data over 16 KB', () => {
    const wrap = '<powershell>\n\n</powershell>\n'.length;
    expect(thrownMessage(windows({ preBootstrapPowerShell: 'x'.repeat(16384 - wrap) }))).toBe('');
    expect(thrownMessage(windows({ preBootstrapPowerShell: 'x'.repeat(16385 - wrap) })))
      .toMatch(/preBootstrapPowerShell: aws_launch_template\.\w+: the launch template's user data is 16385 bytes, and EC2 takes at most 16384/);
  });
});

describe('networks (point 2)', () => {
  // EKS User Guide network-reqs.adoc: subnets in at least two availability zones.
  test('a cluster in one zone, or on one subnet', () => {
    expect(thrownMessage(() => eksStack({ network: { availabilityZoneCount: 1 } }))).toMatch(/subnetIds: aws_eks_cluster\.\w+: the cluster has one subnet/);
    expect(thrownMessage(() => eksStack({ network: { availabilityZones: ['eu-north-1a', 'eu-north-1b'] } }))).toBe('');
    const { stack } = hybridStack();
    const [first] = stack.network!.privateSubnets;
    first.addOverride('availability_zone', 'eu-north-1a');
    stack.network!.privateSubnets[1].addOverride('availability_zone', 'eu-north-1a');
    expect(synthError(stack)).toMatch(/aws_eks_cluster\.\w+: the cluster's 2 subnets are all in one availability zone \(eu-north-1a\)/);
  });

  // EKS CreateCluster/CreateNodegroup take subnet ids; the provider's subnet_ids has MinItems 1.
  test('subnet ids of the right form; [] is not "the cluster\'s subnets"', () => {
    expect(thrownMessage(linux({ subnetIds: ['vpc-0123456789abcdef0'] }))).toMatch(/subnetIds: aws_eks_node_group\.\w+: subnet_ids\[0] "vpc-0123456789abcdef0" is not a subnet id \(it is a VPC id\)/);
    expect(thrownMessage(linux({ subnetIds: [] }))).toContain('subnet_ids is empty, and EKS needs at least one subnet. Fix: leave subnetIds unset for the cluster\'s subnets');
    expect(thrownMessage(linux({ subnetIds: ['subnet-0123456789abcdef0'] }))).toBe('');
    const { stack, linux: group } = hybridStack();
    group.parts.nodeGroup.addOverride('subnet_ids', [stack.network!.vpc.id]); // an array override appends
    expect(synthError(stack)).toMatch(/subnet_ids\[2] \$\{aws_vpc\.\w+\.id} is the id of aws_vpc\.\w+, not of a subnet/);
  });

  // Provider eks/cluster.go public_access_cidrs: verify.ValidCIDRNetworkAddress (a network address).
  test('public access CIDRs that are valid', () => {
    for (const [cidr, why] of [['10.0.0.0/33', 'a prefix length above 32'], ['300.0.0.0/8', 'an octet above 255'], ['10.0.0.1/8', 'host bits set']]) {
      expect(thrownMessage(() => eksStack({ publicAccessCidrs: [cidr] }))).toMatch(new RegExp(`publicAccessCidrs: aws_eks_cluster\\.\\w+: vpc_config\\.public_access_cidrs\\[0]: "${cidr.replace(/\./g, '\\.')}" has ${why}`));
    }
    expect(thrownMessage(() => eksStack({ publicAccessCidrs: ['203.0.113.7/32', '2001:db8::/32'] }))).toBe('');
  });

  test('a zone where a region is expected, or a made-up region', () => {
    expect(thrownMessage(() => eksStack({ region: 'eu-north-1a' }))).toBe('[eks-test] region: provider.aws: region "eu-north-1a" is an availability zone of eu-north-1, not a region. Fix: use a region name such as eu-north-1.');
    expect(thrownMessage(() => eksStack({ region: 'moon-1' }))).toContain('region "moon-1" is not an AWS region name');
    expect(thrownMessage(() => eksStack({ network: { availabilityZones: ['eu-west-1a', 'eu-west-1b'] } }))).toContain('availability zone "eu-west-1a" is in eu-west-1, not in eu-north-1');
  });
});

describe('uniqueness across the app (point 3)', () => {
  test('two node groups of one name in a cluster', () => {
    const { stack } = hybridStack();
    new EksLinuxNodeGroup(stack.cluster, 'more', { instanceTypes: ['t3.large'], nodeGroupName: 'linux' });
    expect(synthError(stack)).toMatch(/\[eks-test\/Cluster\/more\/NodeGroup] aws_eks_node_group\.\w+: node group name "linux" is also the name of eks-test\/Cluster\/linux\/NodeGroup in the same cluster/);
  });

  test('two EKS clusters of one name in one region and account, in two stacks; other regions pass', () => {
    const app = Testing.app();
    const props = { clusterName: 'shared', kubernetesVersion: '1.34' };
    const a = withLinux(new HybridEksStack(app, 'a', { ...props, region: 'eu-north-1' }));
    const b = withLinux(new HybridEksStack(app, 'b', { ...props, region: 'eu-north-1' }));
    new HybridEksStack(app, 'c', { ...props, region: 'eu-west-1' });
    expect(synthError(a)).toContain('EKS cluster name "shared" is also the name of b/Cluster/Cluster (stack b), in the same region and account');
    expect(synthError(b)).toContain('is also the name of a/Cluster/Cluster (stack a)');
    const alone = Testing.app();
    expect(synthError(withLinux(new HybridEksStack(alone, 'a', { ...props, region: 'eu-north-1' })))).toBe('');
    expect(synthError(withLinux(new HybridEksStack(alone, 'c', { ...props, region: 'eu-west-1' })))).toBe('');
  });
});

describe('labels and taints (point 4)', () => {
  // kubelet --node-labels (kubernetes cmd/kubelet/app/options/options.go) and EKS
  // UpdateLabelsPayload: key and value 1 to 63 characters.
  test('labels the kubelet or EKS refuses, a Linux group labelled kubernetes.io/os: windows among them', () => {
    expect(thrownMessage(linux({ labels: { 'kubernetes.io/os': 'windows' } }))).toMatch(/labels: aws_eks_node_group\.\w+: label kubernetes\.io\/os is set by the kubelet from the node itself/);
    expect(thrownMessage(linux({ labels: { 'node-role.kubernetes.io/worker': '' } }))).toContain('label node-role.kubernetes.io/worker has an empty value, and EKS takes 1 to 63 characters');
    expect(thrownMessage(linux({ labels: { 'node-role.kubernetes.io/worker': 'x' } }))).toContain('in the kubernetes.io/k8s.io namespace');
    expect(thrownMessage(linux({ labels: { [`example.com/${'k'.repeat(52)}`]: 'x' } }))).toContain('is 64 characters, and EKS takes at most 63 for the whole key');
    expect(thrownMessage(linux({ labels: { 'example.com/team': 'web', 'node.kubernetes.io/pool': 'a' } }))).toBe('');
  });

  // Provider node_group.go taint: MaxItems 50, key 1-63, value 0-63, effect of the TaintEffect enum.
  test('taints set by an override', () => {
    const { stack, linux: group } = hybridStack();
    group.parts.nodeGroup.addOverride('taint', [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
    expect(synthError(stack)).toContain('taint dedicated has the effect "NoSchedule"');
    group.parts.nodeGroup.addOverride('taint', [{ key: 'bad key', value: 'x', effect: 'NO_SCHEDULE' }]);
    expect(synthError(stack)).toContain('taint key "bad key" has a name that is not alphanumeric');
    group.parts.nodeGroup.addOverride('taint', Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, effect: 'NO_EXECUTE' })));
    expect(synthError(stack)).toContain('51 taints; EKS takes at most 50');
    group.parts.nodeGroup.addOverride('taint', [{ key: 'dedicated', value: 'gpu', effect: 'PREFER_NO_SCHEDULE' }]);
    expect(synthError(stack)).toBe('');
  });
});

// Issue 24 point 17: the EKS User Guide's own setup, written by hand, is not refused for what the
// JSON cannot show: Windows IPAM by the amazon-vpc-cni ConfigMap (latest/ug/clusters/windows-support.adoc,
// "Enable Windows support": kubectl apply), node roles mapped by aws-auth (grant-k8s-access.adoc:
// CONFIG_MAP and API_AND_CONFIG_MAP read it). What the JSON does show is still refused.
describe('hand-written EKS JSON of the EKS User Guide\'s setup', () => {
  const json = (cluster: object = {}, addon?: object, entries: object = {}) => ({
    resource: {
      aws_eks_cluster: { c: { name: 'guide', version: '1.34', role_arn: 'arn:aws:iam::111122223333:role/eksClusterRole', vpc_config: { subnet_ids: ['subnet-01234567', 'subnet-89abcdef'] }, ...cluster } },
      aws_eks_node_group: {
        linux: { cluster_name: '${aws_eks_cluster.c.name}', node_group_name: 'linux', node_role_arn: 'arn:aws:iam::111122223333:role/linuxNodes', ami_type: 'AL2023_x86_64_STANDARD', subnet_ids: ['subnet-01234567'], scaling_config: { min_size: 2, desired_size: 2, max_size: 3 }, instance_types: ['t3.large'] },
        windows: { cluster_name: '${aws_eks_cluster.c.name}', node_group_name: 'windows', node_role_arn: 'arn:aws:iam::111122223333:role/windowsNodes', ami_type: 'WINDOWS_CORE_2022_x86_64', subnet_ids: ['subnet-01234567'], scaling_config: { min_size: 1, desired_size: 1, max_size: 2 }, instance_types: ['m6i.xlarge'] },
      },
      ...(addon ? { aws_eks_addon: { cni: { cluster_name: '${aws_eks_cluster.c.name}', addon_name: 'vpc-cni', ...addon } } } : {}),
      ...entries,
    },
  });
  const rules = (j: object) => validateTerraform(j as never, { day: '2026-11-25' }).filter((v) => v.rule === 'eks-windows-cluster').map((v) => v.what);

  test('the ConfigMap for Windows IPAM and aws-auth for the node roles pass', () => {
    expect(rules(json())).toEqual([]);
    expect(rules(json({ access_config: { authentication_mode: 'API_AND_CONFIG_MAP' } }))).toEqual([]);
    expect(rules(json({}, { resolve_conflicts_on_update: 'PRESERVE' }))).toEqual([]); // the add-on keeps the hand-written ConfigMap
  });

  test('what the JSON shows is refused: IPAM off in the add-on, a missing entry under API mode', () => {
    expect(rules(json({}, { configuration_values: '{"enableWindowsIpam":"false"}' }))).toEqual([expect.stringContaining('Windows IPAM is off')]);
    expect(rules(json({}, { resolve_conflicts_on_update: 'OVERWRITE' }))).toEqual([expect.stringContaining('overwrites the amazon-vpc-cni ConfigMap with them')]);
    expect(rules(json({ access_config: { authentication_mode: 'API' } }))).toEqual([expect.stringContaining('has no access entry, not EC2_WINDOWS')]);
    const linuxEntry = { aws_eks_access_entry: { w: { cluster_name: '${aws_eks_cluster.c.name}', principal_arn: 'arn:aws:iam::111122223333:role/windowsNodes', type: 'EC2_LINUX' } } };
    expect(rules(json({}, undefined, linuxEntry))).toEqual([expect.stringContaining('has a EC2_LINUX access entry, not EC2_WINDOWS')]);
  });
});
