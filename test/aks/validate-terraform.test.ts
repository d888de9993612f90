import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AKS_RULES, TerraformJson, formatTerraformViolation, validateTerraform } from '../../src';
import { epochOf } from '../support/day';

/**
 * `validateTerraform` on azurerm JSON written by hand (no cdktf metadata, as `terraform show -json`
 * users and module authors have it): the AKS rules judge it like the stack's own.
 */
const cluster = (extra: Record<string, unknown> = {}) => ({
  name: 'shop', location: 'westeurope', resource_group_name: 'rg', dns_prefix: 'shop', kubernetes_version: '1.34',
  default_node_pool: { name: 'system', vm_size: 'Standard_D4ds_v5', node_count: 2, vnet_subnet_id: '${azurerm_subnet.nodes.id}' },
  identity: { type: 'SystemAssigned' },
  network_profile: { network_plugin: 'azure', network_plugin_mode: 'overlay', network_policy: 'calico' },
  windows_profile: { admin_username: 'aksadmin', admin_password: '${var.win_password}' },
  ...extra,
});
const windowsPool = (extra: Record<string, unknown> = {}) => ({
  name: 'win', kubernetes_cluster_id: '${azurerm_kubernetes_cluster.shop.id}', vm_size: 'Standard_D4ds_v5', node_count: 2,
  os_type: 'Windows', os_sku: 'Windows2022', node_taints: ['os=windows:NoSchedule'], vnet_subnet_id: '${azurerm_subnet.nodes.id}', ...extra,
});
const json = (c: object, pools: Record<string, object>, variable: object = { type: 'string', sensitive: true }): TerraformJson => ({
  terraform: { required_providers: { azurerm: { source: 'hashicorp/azurerm', version: '~> 4.73' } } },
  provider: { azurerm: [{ features: [{}] }] },
  variable: { win_password: variable },
  resource: {
    azurerm_subnet: { nodes: { name: 'nodes', resource_group_name: 'rg', virtual_network_name: 'v', address_prefixes: ['10.1.0.0/24'] } },
    azurerm_kubernetes_cluster: { shop: c },
    azurerm_kubernetes_cluster_node_pool: pools,
  },
});

test('hand-written AKS JSON that is right passes', () => {
  expect(validateTerraform(json(cluster(), { win: windowsPool() }))).toEqual([]);
});

test('hand-written AKS JSON with the Windows traps: one line per violation, each naming the block, the rule and the fix', () => {
  const bad = json(
    cluster({ network_profile: undefined, windows_profile: { admin_username: 'aksadmin', admin_password: 'P@ssw0rd-2024' } }),
    { windows: windowsPool({ name: 'windows', os_sku: 'Windows2019', node_taints: undefined, max_pods: 300 }) },
    { type: 'string' },
  );
  const violations = validateTerraform(bad);
  expect(violations.map((v) => v.rule).sort()).toEqual(['aks-max-pods', 'aks-node-pool', 'aks-node-pool', 'aks-windows-network', 'aks-windows-os-sku', 'aks-windows-password']);
  const lines = violations.map(formatTerraformViolation);
  expect(lines).toEqual(expect.arrayContaining([
    expect.stringMatching(/^azurerm_kubernetes_cluster_node_pool\.windows: Windows pool name "windows" is 7 characters, and AKS takes at most 6 .*\. Fix: /),
    expect.stringMatching(/^azurerm_kubernetes_cluster_node_pool\.windows: Windows pool windows is in a cluster whose network plugin is kubenet \(no network_profile: kubenet\), and Windows nodes need Azure CNI\. Fix: /),
    expect.stringMatching(/^azurerm_kubernetes_cluster\.shop: the Windows admin password is a literal \(13 characters\), so it sits in the synthesized JSON and the Terraform state, and AKS takes 14 to 123 characters \(azurerm's plan accepts 8 or more, so only the apply would fail\)\. Fix: /),
    expect.stringMatching(/^azurerm_kubernetes_cluster_node_pool\.windows: Windows2019 runs on Kubernetes 1\.32 at most, and the pool runs 1\.34/),
  ]));
  expect(violations.every((v) => v.what.length > 0 && v.fix.length > 0)).toBe(true);
});

test('graph rules on hand-written JSON: two pools of one name, no Linux node for CoreDNS, Windows2025 on azurerm ~> 4.73', () => {
  const names = validateTerraform(json(cluster(), { a: windowsPool(), b: windowsPool() }), { rules: AKS_RULES });
  expect(names.map((v) => `${v.rule} ${v.kind}.${v.name}`)).toEqual(['aks-pool-names azurerm_kubernetes_cluster_node_pool.b']);
  const dns = validateTerraform(json(cluster({ default_node_pool: { name: 'system', vm_size: 'Standard_D4ds_v5', node_count: 0 } }), { win: windowsPool() }));
  expect(dns.map((v) => v.rule)).toEqual(['aks-system-pool', 'aks-coredns']);
  const w25 = validateTerraform(json(cluster(), { win: windowsPool({ os_sku: 'Windows2025', fips_enabled: true }) }));
  expect(w25.map((v) => `${v.rule}: ${v.what}`)).toEqual([expect.stringMatching(/^aks-provider-version: os_sku Windows2025 is unknown to hashicorp\/azurerm ~> 4\.73/)]);
  const noFips = validateTerraform(json(cluster(), { win: windowsPool({ os_sku: 'Windows2025' }) }));
  expect(noFips.map((v) => v.rule)).toEqual(['aks-windows-os-sku', 'aks-provider-version']);
});

test('npx cdk-hybrid-windows validate judges a hand-written AKS cdk.tf.json with the same rules, exit 1 and one line per violation naming its rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aks-cli-'));
  const file = join(dir, 'cdk.tf.json');
  const bad = json(cluster({ network_profile: undefined }), { win: windowsPool({ name: 'windows' }) });
  writeFileSync(file, JSON.stringify(bad, null, 2));
  // The compiled command, as npx runs it (`npm test` runs `tsc -b` first).
  const r = spawnSync(process.execPath, [join(__dirname, '..', '..', 'lib', 'src', 'cli', 'main.js'), 'validate', file], { encoding: 'utf8' });
  expect(r.status).toBe(1);
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  const expected = validateTerraform(bad).map((v) => v.rule).sort();
  expect(expected).toEqual(['aks-node-pool', 'aks-windows-network']);
  expect(lines.map((l) => /\[([a-z0-9-]+)\]$/.exec(l)?.[1]).sort()).toEqual(expected);
  for (const l of lines) expect(l.startsWith(`${file}:`)).toBe(true);
});

describe('the release calendar on hand-written JSON, the day given to validateTerraform', () => {
  // azure-aks-docs fb060abe supported-kubernetes-versions.md: 1.34's community support ends Nov 2026,
  // 1.31's long-term support Nov 2026 (the month's last day). Attributes: azurerm v4.73.0
  // kubernetes_cluster_resource.go, support_plan (default KubernetesOfficial) and sku_tier (default Free).
  const LTS = { support_plan: 'AKSLongTermSupport', sku_tier: 'Premium' };
  const versions = (c: Record<string, unknown>, day: string) => validateTerraform(json(cluster(c), { win: windowsPool() }), { day }).filter((v) => v.rule === 'aks-kubernetes-version');

  test('community support: 1.34 passes on 2026-11-30; from 2026-12-01 only with support_plan and sku_tier, which the fix names', () => {
    expect(versions({}, '2026-11-30')).toEqual([]);
    const [v, ...rest] = versions({}, '2026-12-01');
    expect(rest).toEqual([]);
    expect(formatTerraformViolation(v)).toBe('azurerm_kubernetes_cluster.shop: Kubernetes 1.34 left AKS community support on 2026-11-30 (the calendar is read on 2026-12-01), '
      + 'and AKS creates clusters of it only with long-term support (until 2027-11-30), which needs support_plan "AKSLongTermSupport" on the Premium tier. '
      + 'Fix: write a version in AKS community support on 2026-12-01 (1.35 to 1.37), or 1.32 to 1.34 with long-term support: support_plan = "AKSLongTermSupport" with sku_tier = "Premium" (supportPlan: AksSupportPlan.AKS_LONG_TERM_SUPPORT).');
    expect(v.field).toBe('kubernetes_version');
    expect(versions(LTS, '2026-12-01')).toEqual([]);
    expect(versions({ support_plan: 'KubernetesOfficial', sku_tier: 'Premium' }, '2026-12-01').map((x) => x.field)).toEqual(['kubernetes_version']);
  });

  test('long-term support: 1.31 with LTS passes on 2026-11-30 and is refused from 2026-12-01; without LTS it was refused before', () => {
    expect(versions({ kubernetes_version: '1.31', ...LTS }, '2026-11-30')).toEqual([]);
    expect(versions({ kubernetes_version: '1.31', ...LTS }, '2026-12-01').map((v) => v.what)).toEqual(['Kubernetes 1.31 left AKS long-term support on 2026-11-30 (the calendar is read on 2026-12-01), and AKS creates no cluster of it']);
    expect(versions({ kubernetes_version: '1.31.5' }, '2026-11-30').map((v) => v.what)).toEqual([expect.stringMatching(/^Kubernetes 1\.31\.5 left AKS community support on 2025-11-01 /)]);
    // Once every calendar version has left community support, the fix points past the calendar.
    expect(versions({ kubernetes_version: '1.33', ...LTS }, '2027-11-01').map((v) => v.fix)).toEqual([
      'write a version newer than 1.37 (az aks get-versions --location <region>), or 1.34 to 1.37 with long-term support: support_plan = "AKSLongTermSupport" with sku_tier = "Premium" (supportPlan: AksSupportPlan.AKS_LONG_TERM_SUPPORT)']);
  });

  test('the LTS plan without the Premium tier is refused on sku_tier; a plan or tier from a variable is not judged', () => {
    const tiers = versions({ kubernetes_version: '1.33', support_plan: 'AKSLongTermSupport', sku_tier: 'Standard' }, '2026-11-01');
    expect(tiers.map((v) => `${v.field}: ${v.message}`)).toEqual(['sku_tier: the cluster has support_plan "AKSLongTermSupport" and sku_tier "Standard", and AKS enables long-term support on the Premium tier only. '
      + 'Fix: set sku_tier = "Premium" (skuTier: AksSkuTier.PREMIUM, the default with long-term support), or leave support_plan unset.']);
    expect(versions({ kubernetes_version: '1.33', support_plan: '${var.plan}', sku_tier: '${var.tier}' }, '2026-11-01')).toEqual([]);
    expect(versions({ kubernetes_version: '1.30', support_plan: '${var.plan}' }, '2026-11-01').map((v) => v.field)).toEqual(['kubernetes_version']);
  });
});

test('npx cdk-hybrid-windows validate reads the day from SOURCE_DATE_EPOCH: 1.34 without LTS passes on 2026-11-30, fails from 2026-12-01 naming the attributes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aks-cli-day-'));
  const file = join(dir, 'cdk.tf.json');
  writeFileSync(file, JSON.stringify(json(cluster(), { win: windowsPool() }), null, 2));
  const validate = (day: string) => spawnSync(process.execPath, [join(__dirname, '..', '..', 'lib', 'src', 'cli', 'main.js'), 'validate', file],
    { encoding: 'utf8', env: { ...process.env, SOURCE_DATE_EPOCH: epochOf(day) } });
  expect(validate('2026-11-30').status).toBe(0);
  const r = validate('2026-12-01');
  expect(r.status).toBe(1);
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  expect(lines).toEqual([expect.stringMatching(/Kubernetes 1\.34 left AKS community support on 2026-11-30 \(the calendar is read on 2026-12-01\).*support_plan = "AKSLongTermSupport" with sku_tier = "Premium".*\[aks-kubernetes-version\]$/)]);
});

describe('the valid variants of the AKS trace stay accepted (../shared/reviews/2026-11-28/truth-aks.md, section 4: R01 to R12, X13)', () => {
  const accepted = (c: Record<string, unknown>, pools: Record<string, object>) => validateTerraform(json(cluster(c), pools)).map((v) => `${v.rule}: ${v.what}`);
  const linux = { name: 'linux', kubernetes_cluster_id: '${azurerm_kubernetes_cluster.shop.id}', vm_size: 'Standard_D4ds_v5', node_count: 2, os_type: 'Linux', vnet_subnet_id: '${azurerm_subnet.nodes.id}' };

  test.each<[string, Record<string, unknown>, Record<string, object>]>([
    ['R01 a 6-character Windows pool name', {}, { win: windowsPool({ name: 'win22a' }) }],
    ['R02 min_count 0 on an autoscaling Windows pool', {}, { win: windowsPool({ auto_scaling_enabled: true, min_count: 0, max_count: 3, node_count: undefined }) }],
    ['R03 only_critical_addons_enabled on the system pool, with a Linux user pool', { default_node_pool: { name: 'system', vm_size: 'Standard_D4ds_v5', node_count: 2, only_critical_addons_enabled: true, vnet_subnet_id: '${azurerm_subnet.nodes.id}' } }, { win: windowsPool(), linux }],
    ['R04/R12 an extra taint', {}, { win: windowsPool({ node_taints: ['os=windows:NoSchedule', 'dedicated=web:NoSchedule'] }) }],
    ['R05 flat Azure CNI with max_pods 30', { network_profile: { network_plugin: 'azure', network_policy: 'calico' } }, { win: windowsPool({ max_pods: 30 }) }],
    ['R06 a pool one minor behind its cluster', { kubernetes_version: '1.35' }, { win: windowsPool({ orchestrator_version: '1.34' }) }],
    ['R07 a patch version', { kubernetes_version: '1.35.2' }, { win: windowsPool() }],
    ['R08 LTS 1.32 on Premium with Windows2019', { kubernetes_version: '1.32', support_plan: 'AKSLongTermSupport', sku_tier: 'Premium' }, { win: windowsPool({ os_sku: 'Windows2019' }) }],
    ['R09 no windows_profile', { windows_profile: undefined }, { win: windowsPool() }],
    ['R10 an admin user name with a dot (azurerm has no check; AKS forbids only a trailing ".")', { windows_profile: { admin_username: 'my.admin', admin_password: '${var.win_password}' } }, { win: windowsPool() }],
    ['X13 no upgrade_settings, a rotation name of 6 characters on a Windows pool', {}, { win: windowsPool({ temporary_name_for_rotation: 'wintmp' }) }],
  ])('%s', (_, c, pools) => {
    expect(accepted(c, pools)).toEqual([]);
  });
});
