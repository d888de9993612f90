import { Testing } from 'cdktn';
import { GKE_NODE_SERVICE_ACCOUNT_ROLE, GkeLinuxNodePool, GkeReleaseChannel, GkeWindowsNodePool, HybridGkeStack } from '../../src/gke';
import { WindowsVersion } from '../../src';
import { all, refTo, synthTf, thrownMessage } from '../support/tf';
import { gkeStack, hybridGke } from './fixture';

/**
 * What the GKE stack writes, field by field, against the provider's schema
 * (hashicorp/terraform-provider-google v7.45.0 google/services/container/resource_container_cluster.go,
 * resource_container_node_pool.go, node_config.go).
 */
describe('HybridGkeStack', () => {
  const tf = synthTf(hybridGke().stack);
  const [cluster] = all(tf, 'google_container_cluster');
  const pools = all(tf, 'google_container_node_pool');
  const windows = pools.find((p) => p.name === 'windows');
  const linux = pools.find((p) => p.name === 'linux');

  test('a provider for the project and region, pinned to the provider major the fields were checked against', () => {
    expect(tf.provider?.google).toEqual([{ project: 'my-project', region: 'europe-north1' }]);
    expect(tf.terraform.required_providers.google).toEqual({ source: 'hashicorp/google', version: '~> 7.0' });
  });

  test('a VPC-native network: custom-mode VPC, a subnetwork with secondary ranges for pods and Services, Cloud NAT for private nodes', () => {
    const [network] = all(tf, 'google_compute_network');
    const [subnet] = all(tf, 'google_compute_subnetwork');
    expect(network.auto_create_subnetworks).toBe(false);
    expect(subnet.secondary_ip_range).toEqual([{ range_name: 'pods', ip_cidr_range: '10.16.0.0/14' }, { range_name: 'services', ip_cidr_range: '10.20.0.0/20' }]);
    expect(subnet.private_ip_google_access).toBe(true);
    expect(all(tf, 'google_compute_router_nat')[0]).toMatchObject({ nat_ip_allocate_option: 'AUTO_ONLY', source_subnetwork_ip_ranges_to_nat: 'ALL_SUBNETWORKS_ALL_IP_RANGES' });
    expect(cluster.networking_mode).toBe('VPC_NATIVE');
    expect(cluster.ip_allocation_policy).toEqual({ cluster_secondary_range_name: 'pods', services_secondary_range_name: 'services' });
    expect(cluster.subnetwork).toBe(refTo(tf, 'google_compute_subnetwork', () => true, 'name'));
  });

  test('a Standard regional cluster without its default pool, with Workload Identity, a release channel, a maintenance window, private nodes and no public access by default', () => {
    expect(cluster.location).toBe('europe-north1');
    expect(cluster.enable_autopilot).toBeUndefined();
    expect([cluster.remove_default_node_pool, cluster.initial_node_count]).toEqual([true, 1]);
    expect(cluster.workload_identity_config).toEqual({ workload_pool: 'my-project.svc.id.goog' });
    expect(cluster.release_channel).toEqual({ channel: 'REGULAR' });
    expect(cluster.maintenance_policy.recurring_window).toEqual({ start_time: '2026-01-03T02:00:00Z', end_time: '2026-01-03T08:00:00Z', recurrence: 'FREQ=WEEKLY;BYDAY=SA,SU' });
    expect(cluster.private_cluster_config).toEqual({ enable_private_nodes: true, enable_private_endpoint: false });
    // gcp_public_cidrs_access_enabled is sent only when written (resource_container_cluster.go v7.45.0 expandMasterAuthorizedNetworksConfig, GetOkExists).
    expect(cluster.master_authorized_networks_config).toEqual({ cidr_blocks: [], gcp_public_cidrs_access_enabled: false });
  });

  test('a Windows pool: WINDOWS_LTSC_CONTAINERD with the release as osversion, no taint of ours (GKE adds its own)', () => {
    expect(windows.node_config).toMatchObject({ image_type: 'WINDOWS_LTSC_CONTAINERD', windows_node_config: { osversion: 'OS_VERSION_LTSC2022' }, machine_type: 'n2-standard-4' });
    expect(windows.node_config.taint).toBeUndefined();
    expect(linux.node_config.image_type).toBe('COS_CONTAINERD');
    expect(linux.node_config.windows_node_config).toBeUndefined();
  });

  test('every pool: its own service account with the least-privilege node role only, Workload Identity metadata, autoscaling per zone, auto-repair and auto-upgrade', () => {
    const accounts = all(tf, 'google_service_account');
    const members = all(tf, 'google_project_iam_member');
    expect(accounts.map((a) => a.account_id).sort()).toEqual(['gke-test-linux', 'gke-test-windows']);
    expect(members.map((m) => [m.role, m.project])).toEqual([[GKE_NODE_SERVICE_ACCOUNT_ROLE, 'my-project'], [GKE_NODE_SERVICE_ACCOUNT_ROLE, 'my-project']]);
    for (const pool of pools) {
      const account = refTo(tf, 'google_service_account', (a) => a.account_id === `gke-test-${pool.name}`, 'email');
      expect(pool.node_config.service_account).toBe(account);
      expect(members.find((m) => m.member === `serviceAccount:${account}`)).toBeDefined();
      expect(pool.node_config.oauth_scopes).toEqual(['https://www.googleapis.com/auth/cloud-platform']);
      expect(pool.node_config.workload_metadata_config).toEqual({ mode: 'GKE_METADATA' });
      expect(pool.autoscaling).toEqual({ min_node_count: 1, max_node_count: 1 });
      expect(pool.management).toEqual({ auto_repair: true, auto_upgrade: true });
      expect([pool.node_config.disk_size_gb, pool.node_config.disk_type]).toEqual([100, 'pd-balanced']);
      expect(pool.lifecycle).toEqual({ ignore_changes: ['initial_node_count'], prevent_destroy: true });
      expect(pool.cluster).toBe(refTo(tf, 'google_container_cluster', () => true));
    }
  });

  test('every prop reaches its field', () => {
    const stack = gkeStack({
      zone: 'europe-north1-b', releaseChannel: GkeReleaseChannel.STABLE, kubernetesVersion: '1.33', authorizedNetworks: ['203.0.113.0/24'], deletionProtection: false,
      maintenanceWindow: { startTime: '2026-01-05T01:00:00Z', endTime: '2026-01-05T06:00:00Z', recurrence: 'FREQ=WEEKLY;BYDAY=MO' },
      network: { nodesCidr: '10.1.0.0/20', podsCidr: '10.64.0.0/14', servicesCidr: '10.68.0.0/20' }, defaultLabels: { team: 'platform' },
    });
    new GkeLinuxNodePool(stack.cluster, 'linux', { machineType: 'e2-standard-4', imageType: 'UBUNTU_CONTAINERD', minNodesPerZone: 2, maxNodesPerZone: 5, diskSizeGb: 60, diskType: 'pd-ssd', labels: { tier: 'system' }, nodePoolName: 'sys' });
    new GkeWindowsNodePool(stack.cluster, 'windows', { machineType: 'n2-standard-8', windowsVersion: WindowsVersion.SERVER_2019, serviceAccountEmail: 'nodes@my-project.iam.gserviceaccount.com' });
    const out = synthTf(stack);
    const [c] = all(out, 'google_container_cluster');
    expect(c).toMatchObject({ location: 'europe-north1-b', min_master_version: '1.33', release_channel: { channel: 'STABLE' }, deletion_protection: false,
      master_authorized_networks_config: { cidr_blocks: [{ cidr_block: '203.0.113.0/24' }] },
      maintenance_policy: { recurring_window: { start_time: '2026-01-05T01:00:00Z', end_time: '2026-01-05T06:00:00Z', recurrence: 'FREQ=WEEKLY;BYDAY=MO' } } });
    expect(out.provider?.google[0].default_labels).toEqual({ team: 'platform' });
    expect(all(out, 'google_compute_subnetwork')[0]).toMatchObject({ ip_cidr_range: '10.1.0.0/20', secondary_ip_range: [{ ip_cidr_range: '10.64.0.0/14' }, { ip_cidr_range: '10.68.0.0/20' }] });
    const [sys, win] = ['sys', 'windows'].map((n) => all(out, 'google_container_node_pool').find((p) => p.name === n));
    expect(sys).toMatchObject({ initial_node_count: 2, autoscaling: { min_node_count: 2, max_node_count: 5 }, node_config: { image_type: 'UBUNTU_CONTAINERD', disk_size_gb: 60, disk_type: 'pd-ssd', labels: { tier: 'system' } } });
    expect(win.node_config).toMatchObject({ machine_type: 'n2-standard-8', windows_node_config: { osversion: 'OS_VERSION_LTSC2019' }, service_account: 'nodes@my-project.iam.gserviceaccount.com' });
    expect(all(out, 'google_service_account').map((a) => a.account_id)).toEqual(['gke-test-sys']);
  });

  test('an existing network: no network resources, the cluster on the given subnetwork and ranges', () => {
    const stack = gkeStack({ existingNetwork: { network: 'shared', subnetwork: 'gke-eu', podsRangeName: 'gke-pods', servicesRangeName: 'gke-svc' } });
    const out = synthTf(stack);
    expect(all(out, 'google_compute_network')).toEqual([]);
    expect(all(out, 'google_container_cluster')[0]).toMatchObject({ network: 'shared', subnetwork: 'gke-eu', ip_allocation_policy: { cluster_secondary_range_name: 'gke-pods', services_secondary_range_name: 'gke-svc' } });
  });

  test('the boot disk defaults to hyperdisk-balanced on a series that takes Hyperdisk only, pd-balanced on the others (N4 included)', () => {
    const stack = gkeStack();
    new GkeLinuxNodePool(stack.cluster, 'linux', { machineType: 'c4-standard-4' });
    new GkeLinuxNodePool(stack.cluster, 'amd', { machineType: 'n4d-standard-4' });
    new GkeWindowsNodePool(stack.cluster, 'windows', { machineType: 'n2-standard-4' });
    new GkeWindowsNodePool(stack.cluster, 'win4', { machineType: 'n4-standard-4' });
    const types = Object.fromEntries(all(synthTf(stack), 'google_container_node_pool').map((p) => [p.name, p.node_config.disk_type]));
    expect(types).toEqual({ linux: 'hyperdisk-balanced', amd: 'hyperdisk-balanced', windows: 'pd-balanced', win4: 'pd-balanced' });
  });

  test('long names get a service account id of at most 30 characters', () => {
    const stack = gkeStack({ clusterName: 'a-rather-long-cluster-name-for-gke' });
    new GkeLinuxNodePool(stack.cluster, 'linux', { machineType: 'e2-standard-4' });
    const [account] = all(synthTf(stack), 'google_service_account');
    expect(account.account_id.length).toBeLessThanOrEqual(30);
    expect(account.account_id).toMatch(/^a-rather-long-cluster-[0-9a-f]{8}$/);
  });

  test('refuses flag combinations at construction: both networks, a zone of another region, Windows Server 2025', () => {
    expect(thrownMessage(() => gkeStack({ network: {}, existingNetwork: { network: 'n', subnetwork: 's', podsRangeName: 'p', servicesRangeName: 'v' } }))).toMatch(/both network and existingNetwork/);
    expect(thrownMessage(() => gkeStack({ zone: 'europe-west1-b' }))).toMatch(/zone europe-west1-b is not in region europe-north1/);
    expect(thrownMessage(() => new GkeWindowsNodePool(gkeStack().cluster, 'w', { machineType: 'n2-standard-4', windowsVersion: WindowsVersion.SERVER_2025 })))
      .toMatch(/windowsVersion: GKE offers no 2025/);
  });

  test('the stack type is a TerraformStack of cdktn', () => {
    expect(Testing.synth(new HybridGkeStack(Testing.app(), 's', { project: 'p', region: 'europe-north1', clusterName: 'cc' }))).toContain('google_container_cluster');
  });
});
