import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { validateManifests, WindowsVersion } from '../../src';
import { KarpenterWindowsNodePool, KarpenterWindowsNodePoolProps } from '../../src/eks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KARPENTER_PATTERNS } from '../../src/platform/karpenter';
import { CRD_DIR, crdViolations, describeWithCrds } from '../support/crd-schemas';
import { K8sObject, only, synthObjects } from '../support/synth';
import { all, synthTf } from '../support/tf';
import { eksStack, withLinux } from './fixture';

function pool(props: Partial<KarpenterWindowsNodePoolProps> = {}, patch?: (p: KarpenterWindowsNodePool) => void): { app: App; pool: KarpenterWindowsNodePool } {
  const app = new App();
  const chart = new Chart(app, 'karpenter');
  const p = new KarpenterWindowsNodePool(chart, 'windows', { clusterName: 'eks-test', role: 'eks-test-karpenter-windows', limits: { cpu: 64, memory: '256Gi' }, ...props });
  patch?.(p);
  return { app, pool: p };
}
const objects = (props: Partial<KarpenterWindowsNodePoolProps> = {}): K8sObject[] => synthObjects(pool(props).app);
function synthError(patch: (p: KarpenterWindowsNodePool) => void): string {
  try {
    synthObjects(pool({}, patch).app);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('KarpenterWindowsNodePool', () => {
  test('a NodePool of Windows nodes: OS, build, amd64, our taint, limits, the EC2NodeClass by reference', () => {
    const nodePool = only(objects(), 'NodePool');
    expect(nodePool.apiVersion).toBe('karpenter.sh/v1');
    expect(nodePool.spec.template.spec.requirements).toEqual([
      { key: 'kubernetes.io/os', operator: 'In', values: ['windows'] },
      { key: 'node.kubernetes.io/windows-build', operator: 'In', values: ['10.0.20348'] },
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
    ]);
    expect(nodePool.spec.template.spec.taints).toEqual([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
    expect(nodePool.spec.template.spec.nodeClassRef).toEqual({ group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'windows' });
    expect(nodePool.spec.limits).toEqual({ cpu: 64, memory: '256Gi' });
    expect(nodePool.spec.disruption).toBeUndefined();
  });

  test('the EC2NodeClass: the release\'s @latest alias, the role, the cluster\'s private subnets and security group', () => {
    const nodeClass = only(objects({ windowsVersion: WindowsVersion.SERVER_2019 }), 'EC2NodeClass');
    expect(nodeClass.apiVersion).toBe('karpenter.k8s.aws/v1');
    expect(nodeClass.spec).toEqual({
      amiSelectorTerms: [{ alias: 'windows2019@latest' }],
      role: 'eks-test-karpenter-windows',
      subnetSelectorTerms: [{ tags: { 'kubernetes.io/cluster/eks-test': 'shared', 'kubernetes.io/role/internal-elb': '1' } }],
      securityGroupSelectorTerms: [{ tags: { 'aws:eks:cluster-name': 'eks-test' } }],
    });
    expect(only(objects({ windowsVersion: WindowsVersion.SERVER_2019 }), 'NodePool').spec.template.spec.requirements[1].values).toEqual(['10.0.17763']);
  });

  // EKS tags the cluster security group it creates `aws:eks:cluster-name: <name>` (EKS User Guide,
  // networking/sec-group-reqs.adoc); the stack tags the subnets. The defaults must select what they write.
  test('the default selectors find the EKS stack\'s private subnets and the cluster security group EKS tags', () => {
    const tf = synthTf(withLinux(eksStack()));
    const { subnetSelectorTerms: [subnets], securityGroupSelectorTerms: [groups] } = only(objects(), 'EC2NodeClass').spec;
    const selected = all(tf, 'aws_subnet').filter((s) => Object.entries(subnets.tags).every(([k, v]) => s.tags?.[k] === v));
    expect(selected.map((s) => s.map_public_ip_on_launch ?? false)).toEqual([false, false]);
    // No security group of the stack's own on the cluster: the one EKS makes is the nodes' group.
    expect(all(tf, 'aws_eks_cluster')[0].vpc_config.security_group_ids).toBeUndefined();
    expect(groups).toEqual({ tags: { 'aws:eks:cluster-name': all(tf, 'aws_eks_cluster')[0].name } });
  });

  test('instance types, capacity types and selector tags are written as given', () => {
    const objs = objects({ instanceTypes: ['m6i.xlarge', 'm6i.2xlarge'], capacityTypes: ['spot', 'on-demand'], subnetTags: { tier: 'nodes' }, securityGroupTags: { sg: 'nodes' } });
    const requirements = only(objs, 'NodePool').spec.template.spec.requirements;
    expect(requirements).toContainEqual({ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m6i.xlarge', 'm6i.2xlarge'] });
    expect(requirements).toContainEqual({ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] });
    expect(only(objs, 'EC2NodeClass').spec.subnetSelectorTerms).toEqual([{ tags: { tier: 'nodes' } }]);
    expect(only(objs, 'EC2NodeClass').spec.securityGroupSelectorTerms).toEqual([{ tags: { sg: 'nodes' } }]);
  });

  test('a weekly patch window: drift held at 0 from the window\'s end to its next start, 1 node at a time inside', () => {
    // Saturday 22:00 UTC for 6 hours: open until Sunday 04:00, closed for the other 162 hours.
    const { budgets } = only(objects({ patchWindow: { weekday: 6, hour: 22, hours: 6 } }), 'NodePool').spec.disruption;
    expect(budgets).toEqual([
      { nodes: '10%' },
      { nodes: '0', reasons: ['Drifted'], schedule: '0 4 * * 0', duration: '162h' },
      { nodes: '1', reasons: ['Drifted'] },
    ]);
  });

  test('a daily patch window', () => {
    const { budgets } = only(objects({ patchWindow: { hour: 2, hours: 3, nodes: '20%' } }), 'NodePool').spec.disruption;
    expect(budgets.slice(1)).toEqual([{ nodes: '0', reasons: ['Drifted'], schedule: '0 5 * * *', duration: '21h' }, { nodes: '20%', reasons: ['Drifted'] }]);
  });

  test('bad windows and limits are refused at construction, naming the prop', () => {
    expect(() => pool({ patchWindow: { hour: 24, hours: 2 } })).toThrow(/\[karpenter\/windows\] patchWindow.hour: 24 is above 23/);
    expect(() => pool({ patchWindow: { hour: 1, hours: 24 } })).toThrow(/patchWindow.hours: 24 is above 23/);
    expect(() => pool({ patchWindow: { weekday: 7, hour: 1, hours: 2 } })).toThrow(/patchWindow.weekday: 7/);
    expect(() => pool({ limits: { cpu: 0 } })).toThrow(/limits.cpu: 0 is not a finite number above 0/);
  });

  // Issue 34.11: the value as the user wrote it, in the user's terms.
  test('errors name the value as written: a string hour, a BigInt cpu, a Windows version spelled as Karpenter\'s family', () => {
    expect(() => pool({ patchWindow: { hour: '22' as unknown as number, hours: 2 } })).toThrow(/patchWindow.hour: "22" is not a number/);
    expect(() => pool({ limits: { cpu: 64n as unknown as number } })).toThrow(/limits.cpu: 64n \(a BigInt\) is not a finite number above 0\. Fix: write it as a number: 64/);
    expect(() => pool({ windowsVersion: 'Windows2022' as WindowsVersion })).toThrow(/windowsVersion: "Windows2022" is not a WindowsVersion\. Fix: use one of WindowsVersion\.SERVER_2019/);
  });
});

// Values the pinned CRDs (aws/karpenter-provider-aws v1.14.1 pkg/apis/crds) or Karpenter itself refuse,
// refused at construction naming the prop, before anything is written.
describe('KarpenterWindowsNodePool refuses what Karpenter or its CRDs refuse', () => {
  // karpenter.sh_nodepools.yaml: budgets[].nodes pattern ^((100|[0-9]{1,2})%|[0-9]+)$; spec.limits the quantity pattern.
  test('a budget over 100% and a memory limit that is no quantity', () => {
    expect(() => pool({ patchWindow: { hour: 1, hours: 2, nodes: '150%' } })).toThrow(/\[karpenter\/windows\] patchWindow.nodes: "150%" is not a count \("1"\) or a share of at most 100%/);
    expect(() => pool({ patchWindow: { hour: 1, hours: 2, nodes: 2 as unknown as string } })).toThrow(/patchWindow.nodes: 2 is not a string/);
    expect(() => pool({ limits: { cpu: 64, memory: '256GB' } })).toThrow(/limits.memory: "256GB" is not a Kubernetes quantity.*"256Gi" for 256GiB/);
    expect(() => pool({ patchWindow: { hour: 1, hours: 2, nodes: '100%' }, limits: { cpu: 64, memory: '256G' } })).not.toThrow();
  });

  test('a cpu limit that is not finite (YAML .inf) or not a number', () => {
    expect(() => pool({ limits: { cpu: Infinity } })).toThrow(/limits.cpu: Infinity is not a finite number above 0/);
    expect(() => pool({ limits: { cpu: '64' as unknown as number } })).toThrow(/limits.cpu: "64" is not a finite number above 0\. Fix: write it as a number: 64/);
    expect(() => pool({ limits: undefined as unknown as { cpu: number } })).toThrow(/limits: not given, and it is required\. Fix: give e\.g\. \{ cpu: 64, memory: "256Gi" \}/);
  });

  // website/content/en/docs/concepts/nodepools.md, Capacity Type: spot, on-demand, reserved.
  test('a capacity type Karpenter does not know, or in the wrong case, matches no offering', () => {
    expect(() => pool({ capacityTypes: ['Spot'] })).toThrow(/capacityTypes\[0\]: "Spot" is not a capacity type Karpenter knows.*Fix: write "spot"/);
    expect(() => pool({ capacityTypes: [] })).toThrow(/capacityTypes: \[\] has fewer than 1 item/);
    expect(() => pool({ capacityTypes: 'spot' as unknown as string[] })).toThrow(/capacityTypes: "spot" is not a list\. Fix: write \["spot"\]/);
    expect(only(objects({ capacityTypes: ['spot', 'reserved'] }), 'NodePool').spec.template.spec.requirements).toContainEqual({ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'reserved'] });
  });

  // pkg/providers/amifamily/windows.go: Windows AMIs are amd64 only; the pool requires kubernetes.io/arch amd64.
  test('an instance type whose architecture contradicts the amd64 requirement (Graviton), or no instance type name', () => {
    expect(() => pool({ instanceTypes: ['m6i.xlarge', 'm7g.xlarge'] })).toThrow(/instanceTypes\[1\]: "m7g\.xlarge" is arm64 \(AWS Graviton\).*requires kubernetes\.io\/arch amd64.*Fix: pick an x86 type such as m7i\.xlarge/);
    expect(() => pool({ instanceTypes: ['M6i.xlarge'] })).toThrow(/instanceTypes\[0\]: "M6i\.xlarge" is not an EC2 instance type name/);
    // A family this library does not know is Karpenter's to match.
    expect(() => pool({ instanceTypes: ['m9x.large'] })).not.toThrow();
  });

  // pkg/providers/amifamily/bootstrap/windows.go (Script): spec.userData inside <powershell>, before the
  // bootstrap; spec.kubelet.clusterDNS[0] as -DNSClusterIP. concepts/nodeclasses.md (Windows Support Notice)
  // documents the userData workaround for a wrong service CIDR.
  test('userData (PowerShell) and clusterDns reach the EC2NodeClass; shell, tags and a non-IPv4 address are refused', () => {
    const nodeClass = only(objects({ userData: '$global:EKSCluster = Get-EKSCluster -Name eks-test', clusterDns: '10.100.0.10' }), 'EC2NodeClass');
    expect(nodeClass.spec.userData).toBe('$global:EKSCluster = Get-EKSCluster -Name eks-test');
    expect(nodeClass.spec.kubelet).toEqual({ clusterDNS: ['10.100.0.10'] });
    expect(only(objects(), 'EC2NodeClass').spec.kubelet).toBeUndefined();
    expect(() => pool({ userData: '#!/bin/bash\necho hi' })).toThrow(/userData: .* is a shell script, a MIME document or has <powershell> tags, and Karpenter writes it inside the node's <powershell> block/);
    expect(() => pool({ userData: '<powershell>Write-Host hi</powershell>' })).toThrow(/has <powershell> tags/);
    expect(() => pool({ clusterDns: 'fd00::a' })).toThrow(/clusterDns: "fd00::a" is not an IPv4 address/);
  });

  // IAM CreateRole RoleName [\w+=,.@-]{1,64}; EKS cluster names (terraform-provider-aws validClusterName).
  test('a role IAM refuses (a space, 65 characters; a role with a path passes), and a cluster name left undefined (kubernetes.io/cluster/undefined)', () => {
    expect(() => pool({ role: 'Karpenter Windows' })).toThrow(/role: "Karpenter Windows" is not an IAM role name.*Fix: give the node role's name/);
    expect(() => pool({ role: 'x'.repeat(65) })).toThrow(/has 65 characters, and IAM role names have at most 64/);
    expect(() => pool({ role: '' })).toThrow(/role: "" is empty/);
    // pkg/providers/instanceprofile/instanceprofile.go: a role with a path is passed by its last segment.
    expect(() => pool({ role: '/karpenter/eks-test-karpenter-windows' })).not.toThrow();
    expect(() => pool({ clusterName: undefined as unknown as string })).toThrow(/clusterName: not given, and it is required\. Fix: give the EKS cluster's name.*the default selectors look for its tags/);
    expect(() => pool({ subnetTags: { tier: 1 as unknown as string } })).toThrow(/subnetTags: {"tier":1} has "tier": 1, not a string/);
  });
});

describeWithCrds('KarpenterWindowsNodePool against the pinned Karpenter v1.14.1 CRDs', () => {
  test.each([
    ['the defaults', {}],
    ['every release, types, a weekly window', { windowsVersion: WindowsVersion.SERVER_2025, instanceTypes: ['m6i.xlarge'], capacityTypes: ['spot'], patchWindow: { weekday: 0, hour: 23, hours: 4 } }],
    ['a daily window', { windowsVersion: WindowsVersion.SERVER_2019, patchWindow: { hour: 0, hours: 23 } }],
    ['user data and cluster DNS', { userData: 'Write-Host hi', clusterDns: '172.20.0.10' }],
  ] as Array<[string, Partial<KarpenterWindowsNodePoolProps>]>)('%s pass the schemas and CEL rules', (_, props) => {
    for (const o of objects(props)) expect(crdViolations(o)).toEqual([]);
  });

  // The construct's patterns are the pinned CRD's, and the CRD refuses what the construct refuses.
  test('the budget and quantity patterns are the NodePool CRD\'s, which refuses 150% and 256GB', () => {
    const crd = readFileSync(join(CRD_DIR, 'karpenter', 'karpenter.sh_nodepools.yaml'), 'utf8');
    expect(crd).toContain(`pattern: ${KARPENTER_PATTERNS.budgetNodes.source}`);
    expect(crd).toContain(`pattern: ${KARPENTER_PATTERNS.quantity.source}`);
    const nodePool = only(objects({ patchWindow: { hour: 1, hours: 2 } }), 'NodePool');
    const patched = structuredClone(nodePool);
    patched.spec.disruption.budgets[2].nodes = '150%';
    patched.spec.limits.memory = '256GB';
    const problems = crdViolations(patched).join('\n');
    expect(problems).toMatch(/budgets\/2\/nodes must match pattern/);
    expect(problems).toMatch(/limits\/memory/);
  });

  // The alias rule of the EC2NodeClass CRD (aws/karpenter-provider-aws v1.14.1 pkg/apis/v1/ec2nodeclass.go,
  // Alias: "windows families may only specify version 'latest'"): Windows AMIs are found through the SSM
  // parameter of the newest image (pkg/providers/amifamily/windows.go, DescribeImageQuery).
  test('a pinned Windows alias version is refused at synth by the CRD\'s CEL rule, as the API server refuses it', () => {
    const message = synthError((p) => ApiObject.of(p.nodeClass).addJsonPatch(JsonPatch.replace('/spec/amiSelectorTerms/0/alias', 'windows2022@v20260101')));
    expect(message).toContain("EC2NodeClass windows: spec.amiSelectorTerms[0].alias: windows families may only specify version 'latest'");
    const al2023 = synthError((p) => ApiObject.of(p.nodeClass).addJsonPatch(JsonPatch.replace('/spec/amiSelectorTerms/0/alias', 'al2023@v20260101')));
    expect(al2023).not.toContain('windows families');
  });
});

describe('the karpenter-windows rule', () => {
  // aws/karpenter-provider-aws v1.14.1 website/content/en/docs/concepts/nodeclasses.md (Max Pods):
  // "Windows worker nodes do not support using more than one ENI".
  test('refuses a Windows EC2NodeClass with a second network interface', () => {
    const message = synthError((p) => ApiObject.of(p.nodeClass).addJsonPatch(JsonPatch.add('/spec/networkInterfaces', [
      { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' }, { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'interface' }])));
    expect(message).toContain('EC2NodeClass windows: EC2NodeClass windows launches Windows Server 2022 with 2 network interfaces, and Windows nodes use one ENI');
    expect(message).toContain('nodeclasses.md');
  });

  // pkg/providers/amifamily/resolver.go resolves an alias family to its AMI family; al2023's nodes are Linux, so
  // no instance meets the NodePool's kubernetes.io/os windows requirement.
  test('refuses a Windows NodePool whose EC2NodeClass was patched to a Linux alias', () => {
    const message = synthError((p) => ApiObject.of(p.nodeClass).addJsonPatch(JsonPatch.replace('/spec/amiSelectorTerms/0/alias', 'al2023@latest')));
    expect(message).toContain('NodePool windows requires kubernetes.io/os windows, and its EC2NodeClass windows launches the al2023 AMI family, whose nodes are Linux');
    expect(message).toContain('Fix: give EC2NodeClass windows a Windows alias');
  });

  // pkg/providers/amifamily/bootstrap/windows.go (Script): "<powershell>", then spec.userData, then the EKS bootstrap.
  test('refuses shell or MIME user data on a Windows EC2NodeClass, and passes PowerShell', () => {
    const bash = synthError((p) => ApiObject.of(p.nodeClass).addJsonPatch(JsonPatch.add('/spec/userData', '#!/bin/bash\necho hello > /etc/motd\n')));
    expect(bash).toMatch(/EC2NodeClass windows launches Windows Server 2022 with spec\.userData that is a shell script or a MIME document, and Karpenter runs a Windows node's user data as PowerShell/);
    const mime = synthError((p) => ApiObject.of(p.nodeClass).addJsonPatch(JsonPatch.add('/spec/userData', 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="//"\n')));
    expect(mime).toContain('spec.userData that is a shell script or a MIME document');
    expect(synthError((p) => ApiObject.of(p.nodeClass).addJsonPatch(JsonPatch.add('/spec/userData', 'Write-Host "hello"\n# a comment\n')))).toBe('');
  });

  test('refuses a Windows NodePool without a NoSchedule taint, and passes a Linux one', () => {
    const message = synthError((p) => ApiObject.of(p.nodePool).addJsonPatch(JsonPatch.remove('/spec/template/spec/taints')));
    expect(message).toContain('NodePool windows makes Windows nodes without a NoSchedule taint');
    const linux = { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'linux' }, spec: { template: { spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'al' }, requirements: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] } } } };
    const al = { apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass', metadata: { name: 'al' }, spec: { amiSelectorTerms: [{ alias: 'al2023@latest' }] } };
    expect(validateManifests([linux, al]).filter((v) => v.rule === 'karpenter-windows')).toEqual([]);
    // A Windows node class without an OS requirement is still a Windows pool.
    const windowsClass = { ...al, spec: { amiSelectorTerms: [{ alias: 'windows2025@latest' }] } };
    const untainted = { ...linux, spec: { template: { spec: { ...linux.spec.template.spec, requirements: [] } } } };
    expect(validateManifests([untainted, windowsClass]).map((v) => v.rule)).toContain('karpenter-windows');
  });
});

describe('KarpenterWindowsNodePool name', () => {
  // The object-meta rule judges the name the spec hands on (KARPENTER_WINDOWS_NODE_POOL_PROPS `name`, judgedBy), at construction.
  test('a name the API server refuses is refused at construction, naming the prop', () => {
    expect(() => pool({ name: 'Bad_Name' })).toThrow(/^\[karpenter\/windows\] name: EC2NodeClass Bad_Name: .*a DNS-1123 subdomain/);
    expect(() => pool({ name: 'windows-2022' })).not.toThrow();
  });
});
