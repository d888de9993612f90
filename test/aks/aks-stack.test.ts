import { WindowsVersion, validateTerraform } from '../../src';
import { AksNetworkPolicy, AksNodeOsUpgradeChannel, AksWindowsLicense, AksWindowsNodePool } from '../../src/aks';
import { all, synthTf } from '../support/tf';
import { aksStack, hybridAks } from './fixture';

/**
 * What HybridAksStack, AksLinuxNodePool and AksWindowsNodePool write (issue 22, "Build"): each
 * field read back from the synthesized JSON, where azurerm v4.73.0
 * (internal/services/containers/kubernetes_cluster_resource.go, kubernetes_cluster_node_pool_resource.go)
 * consumes it.
 */
describe('the AKS stack', () => {
  const tf = synthTf(hybridAks().stack);
  const [cluster] = all(tf, 'azurerm_kubernetes_cluster');
  const pools = all(tf, 'azurerm_kubernetes_cluster_node_pool');
  const windows = pools.find((p) => p.os_type === 'Windows');
  const linux = pools.find((p) => p.os_type === 'Linux');

  test('the provider (features {} is required), azurerm 4.73.0 pinned, a resource group, a VNet and the nodes\' subnet', () => {
    expect(tf.provider?.azurerm).toEqual([{ features: [{}] }]);
    expect(tf.terraform.required_providers.azurerm).toEqual({ source: 'azurerm', version: '4.73.0' });
    expect(all(tf, 'azurerm_resource_group')).toEqual([expect.objectContaining({ name: 'aks-test-rg', location: 'westeurope' })]);
    expect(all(tf, 'azurerm_virtual_network')[0].address_space).toEqual(['10.224.0.0/16']);
    expect(all(tf, 'azurerm_subnet')[0].address_prefixes).toEqual(['10.224.0.0/20']);
    expect(cluster.default_node_pool.vnet_subnet_id).toMatch(/^\$\{azurerm_subnet\.\w+\.id\}$/);
  });

  test('Azure CNI Overlay with Calico (without network_profile azurerm creates kubenet, which runs no Windows nodes)', () => {
    expect(cluster.network_profile).toEqual({
      network_plugin: 'azure', network_plugin_mode: 'overlay', network_policy: 'calico',
      pod_cidr: '10.244.0.0/16', service_cidr: '10.0.0.0/16', dns_service_ip: '10.0.0.10', load_balancer_sku: 'standard',
    });
  });

  test('a Linux System pool that autoscales and rotates through a temporary pool; the autoscaler\'s count is not reset', () => {
    expect(cluster.default_node_pool).toEqual(expect.objectContaining({ name: 'system', temporary_name_for_rotation: 'systemtmp', auto_scaling_enabled: true, min_count: 2, max_count: 3 }));
    expect(cluster.default_node_pool.os_sku).toBeUndefined();
    expect(cluster.lifecycle.ignore_changes).toEqual(['default_node_pool[0].node_count']);
  });

  test('the Windows profile\'s password is a sensitive variable without a default, its length checked by Terraform; never a literal', () => {
    expect(cluster.windows_profile).toEqual({ admin_username: 'aksadmin', admin_password: '${var.windows_admin_password}' });
    const variable = tf.variable.windows_admin_password;
    expect(variable).toEqual(expect.objectContaining({ type: 'string', sensitive: true, nullable: false }));
    expect(variable.default).toBeUndefined();
    expect(variable.validation[0].condition).toBe('${length(var.windows_admin_password) >= 14 && length(var.windows_admin_password) <= 123}');
  });

  test('managed identity, OIDC issuer and workload identity, node images in a weekly window, the Kubernetes version', () => {
    expect(cluster.identity).toEqual({ type: 'SystemAssigned' });
    expect([cluster.oidc_issuer_enabled, cluster.workload_identity_enabled]).toEqual([true, true]);
    expect(cluster.node_os_upgrade_channel).toBe('NodeImage');
    expect(cluster.maintenance_window_node_os).toEqual({ frequency: 'Weekly', interval: 1, day_of_week: 'Sunday', start_time: '00:00', duration: 4, utc_offset: '+00:00' });
    expect(cluster.kubernetes_version).toBe('1.34');
  });

  test('the Windows pool: os_type Windows, os_sku from WindowsVersion, the os=windows:NoSchedule taint, autoscaling, User mode', () => {
    expect(windows).toEqual(expect.objectContaining({
      name: 'win', os_type: 'Windows', os_sku: 'Windows2022', node_taints: ['os=windows:NoSchedule'], mode: 'User',
      auto_scaling_enabled: true, min_count: 1, max_count: 3, kubernetes_cluster_id: expect.stringMatching(/^\$\{azurerm_kubernetes_cluster\.\w+\.id\}$/),
    }));
    expect(windows.lifecycle.ignore_changes).toEqual(['node_count']);
    expect(windows.fips_enabled).toBeUndefined();
    expect(linux).toEqual(expect.objectContaining({ name: 'linux', os_type: 'Linux', mode: 'User' }));
    expect(linux.node_taints).toBeUndefined();
  });

  test('every prop reaches its field', () => {
    const stack = aksStack({
      networkPolicy: AksNetworkPolicy.CALICO, podCidr: '10.128.0.0/14', serviceCidr: '10.96.0.0/16', windowsLicense: AksWindowsLicense.WINDOWS_SERVER,
      windowsAdminUsername: 'winadmin', nodeOsUpgradeChannel: AksNodeOsUpgradeChannel.SECURITY_PATCH, subscriptionId: '00000000-0000-0000-0000-000000000000',
      maintenanceWindow: { dayOfWeek: 'Saturday', startTime: '02:00', durationHours: 6, utcOffset: '+01:00' },
      systemPool: { vmSize: 'Standard_D2ds_v5', minCount: 3, maxCount: 5, maxPods: 110, zones: ['1', '2', '3'] },
      network: { addressSpace: '10.8.0.0/16', subnetCidr: '10.8.0.0/22' }, resourceGroupName: 'rg-aks', tags: { team: 'platform' },
    });
    new AksWindowsNodePool(stack.cluster, 'w25', { vmSize: 'Standard_D8ds_v5', minCount: 0, maxCount: 10, maxPods: 60, zones: ['1'], labels: { team: 'web' }, windowsVersion: WindowsVersion.SERVER_2025, name: 'iis' });
    stack.addOverride('terraform.required_providers.azurerm.version', '> 5.2.0');
    const out = synthTf(stack);
    const [c] = all(out, 'azurerm_kubernetes_cluster');
    expect(c.network_profile).toEqual(expect.objectContaining({ network_policy: 'calico', pod_cidr: '10.128.0.0/14', service_cidr: '10.96.0.0/16', dns_service_ip: '10.96.0.10' }));
    expect(c.windows_profile).toEqual({ admin_username: 'winadmin', admin_password: '${var.windows_admin_password}', license: 'Windows_Server' });
    expect(c.node_os_upgrade_channel).toBe('SecurityPatch');
    expect(c.maintenance_window_node_os).toEqual(expect.objectContaining({ day_of_week: 'Saturday', start_time: '02:00', duration: 6, utc_offset: '+01:00' }));
    expect(c.default_node_pool).toEqual(expect.objectContaining({ vm_size: 'Standard_D2ds_v5', min_count: 3, max_count: 5, max_pods: 110, zones: ['1', '2', '3'] }));
    expect(c.tags).toEqual({ team: 'platform' });
    expect(out.provider?.azurerm[0].subscription_id).toBe('00000000-0000-0000-0000-000000000000');
    expect(all(out, 'azurerm_resource_group')[0].name).toBe('rg-aks');
    expect(all(out, 'azurerm_subnet')[0].address_prefixes).toEqual(['10.8.0.0/22']);
    const [pool] = all(out, 'azurerm_kubernetes_cluster_node_pool');
    // Windows Server 2025: FIPS on by default; AKS requires it there (azure-aks-docs upgrade-windows-os.md).
    expect(pool).toEqual(expect.objectContaining({ name: 'iis', os_sku: 'Windows2025', fips_enabled: true, vm_size: 'Standard_D8ds_v5', min_count: 0, max_count: 10, max_pods: 60, zones: ['1'], node_labels: { team: 'web' } }));
  });

  test('networkPolicy reaches its field (Azure NPM on a cluster without Windows pools)', () => {
    expect(all(synthTf(aksStack({ networkPolicy: AksNetworkPolicy.AZURE })), 'azurerm_kubernetes_cluster')[0].network_profile.network_policy).toBe('azure');
  });

  test('a pool\'s own subnet, FIPS on a 2022 pool, and a password reference of your own reach their fields', () => {
    const stack = aksStack({ windowsAdminPassword: '${data.azurerm_key_vault_secret.win.value}', kubernetesVersion: '1.35' });
    const subnetId = '/subscriptions/0/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/win';
    new AksWindowsNodePool(stack.cluster, 'win', { vmSize: 'Standard_D4ds_v5', fipsEnabled: true, subnetId });
    const out = synthTf(stack);
    expect(all(out, 'azurerm_kubernetes_cluster')[0].windows_profile.admin_password).toBe('${data.azurerm_key_vault_secret.win.value}');
    expect(out.variable).toBeUndefined();
    expect(all(out, 'azurerm_kubernetes_cluster_node_pool')[0]).toEqual(expect.objectContaining({ os_sku: 'Windows2022', vnet_subnet_id: subnetId, fips_enabled: true }));
  });

  test('an existing resource group and subnet: nothing else is created for the network', () => {
    const subnetId = '/subscriptions/0/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/v/subnets/aks';
    const out = synthTf(aksStack({ existingNetwork: { resourceGroupName: 'shared', subnetId } }));
    expect([all(out, 'azurerm_resource_group'), all(out, 'azurerm_virtual_network'), all(out, 'azurerm_subnet')]).toEqual([[], [], []]);
    expect(all(out, 'azurerm_kubernetes_cluster')[0]).toEqual(expect.objectContaining({ resource_group_name: 'shared', default_node_pool: expect.objectContaining({ vnet_subnet_id: subnetId }) }));
    expect(() => aksStack({ existingNetwork: { resourceGroupName: 'shared', subnetId }, network: {} })).toThrow(/both network and existingNetwork are set/);
  });

  test('the synthesized JSON passes validateTerraform', () => {
    expect(validateTerraform(tf)).toEqual([]);
  });
});
