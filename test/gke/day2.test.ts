import { Testing } from 'cdktn';
import { validateTerraform } from '../../src';
import { GkeLinuxNodePool, GkeWindowsNodePool, HybridGkeStack } from '../../src/gke';
import type { Json } from '../../src/rules/engine/graph';
import { all, synthTf, thrownMessage } from '../support/tf';
import { gkeStack, hybridGke, synthError } from './fixture';

/**
 * GKE on day 2 and the values GKE refuses (issue 33, points 7 to 12 and 14), read in
 * hashicorp/terraform-provider-google v7.45.0 (google/services/container/, google/services/compute/).
 */
describe('cdktn synth --hcl writes HCL the provider\'s schema takes (point 7)', () => {
  // cidr_blocks is a TypeSet of a schema.Resource (resource_container_cluster.go masterAuthorizedNetworksConfig),
  // so in HCL it is a nested block: `cidr_blocks = []` fails with "Unsupported argument". Zero blocks are written as none.
  // The schema-aware check: a field whose elements are blocks in the JSON, or that the provider schema makes a block
  // list (cidr_blocks, secondary_ip_range, taint), never appears as `name = ` in the HCL.
  const BLOCK_LISTS = ['cidr_blocks', 'secondary_ip_range', 'taint'];

  function blockNames(value: unknown, into = new Set<string>()): Set<string> {
    if (value === null || typeof value !== 'object') return into;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const elements = Array.isArray(v) ? v : [v];
      if (k !== 'lifecycle' && k !== '//' && elements.some((e) => e !== null && typeof e === 'object' && !Array.isArray(e)) && !['labels', 'resource_labels', 'default_labels', 'metadata'].includes(k)) into.add(k);
      elements.forEach((e) => blockNames(e, into));
    }
    return into;
  }

  test('the default stack (no authorized networks): master_authorized_networks_config has no cidr_blocks argument, and no block is written as an argument', () => {
    const { stack } = hybridGke();
    const hcl = Testing.synthHcl(stack) as string;
    expect(hcl).not.toMatch(/^\s*cidr_blocks\s*=/m);
    expect(hcl).toMatch(/master_authorized_networks_config \{\s*gcp_public_cidrs_access_enabled = false\s*\}/);
    const json = synthTf(hybridGke().stack);
    const resources = Object.values(json.resource ?? {}).flatMap((byId) => Object.values(byId as Record<string, unknown>));
    for (const name of [...blockNames(resources), ...BLOCK_LISTS]) expect([name, hcl]).not.toEqual([name, expect.stringMatching(new RegExp(`^\\s*${name}\\s*=`, 'm'))]);
  });

  test('authorized networks are one cidr_blocks block each', () => {
    const hcl = Testing.synthHcl(hybridGke({ authorizedNetworks: ['203.0.113.0/24', '198.51.100.0/24'] }).stack) as string;
    expect(hcl.match(/cidr_blocks \{\s*cidr_block = "[\d./]+"\s*\}/g)).toHaveLength(2);
  });
});

describe('what the provider refuses at plan, refused at synth (point 8)', () => {
  test('a 1-character cluster name: the Cloud NAT named after it takes 2 to 63 (resource_compute_router_nat.go ValidateRFC1035Name(2, 63))', () => {
    expect(thrownMessage(() => gkeStack({ clusterName: 'a' }))).toMatch(/^\[gke-test\] clusterName "a" is 1 character, and the Cloud NAT the stack names after it takes 2 or more/);
    expect(thrownMessage(() => gkeStack({ clusterName: 'ab' }))).toBe('');
    const json = synthTf(hybridGke().stack);
    Object.values<Json>(json.resource!.google_compute_router_nat)[0].name = 'a';
    expect(validateTerraform(json).map((v) => v.rule)).toEqual(['gke-network-names']);
  });

  test('authorizedNetworks that are not canonical CIDR blocks are refused naming the prop (IsCIDRNetwork(0, 32))', () => {
    expect(thrownMessage(() => gkeStack({ authorizedNetworks: ['203.0.113.7/24'] }))).toMatch(/^\[gke-test\/Cluster\] authorizedNetworks: .*"203\.0\.113\.7\/24" .*did you mean 203\.0\.113\.0\/24/);
    expect(thrownMessage(() => gkeStack({ authorizedNetworks: ['bogus'] }))).toMatch(/authorizedNetworks: .*authorized network "bogus" is not a CIDR block/);
    expect(thrownMessage(() => gkeStack({ authorizedNetworks: ['203.0.113.0/24', '0.0.0.0/0'] }))).toBe('');
  });

  test('a region or zone that is not one is refused naming it; the cluster location in JSON too', () => {
    expect(thrownMessage(() => gkeStack({ region: 123 as unknown as string }))).toMatch(/^\[gke-test\] region: 123 is not a string\. Fix: write a region such as europe-north1/);
    expect(thrownMessage(() => gkeStack({ region: 'Europe North' }))).toMatch(/region: "Europe North" is not a Google Cloud region/);
    expect(thrownMessage(() => gkeStack({ region: 'northamerica-northeast2', zone: 'northamerica-northeast2-b' }))).toBe('');
    const json = synthTf(hybridGke().stack);
    Object.values<Json>(json.resource!.google_container_cluster)[0].location = '42';
    expect(validateTerraform(json).map((v) => v.message)).toEqual([expect.stringContaining('location "42" is not a Google Cloud region or zone')]);
  });

  test('a node_count beside the initial_node_count the pools write is refused ("Cannot set both", resource_container_node_pool.go)', () => {
    const { stack, linux } = hybridGke();
    linux.parts.nodePool.addOverride('node_count', 2);
    expect(synthError(stack)).toMatch(/sets both initial_node_count and node_count.*Fix: to give a fixed node_count, also write addOverride\('initial_node_count', null\)/);
    linux.parts.nodePool.addOverride('initial_node_count', null);
    linux.parts.nodePool.addOverride('autoscaling', null);
    expect(synthError(stack)).toBe('');
  });
});

describe('VPC-native unless routes-based (point 9: resource_container_cluster.go create defaults networking_mode to VPC_NATIVE)', () => {
  const windowsCluster = (edit: (cluster: Json) => void) => {
    const json = synthTf(hybridGke().stack);
    edit(Object.values<Json>(json.resource!.google_container_cluster)[0]);
    return validateTerraform(json).map((v) => v.message).join('\n');
  };

  test('ip_allocation_policy {} without a mode, and neither field, pass (the provider\'s Windows acceptance test writes ip_allocation_policy {})', () => {
    expect(windowsCluster((c) => { delete c.networking_mode; c.ip_allocation_policy = {}; })).toBe('');
    expect(windowsCluster((c) => { delete c.networking_mode; delete c.ip_allocation_policy; })).toBe('');
  });

  test('ROUTES, or cluster_ipv4_cidr without a mode, are refused', () => {
    expect(windowsCluster((c) => { c.networking_mode = 'ROUTES'; delete c.ip_allocation_policy; })).toContain('the cluster is routes-based (networking_mode ROUTES)');
    expect(windowsCluster((c) => { delete c.networking_mode; delete c.ip_allocation_policy; c.cluster_ipv4_cidr = '10.96.0.0/14'; })).toContain('routes-based (cluster_ipv4_cidr without networking_mode)');
  });
});

describe('edits that replace a pool or the cluster stop at plan (point 10)', () => {
  // node_config.go service_account and resource_container_node_pool.go name are ForceNew, and the
  // pool keeps its name, so Terraform destroys it first; prevent_destroy fails that plan
  // (hashicorp/terraform website/docs/language/meta-arguments/lifecycle.mdx).
  test('the cluster and every pool carry prevent_destroy; deletionProtection: false drops it with the provider\'s deletion_protection', () => {
    const tf = synthTf(hybridGke().stack);
    expect([...all(tf, 'google_container_cluster'), ...all(tf, 'google_container_node_pool')].map((b) => b.lifecycle?.prevent_destroy)).toEqual([true, true, true]);
    const off = synthTf(hybridGke({ deletionProtection: false }).stack);
    expect(all(off, 'google_container_cluster')[0]).toMatchObject({ deletion_protection: false });
    expect([...all(off, 'google_container_cluster'), ...all(off, 'google_container_node_pool')].map((b) => b.lifecycle?.prevent_destroy)).toEqual([undefined, undefined, undefined]);
  });
});

describe('googleCloudPublicAccess (point 11: gcp_public_cidrs_access_enabled, sent only when written)', () => {
  test('false by default; true when asked', () => {
    expect(all(synthTf(gkeStack()), 'google_container_cluster')[0].master_authorized_networks_config.gcp_public_cidrs_access_enabled).toBe(false);
    expect(all(synthTf(gkeStack({ googleCloudPublicAccess: true })), 'google_container_cluster')[0].master_authorized_networks_config.gcp_public_cidrs_access_enabled).toBe(true);
  });
});

describe('two clusters that cannot both exist (point 12)', () => {
  test('two GKE clusters of one name in one project are refused, even in two regions (service account ids and network names are the project\'s)', () => {
    const app = Testing.app();
    new HybridGkeStack(app, 'eu', { project: 'my-project', region: 'europe-north1', clusterName: 'shop' });
    expect(thrownMessage(() => new HybridGkeStack(app, 'us', { project: 'my-project', region: 'us-central1', clusterName: 'shop' })))
      .toMatch(/^\[us\] clusterName: stack eu already makes GKE cluster shop in project my-project/);
    expect(thrownMessage(() => new HybridGkeStack(app, 'us2', { project: 'other-project', region: 'us-central1', clusterName: 'shop' }))).toBe('');
  });
});

describe('props checked before anything is written (point 14)', () => {
  test('a null props object, an undefined machine type on a Windows pool, counts that are not whole numbers name the prop', () => {
    const cluster = gkeStack().cluster;
    expect(thrownMessage(() => new GkeWindowsNodePool(cluster, 'w1', null as unknown as { machineType: string }))).toMatch(/^\[gke-test\/Cluster\/w1\] props: null is not an object of props/);
    expect(thrownMessage(() => new GkeWindowsNodePool(cluster, 'w2', {} as { machineType: string }))).toMatch(/^\[gke-test\/Cluster\/w2\] machineType: not given, and it is required/);
    expect(thrownMessage(() => new GkeLinuxNodePool(cluster, 'l1', { machineType: 'e2-standard-4', minNodesPerZone: 1.5 }))).toMatch(/^\[gke-test\/Cluster\/l1\] minNodesPerZone: 1\.5 is not a whole number/);
    expect(thrownMessage(() => new GkeLinuxNodePool(cluster, 'l2', { machineType: 'e2-standard-4', maxNodesPerZone: NaN }))).toMatch(/maxNodesPerZone: NaN is not a whole number/);
    expect(thrownMessage(() => new GkeLinuxNodePool(cluster, 'l3', { machineType: 'e2-standard-4', diskSizeGb: 100.5 }))).toMatch(/diskSizeGb: 100\.5 is not a whole number/);
  });
});
