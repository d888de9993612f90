import { AwsClusterSpecControlPlaneLoadBalancerLoadBalancerType as LoadBalancerType } from '../generated/capa-infrastructure.cluster.x-k8s.io';
import { cidrsOverlap, Ipv4Cidr, parseCidr } from '../platform/cidr';
import { CALICO_WINDOWS_VXLAN, CalicoMode, NetworkProvider } from './kubernetes-network';
import { K0S_CLUSTER_PORTS, K0S_PORTS } from './conventions';
import type { HybridCluster } from './hybrid-cluster';
import { K0sVersion } from './k0s-version';
import { dnsLabelProblem } from './names';
import { WindowsWorkerPool } from './windows-worker-pool';

/** Leaves room in the 45 characters of a MachineDeployment name for the pool's own name. */
export const MAX_CLUSTER_NAME = 40;

const WORLD = new Set(['0.0.0.0/0', '::/0']);

interface IngressRuleJson {
  description?: string;
  protocol?: string;
  fromPort?: number;
  toPort?: number;
  cidrBlocks?: string[];
  ipv6CidrBlocks?: string[];
}

/**
 * The platform's rules for a cluster as a whole. They read the final objects (after any JSON
 * patch), so an escape hatch cannot produce a cluster that the rules would refuse.
 */
export function clusterChecks(cluster: HybridCluster): string[] {
  return [
    ...nameProblems(cluster),
    ...controlPlaneProblems(cluster),
    ...windowsProblems(cluster),
    ...loadBalancerProblems(cluster),
  ];
}

function nameProblems(cluster: HybridCluster): string[] {
  const problem = dnsLabelProblem(cluster.clusterName, MAX_CLUSTER_NAME);
  return problem
    ? [`cluster name "${cluster.clusterName}" ${problem} (pool, machine and load-balancer names are built from it). Fix: pass a shorter lower-case \`name\`.`]
    : [];
}

function controlPlaneProblems(cluster: HybridCluster): string[] {
  const problems: string[] = [];
  const kcp = cluster.controlPlane.toJson().spec ?? {};
  const awsCluster = cluster.awsCluster.toJson().spec ?? {};
  if (!awsCluster.region) {
    problems.push('no AWS region. Fix: pass `region`, or an `infra` from the AWS stack.');
  }
  if (!K0sVersion.parse(cluster.k0sVersion)) {
    problems.push(`k0s version "${cluster.k0sVersion}" is not of the form vX.Y.Z+k0s.N. Fix: write it like "v1.34.2+k0s.0".`);
  }
  const replicas = kcp.replicas;
  if (!Number.isInteger(replicas) || replicas < 1 || replicas % 2 === 0) {
    problems.push(`control plane replicas ${replicas} is not an odd number >= 1; etcd needs a majority to keep working. Fix: use 1, 3 or 5.`);
  }
  const amiId = cluster.controlPlaneMachineTemplate.toJson().spec?.template?.spec?.ami?.id;
  if (!amiId) {
    problems.push('no AMI for the control plane. Fix: pass `controlPlane.ami: MachineImage.id(\'ami-…\')`, or an `infra` that looked one up.');
  } else if (!String(amiId).startsWith('ami-')) {
    problems.push(`control-plane AMI "${amiId}" is not an AMI id. Fix: pass an id of the form ami-0123456789abcdef0.`);
  }
  const provisioner = kcp.k0sConfigSpec?.provisioner ?? {};
  if (provisioner.platform === 'windows') {
    problems.push('K0sControlPlane provisioner.platform is "windows"; k0s controllers run on Linux only, and k0smotron rejects it. Fix: remove it (Windows belongs in a WindowsWorkerPool).');
  }
  if (provisioner.type === 'powershell' || provisioner.type === 'powershell-xml') {
    problems.push(`K0sControlPlane provisioner.type is "${provisioner.type}", a Windows-only provisioner that k0smotron rejects for controllers. Fix: use "cloud-config" (the default).`);
  }
  const clusterNetwork = cluster.cluster.toJson().spec?.clusterNetwork ?? {};
  const podCidr = String(clusterNetwork.pods?.cidrBlocks?.[0]);
  const serviceCidr = String(clusterNetwork.services?.cidrBlocks?.[0]);
  const pods = cidrProblem('pod', podCidr, '192.168.0.0/16', problems);
  const services = cidrProblem('service', serviceCidr, '10.128.0.0/12', problems);
  if (pods && services && cidrsOverlap(pods, services)) {
    problems.push(`pod CIDR ${podCidr} overlaps service CIDR ${serviceCidr}. Fix: choose networks that do not overlap.`);
  }
  return problems;
}

function windowsProblems(cluster: HybridCluster): string[] {
  const windowsPools = cluster.workerPools.filter((p): p is WindowsWorkerPool => p instanceof WindowsWorkerPool);
  if (windowsPools.length === 0) return [];
  const problems: string[] = [];
  const names = windowsPools.map((p) => p.poolName).join(', ');
  const kcp = cluster.controlPlane.toJson().spec ?? {};

  const controllersWork = (kcp.k0sConfigSpec?.args ?? []).some((a: string) => a === '--enable-worker' || a === '--enable-worker=true');
  const linuxWorkers = cluster.workerPools.some((p) => p.os === 'linux' && p.replicas >= 1);
  if (!linuxWorkers && !controllersWork) {
    problems.push(`Windows pools (${names}) need a Linux worker for CoreDNS, and the cluster has none: no LinuxWorkerPool with replicas >= 1, and the controllers run without --enable-worker. Fix: add a LinuxWorkerPool with replicas >= 1, or set controlPlane.enableWorker.`);
  }

  const network = kcp.k0sConfigSpec?.k0s?.spec?.network ?? {};
  if (network.provider !== NetworkProvider.CALICO) {
    problems.push(`network provider "${network.provider}" has no Windows support, and the cluster has Windows pools (${names}). Fix: use NetworkProvider.CALICO.`);
  } else {
    const calico = network.calico ?? {};
    if (calico.mode !== CalicoMode.VXLAN) {
      problems.push(`Calico mode "${calico.mode}" does not work on Windows nodes (pools: ${names}). Fix: use CalicoMode.VXLAN.`);
    } else if ((calico.vxlanPort ?? CALICO_WINDOWS_VXLAN.port) !== CALICO_WINDOWS_VXLAN.port || (calico.vxlanVNI ?? CALICO_WINDOWS_VXLAN.vni) !== CALICO_WINDOWS_VXLAN.vni) {
      problems.push(`Calico VXLAN port ${calico.vxlanPort} / VNI ${calico.vxlanVNI}: Calico on Windows supports only port ${CALICO_WINDOWS_VXLAN.port} and VNI ${CALICO_WINDOWS_VXLAN.vni}. Fix: remove the override.`);
    }
  }

  const byPrefix = new Map<string, string[]>();
  for (const pool of windowsPools) byPrefix.set(pool.computerNamePrefix, [...(byPrefix.get(pool.computerNamePrefix) ?? []), pool.poolName]);
  for (const [prefix, pools] of byPrefix) {
    if (pools.length > 1) {
      problems.push(`Windows pools ${pools.join(' and ')} share the computer name prefix "${prefix}", so their machines' names can collide. Fix: give each a distinct \`computerNamePrefix\`.`);
    }
  }
  return problems;
}

function loadBalancerProblems(cluster: HybridCluster): string[] {
  const problems: string[] = [];
  const spec = cluster.awsCluster.toJson().spec ?? {};
  const lb = spec.controlPlaneLoadBalancer ?? {};
  const k0sPorts: number[] = K0S_CLUSTER_PORTS.map(({ port }) => port);

  if (lb.loadBalancerType !== LoadBalancerType.NLB) {
    problems.push(`control-plane load balancer type "${lb.loadBalancerType ?? 'classic'}" cannot carry k0s's konnectivity (${K0S_PORTS.konnectivity}) and join API (${K0S_PORTS.joinApi}) listeners beside the API. Fix: use "nlb".`);
  }
  const listeners = new Set((lb.additionalListeners ?? []).map((l: { port: number }) => l.port));
  const missing = k0sPorts.filter((p) => !listeners.has(p));
  if (missing.length > 0) {
    problems.push(`control-plane load balancer has no listener for ${missing.join(' and ')}; k0s workers and joining controllers reach the controllers there. Fix: keep additionalListeners ${k0sPorts.join(' and ')}.`);
  }
  if (lb.preserveClientIP === true) {
    problems.push(`preserveClientIP makes CAPA open the load balancer's ports (${K0S_PORTS.api}, ${k0sPorts.join(', ')}) on the controllers to 0.0.0.0/0. Fix: leave preserveClientIP off.`);
  }
  const openRules: Array<[string, IngressRuleJson[]]> = [
    ['controlPlaneLoadBalancer.ingressRules', lb.ingressRules ?? []],
    ['network.additionalControlPlaneIngressRules', spec.network?.additionalControlPlaneIngressRules ?? []],
  ];
  for (const [where, rules] of openRules) {
    for (const rule of rules) {
      const sources = [...(rule.cidrBlocks ?? []), ...(rule.ipv6CidrBlocks ?? [])].filter((c) => WORLD.has(c));
      const ports = k0sPorts.filter((p) => coversPort(rule, p));
      if (sources.length > 0 && ports.length > 0) {
        problems.push(`${where} rule "${rule.description}" opens k0s port ${ports.join(' and ')} to ${sources.join(', ')}; only the cluster's own machines may reach it. Fix: remove the rule, or limit it to the cluster's security groups.`);
      }
    }
  }
  return problems;
}

function coversPort(rule: IngressRuleJson, port: number): boolean {
  if (rule.protocol === '-1') return true;
  if (rule.protocol !== 'tcp') return false;
  return (rule.fromPort ?? 0) <= port && port <= (rule.toPort ?? 65535);
}

/** Parses a CIDR, or records why it cannot be one. */
function cidrProblem(what: string, cidr: string, example: string, problems: string[]): Ipv4Cidr | undefined {
  try {
    return parseCidr(cidr);
  } catch (e) {
    problems.push(`${what} CIDR: ${(e as Error).message}. Fix: use an IPv4 network such as "${example}".`);
    return undefined;
  }
}
