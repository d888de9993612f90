import { K0S_CLUSTER_PORTS, K0S_PORTS } from '../../platform/conventions';
import { AvailabilityZone, AwsRegion } from '../../platform/aws';
import { parseCidr } from '../../platform/cidr';
import { isUnresolvedToken } from '../../core/tokens';
import { AWS_INFRASTRUCTURE } from '../../platform/infrastructures';
import { KUBE_ROUTER_ON_EC2, NetworkProvider } from '../../platform/network';
import { integerProblem } from '../../core/numbers';
import { describe, isCapi, Json, list, ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { awsClusterOf, validRegion } from './aws-machines';
import { CAPI, INFRA, k0sControlPlaneOf } from './pools';

/** The rules over a cluster on AWS: its AWSCluster (region, load balancer, ingress) and its CNI on EC2. */

const WORLD = new Set(['0.0.0.0/0', '::/0']);

/** The AWSCluster: a real region, an NLB with k0s's listeners, and k0s ports closed to the world. */
export const awsCluster = rule<ManifestGraph>({
  name: 'aws-cluster',
  scope: 'object',
  description: 'The AWSCluster: a real region and zones, an NLB with k0s\'s listeners, the API reachable from outside, k0s ports closed to the world, valid ingress rules and NodePort sources',
  source: 'cluster-api-provider-aws v2.11.1 pkg/cloud/services/securitygroup/securitygroups.go',
  check: (graph) => graph.ofKind(AWS_INFRASTRUCTURE.clusterKind).filter((a) => isCapi(a, INFRA)).flatMap((aws) => {
    const out: Finding[] = [];
    const spec = aws.manifest.spec ?? {};
    if (spec.region === undefined) {
      out.push(violation(aws, 'no AWS region', 'pass `region`, or an `infra` from the AWS stack', 'spec.region', 'set spec.region to the region name, e.g. eu-north-1'));
    } else {
      const p = AwsRegion.problem(spec.region);
      if (p) out.push(violation(aws, p, 'use a region name such as eu-north-1', 'spec.region'));
    }
    // Zones are judged against a region only when it is one (a bad region is reported once, above).
    const region = validRegion(spec.region);
    for (const [i, subnet] of list(spec.network?.subnets).entries()) {
      const zone = subnet?.availabilityZone;
      const p = zone === undefined ? undefined : AvailabilityZone.problem(zone, region);
      if (p) out.push(violation(aws, `network.subnets[${i}]: ${p}`, 'use a zone of the cluster\'s region, e.g. eu-north-1a', `spec.network.subnets[${i}].availabilityZone`));
    }
    const lb = spec.controlPlaneLoadBalancer ?? {};
    const k0sPorts: number[] = K0S_CLUSTER_PORTS.map(({ port }) => port);
    if (lb.loadBalancerType !== 'nlb') {
      out.push(violation(aws, `control-plane load balancer type "${lb.loadBalancerType ?? 'classic'}" cannot carry k0s's konnectivity (${K0S_PORTS.konnectivity}) and join API (${K0S_PORTS.joinApi}) listeners beside the API`, 'use "nlb"'));
    }
    const listeners = new Set(list(lb.additionalListeners).map((l) => l?.port));
    const missing = k0sPorts.filter((p) => !listeners.has(p));
    if (missing.length > 0) {
      out.push(violation(aws, `control-plane load balancer has no listener for ${missing.join(' and ')}; k0s workers and joining controllers reach the controllers there`, `keep additionalListeners ${k0sPorts.join(' and ')}`));
    }
    // cluster-api-provider-aws v2.11.1 pkg/cloud/services/securitygroup/securitygroups.go
    // (SecurityGroupAPIServerLB): given ingress rules replace "6443 from anywhere", and CAPA adds 6443
    // only from the NAT gateways' addresses (internet-facing) or the VPC (internal). With none of the
    // given rules admitting 6443 from outside, a management cluster outside the VPC reaches no API.
    const rules = list(lb.ingressRules);
    const apiFromOutside = rules.some((r) => coversPort(r, K0S_PORTS.api) && (list(r?.cidrBlocks).length > 0 || list(r?.ipv6CidrBlocks).length > 0 || list(r?.sourceSecurityGroupIds).length > 0 || list(r?.sourceSecurityGroupRoles).length > 0));
    if (rules.length > 0 && !apiFromOutside && lb.scheme !== 'internal') {
      out.push(violation(aws, `no controlPlaneLoadBalancer.ingressRules rule admits ${K0S_PORTS.api}, so CAPA opens the API only to the cluster's own NAT gateways: the management cluster cannot reach it, and Cluster API never manages the cluster`,
        'list the management cluster\'s addresses in apiServerLoadBalancer.allowedCidrs, or use LoadBalancerScheme.INTERNAL with the management cluster in the VPC', 'spec.controlPlaneLoadBalancer.ingressRules'));
    }
    if (lb.preserveClientIP === true) {
      out.push(violation(aws, `preserveClientIP makes CAPA open the load balancer's ports (${K0S_PORTS.api}, ${k0sPorts.join(', ')}) on the controllers to 0.0.0.0/0`, 'leave preserveClientIP off'));
    }
    const openRules: Array<[string, Json[]]> = [
      ['controlPlaneLoadBalancer.ingressRules', list(lb.ingressRules)],
      ['network.additionalControlPlaneIngressRules', list(spec.network?.additionalControlPlaneIngressRules)],
      ['network.additionalNodeIngressRules', list(spec.network?.additionalNodeIngressRules)],
    ];
    for (const [where, rules] of openRules) {
      for (const [i, r] of rules.entries()) {
        const at = `spec.${where}[${i}]`;
        // The CRD leaves the ports unbounded (int64); EC2 refuses a TCP/UDP range outside 0-65535 or
        // reversed, and CAPA then retries the security groups forever.
        if (r?.protocol === 'tcp' || r?.protocol === 'udp') {
          const bad = (['fromPort', 'toPort'] as const).map((f) => [f, integerProblem(r[f], 0, 65535)] as const).find(([, p]) => p);
          if (bad || r.fromPort > r.toPort) {
            out.push(violation(aws, `${where} rule "${r.description}": ${bad ? `${bad[0]} ${bad[1]}` : `ports ${r.fromPort}-${r.toPort} are reversed`}`, 'use a port range from 0 to 65535, fromPort <= toPort (nodeAgentPorts take single ports from 1)', `${at}.${bad?.[0] ?? 'toPort'}`));
          } else if (r.fromPort === 0 && r.toPort === 0) {
          // Within EC2's range, but it admits nothing: binding port 0 gives a process an ephemeral port
          // (Linux ip(7), ip_local_port_range; Winsock bind), so nothing listens there, and
          // Kubernetes takes a host-network agent's port only from 1 (kubernetes/apimachinery
          // v0.34.0 pkg/util/validation/validation.go, IsValidPortNum).
            out.push(violation(aws, `${where} rule "${r.description}": port 0 alone admits nothing, as no process can listen on port 0`, 'give the port the agent listens on, from 1 to 65535', `${at}.fromPort`));
          }
        }
        const sources = [...list(r?.cidrBlocks), ...list(r?.ipv6CidrBlocks)].filter((c) => WORLD.has(c));
        const ports = k0sPorts.filter((p) => coversPort(r, p));
        if (sources.length > 0 && ports.length > 0) {
          out.push(violation(aws, `${where} rule "${r?.description}" opens k0s port ${ports.join(' and ')} to ${sources.join(', ')}; only the cluster's own machines may reach it`, 'remove the rule, or limit it to the cluster\'s security groups'));
        }
        // A deploy-time token (`${TfToken[...]}`) is known only when applied.
        for (const cidr of list(r?.cidrBlocks).filter((c) => !isUnresolvedToken(c))) {
          try {
            parseCidr(cidr);
          } catch (e) {
            out.push(violation(aws, `${where} rule "${r?.description}": ${(e as Error).message}`, 'use an IPv4 CIDR such as 203.0.113.0/24', `${at}.cidrBlocks`));
          }
        }
      }
    }
    // CAPA's webhook refuses a block net.ParseCIDR cannot read (api/v1beta2/awscluster_webhook.go,
    // validateNetwork), and CAPA puts the rest in the node security group's NodePort rule as IPv4 ranges.
    for (const [i, cidr] of list(spec.network?.nodePortIngressRuleCidrBlocks).entries()) {
      if (isUnresolvedToken(cidr)) continue;
      try {
        parseCidr(cidr);
      } catch (e) {
        out.push(violation(aws, `network.nodePortIngressRuleCidrBlocks[${i}]: ${(e as Error).message}`, 'give IPv4 networks such as 10.0.0.0/16', `spec.network.nodePortIngressRuleCidrBlocks[${i}]`));
      }
    }
    return out;
  }),
});

function coversPort(r: Json, port: number): boolean {
  if (r?.protocol === '-1') return true;
  if (r?.protocol !== 'tcp') return false;
  return (r.fromPort ?? 0) <= port && port <= (r.toPort ?? 65535);
}

/** The CNI on EC2: k0s's kube-router (also its default when no provider is named) loses pod traffic there. */
export const awsNetwork = rule<ManifestGraph>({
  name: 'aws-network',
  scope: 'object',
  description: 'The CNI on EC2: k0s\'s kube-router (its default when none is named) loses pod traffic there',
  source: 'k0s v1.34 pkg/apis/k0s/v1beta1/network.go (DefaultNetwork)',
  check: (graph) => graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI)).flatMap((cluster) => {
    const aws = awsClusterOf(graph, cluster);
    const kcp = k0sControlPlaneOf(graph, cluster);
    if (!aws || !kcp) return [];
    // k0s defaults an absent provider to kube-router (k0s v1.34 pkg/apis/k0s/v1beta1/network.go, DefaultNetwork).
    const provider = kcp.manifest.spec?.k0sConfigSpec?.k0s?.spec?.network?.provider ?? NetworkProvider.KUBE_ROUTER;
    return provider === NetworkProvider.KUBE_ROUTER
      ? [violation(kcp, `network provider "${provider}" on EC2 (${describe(aws)}): ${KUBE_ROUTER_ON_EC2}`, 'use calico (NetworkProvider.CALICO, VXLAN)', 'spec.k0sConfigSpec.k0s.spec.network.provider', 'set spec.k0sConfigSpec.k0s.spec.network.provider: calico and spec.k0sConfigSpec.k0s.spec.network.calico.mode: vxlan')]
      : [];
  }),
});
