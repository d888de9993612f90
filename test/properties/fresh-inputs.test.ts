import { Testing } from 'cdktn';
import { parse } from 'yaml';
import { validateManifests, validateTerraform } from '../../src';
import { AksLinuxNodePool } from '../../src/aks';
import { aksStack, hybridAks, synthError } from '../aks/fixture';
import { hybridGke, synthError as gkeSynthError } from '../gke/fixture';

/**
 * Issue 24 "Done means": inputs a new user wrote, each either valid (must synthesize) or invalid
 * (refused with `[path] what. Fix: how.` naming the prop). Only the inputs that found a silent
 * pass or a wrongly refused valid input are kept here, as guards of their fixes.
 *
 * Upstream: hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers:
 * validate/kubernetes.go (KubernetesClusterName `^[a-zA-Z0-9]$|^[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]$`,
 * KubernetesDNSPrefix `^[a-zA-Z\d]$|^[a-zA-Z\d][-a-zA-Z\d]{0,52}[a-zA-Z\d]$`),
 * kubernetes_cluster_resource.go (name: StringIsNotEmpty, dns_prefix: KubernetesDNSPrefix),
 * kubernetes_nodepool.go and kubernetes_cluster_node_pool_resource.go ("`max_count` must be >= `min_count`").
 */
const clusterOf = (json: { resource: { azurerm_kubernetes_cluster: Record<string, { name: string; dns_prefix: string }> } }) => Object.values(json.resource.azurerm_kubernetes_cluster)[0];
const DNS_PREFIX = /^[a-zA-Z\d]$|^[a-zA-Z\d][-a-zA-Z\d]{0,52}[a-zA-Z\d]$/;

describe('fresh inputs: AKS', () => {
  test.each([
    ['an AKS pool whose minCount is above its maxCount', () => {
      const s = aksStack();
      new AksLinuxNodePool(s.cluster, 'linux', { vmSize: 'Standard_D4ds_v5', minCount: 3, maxCount: 1 });
      return s;
    }, /^\[aks-test\/Cluster\/linux\] minCount and maxCount: .*min_count 3 above max_count 1.*Fix: keep the minimum at or below the maximum/],
    ['a system pool whose minCount is above its maxCount', () => aksStack({ systemPool: { minCount: 4, maxCount: 3 } }),
      /^\[aks-test\/Cluster\] systemPool.minCount and systemPool.maxCount: .*min_count 4 above max_count 3/],
    ['a pool in zone "4"', () => {
      const s = aksStack();
      new AksLinuxNodePool(s.cluster, 'linux', { vmSize: 'Standard_D4ds_v5', zones: ['1', '4'] });
      return s;
    }, /^\[aks-test\/Cluster\/linux\] zones: .*pool linux names zones "4", and Azure's availability zones are "1", "2" and "3"/],
    ['a system pool in zone "eu-1"', () => aksStack({ systemPool: { zones: ['eu-1'] } }), /^\[aks-test\/Cluster\] systemPool.zones: .*zones "eu-1"/],
    ['a cluster name AKS refuses', () => aksStack({ clusterName: 'aks test!' }),
      /^\[aks-test\/Cluster\] clusterName: .*cluster name "aks test!" is not an AKS cluster name.*Fix: use 1 to 63 letters, digits, "-" and "_"/],
    ['a cluster name ending in "-"', () => aksStack({ clusterName: 'shop-' }), /clusterName: .*"shop-" is not an AKS cluster name/],
  ])('%s is refused at construction, naming the prop', (_, build, message) => {
    expect(() => build()).toThrow(message);
  });

  test('a pool in zones 1, 2 and 3 synthesizes', () => {
    const { stack } = hybridAks({ systemPool: { zones: ['1', '2', '3'] } });
    new AksLinuxNodePool(stack.cluster, 'zonal', { vmSize: 'Standard_D4ds_v5', zones: ['1', '2', '3'] });
    expect(synthError(stack)).toBe('');
  });

  test.each([
    ['with "_"', 'shop_prod', 'shop-prod'],
    ['of 63 characters, the longest AKS takes (the prefix cut to 53 at a "-")', `a${'_b'.repeat(31)}`, `a${'-b'.repeat(26)}`],
  ])('a cluster name %s synthesizes, with a dns_prefix azurerm takes', (_, clusterName, prefix) => {
    // In an existing network: the stack's own VNet, <name>-vnet, would pass Azure's 64 characters (refused: test/aks/day2.test.ts).
    const { stack } = hybridAks({ clusterName, existingNetwork: { resourceGroupName: 'rg', subnetId: '/subscriptions/0/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/aks' } });
    expect(synthError(stack)).toBe('');
    const cluster = clusterOf(JSON.parse(Testing.synth(stack)));
    expect(cluster.name).toBe(clusterName);
    expect(cluster.dns_prefix).toBe(prefix);
    expect(cluster.dns_prefix).toMatch(DNS_PREFIX);
  });

  test('hand-written JSON: a dns_prefix azurerm refuses, and min_count above max_count on the default pool', () => {
    const json = {
      provider: { azurerm: [{ features: [{}] }] },
      resource: {
        azurerm_kubernetes_cluster: {
          shop: {
            name: 'shop', location: 'westeurope', resource_group_name: 'rg', dns_prefix: 'shop_prod', kubernetes_version: '1.34',
            default_node_pool: { name: 'system', vm_size: 'Standard_D4ds_v5', auto_scaling_enabled: true, min_count: 5, max_count: 2 },
          },
        },
      },
    };
    const messages = validateTerraform(json).map((v) => `${v.rule}: ${v.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^aks-cluster-name: dns_prefix "shop_prod" is not a DNS prefix azurerm takes/),
      expect.stringMatching(/^aks-node-pool: pool system has min_count 5 above max_count 2/),
    ]));
  });
});

/**
 * GKE's project: the google provider takes any string, and the Google APIs refuse what is not a
 * project id (Resource Manager "Creating and managing projects": 6 to 30 lower-case letters, digits
 * and "-", starting with a letter, no trailing "-"; legacy domain-scoped ids `example.com:id`) or
 * number, at apply.
 */
describe('fresh inputs: GKE', () => {
  test.each(['My Project', 'abc', 'my-project-'])('project %j is refused at synth, naming the field', (project) => {
    expect(gkeSynthError(hybridGke({ project }).stack)).toMatch(
      new RegExp(`\\[gke-test/google\\] provider\\.google: project "${project}" is not a Google Cloud project id.*Fix: use the project id`));
  });

  test.each(['my-project-123456', 'example.com:my-project', '123456789012'])('project %j synthesizes', (project) => {
    expect(gkeSynthError(hybridGke({ project }).stack)).toBe('');
  });
});

/**
 * Hand-written YAML: a workload whose selector its pod template does not match passed silently,
 * and kubectl apply refuses it (kubernetes v1.34 pkg/apis/apps/validation/validation.go,
 * ValidateDeploymentSpec and its siblings: "`selector` does not match template `labels`",
 * "empty selector is invalid for deployment").
 */
describe('fresh inputs: validateManifests on hand-written YAML', () => {
  const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
  const deployment = (selector: string, labels: string) => parse(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  ${selector}
  template:
    metadata: {labels: ${labels}}
    spec:
      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows}
      tolerations: [{key: os, value: windows, effect: NoSchedule}]
      containers: [{name: web, image: ${IIS}}]
`);
  const selectorFindings = (yaml: object) => validateManifests([yaml as never]).filter((v) => v.rule === 'workload-selector').map((v) => `${v.field}: ${v.message}`);

  test.each([
    ['a selector the labels do not match', 'selector: {matchLabels: {app: web}}', '{app: api}',
      'spec.template.metadata.labels: Deployment web: spec.selector does not match spec.template.metadata.labels (unmatched: app=web), which the API server refuses. Fix: give the pod template'],
    ['an expression the labels do not meet', 'selector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: In, values: [front]}]}', '{app: web, tier: back}',
      'unmatched: tier In (front)'],
    ['an empty selector', 'selector: {}', '{app: web}', 'spec.selector: Deployment web has an empty spec.selector, which the API server refuses'],
    ['no selector', 'replicas: 1', '{app: web}', 'spec.selector: Deployment web has no spec.selector'],
  ])('%s is refused, naming the field', (_, selector, labels, message) => {
    expect(selectorFindings(deployment(selector, labels))).toEqual([expect.stringContaining(message)]);
  });

  test.each([
    ['matchLabels', 'selector: {matchLabels: {app: web}}', '{app: web, version: v1}'],
    ['every operator', 'selector: {matchExpressions: [{key: app, operator: In, values: [web]}, {key: tier, operator: NotIn, values: [db]}, {key: app, operator: Exists}, {key: canary, operator: DoesNotExist}]}', '{app: web, tier: front}'],
  ])('a selector of %s its labels meet passes', (_, selector, labels) => {
    expect(validateManifests([deployment(selector, labels) as never])).toEqual([]);
  });
});
