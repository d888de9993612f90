import { CAPA_DEFAULT_VPC_CIDR, K0S_CLUSTER_PORTS, K0S_PORTS, WINDOWS_K0S_INSTALL_DIR } from '../../platform/conventions';
import { K0sVersion } from '../../platform/k0s-version';
import { contentHash } from '../../core/hash';
import { amiIdProblem, AvailabilityZone, AwsRegion, keyPairNameProblem } from '../../platform/aws';
import { IMAGE_PUBLISHERS, ImagePublisher } from '../../platform/images';
import { cidrsOverlap, formatCidr, Ipv4Cidr, parseCidr } from '../../platform/cidr';
import { dnsLabelProblem } from '../../platform/dns';
import { Architecture, InstanceType, windowsInstanceTypeProblem } from '../../platform/instance-type';
import { KUBELET_PORT, LARGEST_SERVICE_PREFIX, MAX_KUBELET_MINOR_SKEW, MIN_NODE_CONDITION_TIMEOUT_SECONDS, SMALLEST_SERVICE_PREFIX } from '../../platform/kubernetes';
import { CALICO_WINDOWS_VXLAN, CalicoMode, KUBE_ROUTER_ON_EC2, NetworkProvider } from '../../platform/network';
import { LABEL_ZONE, opensInboundPort } from '../../platform/windows';
import { nodeLabelProblem, POOL_LABEL } from '../../platform/labels';
import { integerProblem } from '../../platform/numbers';
import { WINDOWS_SUPPORT, WindowsPlatform } from '../../platform/support';
import { taintArgument, WINDOWS_NODE_TAINT } from '../../platform/windows';
import { awsTags } from './aws-tags';
import { REMOTE_RULES } from '../remote/remote-rules';
import { KARPENTER_RULES } from '../karpenter/karpenter-rules';
import { AUTOSCALING_RULES } from '../autoscaling/autoscaling-rules';
import { capiDefaultReplicas } from '../../platform/cluster-autoscaler';
import { CRD_CEL_RULE } from './crd-cel';
import { k0smotronWebhooks } from './k0smotron-webhooks';
import { describe, isCapi, Json, list, ManifestGraph, ManifestRule, ManifestSource, ManifestViolation, rule, violation } from '../engine/graph';

/**
 * The cluster rules, over the final objects of Cluster API + k0smotron + CAPA: each follows the
 * references the controllers follow (Cluster → K0sControlPlane/AWSCluster, MachineDeployment →
 * K0sWorkerConfigTemplate/AWSMachineTemplate, MachineHealthCheck → MachineDeployments) and judges
 * what the controllers, k0s and the kubelet will do with the values found there.
 */

const CAPI = 'cluster.x-k8s.io';
const CONTROLPLANE = 'controlplane.cluster.x-k8s.io';
const INFRA = 'infrastructure.cluster.x-k8s.io';

const WORLD = new Set(['0.0.0.0/0', '::/0']);


/** Objects whose group, kind, namespace and name coincide: the later one would overwrite the earlier. */
const uniqueNames = rule('unique-names', (graph) => graph.duplicates().flatMap((group) => group.slice(1).map((dup) => violation(
  'unique-names', dup,
  `${describe(dup)} is written ${group.length} times (${group.map((s) => s.path ?? describe(s)).join(', ')}), so one overwrites the other when applied`,
  'give the clusters or pools distinct names (names are joined with "-": cluster "a" + pool "b-linux" and cluster "a-b" + pool "linux" collide)',
  'metadata.name'))), 'graph');

/** Cluster references resolve to the objects the Cluster controller will look for. */
const clusterReferences = rule('cluster-references', (graph) => graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI)).flatMap((cluster) => {
  const out: ManifestViolation[] = [];
  const spec = cluster.manifest.spec ?? {};
  const name = cluster.manifest.metadata?.name;
  const nameProblem = dnsLabelProblem(String(name ?? ''));
  if (nameProblem) out.push(violation('cluster-references', cluster, `Cluster name "${name}" ${nameProblem}`, 'use a lower-case DNS label', 'metadata.name'));
  for (const [field, kind] of [['controlPlaneRef', 'K0sControlPlane'], ['infrastructureRef', 'AWSCluster']] as const) {
    const ref = spec[field];
    if (ref?.kind === kind && !graph.resolve(cluster, ref)) {
      out.push(violation('cluster-references', cluster, `spec.${field} names ${kind} "${ref.name}", which is not among the objects`, `name the ${kind} that is written, or write it`, `spec.${field}`));
    }
  }
  return out;
}));

function cidrOrProblem(text: unknown, what: string, example: string, source: ManifestSource, field: string, out: ManifestViolation[]): Ipv4Cidr | undefined {
  try {
    return parseCidr(String(text));
  } catch (e) {
    out.push(violation('cluster-network', source, `${what} CIDR: ${(e as Error).message}`, `use an IPv4 network such as "${example}"`, field));
    return undefined;
  }
}

/** Pod and service ranges: well-formed, apart, apart from the VPC, of a size the API server takes, and the same in CAPI and k0s. */
const clusterNetwork = rule('cluster-network', (graph) => graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI)).flatMap((cluster) => {
  const out: ManifestViolation[] = [];
  const net = cluster.manifest.spec?.clusterNetwork ?? {};
  const podText = list(net.pods?.cidrBlocks)[0];
  const serviceText = list(net.services?.cidrBlocks)[0];
  const pods = podText === undefined ? undefined : cidrOrProblem(podText, 'pod', '192.168.0.0/16', cluster, 'spec.clusterNetwork.pods', out);
  const services = serviceText === undefined ? undefined : cidrOrProblem(serviceText, 'service', '10.128.0.0/12', cluster, 'spec.clusterNetwork.services', out);
  if (pods && services && cidrsOverlap(pods, services)) {
    out.push(violation('cluster-network', cluster, `pod CIDR ${podText} overlaps service CIDR ${serviceText}`, 'choose networks that do not overlap'));
  }
  if (services && services.prefix < LARGEST_SERVICE_PREFIX) {
    out.push(violation('cluster-network', cluster, `service CIDR ${serviceText} is larger than /${LARGEST_SERVICE_PREFIX}, which kube-apiserver refuses`, `use a /${LARGEST_SERVICE_PREFIX} or smaller, e.g. 10.128.0.0/12`, 'spec.clusterNetwork.services'));
  }
  if (services && services.prefix > SMALLEST_SERVICE_PREFIX) {
    out.push(violation('cluster-network', cluster, `service CIDR ${serviceText} has ${2 ** (32 - services.prefix)} addresses, too few for the API server's and CoreDNS's addresses and your Services`, `use a /${SMALLEST_SERVICE_PREFIX} or larger, e.g. 10.128.0.0/12`, 'spec.clusterNetwork.services'));
  }
  // Only an AWSCluster has a VPC (a RemoteCluster's hosts are on networks no object shows).
  const infraRef = cluster.manifest.spec?.infrastructureRef;
  const aws = infraRef?.kind === 'AWSCluster' ? graph.resolve(cluster, infraRef) : undefined;
  const vpc = aws?.manifest.spec?.network?.vpc ?? {};
  const vpcCidrText = vpc.cidrBlock ?? (vpc.id || infraRef?.kind !== 'AWSCluster' ? undefined : CAPA_DEFAULT_VPC_CIDR);
  const vpcCidr = vpcCidrText ? safeCidr(vpcCidrText) : undefined;
  for (const [what, cidr, text] of [['pod', pods, podText], ['service', services, serviceText]] as const) {
    if (cidr && vpcCidr && cidrsOverlap(cidr, vpcCidr)) {
      out.push(violation('cluster-network', cluster, `${what} CIDR ${text} overlaps the VPC ${formatCidr(vpcCidr)}${vpc.cidrBlock ? '' : ' (CAPA\'s default VPC)'}, so traffic to machines there is routed into the cluster`, 'choose a range outside the VPC, e.g. pods 192.168.0.0/16 and services 10.128.0.0/12'));
    }
  }
  const kcp = graph.resolve(cluster, cluster.manifest.spec?.controlPlaneRef);
  const k0sNet = kcp?.manifest.spec?.k0sConfigSpec?.k0s?.spec?.network;
  if (kcp && k0sNet) {
    for (const [what, capi, k0s] of [['pod', podText, k0sNet.podCIDR], ['service', serviceText, k0sNet.serviceCIDR]] as const) {
      if (capi !== undefined && k0s !== undefined && capi !== k0s) {
        out.push(violation('cluster-network', kcp, `k0s ${what} CIDR ${k0s} differs from the Cluster's ${capi}`, 'set the same range in both (change the network prop, not one object)', `spec.k0sConfigSpec.k0s.spec.network.${what}CIDR`));
      }
    }
  }
  return out;
}));

function safeCidr(text: string): Ipv4Cidr | undefined {
  try {
    return parseCidr(text);
  } catch {
    return undefined;
  }
}

/** The AWSMachineTemplate's image and instance type, as CAPA will pass them to EC2. */
/** A machine template's AMI or image lookup and instance type, and, on Linux, its bootstrap path (Windows templates: `windowsPools`). */
function machineProblems(ruleName: string, template: ManifestSource, windows = false): ManifestViolation[] {
  const out: ManifestViolation[] = [];
  const spec = template.manifest.spec?.template?.spec ?? {};
  const ami = spec.ami?.id;
  if (ami !== undefined) {
    const p = amiIdProblem(ami);
    if (p) out.push(violation(ruleName, template, p, 'pass an id of the form ami-0123456789abcdef0', 'spec.template.spec.ami.id'));
  } else if (!spec.imageLookupOrg && !spec.imageLookupFormat && !spec.imageLookupBaseOS) {
    out.push(violation(ruleName, template, 'no AMI and no image lookup', 'pass `ami: MachineImage.id(\'ami-…\')`, or an `infra` that looked one up', 'spec.template.spec.ami'));
  } else if (!windows && spec.cloudInit?.insecureSkipSecretsManager !== true) {
    // CAPA docs/book/src/topics/userdata-privacy.md: without insecureSkipSecretsManager the
    // bootstrap data goes through Secrets Manager and a cloud-init boothook that needs the AWS CLI
    // and a patched cloud-init; an image lookup finds stock images, which never bootstrap.
    out.push(violation(ruleName, template,
      'cloudInit.insecureSkipSecretsManager is not true, so CAPA hands the bootstrap data over through Secrets Manager, and the machine boots an image lookup: stock images have neither the AWS CLI nor the patched cloud-init CAPA\'s boothook needs',
      'remove the patch, or set bootstrapThroughSecretsManager with `ami: MachineImage.id(...)` of an image built with kubernetes-sigs/image-builder', 'spec.template.spec.cloudInit.insecureSkipSecretsManager'));
  }
  const type = InstanceType.parse(spec.instanceType, { arch: Architecture.AMD64 });
  if (typeof type === 'string') out.push(violation(ruleName, template, type, 'use a name such as m7i.large', 'spec.template.spec.instanceType'));
  return out;
}

function controlPlaneOf(graph: ManifestGraph, cluster: ManifestSource | undefined): ManifestSource | undefined {
  const ref = cluster?.manifest.spec?.controlPlaneRef;
  return cluster && ref?.kind === 'K0sControlPlane' ? graph.resolve(cluster, ref) : undefined;
}

/** The k0s control plane: an odd number of Linux controllers on a resolvable machine template. */
const controlPlane = rule('control-plane', (graph) => graph.ofKind('K0sControlPlane').filter((k) => isCapi(k, CONTROLPLANE)).flatMap((kcp) => {
  const out: ManifestViolation[] = [];
  const spec = kcp.manifest.spec ?? {};
  // k0s v1.34.4+k0s.0 pkg/apis/k0s/v1beta1/network.go, Network.Validate: calico, kuberouter or custom.
  const provider = spec.k0sConfigSpec?.k0s?.spec?.network?.provider;
  if (provider !== undefined && !Object.values(NetworkProvider).includes(provider)) {
    out.push(violation('control-plane', kcp, `k0s network provider ${JSON.stringify(provider)} is none of k0s's (calico, kuberouter, custom), and k0s refuses its config`, 'use NetworkProvider.CALICO', 'spec.k0sConfigSpec.k0s.spec.network.provider'));
  }
  const versionProblem = K0sVersion.problem(spec.version);
  if (versionProblem) out.push(violation('control-plane', kcp, versionProblem, K0sVersion.FIX, 'spec.version'));
  const replicas = spec.replicas ?? 1;
  if (integerProblem(replicas, 1) || replicas % 2 === 0) {
    out.push(violation('control-plane', kcp, `control plane replicas ${replicas} is not an odd number >= 1; etcd needs a majority to keep working`, 'use 1, 3 or 5', 'spec.replicas'));
  }
  const provisioner = spec.k0sConfigSpec?.provisioner ?? {};
  if (provisioner.platform === 'windows') {
    out.push(violation('control-plane', kcp, 'K0sControlPlane provisioner.platform is "windows"; k0s controllers run on Linux only, and k0smotron rejects it', 'remove it (Windows belongs in a WindowsWorkerPool)'));
  }
  if (provisioner.type === 'powershell' || provisioner.type === 'powershell-xml') {
    out.push(violation('control-plane', kcp, `K0sControlPlane provisioner.type is "${provisioner.type}", a Windows-only provisioner that k0smotron rejects for controllers`, 'use "cloud-config" (the default)'));
  }
  // k0smotron's machineTemplate.infrastructureRef is a classic ObjectReference (k0smotron
  // api/controlplane/v1beta2 K0sControlPlaneMachineTemplate): apiVersion, not apiGroup.
  const ref = spec.machineTemplate?.infrastructureRef;
  if (ref && !ref.apiVersion) {
    out.push(violation('control-plane', kcp, `machineTemplate.infrastructureRef has no apiVersion${ref.apiGroup ? ` (it has apiGroup "${ref.apiGroup}", which k0smotron ignores)` : ''}`, `write apiVersion: ${INFRA}/v1beta2`, 'spec.machineTemplate.infrastructureRef'));
  } else if (ref?.kind === 'AWSMachineTemplate') {
    const template = graph.resolve(kcp, ref);
    if (!template) {
      out.push(violation('control-plane', kcp, `machineTemplate.infrastructureRef names AWSMachineTemplate "${ref.name}", which is not among the objects`, 'name the template that is written', 'spec.machineTemplate.infrastructureRef'));
    } else {
      out.push(...machineProblems('control-plane', template));
    }
  }
  return out;
}));

/** The AWSCluster: a real region, an NLB with k0s's listeners, and k0s ports closed to the world. */
const awsCluster = rule('aws-cluster', (graph) => graph.ofKind('AWSCluster').filter((a) => isCapi(a, INFRA)).flatMap((aws) => {
  const out: ManifestViolation[] = [];
  const spec = aws.manifest.spec ?? {};
  if (spec.region === undefined) {
    out.push(violation('aws-cluster', aws, 'no AWS region', 'pass `region`, or an `infra` from the AWS stack', 'spec.region'));
  } else {
    const p = AwsRegion.problem(spec.region);
    if (p) out.push(violation('aws-cluster', aws, p, 'use a region name such as eu-north-1', 'spec.region'));
  }
  // Zones are judged against a region only when it is one (a bad region is reported once, above).
  const region = validRegion(spec.region);
  for (const [i, subnet] of list(spec.network?.subnets).entries()) {
    const zone = subnet?.availabilityZone;
    const p = zone === undefined ? undefined : AvailabilityZone.problem(zone, region);
    if (p) out.push(violation('aws-cluster', aws, `network.subnets[${i}]: ${p}`, 'use a zone of the cluster\'s region, e.g. eu-north-1a', `spec.network.subnets[${i}].availabilityZone`));
  }
  const lb = spec.controlPlaneLoadBalancer ?? {};
  const k0sPorts: number[] = K0S_CLUSTER_PORTS.map(({ port }) => port);
  if (lb.loadBalancerType !== 'nlb') {
    out.push(violation('aws-cluster', aws, `control-plane load balancer type "${lb.loadBalancerType ?? 'classic'}" cannot carry k0s's konnectivity (${K0S_PORTS.konnectivity}) and join API (${K0S_PORTS.joinApi}) listeners beside the API`, 'use "nlb"'));
  }
  const listeners = new Set(list(lb.additionalListeners).map((l) => l?.port));
  const missing = k0sPorts.filter((p) => !listeners.has(p));
  if (missing.length > 0) {
    out.push(violation('aws-cluster', aws, `control-plane load balancer has no listener for ${missing.join(' and ')}; k0s workers and joining controllers reach the controllers there`, `keep additionalListeners ${k0sPorts.join(' and ')}`));
  }
  // cluster-api-provider-aws v2.11.1 pkg/cloud/services/securitygroup/securitygroups.go
  // (SecurityGroupAPIServerLB): given ingress rules replace "6443 from anywhere", and CAPA adds 6443
  // only from the NAT gateways' addresses (internet-facing) or the VPC (internal). With none of the
  // given rules admitting 6443 from outside, a management cluster outside the VPC reaches no API.
  const rules = list(lb.ingressRules);
  const apiFromOutside = rules.some((r) => coversPort(r, K0S_PORTS.api) && (list(r?.cidrBlocks).length > 0 || list(r?.ipv6CidrBlocks).length > 0 || list(r?.sourceSecurityGroupIds).length > 0 || list(r?.sourceSecurityGroupRoles).length > 0));
  if (rules.length > 0 && !apiFromOutside && lb.scheme !== 'internal') {
    out.push(violation('aws-cluster', aws, `no controlPlaneLoadBalancer.ingressRules rule admits ${K0S_PORTS.api}, so CAPA opens the API only to the cluster's own NAT gateways: the management cluster cannot reach it, and Cluster API never manages the cluster`,
      'list the management cluster\'s addresses in apiServerLoadBalancer.allowedCidrs, or use LoadBalancerScheme.INTERNAL with the management cluster in the VPC', 'spec.controlPlaneLoadBalancer.ingressRules'));
  }
  if (lb.preserveClientIP === true) {
    out.push(violation('aws-cluster', aws, `preserveClientIP makes CAPA open the load balancer's ports (${K0S_PORTS.api}, ${k0sPorts.join(', ')}) on the controllers to 0.0.0.0/0`, 'leave preserveClientIP off'));
  }
  const openRules: Array<[string, Json[]]> = [
    ['controlPlaneLoadBalancer.ingressRules', list(lb.ingressRules)],
    ['network.additionalControlPlaneIngressRules', list(spec.network?.additionalControlPlaneIngressRules)],
    ['network.additionalNodeIngressRules', list(spec.network?.additionalNodeIngressRules)],
  ];
  for (const [where, rules] of openRules) {
    for (const r of rules) {
      // The CRD leaves the ports unbounded; EC2 refuses a TCP/UDP range outside 0-65535 or
      // reversed, and CAPA then retries the security groups forever.
      if (r?.protocol === 'tcp' || r?.protocol === 'udp') {
        const bad = [r.fromPort, r.toPort].map((p) => integerProblem(p, 0, 65535)).find(Boolean);
        if (bad || r.fromPort > r.toPort) {
          out.push(violation('aws-cluster', aws, `${where} rule "${r.description}": ports ${r.fromPort}-${r.toPort} ${bad ?? 'are reversed'}`, 'use a port range from 0 to 65535, fromPort <= toPort (nodeAgentPorts take single ports)'));
        }
      }
      const sources = [...list(r?.cidrBlocks), ...list(r?.ipv6CidrBlocks)].filter((c) => WORLD.has(c));
      const ports = k0sPorts.filter((p) => coversPort(r, p));
      if (sources.length > 0 && ports.length > 0) {
        out.push(violation('aws-cluster', aws, `${where} rule "${r?.description}" opens k0s port ${ports.join(' and ')} to ${sources.join(', ')}; only the cluster's own machines may reach it`, 'remove the rule, or limit it to the cluster\'s security groups'));
      }
      for (const cidr of list(r?.cidrBlocks)) {
        try {
          parseCidr(cidr);
        } catch (e) {
          out.push(violation('aws-cluster', aws, `${where} rule "${r?.description}": ${(e as Error).message}`, 'use an IPv4 CIDR such as 203.0.113.0/24'));
        }
      }
    }
  }
  return out;
}));

function coversPort(r: Json, port: number): boolean {
  if (r?.protocol === '-1') return true;
  if (r?.protocol !== 'tcp') return false;
  return (r.fromPort ?? 0) <= port && port <= (r.toPort ?? 65535);
}

/**
 * Whether a label selector selects `labels`, as apimachinery's LabelSelectorAsSelector reads it
 * (matchLabels equal; matchExpressions In, NotIn, Exists, DoesNotExist). An empty selector selects
 * nothing here: CAPI's webhooks refuse one for MachineHealthChecks.
 */
function matches(selector: Json, labels: Json): boolean {
  const want: Record<string, string> = selector?.matchLabels ?? {};
  const expressions = list(selector?.matchExpressions);
  if (want === null || typeof want !== 'object' || (Object.keys(want).length === 0 && expressions.length === 0)) return false;
  const has = (key: unknown) => labels !== null && typeof labels === 'object' && Object.prototype.hasOwnProperty.call(labels, String(key));
  return Object.entries(want).every(([k, v]) => has(k) && labels[k] === v) && expressions.every((e) => {
    const values = list(e?.values);
    switch (e?.operator) {
      case 'In': return has(e.key) && values.includes(labels[e.key]);
      case 'NotIn': return !has(e.key) || !values.includes(labels[e.key]);
      case 'Exists': return has(e.key);
      case 'DoesNotExist': return !has(e.key);
      default: return false;
    }
  });
}

/** A worker pool as the rules see it: the MachineDeployment and what it references. */
interface Pool {
  readonly md: ManifestSource;
  readonly cluster?: ManifestSource;
  readonly config?: ManifestSource;
  readonly machine?: ManifestSource;
  readonly windows: boolean;
  readonly replicas: number;
}

function pools(graph: ManifestGraph): Pool[] {
  return graph.ofKind('MachineDeployment').filter((m) => isCapi(m, CAPI)).map((md) => {
    const spec = md.manifest.spec ?? {};
    const template = spec.template?.spec ?? {};
    const config = template.bootstrap?.configRef?.kind === 'K0sWorkerConfigTemplate' ? graph.resolve(md, template.bootstrap.configRef) : undefined;
    return {
      md,
      cluster: graph.cluster(md, spec.clusterName),
      config,
      machine: template.infrastructureRef?.kind === 'AWSMachineTemplate' ? graph.resolve(md, template.infrastructureRef) : undefined,
      windows: isWindowsConfig(config),
      // CAPI defaults an unset replicas to the autoscaler's min size, else 1 (MachineDeployment defaulting webhook).
      replicas: capiDefaultReplicas(md.manifest) as number,
    };
  });
}

/**
 * Whether a K0sWorkerConfigTemplate bootstraps Windows workers: its provisioner says so, or, when a
 * patch changed the provisioner, its Windows install directory or Windows taint still do, so that
 * the patched provisioner is reported as such.
 */
function isWindowsConfig(config: ManifestSource | undefined): boolean {
  const spec = config?.manifest.spec?.template?.spec ?? {};
  return spec.provisioner?.platform === 'windows'
    || (typeof spec.k0sInstallDir === 'string' && /^[A-Za-z]:\\/.test(spec.k0sInstallDir))
    || list(spec.args).some((a) => typeof a === 'string' && a.startsWith('--taints=') && a.includes(taintArgument(WINDOWS_NODE_TAINT)));
}

/** The names of the Clusters in `from`'s namespace, for a message about a name that matches none (a patched name shows here). */
function clustersThere(graph: ManifestGraph, from: ManifestSource): string {
  const names = graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI) && (c.manifest.metadata?.namespace ?? '') === (from.manifest.metadata?.namespace ?? '')).map((c) => `"${c.manifest.metadata?.name}"`);
  return names.length > 0 ? ` (there: ${names.join(', ')})` : '';
}

/** Each MachineDeployment: its references, selector, replicas, version and node labels. */
const machineDeployments = rule('machine-deployment', (graph) => pools(graph).flatMap((pool) => {
  const { md } = pool;
  const out: ManifestViolation[] = [];
  const spec = md.manifest.spec ?? {};
  const template = spec.template?.spec ?? {};
  const v = (what: string, fix: string, field?: string) => out.push(violation('machine-deployment', md, what, fix, field));
  if (!pool.cluster) v(`spec.clusterName "${spec.clusterName}" names no Cluster among the objects${clustersThere(graph, md)}`, 'use the name of the Cluster this pool belongs to', 'spec.clusterName');
  const nameProblem = dnsLabelProblem(md.manifest.metadata?.name ?? '', 63);
  if (nameProblem) v(`MachineDeployment name "${md.manifest.metadata?.name}" ${nameProblem}`, 'name it with lower-case letters, digits and "-", at most 63 characters', 'metadata.name');
  if (!matches(spec.selector, spec.template?.metadata?.labels)) {
    v(`spec.selector ${JSON.stringify(spec.selector?.matchLabels ?? {})} does not match the machine template's labels ${JSON.stringify(spec.template?.metadata?.labels ?? {})}, so the MachineDeployment would not own its machines`, 'keep the selector and spec.template.metadata.labels in step', 'spec.selector');
  }
  const replicasProblem = integerProblem(pool.replicas, 0);
  if (replicasProblem) v(`replicas ${replicasProblem}`, 'set `replicas` to a whole number, 0 or more', 'spec.replicas');
  const configRef = template.bootstrap?.configRef;
  if (configRef?.kind === 'K0sWorkerConfigTemplate' && !pool.config) v(`bootstrap.configRef names K0sWorkerConfigTemplate "${configRef.name}", which is not among the objects`, 'name the template that is written', 'spec.template.spec.bootstrap.configRef');
  const infraRef = template.infrastructureRef;
  if (infraRef?.kind === 'AWSMachineTemplate' && !pool.machine) v(`infrastructureRef names AWSMachineTemplate "${infraRef.name}", which is not among the objects`, 'name the template that is written', 'spec.template.spec.infrastructureRef');
  if (pool.machine) out.push(...machineProblems('machine-deployment', pool.machine, pool.windows));

  const version = template.version;
  const versionProblem = version === undefined ? undefined : K0sVersion.problem(version);
  if (versionProblem) v(versionProblem, K0sVersion.FIX, 'spec.template.spec.version');
  const configVersion = pool.config?.manifest.spec?.template?.spec?.version;
  if (pool.config && configVersion !== undefined && version !== undefined && configVersion !== version) {
    v(`the machines are version ${version} but ${describe(pool.config)} installs k0s ${configVersion}, so CAPI's skew checks would judge the wrong version`, 'set one k0sVersion on the pool, not a patch on one object');
  }
  if (pool.config) {
    for (const arg of list(pool.config.manifest.spec?.template?.spec?.args)) {
      const m = /^--labels=(.*)$/.exec(String(arg));
      if (!m) continue;
      for (const pair of m[1].split(',')) {
        const eq = pair.indexOf('=');
        const p = eq < 0 ? `node label pair "${pair}" has no "=" (a label value with "," is read as two pairs)` : nodeLabelProblem(pair.slice(0, eq), pair.slice(eq + 1));
        if (p) out.push(violation('machine-deployment', pool.config, p, 'use a key like example.com/role and a value of letters, digits, "-", "_" or "."', 'spec.template.spec.args'));
      }
    }
  }
  return out;
}));

/** Pools against their control plane: the version skew CAPI's MachineSet preflight checks enforce. */
const versionSkew = rule('version-skew', (graph) => pools(graph).flatMap((pool) => {
  const kcp = controlPlaneOf(graph, pool.cluster);
  const cp = K0sVersion.parse(kcp?.manifest.spec?.version);
  const worker = K0sVersion.parse(pool.md.manifest.spec?.template?.spec?.version);
  if (!cp || !worker) return [];
  // CAPI v1.14 core/reconcilers/machineset/machineset_preflight.go kubernetesVersionPreflightCheck:
  // a MachineSet minor above the control plane's, or more than 3 below it, holds every new Machine.
  if (worker.minor > cp.minor) {
    return [violation('version-skew', pool.md, `pool k0s ${worker} is newer than the control plane's ${cp}; CAPI's MachineSet preflight check (KubernetesVersionSkew) holds its machines forever, and a kubelet may not be newer than its API server`, `upgrade the control plane to ${worker} first, or give the pool k0s 1.${cp.minor}`, 'spec.template.spec.version')];
  }
  if (worker.minor < cp.minor - MAX_KUBELET_MINOR_SKEW) {
    return [violation('version-skew', pool.md, `pool k0s ${worker} is more than ${MAX_KUBELET_MINOR_SKEW} minors older than the control plane's ${cp}; CAPI's MachineSet preflight check (KubernetesVersionSkew) holds its machines forever`, `upgrade the pool to at least 1.${cp.minor - MAX_KUBELET_MINOR_SKEW}`, 'spec.template.spec.version')];
  }
  return [];
}));

/** What a Windows pool needs of its own objects: a k0s that runs Windows, its provisioner, its user data, its instance type. */
const windowsPools = rule('windows-pool', (graph) => {
  const out: ManifestViolation[] = [];
  const all = pools(graph);
  const minimumOf = (platform: WindowsPlatform) => Object.values(WINDOWS_SUPPORT[platform])
    .filter((s) => s.supported && s.minimumVersion)
    .map((s) => K0sVersion.of(s.minimumVersion!))
    .sort((a, b) => a.compare(b))[0];
  for (const pool of all.filter((p) => p.windows)) {
    const { md } = pool;
    const v = (source: ManifestSource, what: string, fix: string, field?: string) => out.push(violation('windows-pool', source, what, fix, field));
    const version = K0sVersion.parse(md.manifest.spec?.template?.spec?.version ?? pool.config?.manifest.spec?.template?.spec?.version);
    const remote = md.manifest.spec?.template?.spec?.infrastructureRef?.kind === 'RemoteMachineTemplate';
    const minimum = minimumOf(remote ? WindowsPlatform.K0SMOTRON_REMOTE : WindowsPlatform.K0SMOTRON_AWS);
    if (version && minimum && version.compare(minimum) < 0) {
      // k0smotron v2.1.0 refuses Windows below v1.34.2 (api/bootstrap/v1beta2/k0s_types.go); k0s
      // gives Windows pods a network from v1.34.4 (src/platform/support.ts says why).
      v(md, `k0s ${version} cannot run Windows workers: k0smotron refuses them below v1.34.2+k0s.0, and below ${minimum} Windows pods stay in ContainerCreating (k0s's Calico for Windows CNI kubeconfig path, fixed in v1.34.3; the pause image from the frozen k8s.gcr.io, fixed in v1.34.4)`,
        `use k0s ${minimum} or newer for this pool (k0sVersion)`, 'spec.template.spec.version');
    }
    const bootstrap = pool.config!.manifest.spec?.template?.spec ?? {};
    // Over SSH only cloud-config works: the remote-windows rule judges those pools.
    if (!remote && bootstrap.provisioner?.type !== 'powershell-xml') {
      v(pool.config!, `K0sWorkerConfigTemplate provisioner is ${JSON.stringify(bootstrap.provisioner)}; Windows workers on AWS need {"platform":"windows","type":"powershell-xml"}`, 'remove the patch that changes it', 'spec.template.spec.provisioner');
    }
    // k0smotron v2.1.0 worker_bootstrap_controller.go (getWindowsCommands) runs preK0sCommands in
    // its PowerShell install script; nothing else opens the kubelet's port in the Windows firewall.
    // Remote hosts get the port opened by their preparation script (src/remote/windows-host-scripts.ts).
    if (!remote && !list(bootstrap.preK0sCommands).some((c) => opensInboundPort(c, KUBELET_PORT))) {
      v(pool.config!, `preK0sCommands open no inbound TCP ${KUBELET_PORT} in the Windows firewall, which drops it: kubectl logs, exec and port-forward and the metrics of Windows pods time out`,
        'keep the pool\'s preK0sCommands (WINDOWS_KUBELET_FIREWALL_RULE), or add a New-NetFirewallRule for 10250 to yours', 'spec.template.spec.preK0sCommands');
    }
    // k0smotron's Windows script always downloads k0s.exe from get.k0sproject.io, whatever these say
    // (k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go, getWindowsCommands;
    // only getLinuxCommands reads them): an air-gapped pool that relies on them never boots.
    const ignored = [bootstrap.downloadURL ? 'downloadURL' : '', bootstrap.preInstalledK0s === true ? 'preInstalledK0s' : ''].filter(Boolean);
    if (ignored.length > 0) {
      v(pool.config!, `${ignored.join(' and ')} on a Windows worker config: k0smotron's Windows bootstrap ignores ${ignored.length > 1 ? 'them' : 'it'} and downloads k0s.exe from get.k0sproject.io`,
        `remove ${ignored.length > 1 ? 'them' : 'it'}, and let the Windows machines reach get.k0sproject.io (through the NAT gateways or a proxy)`, `spec.template.spec.${ignored[0]}`);
    }
    if (typeof bootstrap.k0sInstallDir !== 'string' || !/^[A-Za-z]:\\\S*$/.test(bootstrap.k0sInstallDir)) {
      v(pool.config!, `k0sInstallDir ${JSON.stringify(bootstrap.k0sInstallDir)} is not a Windows path without spaces`, `use ${JSON.stringify(WINDOWS_K0S_INSTALL_DIR)}`, 'spec.template.spec.k0sInstallDir');
    }
    if (pool.machine) {
      const machine = pool.machine.manifest.spec?.template?.spec ?? {};
      if (machine.cloudInit?.insecureSkipSecretsManager !== true || machine.uncompressedUserData !== true) {
        v(pool.machine, 'AWSMachineTemplate must keep cloudInit.insecureSkipSecretsManager and uncompressedUserData true: Windows can run neither the Secrets Manager boothook nor gzipped user data', 'remove the patch that changes them');
      }
      const type = InstanceType.parse(machine.instanceType, undefined);
      const problem = typeof type === 'string' ? undefined : windowsInstanceTypeProblem(type);
      if (problem) v(pool.machine, problem.what, problem.fix, 'spec.template.spec.instanceType');
    }
  }

  return out;
});

/** What a cluster with Windows pools needs: a Linux worker for CoreDNS, and Calico in VXLAN mode. */
const windowsClusters = rule('windows-cluster', (graph) => {
  const out: ManifestViolation[] = [];
  const all = pools(graph);
  const byCluster = new Map<ManifestSource, Pool[]>();
  for (const pool of all.filter((p) => p.windows && p.cluster)) byCluster.set(pool.cluster!, [...(byCluster.get(pool.cluster!) ?? []), pool]);

  for (const [cluster, windows] of byCluster) {
    const names = windows.map((p) => p.md.manifest.metadata?.name).join(', ');
    const kcp = controlPlaneOf(graph, cluster);
    const kcpSpec = kcp?.manifest.spec ?? {};
    const controllersWork = list(kcpSpec.k0sConfigSpec?.args).some((a) => a === '--enable-worker' || a === '--enable-worker=true');
    const linuxWorkers = all.some((p) => p.cluster === cluster && !p.windows && p.replicas >= 1);
    if (!linuxWorkers && !controllersWork) {
      out.push(violation('windows-cluster', cluster, `Windows pools (${names}) need a Linux worker for CoreDNS, and the cluster has none: no Linux MachineDeployment with replicas >= 1, and the controllers run without --enable-worker`, 'add a LinuxWorkerPool with replicas >= 1, or set controlPlane.enableWorker'));
    }
    if (!kcp) continue;
    const network = kcpSpec.k0sConfigSpec?.k0s?.spec?.network ?? {};
    if (network.provider !== NetworkProvider.CALICO) {
      out.push(violation('windows-cluster', kcp, `network provider "${network.provider}" has no Windows support, and the cluster has Windows pools (${names})`, 'use NetworkProvider.CALICO'));
    } else {
      const calico = network.calico ?? {};
      if (calico.mode !== CalicoMode.VXLAN) {
        out.push(violation('windows-cluster', kcp, `Calico mode "${calico.mode}" does not work on Windows nodes (pools: ${names})`, 'use CalicoMode.VXLAN'));
      } else if ((calico.vxlanPort ?? CALICO_WINDOWS_VXLAN.port) !== CALICO_WINDOWS_VXLAN.port || (calico.vxlanVNI ?? CALICO_WINDOWS_VXLAN.vni) !== CALICO_WINDOWS_VXLAN.vni) {
        out.push(violation('windows-cluster', kcp, `Calico VXLAN port ${calico.vxlanPort} / VNI ${calico.vxlanVNI}: Calico on Windows supports only port ${CALICO_WINDOWS_VXLAN.port} and VNI ${CALICO_WINDOWS_VXLAN.vni}`, 'remove the override'));
      }
    }
  }
  return out;
}, 'graph');

const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';
/** CAPI's MachineControlPlaneLabel (cluster-api v1.14 api/core/v1beta2/machine_types.go). */
const CONTROL_PLANE_LABEL = 'cluster.x-k8s.io/control-plane';

/** Machines that share labels: a pool's, or the control plane's. */
interface MachineGroup {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly replicas: unknown;
}

/**
 * The labels a cluster's Machines carry. A pool's: its template's, which CAPI copies to each
 * Machine with the cluster and deployment names. The control plane's: its machineTemplate's
 * labels and the ones k0smotron forces (cluster name, control-plane "true", the control plane's
 * name: k0smotron v2.1.0 internal/controller/controlplane/util.go, controlPlaneCommonLabelsForCluster).
 */
function machineGroups(graph: ManifestGraph, all: readonly Pool[], cluster: ManifestSource): MachineGroup[] {
  const clusterName = String(cluster.manifest.metadata?.name);
  const groups: MachineGroup[] = all.filter((p) => p.cluster === cluster).map((p) => ({
    name: String(p.md.manifest.metadata?.name),
    labels: { ...p.md.manifest.spec?.template?.metadata?.labels, [CLUSTER_NAME_LABEL]: clusterName, 'cluster.x-k8s.io/deployment-name': String(p.md.manifest.metadata?.name) },
    replicas: p.replicas,
  }));
  const kcp = controlPlaneOf(graph, cluster);
  if (kcp) {
    groups.push({
      name: `${kcp.manifest.metadata?.name} (control plane)`,
      labels: { ...kcp.manifest.spec?.machineTemplate?.metadata?.labels, [CLUSTER_NAME_LABEL]: clusterName, [CONTROL_PLANE_LABEL]: 'true', 'cluster.x-k8s.io/control-plane-name': String(kcp.manifest.metadata?.name) },
      replicas: kcp.manifest.spec?.replicas ?? 1,
    });
  }
  return groups;
}

/** Each MachineHealthCheck selects machines of its cluster (a pool's or the control plane's), or it guards nothing. */
const healthChecks = rule('machine-health-check', (graph) => {
  const all = pools(graph);
  return graph.ofKind('MachineHealthCheck').filter((m) => isCapi(m, CAPI)).flatMap((mhc) => {
    const spec = mhc.manifest.spec ?? {};
    const cluster = graph.cluster(mhc, spec.clusterName);
    if (!cluster) return [violation('machine-health-check', mhc, `spec.clusterName "${spec.clusterName}" names no Cluster among the objects${clustersThere(graph, mhc)}`, 'use the name of the Cluster it guards', 'spec.clusterName')];
    // CAPI's webhook (cluster-api v1.14 core/webhooks/admission/machinehealthcheck.go) refuses a
    // selector whose cluster-name label names another cluster.
    const named = spec.selector?.matchLabels?.[CLUSTER_NAME_LABEL];
    if (named !== undefined && named !== spec.clusterName) {
      return [violation('machine-health-check', mhc, `spec.selector names cluster "${named}" and spec.clusterName "${spec.clusterName}": CAPI's webhook refuses a cluster selector other than clusterName`, `drop ${CLUSTER_NAME_LABEL} from the selector`, 'spec.selector')];
    }
    // The controller lists the Machines of the MHC's namespace that match the selector plus the
    // cluster-name label (core/reconcilers/machinehealthcheck/machinehealthcheck_targets.go,
    // getMachinesFromMHC): a pool's machines and the control plane's.
    const selected = machineGroups(graph, all, cluster).filter((g) => matches(spec.selector, g.labels));
    if (selected.length === 0) {
      const controlPlaneHint = spec.selector?.matchLabels?.[CONTROL_PLANE_LABEL] === ''
        ? `; k0smotron labels its control-plane machines ${CONTROL_PLANE_LABEL}: "true", not "" (k0smotron v2.1.0 internal/controller/controlplane/util.go, controlPlaneCommonLabelsForCluster)`
        : '';
      return [violation('machine-health-check', mhc, `spec.selector ${JSON.stringify(spec.selector ?? {})} matches the machines of no MachineDeployment and not the control plane of cluster ${spec.clusterName}, so it never remediates anything${controlPlaneHint}`,
        `select the labels of the pool's machine template, or ${CONTROL_PLANE_LABEL}: "true" (or an Exists expression on it) for the control plane`, 'spec.selector')];
    }
    const out: ManifestViolation[] = [];
    const v = (what: string, fix: string, field: string) => out.push(violation('machine-health-check', mhc, what, fix, field));
    // cluster-api v1.14 core/reconcilers/machinehealthcheck/machinehealthcheck_controller.go:
    // unhealthyInRange takes precedence; otherwise getMaxUnhealthy scales the limit over the
    // expected machines with GetScaledValueFromIntOrPercent(..., false), which rounds down, and
    // remediation stops while more machines are unhealthy than that.
    const trigger = spec.remediation?.triggerIf ?? {};
    const expected = selected.reduce((n, g) => n + (typeof g.replicas === 'number' ? g.replicas : 0), 0);
    const limitField = 'spec.remediation.triggerIf.unhealthyLessThanOrEqualTo';
    if (trigger.unhealthyInRange === undefined && trigger.unhealthyLessThanOrEqualTo !== undefined && expected >= 1) {
      const value = trigger.unhealthyLessThanOrEqualTo;
      const percent = typeof value === 'string' ? /^(\d+)%$/.exec(value) : null;
      const limit = typeof value === 'number' ? value : percent ? Math.floor(Number(percent[1]) * expected / 100) : undefined;
      const machines = `${expected} machine${expected === 1 ? '' : 's'} (${selected.map((g) => g.name).join(', ')})`;
      if (limit === undefined) {
        v(`remediation.triggerIf.unhealthyLessThanOrEqualTo ${JSON.stringify(value)} is neither a number nor a whole percentage, and CAPI's MachineHealthCheck controller fails on it`, 'write a number of machines, e.g. 1', limitField);
      } else if (limit < 1) {
        v(`remediation.triggerIf.unhealthyLessThanOrEqualTo ${JSON.stringify(value)} of ${machines} is ${limit} (CAPI rounds percentages down), so a single unhealthy machine stops all remediation`, 'write a number of machines, e.g. 1', limitField);
      }
    }
    for (const [i, c] of list(spec.checks?.unhealthyNodeConditions).entries()) {
      if (typeof c?.timeoutSeconds === 'number' && c.timeoutSeconds < MIN_NODE_CONDITION_TIMEOUT_SECONDS) {
        v(`checks.unhealthyNodeConditions[${i}] (${c.type}=${c.status}) replaces a machine after ${c.timeoutSeconds} seconds, so a node that blips NotReady (a kubelet restart) is replaced`,
          `give at least ${MIN_NODE_CONDITION_TIMEOUT_SECONDS} seconds (the pool's nodeReadyTimeout); Windows nodes need about 15 minutes`, `spec.checks.unhealthyNodeConditions[${i}].timeoutSeconds`);
      }
    }
    return out;
  });
});

/**
 * Templates named after a digest of their content: a template changed after naming (a JSON patch,
 * a later mutation) keeps the old name, so CAPI sees no new template and nothing rolls out.
 */
const contentNames = rule('content-named-templates', (graph) => graph.sources.filter((s) => s.contentNamed).flatMap((source) => {
  const name = String(source.manifest.metadata?.name ?? '');
  const expected = contentHash(source.manifest.spec?.template?.spec);
  return name.endsWith(`-${expected}`) ? [] : [violation('content-named-templates', source,
    `the template was changed after it was named (its content now hashes to ${expected}), so existing machines would keep the old content and the change would not roll out`,
    'change the construct props instead of patching the template: the template is then written under a new name, and CAPI rolls it out')];
}));

/** Machines of two MachineDeployments named from one template would take each other's names. */
const machineNaming = rule('machine-naming', (graph) => {
  const byTemplate = new Map<string, ManifestSource[]>();
  for (const md of graph.ofKind('MachineDeployment').filter((m) => isCapi(m, CAPI))) {
    const template = md.manifest.spec?.machineNaming?.template;
    // A template with the MachineSet's name in it is unique per MachineDeployment by construction.
    if (typeof template !== 'string' || template.includes('.machineSet.name')) continue;
    const key = `${md.manifest.metadata?.namespace ?? ''}|${template}`;
    byTemplate.set(key, [...(byTemplate.get(key) ?? []), md]);
  }
  return [...byTemplate.values()].filter((l) => l.length > 1).flatMap((list) => list.slice(1).map((md) => violation('machine-naming', md,
    `MachineDeployments ${list.map((m) => m.manifest.metadata?.name).join(' and ')} name their machines from the same template "${md.manifest.spec.machineNaming.template}", so their machines' names can collide`,
    'give each pool its own `machineNaming.template`, or drop the patch that sets it (CAPI\'s default names carry the MachineDeployment\'s name)', 'spec.machineNaming.template')));
}, 'graph');

/** The region's name when it is one, else undefined. */
function validRegion(region: unknown): string | undefined {
  return typeof AwsRegion.parse(region) === 'string' ? undefined : region as string;
}

/** The AWSCluster of the Cluster a machine template's users belong to. */
function awsClusterOf(graph: ManifestGraph, cluster: ManifestSource | undefined): ManifestSource | undefined {
  const ref = cluster?.manifest.spec?.infrastructureRef;
  return cluster && ref?.kind === 'AWSCluster' ? graph.resolve(cluster, ref) : undefined;
}

/** Every AWSMachineTemplate a cluster's control plane or pools boot from, with its AWSCluster, once each. */
function machineTemplatesOf(graph: ManifestGraph): Array<{ template: ManifestSource; aws: ManifestSource }> {
  const found = new Map<ManifestSource, ManifestSource>();
  for (const cluster of graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI))) {
    const aws = awsClusterOf(graph, cluster);
    const kcp = controlPlaneOf(graph, cluster);
    const ref = kcp?.manifest.spec?.machineTemplate?.infrastructureRef;
    const cp = kcp && ref?.kind === 'AWSMachineTemplate' ? graph.resolve(kcp, ref) : undefined;
    if (aws && cp) found.set(cp, aws);
  }
  for (const pool of pools(graph)) {
    const aws = awsClusterOf(graph, pool.cluster);
    if (aws && pool.machine) found.set(pool.machine, aws);
  }
  return [...found].map(([template, aws]) => ({ template, aws }));
}

/**
 * The EC2 key pair of every machine: CAPA takes the AWSMachine's sshKeyName, else the
 * AWSCluster's, else launches with the key pair named "default"; "" on either means none
 * (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go, createInstance;
 * bastion.go, defaultSSHKeyName). Its webhook accepts "" and printable ASCII names (webhooks/sshkeyname.go).
 */
const keyPairs = rule('key-pair', (graph) => {
  const out: ManifestViolation[] = [];
  for (const aws of graph.ofKind('AWSCluster').filter((a) => isCapi(a, INFRA))) {
    const name = aws.manifest.spec?.sshKeyName;
    const p = name === undefined || name === '' ? undefined : keyPairNameProblem(name);
    if (p) out.push(violation('key-pair', aws, p, 'give the name of an EC2 key pair, or "" for none', 'spec.sshKeyName'));
  }
  for (const { template, aws } of machineTemplatesOf(graph)) {
    const own = template.manifest.spec?.template?.spec?.sshKeyName;
    const p = own === undefined || own === '' ? undefined : keyPairNameProblem(own);
    if (p) out.push(violation('key-pair', template, p, 'give the name of an EC2 key pair, or "" for none', 'spec.template.spec.sshKeyName'));
    if (own === undefined && aws.manifest.spec?.sshKeyName === undefined) {
      out.push(violation('key-pair', template, `neither it nor ${describe(aws)} sets sshKeyName, so CAPA launches its machines with the key pair named "default", and EC2 refuses the launch in an account without one`,
        'set sshKeyName: "" for no key pair, or name yours (HybridCluster sshKeyName)', 'spec.template.spec.sshKeyName'));
    }
  }
  return out;
});

/**
 * Public image lookups in the cluster's partition: CAPA filters on the owner's account id
 * (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/ami.go, DefaultAMILookup), and a
 * publisher's account in one partition owns nothing in another.
 */
const imageLookups = rule('image-lookup', (graph) => machineTemplatesOf(graph).flatMap(({ template, aws }) => {
  const owner = template.manifest.spec?.template?.spec?.imageLookupOrg;
  const region = AwsRegion.parse(aws.manifest.spec?.region);
  if (typeof owner !== 'string' || typeof region === 'string') return [];
  for (const publisher of Object.values(IMAGE_PUBLISHERS) as ImagePublisher[]) {
    const owners = publisher.owners as Partial<Record<string, string>>;
    const of = Object.keys(owners).find((partition) => owners[partition] === owner);
    if (of === undefined || of === region.partition) continue;
    const there = owners[region.partition];
    return [violation('image-lookup', template,
      `imageLookupOrg ${owner} is ${publisher.name}' account in the ${of} partition, and the cluster runs in ${region} (${region.partition}), where ${there ? `their account is ${there}` : 'their account is not documented'}: CAPA's lookup finds nothing`,
      there ? `look up under ${there}` : `pass \`ami: MachineImage.id(...)\` of an image in ${region.partition}, or an \`infra\` (the AWS stack reads AMI ids from the region's own SSM parameters)`,
      'spec.template.spec.imageLookupOrg')];
  }
  return [];
}));

/** The CNI on EC2: k0s's kube-router (also its default when no provider is named) loses pod traffic there. */
const awsNetwork = rule('aws-network', (graph) => graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI)).flatMap((cluster) => {
  const aws = awsClusterOf(graph, cluster);
  const kcp = controlPlaneOf(graph, cluster);
  if (!aws || !kcp) return [];
  // k0s defaults an absent provider to kube-router (k0s v1.34 pkg/apis/k0s/v1beta1/network.go, DefaultNetwork).
  const provider = kcp.manifest.spec?.k0sConfigSpec?.k0s?.spec?.network?.provider ?? NetworkProvider.KUBE_ROUTER;
  return provider === NetworkProvider.KUBE_ROUTER
    ? [violation('aws-network', kcp, `network provider "${provider}" on EC2 (${describe(aws)}): ${KUBE_ROUTER_ON_EC2}`, 'use calico (NetworkProvider.CALICO, VXLAN)', 'spec.k0sConfigSpec.k0s.spec.network.provider')]
    : [];
}));

/**
 * Where a pool's machines run. CAPA puts a machine in a private subnet of its failure domain,
 * and one without a failure domain in the first private subnet (cluster-api-provider-aws v2.11.1
 * pkg/cloud/services/ec2/instances.go, findSubnet); a failure domain with no private subnet
 * never gets its machine. A pool that spreads over zones (this library's pool label) has one
 * MachineDeployment per zone, each in its own, and its nodes' zone label says which.
 */
const failureDomains = rule('failure-domain', (graph) => {
  const out: ManifestViolation[] = [];
  const all = pools(graph);
  for (const pool of all) {
    const fd = pool.md.manifest.spec?.template?.spec?.failureDomain;
    if (fd === undefined) continue;
    const aws = awsClusterOf(graph, pool.cluster);
    const spec = aws?.manifest.spec ?? {};
    const v = (what: string, fix: string) => out.push(violation('failure-domain', pool.md, what, fix, 'spec.template.spec.failureDomain'));
    const zoneIssue = aws ? AvailabilityZone.problem(fd, validRegion(spec.region)) : undefined;
    const privateZones = list(spec.network?.subnets).filter((s) => s?.isPublic !== true).map((s) => s?.availabilityZone);
    if (zoneIssue) {
      v(`failureDomain: ${zoneIssue}`, 'use a zone of the cluster (HybridCluster zones, or the pool\'s zones)');
    } else if (privateZones.length > 0 && privateZones.every((z) => typeof z === 'string') && !privateZones.includes(fd)) {
      v(`failureDomain ${fd} has no private subnet among ${describe(aws!)}'s (${[...new Set(privateZones)].join(', ')}), so CAPA never creates its machines`, 'use a zone of the cluster (HybridCluster zones, or the pool\'s zones)');
    }
    const label = list(pool.config?.manifest.spec?.template?.spec?.args).map((a) => /^--labels=(.*)$/.exec(String(a))?.[1]).find(Boolean)
      ?.split(',').find((pair) => pair.startsWith(`${LABEL_ZONE}=`))?.slice(LABEL_ZONE.length + 1);
    if (label !== undefined && label !== fd) {
      v(`failureDomain ${fd} differs from the zone its nodes register with (${LABEL_ZONE}=${label} in ${describe(pool.config!)}), so pods spread by zone would be placed on a false zone`, 'change the pool\'s zones, not one object');
    }
  }
  // One pool's MachineDeployments: each in a zone of its own, or the pool is not spread at all.
  const byPool = new Map<string, Pool[]>();
  for (const pool of all) {
    const name = pool.md.manifest.spec?.template?.metadata?.labels?.[POOL_LABEL];
    if (pool.cluster && typeof name === 'string') {
      const key = `${pool.cluster.manifest.metadata?.namespace ?? ''}|${pool.cluster.manifest.metadata?.name}|${name}`;
      byPool.set(key, [...(byPool.get(key) ?? []), pool]);
    }
  }
  for (const group of [...byPool.values()].filter((g) => g.length > 1)) {
    const spread = [...new Set(group.map(({ md }) => md.manifest.spec?.template?.spec?.failureDomain).filter((z) => z !== undefined))];
    const seen = new Map<unknown, string>();
    for (const { md } of group) {
      if (spread.length > 0 && md.manifest.spec?.template?.spec?.failureDomain === undefined) {
        out.push(violation('failure-domain', md, `its pool spreads over ${spread.join(', ')}, and it names no failure domain, so CAPA puts its machines in the first private subnet`,
          'change the pool\'s zones, not one MachineDeployment', 'spec.template.spec.failureDomain'));
        continue;
      }
      const fd = md.manifest.spec?.template?.spec?.failureDomain;
      const name = String(md.manifest.metadata?.name);
      const other = seen.get(fd);
      // The same name twice is one object written twice (unique-names), not a second zone.
      if (other !== undefined && other !== name) {
        out.push(violation('failure-domain', md, fd === undefined
          ? `it and ${other}, MachineDeployments of one pool, name no failure domain, so CAPA puts the machines of both in the first private subnet`
          : `it and ${other}, MachineDeployments of one pool, are both in ${fd}, so a zone outage takes more of the pool than its spread says`,
        'change the pool\'s zones, not one MachineDeployment', 'spec.template.spec.failureDomain'));
      }
      seen.set(fd, name);
    }
  }
  return out;
});

/** Every cluster rule, in the order messages are reported. */
export const CLUSTER_RULES: readonly ManifestRule[] = [
  uniqueNames, clusterReferences, clusterNetwork, controlPlane, k0smotronWebhooks, awsCluster, awsTags, awsNetwork, keyPairs, imageLookups, machineDeployments, failureDomains, machineNaming, versionSkew, windowsPools, windowsClusters, healthChecks, contentNames,
  ...REMOTE_RULES,
  ...KARPENTER_RULES,
  ...AUTOSCALING_RULES,
  CRD_CEL_RULE,
];
