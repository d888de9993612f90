import { Duration } from 'cdk8s';
import {
  Architecture, ClusterInfra, ControlPlaneUpdateStrategy, CalicoMode, IngressProtocol, LoadBalancerScheme, MachineImage, NetworkProvider,
  WindowsEdition, WindowsVersion,
} from '../../src';
import { synthObjects } from '../support/synth';
import { constructionError, FixtureOptions, hybridCluster, LINUX_AMI } from './fixture';

/** Synthesized YAML of the fixture with one change, or the error it raises. */
function render(options: FixtureOptions): string {
  try {
    return JSON.stringify(synthObjects(hybridCluster(options).app));
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

const cp = (extra: object) => ({ controlPlane: { instanceType: 't3.large', ami: LINUX_AMI, ...extra } });

const infra = (publicSubnetIds: string[] = ['subnet-pub'], vpcCidrBlock?: string) => new ClusterInfra({
  region: 'eu-north-1',
  vpcCidrBlock,
  vpcId: 'vpc-0123',
  publicSubnetIds,
  privateSubnetIds: ['subnet-priv'],
  controlPlaneInstanceProfile: 'cp',
  nodeInstanceProfile: 'node',
  linuxAmiId: 'ami-0aaaaaaaaaaaaaaa1',
  windowsAmiIds: {
    [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'ami-0bbbbbbbbbbbbbbb2', [WindowsEdition.FULL]: 'ami-0ccccccccccccccc3' },
    [WindowsVersion.SERVER_2019]: { [WindowsEdition.CORE]: 'ami-0ddddddddddddddd4' },
  },
});

describe('every prop changes what is written', () => {
  const baseline = render({});
  test('the baseline synthesizes', () => expect(baseline).not.toMatch(/^error/));

  // Each row: a prop set to a value other than its default. Reverting the prop's wiring leaves
  // the output equal to the baseline, and the row fails.
  test.each<[string, FixtureOptions]>([
    ['cluster name', { cluster: { name: 'other' } }],
    ['region', { cluster: { region: 'eu-west-1', zones: ['eu-west-1a', 'eu-west-1b'] } }],
    ['zones', { cluster: { zones: ['eu-north-1a', 'eu-north-1c'] } }],
    ['k0sVersion', { cluster: { k0sVersion: 'v1.34.9+k0s.0' } }],
    ['sshKeyName', { cluster: { sshKeyName: 'other' } }],
    ['infra', { cluster: { infra: infra() } }],
    ['network.podCidr', { cluster: { network: { podCidr: '172.16.0.0/16' } } }],
    ['network.serviceCidr', { cluster: { network: { serviceCidr: '10.96.0.0/12' } } }],
    ['network.provider', { windows: null, cluster: { network: { provider: NetworkProvider.CUSTOM } } }],
    ['network.calicoMode', { windows: null, cluster: { network: { calicoMode: CalicoMode.IPIP } } }],
    ['apiServerLoadBalancer.scheme', { cluster: { apiServerLoadBalancer: { scheme: LoadBalancerScheme.INTERNAL } } }],
    ['apiServerLoadBalancer.allowedCidrs', { cluster: { apiServerLoadBalancer: { allowedCidrs: ['203.0.113.0/24'] } } }],
    ['apiServerLoadBalancer.additionalIngressRules', { cluster: { apiServerLoadBalancer: { additionalIngressRules: [{ description: 'ssh', fromPort: 22, cidrBlocks: ['203.0.113.0/24'] }] } } }],
    ['machineHealthChecks', { cluster: { machineHealthChecks: false } }],
    ['additionalTags', { cluster: { additionalTags: { team: 'a' } } }],
    ['controlPlane.replicas', { cluster: cp({ replicas: 5 }) }],
    ['controlPlane.enableWorker', { cluster: cp({ enableWorker: true }) }],
    ['controlPlane.updateStrategy', { cluster: cp({ updateStrategy: ControlPlaneUpdateStrategy.RECREATE_DELETE_FIRST }) }],
    ['controlPlane.apiExtraArgs', { cluster: cp({ apiExtraArgs: { 'audit-log-maxage': '7' } }) }],
    ['controlPlane.instanceType', { cluster: cp({ instanceType: 'm6i.large' }) }],
    ['controlPlane.ami', { cluster: cp({ ami: MachineImage.id('ami-0eeeeeeeeeeeeeee5') }) }],
    ['controlPlane.iamInstanceProfile', { cluster: cp({ iamInstanceProfile: 'mine' }) }],
    ['controlPlane.rootVolumeSizeGiB', { cluster: cp({ rootVolumeSizeGiB: 60 }) }],
    ['controlPlane.requireImdsV2', { cluster: cp({ requireImdsV2: false }) }],
    ['pool name', { linux: { name: 'workers' } }],
    ['pool replicas', { linux: { replicas: 3 } }],
    ['pool k0sVersion', { linux: { k0sVersion: 'v1.34.3+k0s.0' } }],
    ['pool labels', { linux: { labels: { 'example.com/team': 'a' } } }],
    ['pool machineHealthCheck', { linux: { machineHealthCheck: false } }],
    ['pool instanceType', { linux: { instanceType: 'm6i.large' } }],
    ['pool ami', { linux: { ami: MachineImage.id('ami-0eeeeeeeeeeeeeee5') } }],
    ['pool iamInstanceProfile', { linux: { iamInstanceProfile: 'mine' } }],
    ['pool rootVolumeSizeGiB', { linux: { rootVolumeSizeGiB: 60 } }],
    ['pool requireImdsV2', { linux: { requireImdsV2: false } }],
    ['nodeAgentPorts', { cluster: { nodeAgentPorts: [9182] } }],
    ['controlPlane.untaintedControllers', { cluster: cp({ enableWorker: true, untaintedControllers: true }) }],
    ['controlPlane.bootstrapThroughSecretsManager', { cluster: cp({ bootstrapThroughSecretsManager: true }) }],
    ['pool bootstrapThroughSecretsManager', { linux: { bootstrapThroughSecretsManager: true } }],
    ['pool nodeReadyTimeout', { linux: { nodeReadyTimeout: Duration.minutes(7) } }],
    ['pool nodeDrainTimeout', { linux: { nodeDrainTimeout: Duration.minutes(30) } }],
  ])('%s', (_, options) => {
    const out = render(options);
    expect(out).not.toMatch(/^error/);
    expect(out).not.toBe(baseline);
  });

  test('windowsVersion and edition pick the infra AMI when no ami is given', () => {
    const base = { cluster: { infra: infra() }, windows: { ami: undefined } };
    const core2022 = render(base);
    expect(core2022).toContain('ami-0bbbbbbbbbbbbbbb2');
    expect(render({ ...base, windows: { ami: undefined, edition: WindowsEdition.FULL } })).toContain('ami-0ccccccccccccccc3');
    expect(render({ ...base, windows: { ami: undefined, windowsVersion: WindowsVersion.SERVER_2019 } })).toContain('ami-0ddddddddddddddd4');
  });

  test('edition beside an explicit ami changes nothing, so it is refused', () => {
    expect(render({ windows: { edition: WindowsEdition.FULL } }))
      .toBe('error: [mgmt/prod/win] edition Full has no effect beside the explicit ami ami-010e40c6557403885. Fix: remove `edition` (it picks the infra AMI only when no `ami` is given).');
  });
});

describe('Windows Server releases follow the support matrix (src/platform/support.ts)', () => {
  // k0s docs/experimental-windows.md (v1.34.9+k0s.0) documents Windows Server 2019 and 2022 only.
  test('2025 is refused on k0s pools unless acknowledged', () => {
    expect(render({ windows: { windowsVersion: WindowsVersion.SERVER_2025 } }))
      .toMatch(/^error: \[mgmt\/prod\/win\] Windows Server 2025 is not supported by k0s \(k0sproject\/k0s docs\/experimental-windows\.md.*\)\. Fix: use WindowsVersion\.SERVER_2022, or set `acknowledgeUnsupportedWindowsVersion: true`/);
    expect(render({ windows: { windowsVersion: WindowsVersion.SERVER_2025, acknowledgeUnsupportedWindowsVersion: true } })).not.toMatch(/^error/);
  });
  test.each([WindowsVersion.SERVER_2019, WindowsVersion.SERVER_2022])('%s is accepted', (windowsVersion) => {
    expect(render({ windows: { windowsVersion } })).not.toMatch(/^error/);
  });
});

describe('defaults apply field by field', () => {
  const baseline = render({});
  test.each<[string, FixtureOptions]>([
    ['network fields', { cluster: { network: { podCidr: undefined, serviceCidr: undefined, provider: undefined, calicoMode: undefined } } }],
    ['load balancer fields', { cluster: { apiServerLoadBalancer: { scheme: undefined, allowedCidrs: undefined, additionalIngressRules: undefined } } }],
    ['control plane fields', { cluster: cp({ replicas: undefined, updateStrategy: undefined, enableWorker: undefined }) }],
    ['pool fields', { linux: { replicas: 2, name: undefined, k0sVersion: undefined, labels: undefined, machineHealthCheck: undefined } }],
  ])('%s set to undefined mean the defaults', (_, options) => {
    expect(render(options)).toBe(baseline);
  });
  test('an ingress rule without toPort or protocol covers its one TCP port', () => {
    const out = render({ cluster: { apiServerLoadBalancer: { additionalIngressRules: [{ description: 'ssh', fromPort: 22, cidrBlocks: ['203.0.113.0/24'] }] } } });
    expect(out).toContain('{"cidrBlocks":["203.0.113.0/24"],"description":"ssh","fromPort":22,"protocol":"tcp","toPort":22}');
    expect(render({ cluster: { apiServerLoadBalancer: { additionalIngressRules: [{ description: 'dns', protocol: IngressProtocol.UDP, fromPort: 53, cidrBlocks: ['203.0.113.0/24'] }] } } }))
      .toContain('"protocol":"udp"');
  });
});

describe('inputs are checked where they enter (HybridConfigError: path, value, fix)', () => {
  test.each<[string, FixtureOptions, string]>([
    ['a zone as region', { cluster: { region: 'eu-north-1a' } }, '[mgmt/prod] region: AWSCluster prod: region "eu-north-1a" is an availability zone of eu-north-1, not a region. Fix: use a region name such as eu-north-1.'],
    ['k0s version with leading zero', { cluster: { k0sVersion: 'v1.034.2+k0s.0' } }, '[mgmt/prod] k0sVersion: K0sControlPlane prod: k0s version "v1.034.2+k0s.0" is not of the form vX.Y.Z+k0s.N. Fix: write it like "v1.34.10+k0s.0".'],
    ['upper-case instance type', { linux: { instanceType: 'T3.LARGE' } }, '[mgmt/prod/linux] instance type "T3.LARGE" is not an EC2 instance type name'],
    ['unknown family', { linux: { instanceType: 'q9.large' } }, '[mgmt/prod/linux] instance type "q9.large" is of a family this library does not know'],
    ['control-plane instance type', { cluster: cp({ instanceType: 'foo.bar' }) }, '[mgmt/prod] controlPlane: instance type "foo.bar" is not an EC2 instance type name'],
    ['AMI id', { linux: { ami: MachineImage.id('ami-linux') } }, '[mgmt/prod/linux] ami: AWSMachineTemplate prod-linux-…: AMI "ami-linux" is not an AMI id'],
    ['node-role label', { linux: { labels: { 'node-role.kubernetes.io/worker': '' } } }, '[mgmt/prod/linux] labels: K0sWorkerConfigTemplate prod-linux-a-…: label node-role.kubernetes.io/worker is in the kubernetes.io/k8s.io namespace'],
    ['os label override', { windows: { labels: { 'kubernetes.io/os': 'linux' } } }, '[mgmt/prod/win] labels: K0sWorkerConfigTemplate prod-win-a-…: label kubernetes.io/os is set by the kubelet from the node itself and must not be overridden'],
    ['label value with a comma', { linux: { labels: { team: 'a,b' } } }, '[mgmt/prod/linux] labels: label team="a,b" has a value that is not alphanumeric with "-", "_" or "." inside, and joined into k0s\'s --labels it would read as more than one label'],
    // Issue 24 point 15: a value that smuggles a second key=value into k0s's --labels, each pair valid there.
    ['label value that smuggles a second label', { linux: { labels: { tier: 'web,team=ops' } } }, '[mgmt/prod/linux] labels: label tier="web,team=ops" has a value that is not alphanumeric with "-", "_" or "." inside, and joined into k0s\'s --labels it would read as more than one label'],
    ['root volume', { linux: { rootVolumeSizeGiB: 4 } }, '[mgmt/prod/linux] rootVolumeSizeGiB: AWSMachineTemplate prod-linux-…: rootVolume.size 4 is below 8. Fix: give 8 to 16384 GiB.'],
    ['the pool label', { linux: { labels: { 'node.cluster.x-k8s.io/pool': 'x' } } }, '[mgmt/prod/linux] label node.cluster.x-k8s.io/pool is the pool\'s own label'],
    ['allowed CIDR', { cluster: { apiServerLoadBalancer: { allowedCidrs: ['10.0.0.1/8'] } } }, '[mgmt/prod] apiServerLoadBalancer.allowedCidrs: AWSCluster prod: controlPlaneLoadBalancer.ingressRules rule "Kubernetes API": "10.0.0.1/8" has host bits set: did you mean 10.0.0.0/8?'],
    ['ingress port', { cluster: { apiServerLoadBalancer: { additionalIngressRules: [{ description: 'x', fromPort: 70000, cidrBlocks: ['10.0.0.0/8'] }] } } }, '[mgmt/prod] apiServerLoadBalancer.additionalIngressRules[0].fromPort: AWSCluster prod: controlPlaneLoadBalancer.ingressRules rule "x": fromPort 70000 is above 65535. Fix: use a port range from 0 to 65535'],
  ])('%s', (_, options, message) => {
    // Objects named after their content carry a hash: the message names it.
    expect(render(options).replace(/-[0-9a-f]{8}:/g, '-…:')).toContain(`error: ${message}`);
  });

  test('an unknown family is accepted when its architecture and memory are stated, and judged by them', () => {
    expect(render({ linux: { instanceType: 'q9.large', instanceTypeInfo: { arch: Architecture.ARM64, memoryGiB: 16 } } })).not.toMatch(/^error/);
    expect(render({ cluster: cp({ instanceType: 'q9.large', instanceTypeInfo: { arch: Architecture.AMD64, memoryGiB: 16 } }) })).not.toMatch(/^error/);
    expect(render({ windows: { instanceType: 'q9.large', instanceTypeInfo: { arch: Architecture.AMD64, memoryGiB: 16 } } })).not.toMatch(/^error/);
    expect(render({ windows: { instanceType: 'q9.large', instanceTypeInfo: { arch: Architecture.ARM64, memoryGiB: 16 } } }))
      .toContain('[mgmt/prod/win] instanceTypeInfo: instance type q9.large is stated to be arm64, and Windows Server on EC2 is amd64 only');
    expect(render({ windows: { instanceType: 'q9.large', instanceTypeInfo: { arch: Architecture.AMD64, memoryGiB: 4 } } }))
      .toContain('[mgmt/prod/win] instanceTypeInfo: instance type q9.large is stated to have 4 GiB of memory; Windows workers need at least 8 GiB');
  });
});

describe('a VPC of your own behind an internet-facing NLB', () => {
  // CAPA pkg/cloud/services/securitygroup/securitygroups.go processIngressRulesSGs: natGatewaysIPsSource
  // rules fail the reconcile ("NAT Gateway IPs are not available yet") until CAPA finds NAT gateways,
  // which it looks for in the cluster's public subnets.
  test('is refused when the infra lists no public subnets', () => {
    expect(render({ cluster: { infra: infra([]) }, linux: { ami: undefined }, windows: null }))
      .toContain('error: [mgmt/prod] the infra (VPC vpc-0123) lists no public subnets, and an internet-facing load balancer needs the NAT gateways there');
  });
  test('an internal load balancer needs none', () => {
    expect(render({ cluster: { infra: infra([]), apiServerLoadBalancer: { scheme: LoadBalancerScheme.INTERNAL } }, linux: { ami: undefined }, windows: null }))
      .not.toMatch(/^error/);
  });
});

// Issue 24 point 5. cluster-api v1.14 MachineDeployment spec.template.spec.deletion.nodeDrainTimeoutSeconds:
// "The default value is 0, meaning that the node can be drained without any time limitations"
// (core/reconcilers/machine/machine_controller.go, nodeDrainTimeoutExceeded). k0smotron v2.1.0
// writes no deletion spec on control plane machines (internal/controller/controlplane/helper.go,
// generateMachine), and K0sControlPlane's machineTemplate has no field for it.
describe('bounded drains', () => {
  test('every pool\'s MachineDeployments drain for at most 15 minutes by default, nodeDrainTimeout sets it', () => {
    const objects = synthObjects(hybridCluster({}).app);
    const mds = objects.filter((o) => o.kind === 'MachineDeployment');
    expect(mds.length).toBeGreaterThan(1);
    for (const md of mds) expect(md.spec.template.spec.deletion).toEqual({ nodeDrainTimeoutSeconds: 900 });
    const set = synthObjects(hybridCluster({ windows: { nodeDrainTimeout: Duration.minutes(40) } }).app)
      .filter((o) => o.kind === 'MachineDeployment' && o.metadata.name.includes('-win-'));
    expect(set.map((md) => md.spec.template.spec.deletion.nodeDrainTimeoutSeconds)).toEqual(set.map(() => 2400));
    expect(render({ linux: { nodeDrainTimeout: Duration.seconds(0) } })).toMatch(/^error: \[mgmt\/prod\/linux\] nodeDrainTimeout: Duration\.seconds\(0\) is 0 seconds, below 1/);
  });
});

// Issue 24 point 4. cluster-api-provider-aws v2.11.1 pkg/cloud/services/securitygroup/securitygroups.go
// (getSecurityGroupIngressRules): the node role's NodePort rule (30000-32767) takes
// network.nodePortIngressRuleCidrBlocks, else services.AnyIPv4CidrBlock (0.0.0.0/0); controllers carry the node role too.
describe('NodePorts open to the VPC only', () => {
  const cidrs = (options: FixtureOptions) => JSON.parse(render(options).replace(/^error: .*/, 'null'))
    ?.find((o: { kind: string }) => o.kind === 'AWSCluster').spec.network.nodePortIngressRuleCidrBlocks;
  test('the VPC CAPA creates (10.0.0.0/16), the AWS stack\'s VPC, the private ranges for a VPC of unknown block, or nodePortCidrs', () => {
    expect(cidrs({})).toEqual(['10.0.0.0/16']);
    const known = infra(undefined, '10.42.0.0/16');
    expect(cidrs({ cluster: { infra: known } as never })).toEqual(['10.42.0.0/16']);
    expect(cidrs({ cluster: { infra: infra() } as never })).toEqual(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']);
    expect(cidrs({ cluster: { nodePortCidrs: ['10.0.0.0/16', '198.51.100.0/24'] } as never })).toEqual(['10.0.0.0/16', '198.51.100.0/24']);
    expect(render({ cluster: { nodePortCidrs: ['10.0.0.1/16'] } as never })).toMatch(/^error: \[mgmt\/prod\] nodePortCidrs\[0\]: .*host bits set/);
    // One home: the aws-cluster rule judges the written block (CAPA's webhook, net.ParseCIDR), naming the prop item.
    expect(constructionError({ cluster: { nodePortCidrs: ['10.0.0.0/16', 'ten'] } as never })).toMatchObject({ rule: 'aws-cluster', message: expect.stringMatching(/^\[mgmt\/prod\] nodePortCidrs\[1\]: AWSCluster prod: network\.nodePortIngressRuleCidrBlocks\[1\]/) });
  });
});

// Issue 24 points 16 and 18: a plain string where a MachineImage belongs, and an empty
// instanceTypeInfo of an unknown family, each answered with the prop, the value and the fix.
describe('values that are not what they seem, on the cluster side', () => {
  test('an ami given as a plain string names MachineImage.id', () => {
    expect(render({ linux: { ami: 'ami-0123456789abcdef0' as never } })).toBe('error: [mgmt/prod/linux] ami is "ami-0123456789abcdef0", not a MachineImage. Fix: write MachineImage.id("ami-0123456789abcdef0").');
    expect(render({ windows: { ami: { id: 'ami-0123456789abcdef0' } as never } })).toMatch(/^error: \[mgmt\/prod\/win\] ami is \{"id":"ami-0123456789abcdef0"\}, not a MachineImage\. Fix: write MachineImage\.id\('ami-…'\)/);
    expect(render({ cluster: cp({ ami: 'ami-0123456789abcdef0' }) } as never)).toMatch(/^error: \[mgmt\/prod\] controlPlane\.ami is "ami-0123456789abcdef0", not a MachineImage/);
  });

  test('an empty instanceTypeInfo of an unknown family names the instance type', () => {
    expect(render({ linux: { instanceType: 'zz9.large', instanceTypeInfo: {} as never } }))
      .toMatch(/^error: \[mgmt\/prod\/linux\] instanceTypeInfo of instance type "zz9\.large": arch is undefined.*Fix: state \{ arch: Architecture\.AMD64, memoryGiB: 16 \} for zz9\.large/);
    expect(render({ cluster: { controlPlane: { instanceType: 'zz9.large', instanceTypeInfo: {} } } as never }))
      .toMatch(/^error: \[mgmt\/prod\] controlPlane\.instanceTypeInfo of instance type "zz9\.large": arch is undefined/);
  });
});
