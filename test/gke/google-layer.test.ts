import { TerraformStack, Testing } from 'cdktn';
import { ComputeSubnetwork, ContainerNodePool, GoogleProvider } from '../../src/gke';
import { hybridGke } from './fixture';
import { synthTf } from '../support/tf';

/**
 * The google layer (src/terraform/providers/google.ts) writes what the generated binding writes.
 * EXPECTED_HCL is the output of `Testing.synthHcl` for the same three blocks built with
 * @cdktf/provider-google 16.12.1 (the last generated binding, google provider 6.50.0) under cdktn
 * 0.24, recorded from a scratch project (docs/gke.md, "Which provider binding"); only its
 * `required_providers` differ (`google` 6.50.0 there, `hashicorp/google` ~> 7.0 here).
 */
const EXPECTED_HCL = `provider "google" {
default_labels = {
a = "b"
}
project = "p"
region = "europe-west1"
}
resource "google_compute_subnetwork" "sn" {
ip_cidr_range = "10.0.0.0/20"
name = "x"
network = "n"
secondary_ip_range {
ip_cidr_range = "10.16.0.0/14"
range_name = "pods"
}
secondary_ip_range {
ip_cidr_range = "10.20.0.0/20"
range_name = "s"
}
}
resource "google_container_node_pool" "np" {
cluster = "c"
name = "win"
autoscaling {
max_node_count = 3
min_node_count = 1
}
node_config {
image_type = "WINDOWS_LTSC_CONTAINERD"
labels = {
"a.b/c" = "d"
}
machine_type = "n2-standard-4"
oauth_scopes = [
"x"
]
taint {
effect = "NO_SCHEDULE"
key = "k"
value = "v"
}
windows_node_config {
osversion = "OS_VERSION_LTSC2022"
}
}
}`;

function blocks(stack: TerraformStack): void {
  new GoogleProvider(stack, 'g', { project: 'p', region: 'europe-west1', defaultLabels: { a: 'b' } });
  new ComputeSubnetwork(stack, 'sn', { name: 'x', network: 'n', ipCidrRange: '10.0.0.0/20', secondaryIpRange: [{ rangeName: 'pods', ipCidrRange: '10.16.0.0/14' }, { rangeName: 's', ipCidrRange: '10.20.0.0/20' }] });
  new ContainerNodePool(stack, 'np', {
    cluster: 'c', name: 'win', autoscaling: { minNodeCount: 1, maxNodeCount: 3 },
    nodeConfig: { imageType: 'WINDOWS_LTSC_CONTAINERD', machineType: 'n2-standard-4', labels: { 'a.b/c': 'd' }, oauthScopes: ['x'], taint: [{ key: 'k', value: 'v', effect: 'NO_SCHEDULE' }], windowsNodeConfig: { osversion: 'OS_VERSION_LTSC2022' } },
  });
}

describe('the google layer', () => {
  test('HCL (cdktn synth --hcl) as the generated binding writes it: attributes, maps, lists, one block per nested object and per list element', () => {
    const stack = new TerraformStack(Testing.app(), 's');
    blocks(stack);
    const hcl = Testing.synthHcl(stack) as string;
    expect(hcl).toContain('source = "hashicorp/google"');
    expect(hcl.slice(hcl.indexOf('provider "google"')).trimEnd()).toBe(EXPECTED_HCL);
  });

  test('JSON: camelCase to the provider\'s snake_case, map keys (labels) as given, blocks nested, nothing undefined written', () => {
    const stack = new TerraformStack(Testing.app(), 's');
    blocks(stack);
    const json = synthTf(stack);
    expect(json.provider?.google).toEqual([{ project: 'p', region: 'europe-west1', default_labels: { a: 'b' } }]);
    expect(json.resource?.google_container_node_pool.np).toEqual({
      cluster: 'c', name: 'win', autoscaling: { min_node_count: 1, max_node_count: 3 },
      node_config: { image_type: 'WINDOWS_LTSC_CONTAINERD', machine_type: 'n2-standard-4', labels: { 'a.b/c': 'd' }, oauth_scopes: ['x'], taint: [{ key: 'k', value: 'v', effect: 'NO_SCHEDULE' }], windows_node_config: { osversion: 'OS_VERSION_LTSC2022' } },
    });
  });

  test('the GKE stack synthesizes to HCL with references, and every resource of the JSON has its block', () => {
    const { stack } = hybridGke();
    const hcl = Testing.synthHcl(stack) as string;
    const json = synthTf(hybridGke().stack);
    for (const [type, byId] of Object.entries(json.resource ?? {})) {
      for (const id of Object.keys(byId)) expect(hcl).toContain(`resource "${type}" "${id}"`);
    }
    // References as the generated bindings write them (the EKS stack's `cluster_name = "${aws_eks_cluster….name}"`).
    expect(hcl).toMatch(/cluster = "\$\{google_container_cluster\.Cluster_\w+\.id\}"/);
    expect(hcl).toMatch(/windows_node_config \{\s*osversion = "OS_VERSION_LTSC2022"\s*\}/);
  });
});
