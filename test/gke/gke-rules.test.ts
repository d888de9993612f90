import { Testing } from 'cdktn';
import { GkeLinuxNodePool, GkeLinuxNodePoolProps, GkeWindowsNodePool, GkeWindowsNodePoolProps, HybridGkeStack, validateTerraform } from '../../src/gke';
import { GKE_RULES, TERRAFORM_RULES } from '../../src/terraform/index';
import { expectOneShape } from '../support/message-shape';
import { synthTf, thrownMessage } from '../support/tf';
import { gkeStack, hybridGke, synthError } from './fixture';

/**
 * The GKE rules, each judged where the prop enters (a HybridConfigError naming it) and on the
 * final JSON at synth (an override cannot slip past), with a valid neighbour that passes. Each case
 * cites the provider (hashicorp/terraform-provider-google v7.45.0, google/services/container/) or the
 * GKE document whose behaviour the rule encodes.
 */

const linux = (props: Partial<GkeLinuxNodePoolProps> = {}) => () => new GkeLinuxNodePool(gkeStack().cluster, 'linux', { machineType: 'e2-standard-4', ...props });
const windows = (props: Partial<GkeWindowsNodePoolProps> = {}) => () => new GkeWindowsNodePool(hybridGke().stack.cluster, 'win', { machineType: 'n2-standard-4', ...props });

/** The hybrid stack with one override on the Windows (or Linux) pool's node pool resource. */
function overridden(path: string, value: unknown, pool: 'windows' | 'linux' = 'windows'): HybridGkeStack {
  const built = hybridGke();
  built[pool].parts.nodePool.addOverride(path, value);
  return built.stack;
}

test('the GKE rules are registered once, beside the AWS and EKS rules, and the working shape passes', () => {
  expect(GKE_RULES.map((r) => r.name)).toEqual(['gke-cluster', 'gke-node-pool', 'gke-node-pool-names', 'gke-windows-cluster', 'gke-network-names', 'gke-provider']);
  for (const r of GKE_RULES) expect(TERRAFORM_RULES.filter((t) => t.name === r.name)).toEqual([r]);
  expect(synthError(hybridGke().stack)).toBe('');
  expect(validateTerraform(synthTf(hybridGke().stack))).toEqual([]);
});

describe('gke-cluster', () => {
  // resource_container_cluster.go `name` ValidateFunc: at most 40, [a-z0-9-], starting with a letter.
  test('cluster names: 40 lower-case characters pass; 41, capitals or a leading digit do not (construction)', () => {
    expect(thrownMessage(() => gkeStack({ clusterName: 'g'.repeat(40) }))).toBe('');
    for (const name of ['g'.repeat(41), 'My-cluster', '1cluster', 'cluster-']) {
      const message = thrownMessage(() => gkeStack({ clusterName: name }));
      expect(message).toMatch(/^\[gke-test\/Cluster] clusterName: google_container_cluster\.\w+: cluster name ".*" is not a GKE cluster name\. Fix: use 1 to 40 lower-case/);
      expectOneShape(message);
    }
  });

  test('a version, release channel or maintenance window the provider refuses is refused where the prop enters', () => {
    expect(thrownMessage(() => gkeStack({ kubernetesVersion: 'v1.33' }))).toMatch(/kubernetesVersion: google_container_cluster\.\w+: Kubernetes version "v1\.33" is not a GKE version/);
    for (const v of ['1.33', '1.33.5-gke.1080000', 'latest']) expect(thrownMessage(() => gkeStack({ kubernetesVersion: v }))).toBe('');
    expect(thrownMessage(() => gkeStack({ releaseChannel: 'FAST' as never }))).toMatch(/releaseChannel: "FAST" is not a GkeReleaseChannel\. Fix: use one of GkeReleaseChannel\.RAPID, GkeReleaseChannel\.REGULAR, GkeReleaseChannel\.STABLE, GkeReleaseChannel\.EXTENDED/);
    // The provider's channels (v7.45.0 resource_container_cluster.go StringInSlice), UNSPECIFIED aside.
    for (const c of ['RAPID', 'REGULAR', 'STABLE', 'EXTENDED']) expect(thrownMessage(() => gkeStack({ releaseChannel: c as never }))).toBe('');
    expect(thrownMessage(() => gkeStack({ maintenanceWindow: { startTime: '02:00', endTime: '2026-01-03T08:00:00Z', recurrence: 'FREQ=WEEKLY;BYDAY=SA' } })))
      .toMatch(/maintenanceWindow: .*maintenance window start_time "02:00" is not an RFC 3339 date-time/);
    expect(thrownMessage(() => gkeStack({ maintenanceWindow: { startTime: '2026-01-03T02:00:00Z', endTime: '2026-01-03T08:00:00Z', recurrence: 'weekly' } })))
      .toMatch(/maintenanceWindow: .*maintenance recurrence "weekly" is not an RFC 5545 RRULE/);
  });

  test('the same values written by overrides are refused at synth', () => {
    const build = (path: string, value: unknown) => {
      const { stack } = hybridGke();
      stack.cluster.cluster.addOverride(path, value);
      return synthError(stack);
    };
    expect(build('name', 'Gke_Test')).toMatch(/\[gke-test\/Cluster\/Cluster] google_container_cluster\.\w+: cluster name "Gke_Test" is not a GKE cluster name/);
    expect(build('min_master_version', '1.x')).toMatch(/is not a GKE version/);
    expect(build('maintenance_policy.daily_maintenance_window', { start_time: '3am' })).toMatch(/daily maintenance start_time "3am" is not HH:MM/);
    expect(build('initial_node_count', 0)).toMatch(/initial_node_count 0 with remove_default_node_pool/);
  });
});

describe('gke-node-pool', () => {
  // The GKE API: node pool names of 1 to 40 lower-case letters, digits and -.
  test('node pool names: 40 characters pass, 41 or an underscore do not; the service account id follows', () => {
    expect(thrownMessage(linux({ nodePoolName: 'n'.repeat(40) }))).toBe('');
    expect(thrownMessage(linux({ nodePoolName: 'n'.repeat(41) }))).toMatch(/^\[gke-test\/Cluster\/linux] nodePoolName: google_container_node_pool\.\w+: node pool name "n{41}" is not a GKE node pool name/);
    expect(thrownMessage(linux({ nodePoolName: 'my_pool' }))).toMatch(/nodePoolName: .*"my_pool" is not a GKE node pool name/);
    expect(synthError(overridden('name', 'Win'))).toMatch(/google_container_node_pool\.\w+: node pool name "Win" is not a GKE node pool name/);
  });

  // GKE docs concepts/windows-server-gke: no Arm, no shared-core Windows nodes; Compute Engine machine families.
  test('Windows machine types: x86 with whole vCPUs; Arm and shared-core types are refused, at construction and at synth; Linux pools may use them', () => {
    for (const type of ['n2-standard-4', 'e2-standard-2', 'c3-standard-8', 'n2-custom-4-16384']) expect(thrownMessage(windows({ machineType: type }))).toBe('');
    expect(thrownMessage(windows({ machineType: 't2a-standard-4' }))).toMatch(/^\[gke-test\/Cluster\/win] machineType: google_container_node_pool\.\w+: machine type t2a-standard-4 is Arm \(T2A\), and Windows Server on Compute Engine is x86 only\. Fix: pick an x86 type/);
    expect(thrownMessage(windows({ machineType: 'c4a-standard-8' }))).toMatch(/is Arm \(C4A\)/);
    expect(thrownMessage(windows({ machineType: 'e2-medium' }))).toMatch(/machineType: .*machine type e2-medium is shared-core/);
    expect(thrownMessage(linux({ machineType: 't2a-standard-4' }))).toBe('');
    expect(thrownMessage(linux({ machineType: 'n2 standard 4' }))).toMatch(/machineType: .*"n2 standard 4" is not a Compute Engine machine type/);
    expect(synthError(overridden('node_config.machine_type', 'e2-small'))).toMatch(/machine type e2-small is shared-core/);
    // GKE's default machine type is e2-medium (shared-core).
    expect(synthError(overridden('node_config.machine_type', undefined))).toMatch(/the Windows pool names no machine_type, so GKE picks e2-medium/);
  });

  // node_config.go windows_node_config.osversion: OS_VERSION_UNSPECIFIED, OS_VERSION_LTSC2019, OS_VERSION_LTSC2022; GKE "Node images".
  test('image type and osversion agree and exist', () => {
    expect(synthError(overridden('node_config.windows_node_config.osversion', 'OS_VERSION_LTSC2025'))).toMatch(/windows_node_config\.osversion "OS_VERSION_LTSC2025" is not one GKE offers/);
    expect(synthError(overridden('node_config.windows_node_config.osversion', 'OS_VERSION_UNSPECIFIED'))).toMatch(/leaves windows_node_config\.osversion OS_VERSION_UNSPECIFIED, so GKE picks the Windows Server release/);
    expect(synthError(overridden('node_config.image_type', 'COS_CONTAINERD'))).toMatch(/image type COS_CONTAINERD is a Linux image, and windows_node_config\.osversion OS_VERSION_LTSC2022 applies to WINDOWS_LTSC_CONTAINERD only/);
    expect(synthError(overridden('node_config.image_type', 'WINDOWS_SAC_CONTAINERD'))).toMatch(/image type "WINDOWS_SAC_CONTAINERD" is retired/);
    expect(synthError(overridden('node_config.image_type', 'windows_ltsc_containerd'))).toBe(''); // the provider compares case-insensitively
    expect(synthError(overridden('node_config.image_type', 'COS', 'linux'))).toMatch(/image type "COS" is retired/);
    expect(thrownMessage(linux({ imageType: 'UBUNTU' as never }))).toMatch(/imageType: .*image type "UBUNTU" is retired/);
  });

  test('boot disks, autoscaling sizes, labels and taints as the provider and the kubelet take them', () => {
    expect(thrownMessage(windows({ diskSizeGb: 9 }))).toMatch(/diskSizeGb: .*boot disk size 9 is below 10/);
    expect(thrownMessage(windows({ diskType: 'gp3' }))).toMatch(/diskType: .*boot disk type "gp3" is not one of pd-standard/);
    // gcp-compute-persistent-disk-csi-driver's machine-pd-compatibility table: C4D takes no Persistent Disk, N4 takes pd-balanced.
    expect(thrownMessage(windows({ machineType: 'c4d-standard-4', diskType: 'pd-balanced' }))).toMatch(/diskType: .*boot disk type pd-balanced on c4d-standard-4: its series takes Hyperdisk only/);
    expect(thrownMessage(windows({ machineType: 'c4d-standard-4' }))).toBe('');
    expect(thrownMessage(windows({ machineType: 'n4-standard-4', diskType: 'pd-balanced' }))).toBe('');
    expect(synthError(overridden('node_config.machine_type', 'c4-standard-8'))).toMatch(/boot disk type pd-balanced on c4-standard-8/);
    expect(thrownMessage(windows({ minNodesPerZone: 3, maxNodesPerZone: 2 }))).toMatch(/minNodesPerZone and maxNodesPerZone: .*min_node_count 3 is above max_node_count 2/);
    expect(thrownMessage(windows({ minNodesPerZone: -1, maxNodesPerZone: 2 }))).toMatch(/^\[gke-test\/Cluster\/win\] minNodesPerZone: -1 is below 0/);
    expect(thrownMessage(windows({ minNodesPerZone: 0, maxNodesPerZone: 3 }))).toBe('');
    expect(thrownMessage(windows({ labels: { 'kubernetes.io/os': 'linux' } }))).toMatch(/labels: .*label kubernetes\.io\/os is set by the kubelet/);
    expect(thrownMessage(windows({ labels: { 'node-role.kubernetes.io/worker': '' } }))).toMatch(/labels: .*the kubelet refuses such --node-labels/);
    expect(thrownMessage(windows({ labels: { team: 'apps', 'node.kubernetes.io/pool': 'win' } }))).toBe('');
    expect(synthError(overridden('node_config.taint', [{ key: 'dedicated', value: 'win', effect: 'NoSchedule' }]))).toMatch(/taint dedicated has the effect "NoSchedule"\. Fix: write taints as key, value and effect NO_SCHEDULE/);
    expect(synthError(overridden('node_config.taint', [{ key: 'bad key', value: 'x', effect: 'NO_SCHEDULE' }]))).toMatch(/taint key "bad key"/);
    expect(synthError(overridden('node_config.taint', [{ key: 'dedicated', value: 'win', effect: 'NO_SCHEDULE' }]))).toBe('');
    expect(synthError(overridden('version', '1.33.x'))).toMatch(/Kubernetes version "1\.33\.x" is not a GKE version/);
  });
});

describe('graph rules: at construction every pool passes alone; at synth the app is judged', () => {
  // The GKE API: one node pool per name in a cluster.
  test('gke-node-pool-names: two pools of one name', () => {
    const { stack } = hybridGke();
    expect(thrownMessage(() => new GkeLinuxNodePool(stack.cluster, 'more', { machineType: 'e2-standard-4', nodePoolName: 'linux' }))).toBe('');
    expect(synthError(stack)).toMatch(/\[gke-test\/Cluster\/more\/NodePool] google_container_node_pool\.\w+: node pool name "linux" is also the name of gke-test\/Cluster\/linux\/NodePool in the same cluster/);
  });

  // GKE docs how-to/creating-a-cluster-windows: Standard only, VPC-native, a Linux pool for the system components.
  test('gke-windows-cluster: a Linux pool with a node for the system pods', () => {
    const stack = gkeStack();
    expect(thrownMessage(() => new GkeWindowsNodePool(stack.cluster, 'win', { machineType: 'n2-standard-4' }))).toBe('');
    expect(synthError(stack)).toMatch(/\[gke-test\/Cluster\/Cluster] google_container_cluster\.\w+: Windows Server node pools \(win\) need a Linux node for kube-dns.*Fix: add a GkeLinuxNodePool with minNodesPerZone >= 1/);
    const zero = gkeStack();
    new GkeLinuxNodePool(zero.cluster, 'linux', { machineType: 'e2-standard-4', minNodesPerZone: 0, maxNodesPerZone: 3 });
    new GkeWindowsNodePool(zero.cluster, 'win', { machineType: 'n2-standard-4' });
    expect(synthError(zero)).toMatch(/need a Linux node for kube-dns/);
    expect(synthError(overridden('node_config.taint', [{ key: 'dedicated', value: 'x', effect: 'NO_SCHEDULE' }], 'linux'))).toMatch(/need a Linux node for kube-dns/);
    expect(synthError(overridden('node_config.taint', [{ key: 'dedicated', value: 'x', effect: 'PREFER_NO_SCHEDULE' }], 'linux'))).toBe('');
  });

  // GKE docs deprecations/windows-server-sac: WINDOWS_LTSC_CONTAINERD the Windows image type from 1.23.
  test('gke-windows-cluster: a GKE version that offers WINDOWS_LTSC_CONTAINERD pools', () => {
    expect(synthError(hybridGke({ kubernetesVersion: '1.22' }).stack)).toMatch(/\[gke-test\/Cluster\/Cluster] google_container_cluster\.\w+: Windows Server node pools \(windows\) of WINDOWS_LTSC_CONTAINERD need GKE 1\.23 or newer, and the cluster asks for 1\.22/);
    expect(thrownMessage(() => gkeStack({ kubernetesVersion: '1.22' }))).toBe(''); // without Windows pools
    expect(synthError(gkeStack({ kubernetesVersion: '1.22' }))).toBe('');
    for (const v of ['1.23', '1.33.5-gke.1080000', 'latest']) expect(synthError(hybridGke({ kubernetesVersion: v }).stack)).toBe('');
  });

  test('gke-windows-cluster: Standard and VPC-native only', () => {
    const routes = hybridGke();
    routes.stack.cluster.cluster.addOverride('networking_mode', 'ROUTES');
    expect(synthError(routes.stack)).toMatch(/need VPC-native networking, and the cluster is routes-based \(networking_mode ROUTES\)\. Fix: keep networking_mode VPC_NATIVE/);
    const autopilot = hybridGke();
    autopilot.stack.cluster.cluster.addOverride('enable_autopilot', true);
    expect(synthError(autopilot.stack)).toMatch(/need a Standard cluster, and this one is Autopilot/);
  });

  test('gke-provider: a stack of Google resources without a google provider (JSON from anywhere)', () => {
    const json = synthTf(hybridGke().stack);
    delete json.provider;
    expect(validateTerraform(json).map((v) => v.rule)).toEqual(['gke-provider']);
  });

  test('every violation names the field, and Testing.synth without validations still writes the JSON', () => {
    const { stack } = hybridGke();
    stack.cluster.cluster.addOverride('name', 'X');
    expect(Testing.synth(stack)).toContain('"name": "X"');
    expect(validateTerraform(JSON.parse(Testing.synth(stack))).map((v) => [v.rule, v.field])).toEqual([['gke-cluster', 'name']]);
  });
});
