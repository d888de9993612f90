import { TerraformVariable } from 'cdktn';
import { WindowsVersion } from '../../src';
import { AksLinuxNodePool, AksLinuxNodePoolProps, AksNetworkPolicy, AksSkuTier, AksSupportPlan, AksWindowsNodePool, AksWindowsNodePoolProps, HybridAksStackProps } from '../../src/aks';
import { onDay } from '../support/day';
import { expectOneShape } from '../support/message-shape';
import { all, synthTf, thrownMessage } from '../support/tf';
import { aksStack, hybridAks, synthError } from './fixture';

/**
 * The AKS rules of issue 22, each judged where the prop enters (a HybridConfigError naming it)
 * and on the final JSON at synth (the same value written by an override cannot slip past), with
 * a valid neighbour that passes. The `graph` rules (aks-coredns, aks-provider-version) need every
 * block of the stack and run at synth only. Sources: src/terraform/rules/aks-rules.ts.
 */

const linux = (props: Partial<AksLinuxNodePoolProps> = {}, stack: Partial<HybridAksStackProps> = {}) => () =>
  new AksLinuxNodePool(aksStack(stack).cluster, 'linux', { vmSize: 'Standard_D4ds_v5', ...props });
const windows = (props: Partial<AksWindowsNodePoolProps> = {}, stack: Partial<HybridAksStackProps> = {}) => () =>
  new AksWindowsNodePool(aksStack(stack).cluster, 'win', { vmSize: 'Standard_D4ds_v5', ...props });
const POOL = 'azurerm_kubernetes_cluster_node_pool\\.\\w+';
const CLUSTER = 'azurerm_kubernetes_cluster\\.\\w+';

describe('aks-kubernetes-version', () => {
  // AKS's release calendar (MicrosoftDocs/azure-aks-docs fb060abe, articles/aks/supported-kubernetes-versions.md),
  // written here from the document, not read from the code: community support ends ("End of life")
  // 1.33: Jul 2026, 1.34: Nov 2026; long-term support ends ("LTS End of life") 1.30: Jul 2026,
  // 1.31: Nov 2026, 1.33: Jul 2027; a month means its last day. Every test reads it on 2026-11-01.
  const LTS = { supportPlan: AksSupportPlan.AKS_LONG_TERM_SUPPORT };

  test('at construction: past community support without LTS, past LTS, older than the calendar or not 1.NN[.P] are refused naming kubernetesVersion; others pass', () => {
    const message = thrownMessage(() => aksStack({ kubernetesVersion: '1.33' }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster\\] kubernetesVersion: ${CLUSTER}: Kubernetes 1\\.33 left AKS community support on 2026-07-31 \\(the calendar is read on 2026-11-01\\), and AKS creates clusters of it only with long-term support \\(until 2027-07-31\\), which needs support_plan "AKSLongTermSupport" on the Premium tier\\. `
      + 'Fix: write a version in AKS community support on 2026-11-01 \\(1\\.34 to 1\\.37\\), or 1\\.31 to 1\\.33 with long-term support: support_plan = "AKSLongTermSupport" with sku_tier = "Premium" \\(supportPlan: AksSupportPlan\\.AKS_LONG_TERM_SUPPORT\\)\\.$'));
    expectOneShape(message);
    expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.33', ...LTS }))).toBe('');
    // 1.30's long-term support ended in July 2026: no plan helps.
    expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.30', ...LTS }))).toMatch(/kubernetesVersion: azurerm_kubernetes_cluster\.\w+: Kubernetes 1\.30 left AKS long-term support on 2026-07-31 \(the calendar is read on 2026-11-01\), and AKS creates no cluster of it\. Fix: write a version in AKS community support on 2026-11-01/);
    expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.28', ...LTS }))).toMatch(/Kubernetes 1\.28 is older than 1\.29, the oldest version on AKS's release calendar/);
    expect(thrownMessage(() => aksStack({ kubernetesVersion: 'v1.34' }))).toMatch(/is not an AKS Kubernetes version/);
    for (const v of ['1.34', '1.34.2', '1.37', '1.38']) expect(thrownMessage(() => aksStack({ kubernetesVersion: v }))).toBe('');
  });

  test('on both sides of each boundary: 1.34 leaves community support after 2026-11-30, 1.31 leaves LTS after 2026-11-30', () => {
    onDay('2026-11-30', () => {
      expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.34' }))).toBe('');
      expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.31', ...LTS }))).toBe('');
    });
    onDay('2026-12-01', () => {
      expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.34' }))).toMatch(/kubernetesVersion: \S+: Kubernetes 1\.34 left AKS community support on 2026-11-30 \(the calendar is read on 2026-12-01\).*Fix: write a version in AKS community support on 2026-12-01 \(1\.35 to 1\.37\), or 1\.32 to 1\.34 with long-term support/);
      expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.34', ...LTS }))).toBe('');
      expect(thrownMessage(() => aksStack({ kubernetesVersion: '1.31', ...LTS }))).toMatch(/Kubernetes 1\.31 left AKS long-term support on 2026-11-30 \(the calendar is read on 2026-12-01\), and AKS creates no cluster of it/);
    });
  });

  test('supportPlan writes support_plan and the Premium tier it needs; skuTier writes sku_tier, and LTS on another tier is refused naming skuTier', () => {
    const clusters = (props: Partial<HybridAksStackProps>) => all(synthTf(aksStack(props)), 'azurerm_kubernetes_cluster').map((c) => [c.support_plan, c.sku_tier]);
    expect(clusters({ kubernetesVersion: '1.33', ...LTS })).toEqual([['AKSLongTermSupport', 'Premium']]);
    // Unset: azurerm's defaults, KubernetesOfficial and Free.
    expect(clusters({})).toEqual([[undefined, undefined]]);
    expect(clusters({ skuTier: AksSkuTier.STANDARD })).toEqual([[undefined, 'Standard']]);
    const message = thrownMessage(() => aksStack({ kubernetesVersion: '1.34', ...LTS, skuTier: AksSkuTier.STANDARD }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster\\] skuTier: ${CLUSTER}: the cluster has support_plan "AKSLongTermSupport" and sku_tier "Standard", and AKS enables long-term support on the Premium tier only\\. Fix: set sku_tier = "Premium"`));
    expectOneShape(message);
  });

  test('at synth: the version, plan and tier by an override; a pool past LTS, or newer than its cluster', () => {
    const { stack, linux: pool, windows } = hybridAks();
    // As in hand-written JSON: pools without orchestrator_version run the cluster's version.
    for (const p of [pool, windows]) p.pool.addOverride('orchestrator_version', undefined);
    stack.cluster.cluster.addOverride('default_node_pool.orchestrator_version', undefined);
    stack.cluster.cluster.addOverride('kubernetes_version', '1.33');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/Cluster\\] ${CLUSTER}: Kubernetes 1\\.33 left AKS community support on 2026-07-31`));
    stack.cluster.cluster.addOverride('support_plan', 'AKSLongTermSupport');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/Cluster\\] ${CLUSTER}: the cluster has support_plan "AKSLongTermSupport" and sku_tier unset \\(azurerm sends Free\\)`));
    stack.cluster.cluster.addOverride('sku_tier', 'Premium');
    expect(synthError(stack)).toBe('');
    onDay('2027-08-01', () => expect(synthError(stack)).toMatch(/Kubernetes 1\.33 left AKS long-term support on 2027-07-31 \(the calendar is read on 2027-08-01\)/));
    stack.cluster.cluster.addOverride('kubernetes_version', '1.34');
    // AKS's platform support still creates pools of a version past community support: only past LTS is refused.
    pool.pool.addOverride('orchestrator_version', '1.33');
    expect(synthError(stack)).toBe('');
    pool.pool.addOverride('orchestrator_version', '1.30');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/linux/NodePool\\] ${POOL}: Kubernetes 1\\.30 left AKS long-term support on 2026-07-31 .*; or leave orchestrator_version unset for the cluster's`));
    pool.pool.addOverride('orchestrator_version', '1.35');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/linux/NodePool\\] ${POOL}: the pool runs Kubernetes 1\\.35 and its cluster 1\\.34`));
  });
});

describe('aks-system-pool', () => {
  test('at construction: a System pool of no nodes is refused naming systemPool.minCount; one node passes', () => {
    expect(thrownMessage(() => aksStack({ systemPool: { minCount: 0 } }))).toMatch(new RegExp(`systemPool\\.minCount: ${CLUSTER}: the System pool keeps 0 nodes`));
    expect(thrownMessage(() => aksStack({ systemPool: { minCount: 1 } }))).toBe('');
  });

  test('at synth: a Windows default pool, a Windows System pool, no default pool', () => {
    const { stack, windows: pool } = hybridAks();
    stack.cluster.cluster.addOverride('default_node_pool.os_sku', 'Windows2022');
    expect(synthError(stack)).toContain('the default node pool has os_sku Windows2022, and AKS\'s System pool must be Linux');
    stack.cluster.cluster.addOverride('default_node_pool.os_sku', 'AzureLinux');
    pool.pool.addOverride('mode', 'System');
    expect(synthError(stack)).toMatch(/Windows pool win has mode System, and AKS allows System mode on Linux pools only/);
    pool.pool.addOverride('mode', 'User');
    expect(synthError(stack)).toBe('');
  });
});

describe('aks-node-pool: names and the Windows taint', () => {
  test('at construction: a Windows pool name of 7 characters is refused naming name (azurerm allows 12); 6 pass', () => {
    const message = thrownMessage(windows({ name: 'win2022' }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster/win\\] name: ${POOL}: Windows pool name "win2022" is 7 characters, and AKS takes at most 6`));
    expectOneShape(message);
    expect(thrownMessage(windows({ name: 'win22' }))).toBe('');
    expect(thrownMessage(windows({ name: 'win202' }))).toBe('');
    // The construct id is the default name.
    expect(thrownMessage(() => new AksWindowsNodePool(aksStack().cluster, 'windows', { vmSize: 'Standard_D4ds_v5' }))).toMatch(/Windows pool name "windows" is 7 characters/);
  });

  test('at construction: Linux pool names of azurerm\'s pattern, 12 lower-case letters and digits', () => {
    expect(thrownMessage(linux({ name: 'linuxpool123' }))).toBe('');
    for (const name of ['linuxpool1234', 'Linux', 'apps-1', '1apps']) expect(thrownMessage(linux({ name }))).toMatch(/is not an AKS pool name\. Fix: use 1 to 12 lower-case letters and digits/);
  });

  test('at synth: the same name by an override; a Windows pool whose taint was removed', () => {
    const { stack, windows: pool } = hybridAks();
    pool.pool.addOverride('name', 'windows1');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/win/NodePool\\] ${POOL}: Windows pool name "windows1" is 8 characters`));
    pool.pool.addOverride('name', 'win');
    // cdktn merges an array override into the list; null writes none.
    pool.pool.addOverride('node_taints', null);
    expect(synthError(stack)).toContain('Windows pool win has no os=windows:NoSchedule taint; AKS taints no Windows node');
    pool.pool.addOverride('node_taints', ['os=windows:NoSchedule', 'dedicated=iis:NoSchedule']);
    expect(synthError(stack)).toBe('');
  });
});

describe('aks-windows-password', () => {
  test('at construction: a literal password is refused naming windowsAdminPassword, whatever its length', () => {
    const message = thrownMessage(() => aksStack({ windowsAdminPassword: 'Correct-Horse-Battery-9' }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster\\] windowsAdminPassword: ${CLUSTER}: the Windows admin password is a literal \\(23 characters\\), so it sits in the synthesized JSON and the Terraform state\\. Fix:`));
    expectOneShape(message);
    expect(thrownMessage(() => aksStack({ windowsAdminPassword: 'Short-1' }))).toMatch(/a literal \(7 characters\), .*and AKS takes 14 to 123 characters\. Fix/);
    expect(thrownMessage(() => aksStack({ windowsAdminPassword: 'Twelve-chars' }))).toContain('and AKS takes 14 to 123 characters (azurerm\'s plan accepts 8 or more, so only the apply would fail)');
    // AKS's ManagedClusterWindowsProfile.adminUsername: not a reserved name, at most 20 characters, not ending in "."
    // (learn.microsoft.com @azure/arm-containerservice); azurerm has no check (kubernetes_cluster_resource.go admin_username).
    expect(thrownMessage(() => aksStack({ windowsAdminUsername: 'admin' }))).toMatch(/^\[aks-test\/Cluster\] windowsAdminUsername: .*Windows admin user "admin" is one of the names AKS refuses/);
    expect(thrownMessage(() => aksStack({ windowsAdminUsername: 'Administrator' }))).toMatch(/windowsAdminUsername: .*one of the names AKS refuses/);
    expect(thrownMessage(() => aksStack({ windowsAdminUsername: 'a'.repeat(21) }))).toMatch(/windowsAdminUsername: .*is 21 characters, and AKS takes at most 20/);
    expect(thrownMessage(() => aksStack({ windowsAdminUsername: 'ops.' }))).toMatch(/windowsAdminUsername: .*ends in "\."/);
    // Valid for AKS, refused before this fix (issue 33 point 5: the regex cited was linux_profile's).
    for (const name of ['ops.admin', 'my.admin', '1admin', 'a'.repeat(20)]) expect(thrownMessage(() => aksStack({ windowsAdminUsername: name }))).toBe('');
  });

  test('a reference to a secret of your own passes', () => {
    const stack = aksStack({ windowsAdminPassword: '${data.azurerm_key_vault_secret.win.value}' });
    expect(synthError(stack)).toBe('');
  });

  test('at synth: a literal by an override, a default on the variable, a variable not marked sensitive', () => {
    const stack = aksStack();
    stack.cluster.cluster.addOverride('windows_profile.admin_password', 'Correct-Horse-Battery-9');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/Cluster\\] ${CLUSTER}: the Windows admin password is a literal`));
    stack.cluster.cluster.addOverride('windows_profile.admin_password', '${var.windows_admin_password}');
    expect(synthError(stack)).toBe('');
    stack.cluster.windowsAdminPassword!.addOverride('default', 'Correct-Horse-Battery-9');
    expect(synthError(stack)).toContain('the Windows admin password\'s variable windows_admin_password has a default, a literal in the synthesized JSON');
    const own = new TerraformVariable(stack, 'pw', { type: 'string' });
    own.overrideLogicalId('pw');
    stack.cluster.windowsAdminPassword!.addOverride('default', undefined);
    stack.cluster.cluster.addOverride('windows_profile.admin_password', own.stringValue);
    expect(synthError(stack)).toContain('the Windows admin password\'s variable pw is not marked sensitive, so plans print it');
  });
});

describe('aks-windows-os-sku', () => {
  test('at construction: Windows2019 on 1.33+, Windows2022 on 1.37+, Windows2025 below 1.32 are refused naming windowsVersion', () => {
    const message = thrownMessage(windows({ windowsVersion: WindowsVersion.SERVER_2019 }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster/win\\] windowsVersion: ${POOL}: Windows2019 runs on Kubernetes 1\\.32 at most, and the pool runs 1\\.34`));
    // 1.32 is out of community support on the pinned day (2026-11-01): the fix offers it only with LTS, and not once LTS has ended.
    expect(message).toMatch(/Fix: use WindowsVersion\.SERVER_2022, or Kubernetes 1\.32 with long-term support \(supportPlan AksSupportPlan\.AKS_LONG_TERM_SUPPORT\); for a pool that exists, add an AksWindowsNodePool of the new release under a new name, move the workloads, then remove the old pool: changing windowsVersion in place replaces the pool/);
    expect(onDay('2027-05-01', () => thrownMessage(windows({ windowsVersion: WindowsVersion.SERVER_2019 }, { kubernetesVersion: '1.36' }))))
      .toMatch(/Windows2019 runs on Kubernetes 1\.32 at most, and the pool runs 1\.36 .*Fix: use WindowsVersion\.SERVER_2022; for a pool that exists/);
    expectOneShape(message);
    // 1.31 and 1.32 left community support before the pinned day (2026-11-01): long-term support keeps them.
    const lts = { supportPlan: AksSupportPlan.AKS_LONG_TERM_SUPPORT };
    expect(thrownMessage(windows({ windowsVersion: WindowsVersion.SERVER_2019 }, { kubernetesVersion: '1.32', ...lts }))).toBe('');
    expect(thrownMessage(windows({}, { kubernetesVersion: '1.37' }))).toMatch(/Windows2022 runs on Kubernetes 1\.36 at most, and the pool runs 1\.37/);
    expect(thrownMessage(windows({}, { kubernetesVersion: '1.36' }))).toBe('');
    // Windows2025 from 1.32 (azure-aks-docs upgrade-windows-os.md); the provider rule refuses it at synth, not here.
    expect(thrownMessage(windows({ windowsVersion: WindowsVersion.SERVER_2025 }, { kubernetesVersion: '1.31', ...lts }))).toMatch(/Windows2025 needs Kubernetes 1\.32 or newer, and the pool runs 1\.31/);
    expect(thrownMessage(windows({ windowsVersion: WindowsVersion.SERVER_2025 }, { kubernetesVersion: '1.32', ...lts }))).toBe('');
  });

  test('Windows2025 without FIPS is refused naming fipsEnabled, at construction and at synth; FIPS stays optional on 2022', () => {
    // AKS: Windows Server 2025 pools "don't support disabling FIPS" (azure-aks-docs enable-fips-nodes.md).
    const message = thrownMessage(windows({ windowsVersion: WindowsVersion.SERVER_2025, fipsEnabled: false }, { kubernetesVersion: '1.35' }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster/win\\] fipsEnabled: ${POOL}: Windows2025 pools run FIPS, which AKS does not let them turn off, and the pool has fips_enabled false`));
    expectOneShape(message);
    expect(thrownMessage(windows({ fipsEnabled: false }))).toBe('');
    const stack = aksStack({ kubernetesVersion: '1.35' });
    stack.addOverride('terraform.required_providers.azurerm.version', '> 5.2.0');
    const pool = new AksWindowsNodePool(stack.cluster, 'w25', { vmSize: 'Standard_D4ds_v5', windowsVersion: WindowsVersion.SERVER_2025 });
    expect(synthError(stack)).toBe('');
    // azurerm sends enableFIPS false for an absent fips_enabled (v4.73.0 kubernetes_cluster_node_pool_resource.go).
    pool.pool.addOverride('fips_enabled', null);
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/w25/NodePool\\] ${POOL}: Windows2025 pools run FIPS, which AKS does not let them turn off, and the pool has fips_enabled unset \\(azurerm sends false\\)`));
  });

  test('at synth: Windows2019 by an override, a Linux SKU on a Windows pool, 2019 without a version (AKS\'s default is newer)', () => {
    const { stack, windows: pool } = hybridAks();
    pool.pool.addOverride('os_sku', 'Windows2019');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/win/NodePool\\] ${POOL}: Windows2019 runs on Kubernetes 1\\.32 at most`));
    pool.pool.addOverride('os_sku', 'Ubuntu');
    expect(synthError(stack)).toContain('Windows pool win has os_sku "Ubuntu", not a Windows SKU');
    pool.pool.addOverride('os_sku', 'Windows2019');
    pool.pool.addOverride('orchestrator_version', undefined);
    stack.cluster.cluster.addOverride('default_node_pool.orchestrator_version', undefined);
    stack.cluster.cluster.addOverride('kubernetes_version', undefined);
    expect(synthError(stack)).toContain('the pool runs AKS\'s default version, which is newer');
    // Windows2022 runs on AKS's default version on 2026-11-01 (one in community support: 1.34 or newer, below 1.37)...
    pool.pool.addOverride('os_sku', 'Windows2022');
    expect(synthError(stack)).toBe('');
    // ...and not once 1.36 has left community support (2027-06-30): the default is then 1.37 or newer.
    onDay('2027-07-01', () => expect(synthError(stack)).toContain('Windows2022 runs on Kubernetes 1.36 at most, and the pool runs AKS\'s default version, which is newer'));
  });
});

describe('aks-windows-network', () => {
  test('at construction: a Windows pool in a Cilium cluster is refused; a Linux-only Cilium cluster passes', () => {
    const message = thrownMessage(windows({}, { networkPolicy: AksNetworkPolicy.CILIUM }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster/win\\] ${POOL}: Windows pool win is in a cluster with Cilium, which runs no Windows nodes\\. Fix: use networkPolicy AksNetworkPolicy\\.CALICO`));
    expect(thrownMessage(linux({}, { networkPolicy: AksNetworkPolicy.CILIUM }))).toBe('');
    expect(thrownMessage(windows({}, { networkPolicy: AksNetworkPolicy.AZURE }))).toBe('');
  });

  test('at synth: kubenet by an override, and no network_profile at all (azurerm\'s default is kubenet)', () => {
    const { stack } = hybridAks();
    stack.cluster.cluster.addOverride('network_profile.network_plugin', 'kubenet');
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/win/NodePool\\] ${POOL}: Windows pool win is in a cluster whose network plugin is kubenet, and Windows nodes need Azure CNI`));
    stack.cluster.cluster.addOverride('network_profile', undefined);
    expect(synthError(stack)).toContain('network plugin is kubenet (no network_profile: kubenet)');
  });
});

describe('aks-node-labels', () => {
  test('at construction: labels the kubelet refuses or AKS reserves are refused naming labels; others pass', () => {
    const message = thrownMessage(linux({ labels: { 'node-role.kubernetes.io/worker': 'true' } }));
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster/linux\\] labels: ${POOL}: label node-role\\.kubernetes\\.io/worker is in the kubernetes\\.io/k8s\\.io namespace`));
    expectOneShape(message);
    expect(thrownMessage(windows({ labels: { 'kubernetes.azure.com/scalesetpriority': 'spot' } }))).toContain('label kubernetes.azure.com/scalesetpriority is in kubernetes.azure.com, which AKS reserves');
    expect(thrownMessage(linux({ labels: { team: 'a'.repeat(64) } }))).toContain('has a value of 64 characters');
    expect(thrownMessage(linux({ labels: { team: 'web', 'example.com/tier': 'front' } }))).toBe('');
  });

  test('at synth: labels and taints by overrides, the system pool included', () => {
    const { stack, linux: pool } = hybridAks();
    stack.cluster.cluster.addOverride('default_node_pool.node_labels', { 'kubernetes.io/os': 'linux' });
    expect(synthError(stack)).toContain('label kubernetes.io/os is set by the kubelet from the node itself');
    stack.cluster.cluster.addOverride('default_node_pool.node_labels', { tier: 'system' });
    pool.pool.addOverride('node_taints', ['dedicated=web:NoScheduled']);
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/linux/NodePool\\] ${POOL}: taint "dedicated=web:NoScheduled" is not key=value:Effect`));
    pool.pool.addOverride('node_taints', ['-bad=web:NoSchedule']);
    expect(synthError(stack)).toContain('taint key "-bad" has a name that is not alphanumeric');
    pool.pool.addOverride('node_taints', ['dedicated=web:NoSchedule', 'spot:PreferNoSchedule']);
    expect(synthError(stack)).toBe('');
  });
});

describe('aks-max-pods: per node, against the subnet and the pod CIDR', () => {
  test('at construction: max pods out of 10 to 250, or below 30 on the System pool, are refused naming the prop', () => {
    expect(thrownMessage(windows({ maxPods: 5 }))).toMatch(new RegExp(`^\\[aks-test/Cluster/win\\] maxPods: ${POOL}: max_pods .*5`));
    expect(thrownMessage(linux({ maxPods: 251 }))).toMatch(/maxPods: .*max_pods/);
    expect(thrownMessage(() => aksStack({ systemPool: { maxPods: 20 } }))).toMatch(/systemPool\.maxPods: .*max_pods .*\(a System pool runs the system pods: AKS wants 30 or more\)/);
    for (const maxPods of [10, 250]) expect(thrownMessage(linux({ maxPods }))).toBe('');
    expect(thrownMessage(() => aksStack({ systemPool: { maxPods: 30 } }))).toBe('');
  });

  test('at construction: pools that outgrow their subnet, upgrade surge included (Azure reserves 5 addresses)', () => {
    // /27: 27 usable. The System pool takes 3 + 1 surge; a pool of 20 takes 20 + 2.
    const small = { network: { addressSpace: '10.224.0.0/16', subnetCidr: '10.224.0.0/27' } };
    expect(thrownMessage(windows({ maxCount: 20 }, small))).toBe(''); // 4 + 20 + 2 = 26
    const message = thrownMessage(windows({ maxCount: 21 }, small)); // 4 + 21 + 3 = 28
    expect(message).toMatch(new RegExp(`^\\[aks-test/Cluster/win\\] maxCount: ${POOL}: the pools in subnet 10\\.224\\.0\\.0/27 \\(system, win\\) need 28 addresses at their largest, upgrade surge included, and the subnet has 27`));
    expectOneShape(message);
    expect(thrownMessage(() => aksStack({ network: { subnetCidr: '10.224.0.0/29' } }))).toMatch(/systemPool\.maxNodes: .*the pools in subnet 10\.224\.0\.0\/29 \(system\) need 4 addresses/);
  });

  test('at construction: more nodes than the Overlay pod CIDR holds (a /24 each)', () => {
    expect(thrownMessage(() => aksStack({ podCidr: '10.244.0.0/23' }))).toMatch(/podCidr: .*pod CIDR 10\.244\.0\.0\/23 holds 2 nodes \(a \/24 each with Azure CNI Overlay\), and the pools may grow to 3/);
    expect(thrownMessage(() => aksStack({ podCidr: '10.244.0.0/22' }))).toBe('');
  });

  test('at synth: max pods and counts by overrides, and flat Azure CNI, where each node takes max pods + 1 addresses', () => {
    const { stack, linux: pool } = hybridAks({ network: { subnetCidr: '10.224.0.0/24' } });
    pool.pool.addOverride('max_pods', 300);
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/linux/NodePool\\] ${POOL}: max_pods`));
    pool.pool.addOverride('max_pods', 30);
    expect(synthError(stack)).toBe('');
    // Flat Azure CNI: 3 pools of 3 nodes + 1 surge, each node 31 addresses (the default 30 pods + 1) = 372 > 251.
    stack.cluster.cluster.addOverride('network_profile.network_plugin_mode', undefined);
    expect(synthError(stack)).toMatch(/the pools in subnet 10\.224\.0\.0\/24 \(system, linux, win\) need 372 addresses at their largest/);
  });
});

describe('aks-pool-names', () => {
  test('at construction: a pool named like the System pool is refused naming name', () => {
    expect(thrownMessage(linux({ name: 'system' }))).toMatch(new RegExp(`^\\[aks-test/Cluster/linux\\] name: ${POOL}: pool name "system" is also the name of the cluster's default pool`));
    expect(thrownMessage(linux({ name: 'apps' }))).toBe('');
  });

  test('at synth: two pools of one name (each construct sees only its own and its cluster)', () => {
    const stack = aksStack();
    new AksLinuxNodePool(stack.cluster, 'a', { vmSize: 'Standard_D4ds_v5', name: 'apps' });
    const second = new AksLinuxNodePool(stack.cluster, 'b', { vmSize: 'Standard_D4ds_v5', name: 'apps' });
    expect(synthError(stack)).toMatch(new RegExp(`\\[aks-test/Cluster/b/NodePool\\] ${POOL}: pool name "apps" is also the name of aks-test/Cluster/a/NodePool`));
    second.pool.addOverride('name', 'apps2');
    // The rotation name came from the construct's name: an override of the name leaves it, and two rotations may not share one.
    expect(synthError(stack)).toMatch(/temporary_name_for_rotation "appstmp" is also the temporary name of aks-test\/Cluster\/a\/NodePool/);
    second.pool.addOverride('temporary_name_for_rotation', 'apps2tmp');
    expect(synthError(stack)).toBe('');
  });
});

describe('aks-coredns (graph: synth only)', () => {
  test('Windows pools and no Linux pool that keeps a node CoreDNS runs on; a Linux user pool with a node is enough', () => {
    const { stack, linux: pool } = hybridAks();
    stack.cluster.cluster.addOverride('default_node_pool.os_sku', 'Windows2022');
    pool.pool.addOverride('min_count', 0);
    const message = synthError(stack);
    expect(message).toMatch(new RegExp(`\\[aks-test/Cluster/Cluster\\] ${CLUSTER}: Windows pools \\(system, win\\) need a Linux node for CoreDNS`));
    expect(message).toContain('need a Linux node for CoreDNS, and no Linux pool of the cluster keeps one it can run on');
    pool.pool.addOverride('min_count', 1);
    // Only the System pool's own rule is left.
    expect(synthError(stack)).not.toContain('CoreDNS');
    pool.pool.addOverride('node_taints', ['dedicated=web:NoSchedule']);
    expect(synthError(stack)).toContain('CoreDNS');
  });

  test('the default stack passes: its System pool is Linux with at least one node', () => {
    expect(synthError(hybridAks().stack)).toBe('');
  });
});

describe('aks-provider-version (graph: synth only)', () => {
  test('Windows2025 with the pinned azurerm 4.73.0 is refused at synth, naming the override; passes with a constraint that admits a newer release', () => {
    const stack = aksStack();
    new AksWindowsNodePool(stack.cluster, 'w25', { vmSize: 'Standard_D4ds_v5', windowsVersion: WindowsVersion.SERVER_2025 });
    const message = synthError(stack);
    expect(message).toMatch(new RegExp(`\\[aks-test/Cluster/w25/NodePool\\] ${POOL}: os_sku Windows2025 is unknown to hashicorp/azurerm 4\\.73\\.0`));
    expect(message).toContain("stack.addOverride('terraform.required_providers.azurerm.version', '> 5.2.0')");
    expectOneShape(message);
    stack.addOverride('terraform.required_providers.azurerm.version', '~> 4.73');
    expect(synthError(stack)).toContain('is unknown to hashicorp/azurerm ~> 4.73');
    stack.addOverride('terraform.required_providers.azurerm.version', '> 5.2.0');
    expect(synthError(stack)).toBe('');
  });
});
