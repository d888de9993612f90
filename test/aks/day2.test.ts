import { Testing } from 'cdktn';
import type { Json } from '../../src/rules/engine/graph';
import { WindowsVersion, validateTerraform } from '../../src';
import { AksLinuxNodePool, AksWindowsNodePool, HybridAksStack } from '../../src/aks';
import { aksRotationName } from '../../src/platform/aks';
import { all, synthTf, thrownMessage } from '../support/tf';
import { aksStack, hybridAks, synthError } from './fixture';

/**
 * Day 2 on AKS (issue 33, points 1 to 4 and 12, 14): what the next apply does with each edit, read
 * in hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/ and
 * MicrosoftDocs/azure-aks-docs fb060abe articles/aks/.
 */
describe('every pool rotates through a temporary pool AKS takes (point 1)', () => {
  // kubernetes_cluster_node_pool_resource.go update: a change of fips_enabled, max_pods, vm_size,
  // vnet_subnet_id, zones (cycleNodePoolProperties) fails with "`temporary_name_for_rotation` must be
  // specified" without one; with one, azurerm creates the temporary pool with the new values
  // (tempAgentProfile.Name = temporaryNodePoolName), so a Windows pool's temporary name obeys AKS's 6 characters.
  test('Linux and Windows user pools write temporary_name_for_rotation; a Windows pool\'s has 6 characters at most', () => {
    const stack = aksStack();
    new AksLinuxNodePool(stack.cluster, 'linux', { vmSize: 'Standard_D4ds_v5' });
    new AksLinuxNodePool(stack.cluster, 'batchworkers', { vmSize: 'Standard_D4ds_v5' });
    new AksWindowsNodePool(stack.cluster, 'win', { vmSize: 'Standard_D4ds_v5' });
    new AksWindowsNodePool(stack.cluster, 'win22a', { vmSize: 'Standard_D4ds_v5' });
    new AksWindowsNodePool(stack.cluster, 'win22b', { vmSize: 'Standard_D4ds_v5' });
    const pools = all(synthTf(stack), 'azurerm_kubernetes_cluster_node_pool');
    const rotation = Object.fromEntries(pools.map((p) => [p.name, p.temporary_name_for_rotation]));
    expect(rotation.linux).toBe('linuxtmp');
    expect(rotation.win).toBe('wintmp');
    expect(rotation.batchworkers).toMatch(/^batchwork[a-z0-9]{3}$/);
    for (const name of ['win22a', 'win22b']) expect(rotation[name]).toMatch(/^win[a-z0-9]{3}$/);
    expect(rotation.win22a).not.toBe(rotation.win22b);
    expect(new Set(Object.values(rotation)).size).toBe(5);
  });

  test('temporaryNameForRotation sets it; a Windows one over 6 characters, or one another pool uses, is refused naming it', () => {
    const stack = aksStack();
    const pool = new AksWindowsNodePool(stack.cluster, 'win', { vmSize: 'Standard_D4ds_v5', temporaryNameForRotation: 'wrot' });
    expect(all(synthTf(stack), 'azurerm_kubernetes_cluster_node_pool')[0].temporary_name_for_rotation).toBe('wrot');
    expect(thrownMessage(() => new AksWindowsNodePool(aksStack().cluster, 'win', { vmSize: 'Standard_D4ds_v5', temporaryNameForRotation: 'wintemp' })))
      .toMatch(/^\[aks-test\/Cluster\/win\] temporaryNameForRotation: .*temporary pool "wintemp" of 7 characters, and AKS takes at most 6 for a Windows pool/);
    new AksLinuxNodePool(stack.cluster, 'wrot', { vmSize: 'Standard_D4ds_v5' });
    expect(synthError(stack)).toMatch(/temporary_name_for_rotation "wrot" is also the name of aks-test\/Cluster\/wrot\/NodePool/);
    pool.pool.addOverride('temporary_name_for_rotation', 'systemtmp');
    expect(synthError(stack)).toMatch(/temporary_name_for_rotation "systemtmp" is also the temporary name of the cluster's default pool/);
  });

  test('the derived names are pool names azurerm takes (KubernetesAgentPoolName) and differ from the pool\'s', () => {
    for (const name of ['a', 'abc', 'abcdef', 'abcdefghijkl', 'w1', 'x12345']) {
      for (const windows of [false, true]) {
        if (windows && name.length > 6) continue;
        const r = aksRotationName(name, windows);
        expect([name, r]).toEqual([name, expect.stringMatching(windows ? /^[a-z][a-z0-9]{0,5}$/ : /^[a-z][a-z0-9]{0,11}$/)]);
        expect(r).not.toBe(name);
      }
    }
  });
});

describe('pools follow the cluster\'s version, within AKS\'s skew (point 2)', () => {
  // kubernetes_cluster_resource.go update: a kubernetes_version change PUTs the control plane only
  // (kubernetes_cluster_resource_upgrade_test.go: "the default node pool shouldn't have been"
  // upgraded); the default pool moves when default_node_pool.orchestrator_version changes, in the
  // same update, after the control plane; a separate pool when its orchestrator_version changes
  // (kubernetes_cluster_node_pool_resource.go update, validateNodePoolSupportsVersion).
  test('every pool, the default one included, writes the cluster\'s kubernetesVersion as orchestrator_version', () => {
    const tf = synthTf(hybridAks({ kubernetesVersion: '1.35' }).stack);
    const [cluster] = all(tf, 'azurerm_kubernetes_cluster');
    expect(cluster.kubernetes_version).toBe('1.35');
    expect(cluster.default_node_pool.orchestrator_version).toBe('1.35');
    expect(all(tf, 'azurerm_kubernetes_cluster_node_pool').map((p) => p.orchestrator_version)).toEqual(['1.35', '1.35']);
  });

  test('kubernetesVersion on a pool holds it back: up to 3 minors behind the cluster, never ahead (supported-kubernetes-versions.md FAQ)', () => {
    const stack = aksStack({ kubernetesVersion: '1.36' });
    new AksWindowsNodePool(stack.cluster, 'win', { vmSize: 'Standard_D4ds_v5', kubernetesVersion: '1.35' });
    expect(all(synthTf(stack), 'azurerm_kubernetes_cluster_node_pool')[0].orchestrator_version).toBe('1.35');
    expect(thrownMessage(() => new AksLinuxNodePool(aksStack({ kubernetesVersion: '1.36' }).cluster, 'old', { vmSize: 'Standard_D4ds_v5', kubernetesVersion: '1.32' })))
      .toMatch(/^\[aks-test\/Cluster\/old\] kubernetesVersion: .*the pool runs Kubernetes 1\.32, 4 minors behind its cluster's 1\.36, and AKS keeps node pools within 3 minors of the control plane/);
    expect(thrownMessage(() => new AksLinuxNodePool(aksStack({ kubernetesVersion: '1.36' }).cluster, 'old', { vmSize: 'Standard_D4ds_v5', kubernetesVersion: '1.33' }))).toBe('');
    expect(thrownMessage(() => new AksLinuxNodePool(aksStack({ kubernetesVersion: '1.35' }).cluster, 'new', { vmSize: 'Standard_D4ds_v5', kubernetesVersion: '1.36' })))
      .toMatch(/kubernetesVersion: .*the pool runs Kubernetes 1\.36 and its cluster 1\.35; AKS refuses a node pool newer than the control plane/);
  });
});

describe('edits that replace the cluster or a pool stop at plan (point 3)', () => {
  // Terraform: prevent_destroy makes a plan that destroys the resource fail, and guards only what
  // stays in the configuration (hashicorp/terraform website/docs/language/meta-arguments/lifecycle.mdx).
  test('the cluster and every pool carry prevent_destroy; deletionProtection: false drops it', () => {
    const tf = synthTf(hybridAks().stack);
    expect(all(tf, 'azurerm_kubernetes_cluster')[0].lifecycle.prevent_destroy).toBe(true);
    expect(all(tf, 'azurerm_kubernetes_cluster_node_pool').map((p) => p.lifecycle)).toEqual([
      { ignore_changes: ['node_count'], prevent_destroy: true }, { ignore_changes: ['node_count'], prevent_destroy: true },
    ]);
    const off = synthTf(hybridAks({ deletionProtection: false }).stack);
    expect([...all(off, 'azurerm_kubernetes_cluster'), ...all(off, 'azurerm_kubernetes_cluster_node_pool')].map((b) => b.lifecycle.prevent_destroy)).toEqual([undefined, undefined, undefined]);
  });

  test('the Windows release fixes lead to a new pool, never to an in-place change (kubernetes_cluster_node_pool_resource.go CustomizeDiff: os_sku ForceNew off Ubuntu/AzureLinux; upgrade-windows-os.md)', () => {
    const message = thrownMessage(() => new AksWindowsNodePool(aksStack({ kubernetesVersion: '1.35' }).cluster, 'win', { vmSize: 'Standard_D4ds_v5', windowsVersion: WindowsVersion.SERVER_2019 }));
    expect(message).toContain('for a pool that exists, add an AksWindowsNodePool of the new release under a new name, move the workloads, then remove the old pool');
  });
});

describe('what AKS refuses at create, refused at synth (point 4)', () => {
  test('address ranges: the Service CIDR over the nodes\' subnet, the pod CIDR over it, DNS outside, a /12, reserved ranges (concepts-network-azure-cni-overlay.md, concepts-network-cni-overview.md)', () => {
    const refusal = (props: Parameters<typeof aksStack>[0]) => thrownMessage(() => Testing.synth(aksStack(props), true));
    expect(refusal({ serviceCidr: '10.224.0.0/16' })).toMatch(/^\[aks-test\/Cluster\] serviceCidr: .*service_cidr 10\.224\.0\.0\/16 overlaps the nodes' subnet 10\.224\.0\.0\/20/);
    expect(refusal({ podCidr: '10.224.0.0/16' })).toMatch(/podCidr: .*pod_cidr 10\.224\.0\.0\/16 overlaps the nodes' subnet 10\.224\.0\.0\/20/);
    expect(refusal({ podCidr: '10.0.0.0/16' })).toMatch(/service_cidr 10\.0\.0\.0\/16 overlaps pod_cidr 10\.0\.0\.0\/16/);
    expect(refusal({ serviceCidr: '10.0.0.0/11' })).toMatch(/service_cidr 10\.0\.0\.0\/11 is a \/11, and AKS takes a Service CIDR smaller than \/12/);
    expect(refusal({ podCidr: '172.16.0.0/12' })).toMatch(/pod_cidr 172\.16\.0\.0\/12 overlaps 172\.30\.0\.0\/16, a range AKS reserves/);
    expect(refusal({ serviceCidr: '172.30.0.0/16' })).toMatch(/service_cidr 172\.30\.0\.0\/16 overlaps 172\.30\.0\.0\/16/);
    expect(refusal({ serviceCidr: '10.0.0.0/13' })).toBe('');
    expect(refusal({ podCidr: '192.168.0.0/16', serviceCidr: '172.20.0.0/16' })).toBe('');
  });

  test('the derived DNS address carries into the next octet, and one outside the Service CIDR is refused naming serviceCidr (N7)', () => {
    const stack = aksStack({ serviceCidr: '10.0.0.0/24' });
    expect(all(synthTf(stack), 'azurerm_kubernetes_cluster')[0].network_profile.dns_service_ip).toBe('10.0.0.10');
    expect(thrownMessage(() => aksStack({ serviceCidr: '172.20.0.248/29' })))
      .toMatch(/^\[aks-test\/Cluster\] serviceCidr: .*dns_service_ip "172\.20\.1\.2" is not an address of service_cidr 172\.20\.0\.248\/29/);
    const json = JSON.parse(Testing.synth(aksStack()));
    Object.values<Json>(json.resource.azurerm_kubernetes_cluster)[0].network_profile.dns_service_ip = '10.1.0.10';
    expect(validateTerraform(json).map((v) => v.message)).toEqual([expect.stringContaining('dns_service_ip "10.1.0.10" is not an address of service_cidr 10.0.0.0/16')]);
  });

  test('a VNet name past Azure\'s 64 characters is refused naming clusterName', () => {
    expect(thrownMessage(() => aksStack({ clusterName: 'a'.repeat(60) }))).toMatch(/^\[aks-test\] clusterName: the VNet is named a+-vnet, 65 characters, and Azure takes at most 64/);
    expect(thrownMessage(() => aksStack({ clusterName: 'a'.repeat(59) }))).toBe('');
  });

  test('the maintenance window: day (case), duration 4 to 24, HH:mm, ±HH:mm, naming the prop (kubernetes_cluster_resource.go maintenance_window_node_os)', () => {
    expect(thrownMessage(() => aksStack({ maintenanceWindow: { dayOfWeek: 'sunday' } }))).toMatch(/^\[aks-test\/Cluster\] maintenanceWindow\.dayOfWeek: .*day_of_week "sunday" is not one of Sunday/);
    expect(thrownMessage(() => aksStack({ maintenanceWindow: { durationHours: 3 } }))).toMatch(/maintenanceWindow\.durationHours: .*duration 3 is below 4/);
    expect(thrownMessage(() => aksStack({ maintenanceWindow: { durationHours: 4.5 } }))).toMatch(/maintenanceWindow\.durationHours: .*4\.5 is not a whole number/);
    expect(thrownMessage(() => aksStack({ maintenanceWindow: { startTime: '25:00' } }))).toMatch(/maintenanceWindow\.startTime: .*start_time "25:00" is not HH:mm/);
    expect(thrownMessage(() => aksStack({ maintenanceWindow: { utcOffset: '1:00' } }))).toMatch(/maintenanceWindow\.utcOffset: .*utc_offset "1:00"/);
    expect(thrownMessage(() => aksStack({ maintenanceWindow: { dayOfWeek: 'Friday', durationHours: 24, startTime: '23:30', utcOffset: '-08:00' } }))).toBe('');
  });

  test('hand-written JSON: a license azurerm does not take, os_type in lower case, autoscaling without max_count, min/max without autoscaling (plan-time refusals)', () => {
    const base = () => JSON.parse(Testing.synth(hybridAks().stack));
    const messages = (edit: (cluster: Json, pools: Json[]) => void) => {
      const json = base();
      edit(Object.values<Json>(json.resource.azurerm_kubernetes_cluster)[0], Object.values<Json>(json.resource.azurerm_kubernetes_cluster_node_pool));
      return validateTerraform(json).map((v) => v.message).join('\n');
    };
    expect(messages(() => undefined)).toBe('');
    expect(messages((c) => { c.windows_profile.license = 'None'; })).toContain('windows_profile.license "None" is not one azurerm takes');
    expect(messages((_, [, w]) => { w.os_type = 'windows'; })).toContain('os_type "windows" is not "Linux" or "Windows"');
    expect(messages((_, [l]) => { delete l.max_count; })).toContain('autoscales without max_count');
    expect(messages((_, [l]) => { l.auto_scaling_enabled = false; l.node_count = 2; })).toContain('does not autoscale and keeps min_count or max_count');
    expect(messages((_, [l]) => { l.auto_scaling_enabled = false; l.node_count = 2; l.min_count = null; l.max_count = null; })).toBe('');
  });
});

describe('unsafe or stale defaults (point 6)', () => {
  // "the cluster identity ... must have at least Network Contributor permissions on the subnet"
  // (azure-aks-docs concepts-network-cni-overview.md); a system-assigned identity is granted after the
  // cluster exists (managed-identity-overview.md).
  test('the stack grants the cluster\'s identity Network Contributor on the subnet it creates; not with subnetRoleAssignment false or an existing network', () => {
    const tf = synthTf(hybridAks().stack);
    expect(all(tf, 'azurerm_role_assignment')).toEqual([{
      scope: expect.stringMatching(/^\$\{azurerm_subnet\.\w+\.id\}$/), role_definition_name: 'Network Contributor',
      principal_id: expect.stringMatching(/^\$\{azurerm_kubernetes_cluster\.\w+\.identity\[0\]\.principal_id\}$/),
    }]);
    expect(all(synthTf(aksStack({ subnetRoleAssignment: false })), 'azurerm_role_assignment')).toEqual([]);
    const subnetId = '/subscriptions/0/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/aks';
    expect(all(synthTf(aksStack({ existingNetwork: { resourceGroupName: 'shared', subnetId } })), 'azurerm_role_assignment')).toEqual([]);
  });
});

describe('two stacks that cannot both exist (point 12)', () => {
  test('two AKS stacks of one cluster in one resource group in one app are refused; other names or groups pass', () => {
    const app = Testing.app();
    new HybridAksStack(app, 'one', { location: 'westeurope', clusterName: 'aks', kubernetesVersion: '1.35' });
    expect(thrownMessage(() => new HybridAksStack(app, 'two', { location: 'northeurope', clusterName: 'aks', kubernetesVersion: '1.35' })))
      .toMatch(/^\[two\] clusterName: stack one already makes AKS cluster aks in resource group aks-rg/);
    expect(thrownMessage(() => new HybridAksStack(app, 'three', { location: 'westeurope', clusterName: 'other', resourceGroupName: 'aks-rg', kubernetesVersion: '1.35' })))
      .toMatch(/^\[three\] resourceGroupName: stack one already creates resource group aks-rg/);
    expect(thrownMessage(() => new HybridAksStack(app, 'four', { location: 'westeurope', clusterName: 'aks', resourceGroupName: 'aks-north', kubernetesVersion: '1.35' }))).toBe('');
  });
});

describe('props checked before anything is written (point 14)', () => {
  test('a null props object and counts that are not whole numbers name the prop', () => {
    const cluster = aksStack().cluster;
    expect(thrownMessage(() => new AksWindowsNodePool(cluster, 'w1', null as unknown as { vmSize: string }))).toMatch(/^\[aks-test\/Cluster\/w1\] props: null is not an object of props/);
    expect(thrownMessage(() => new AksLinuxNodePool(cluster, 'l1', { vmSize: 'Standard_D4ds_v5', minCount: 1.5 }))).toMatch(/^\[aks-test\/Cluster\/l1\] minCount: 1\.5 is not a whole number/);
    expect(thrownMessage(() => new AksLinuxNodePool(cluster, 'l2', { vmSize: 'Standard_D4ds_v5', maxCount: NaN }))).toMatch(/maxCount: NaN is not a whole number/);
    expect(thrownMessage(() => new AksLinuxNodePool(cluster, 'l3', { vmSize: 'Standard_D4ds_v5', maxPods: 30.5 }))).toMatch(/maxPods: 30\.5 is not a whole number/);
  });
});
