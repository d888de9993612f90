import { Finding, rule } from '../../rules/engine/rule';
import { AKS_LIMITS, AKS_NPM_WINDOWS_RETIRED, AKS_RESERVED_CIDRS, AksNetworkPolicy } from '../../platform/aks';
import { Ipv4Cidr, cidrContains, cidrsOverlap, formatCidr, parseCidr } from '../../platform/cidr';
import { integerProblem } from '../../core/numbers';
import { TerraformBlock, TerraformGraph, blockViolation, isExpression, list, single } from '../graph';
import { CLUSTER, poolsOf } from './aks-common';

/**
 * The AKS rules over the cluster's network profile and maintenance window: what AKS refuses at
 * create although azurerm checks only the form (`validate.CIDR`, `IPv4Address`:
 * kubernetes_cluster_resource.go `network_profile`), and what azurerm refuses at plan.
 * Registered in AKS_RULES (aks-rules.ts).
 */

/** A literal CIDR block, or undefined for an expression or what is no block (the form is azurerm's to refuse). */
function block(value: unknown): Ipv4Cidr | undefined {
  if (typeof value !== 'string' || isExpression(value)) return undefined;
  try {
    return parseCidr(value);
  } catch {
    return undefined;
  }
}

function address(value: unknown): number | undefined {
  const m = typeof value === 'string' ? /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value) : null;
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.some((o) => o > 255) ? undefined : octets.reduce((a, o) => a * 256 + o, 0);
}

/** The node subnets of a cluster's pools that the graph holds, with their address prefixes. */
function nodeSubnets(graph: TerraformGraph, cluster: TerraformBlock): Array<{ subnet: TerraformBlock; cidr: Ipv4Cidr }> {
  const seen = new Set<TerraformBlock>();
  return poolsOf(graph, cluster).flatMap((pool) => {
    const subnet = graph.resolve(pool.block, pool.body.vnet_subnet_id);
    if (subnet?.type !== 'azurerm_subnet' || seen.has(subnet)) return [];
    seen.add(subnet);
    return list(subnet.body.address_prefixes).flatMap((p) => {
      const cidr = block(p);
      return cidr ? [{ subnet, cidr }] : [];
    });
  });
}

/**
 * The address ranges of a cluster as AKS takes them (MicrosoftDocs/azure-aks-docs fb060abe):
 * the Service CIDR smaller than /12 and apart from the pod CIDR and the nodes' subnets
 * (concepts-network-azure-cni-overlay.md, "Kubernetes service address range"), the DNS service
 * address inside the Service CIDR (AKS: `dnsServiceIP` "must be within the Kubernetes service
 * address range"), the Overlay pod CIDR apart from the nodes' subnets ("Pod CIDR space must not
 * overlap with the cluster subnet range"), none of them over a range AKS reserves
 * (concepts-network-cni-overview.md, "AKS CNI networking prerequisites"). And Azure Network Policy
 * Manager beside Windows pools, which AKS no longer supports on Windows nodes from 2026-09-30
 * (includes/azure-network-policy-manager-windows-retirement.md).
 */
export const network = rule<TerraformGraph>({
  name: 'aks-network',
  scope: 'object',
  description: 'The Service CIDR smaller than /12 holding the DNS address, the pod CIDR, Service CIDR and node subnets apart and off AKS\'s reserved ranges; no Azure NPM beside Windows pools after its retirement',
  source: 'MicrosoftDocs/azure-aks-docs fb060abe articles/aks/concepts-network-azure-cni-overlay.md (pod CIDR, Service address range), concepts-network-cni-overview.md (reserved ranges), includes/azure-network-policy-manager-windows-retirement.md; hashicorp/terraform-provider-azurerm v4.73.0 kubernetes_cluster_resource.go (network_profile: validate.CIDR, IPv4Address only)',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
    const out: Finding[] = [];
    const profile = single(cluster.body.network_profile);
    const v = (what: string, fix: string, field: string) => out.push(blockViolation(cluster, what, fix, `network_profile.${field}`));
    const service = block(profile.service_cidr);
    const pod = block(profile.pod_cidr);
    const subnets = nodeSubnets(graph, cluster);
    for (const [field, cidr] of [['service_cidr', service], ['pod_cidr', pod]] as const) {
      const reserved = cidr && AKS_RESERVED_CIDRS.find((r) => cidrsOverlap(cidr, parseCidr(r)));
      if (reserved) v(`${field} ${formatCidr(cidr)} overlaps ${reserved}, a range AKS reserves, and AKS refuses the cluster`, `use a private range apart from ${AKS_RESERVED_CIDRS.join(', ')}`, field);
    }
    for (const { subnet, cidr } of subnets) {
      const reserved = AKS_RESERVED_CIDRS.find((r) => cidrsOverlap(cidr, parseCidr(r)));
      if (reserved) v(`the nodes' subnet ${formatCidr(cidr)} overlaps ${reserved}, a range AKS reserves, and AKS refuses the cluster`, `give the nodes a subnet apart from ${AKS_RESERVED_CIDRS.join(', ')}`, 'network_plugin');
      if (service && cidrsOverlap(service, cidr)) {
        v(`service_cidr ${formatCidr(service)} overlaps the nodes' subnet ${formatCidr(cidr)} (${subnet.path ?? subnet.id}), and AKS refuses the cluster`, 'pick a Service CIDR outside the VNet (serviceCidr), e.g. 10.0.0.0/16 beside a 10.224.0.0/16 VNet', 'service_cidr');
      }
      if (pod && profile.network_plugin_mode === 'overlay' && cidrsOverlap(pod, cidr)) {
        v(`pod_cidr ${formatCidr(pod)} overlaps the nodes' subnet ${formatCidr(cidr)} (${subnet.path ?? subnet.id}), and AKS refuses it with Azure CNI Overlay`, 'pick a pod CIDR outside the VNet (podCidr), e.g. 10.244.0.0/16', 'pod_cidr');
      }
    }
    if (service && pod && cidrsOverlap(service, pod)) v(`service_cidr ${formatCidr(service)} overlaps pod_cidr ${formatCidr(pod)}`, 'give Services and pods ranges of their own (serviceCidr, podCidr)', 'service_cidr');
    if (service && service.prefix < AKS_LIMITS.serviceCidrLargestPrefix) {
      v(`service_cidr ${formatCidr(service)} is a /${service.prefix}, and AKS takes a Service CIDR smaller than /12`, 'use a /13 or smaller, e.g. a /16', 'service_cidr');
    }
    const dns = profile.dns_service_ip;
    if (service && dns !== undefined && !isExpression(dns)) {
      const a = address(dns);
      if (a === undefined || !cidrContains(service, { network: a, prefix: 32 }) || a === service.network) {
        v(`dns_service_ip ${JSON.stringify(dns)} is not an address of service_cidr ${formatCidr(service)} (the first is the network's), and AKS refuses the cluster`,
          'leave it to HybridAksCluster (the Service CIDR\'s tenth address), or pick an address inside the Service CIDR', 'dns_service_ip');
      }
    }
    const windows = poolsOf(graph, cluster).filter((p) => p.windows);
    if (profile.network_policy === AksNetworkPolicy.AZURE && windows.length > 0 && graph.day >= AKS_NPM_WINDOWS_RETIRED) {
      v(`network_policy "azure" (Azure Network Policy Manager) beside Windows pools (${windows.map((p) => p.body.name).join(', ')}): AKS supports it on Windows nodes no more since ${AKS_NPM_WINDOWS_RETIRED} (the day is ${graph.day}), so their pods get no policy enforcement`,
        'use networkPolicy AksNetworkPolicy.CALICO (the default); changing the policy of a cluster that exists replaces the cluster', 'network_policy');
    }
    return out;
  }),
});

const WEEK_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The node OS maintenance window as azurerm and AKS take it: `day_of_week` one of azurerm's
 * case-sensitive week days (`maintenanceconfigurations.PossibleValuesForWeekDay`), `duration` 4 to
 * 24 hours (`IntBetween(4, 24)`), `start_time` `HH:mm` and `utc_offset` `±HH:mm` (AKS API
 * MaintenanceWindow: azurerm passes both on unchecked).
 */
export const maintenanceWindow = rule<TerraformGraph>({
  name: 'aks-maintenance-window',
  scope: 'object',
  description: 'The node OS maintenance window has a week day, 4 to 24 hours, an HH:mm start and a ±HH:mm offset',
  source: 'hashicorp/terraform-provider-azurerm v4.73.0 internal/services/containers/kubernetes_cluster_resource.go (maintenance_window_node_os: day_of_week StringInSlice of WeekDay, case-sensitive; duration IntBetween(4, 24)); AKS API MaintenanceWindow (startTime HH:mm, utcOffset +/-HH:mm)',
  check: (graph) => graph.ofType(CLUSTER).flatMap((cluster) => {
    const out: Finding[] = [];
    for (const key of ['maintenance_window_node_os', 'maintenance_window_auto_upgrade'] as const) {
      if (cluster.body[key] === undefined) continue;
      const w = single(cluster.body[key]);
      const v = (what: string, fix: string, field: string) => out.push(blockViolation(cluster, what, fix, `${key}.${field}`));
      if (w.day_of_week !== undefined && !isExpression(w.day_of_week) && !WEEK_DAYS.includes(w.day_of_week)) {
        v(`day_of_week ${JSON.stringify(w.day_of_week)} is not one of ${WEEK_DAYS.join(', ')} (azurerm compares with case), and the plan fails`, 'write the day capitalized, e.g. "Sunday"', 'day_of_week');
      }
      const hours = integerProblem(w.duration, AKS_LIMITS.maintenanceHours.min, AKS_LIMITS.maintenanceHours.max);
      if (w.duration !== undefined && !isExpression(w.duration) && hours) v(`duration ${hours}, and azurerm takes ${AKS_LIMITS.maintenanceHours.min} to ${AKS_LIMITS.maintenanceHours.max} hours`, `give ${AKS_LIMITS.maintenanceHours.min} to ${AKS_LIMITS.maintenanceHours.max} whole hours`, 'duration');
      if (w.start_time !== undefined && !isExpression(w.start_time) && !(typeof w.start_time === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(w.start_time))) {
        v(`start_time ${JSON.stringify(w.start_time)} is not HH:mm from 00:00 to 23:59, and AKS refuses it`, 'write e.g. "00:00"', 'start_time');
      }
      if (w.utc_offset !== undefined && !isExpression(w.utc_offset) && !(typeof w.utc_offset === 'string' && /^[+-](0\d|1[0-4]):[0-5]\d$/.test(w.utc_offset))) {
        v(`utc_offset ${JSON.stringify(w.utc_offset)} is not +HH:mm or -HH:mm, and AKS refuses it`, 'write e.g. "+00:00" or "-08:00"', 'utc_offset');
      }
    }
    return out;
  }),
});
