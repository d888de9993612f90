import { CAPA_DEFAULT_VPC_CIDR } from '../../platform/conventions';
import { K0sVersion } from '../../platform/k0s-version';
import { contentHash } from '../../core/hash';
import { cidrsOverlap, formatCidr, Ipv4Cidr, parseCidr } from '../../platform/cidr';
import { dnsLabelProblem } from '../../platform/dns';
import { AWS_INFRASTRUCTURE } from '../../platform/infrastructures';
import { kubernetesVersion, LARGEST_SERVICE_PREFIX, SMALLEST_SERVICE_PREFIX } from '../../platform/kubernetes';
import { NetworkProvider } from '../../platform/network';
import { integerProblem } from '../../core/numbers';
import { describe, isCapi, list, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { machineProblems } from './aws-machines';
import { CAPI, CONTROL_PLANE_KINDS, controlPlaneMachineRef, CONTROLPLANE, INFRA } from './pools';

/**
 * The rules over a cluster's own objects: names unique, the Cluster's references and networks,
 * the k0s control plane, and templates named after their content.
 */

/** Objects whose group, kind, namespace and name coincide: the later one would overwrite the earlier. */
export const uniqueNames = rule<ManifestGraph>({
  name: 'unique-names',
  scope: 'graph',
  description: 'No two objects share group, kind, namespace and name: the later would overwrite the earlier when applied',
  source: 'kubernetes apimachinery: an object is identified by group, kind, namespace and name',
  check: (graph) => graph.duplicates().flatMap((group) => group.slice(1).map((dup) => violation(
    dup,
    `${describe(dup)} is written ${group.length} times (${group.map((s) => s.path ?? describe(s)).join(', ')}), so one overwrites the other when applied`,
    'give the clusters or pools distinct names (names are joined with "-": cluster "a" + pool "b-linux" and cluster "a-b" + pool "linux" collide)',
    'metadata.name'))),
});

/** Cluster references resolve to the objects the Cluster controller will look for. */
export const clusterReferences = rule<ManifestGraph>({
  name: 'cluster-references',
  scope: 'object',
  description: 'The Cluster\'s name is a DNS label, and its control-plane and infrastructure references resolve to written objects',
  source: 'cluster-api v1.14 internal/controllers/cluster/cluster_controller_phases.go (reconcileExternal)',
  check: (graph) => graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI)).flatMap((cluster) => {
    const out: Finding[] = [];
    const spec = cluster.manifest.spec ?? {};
    const name = cluster.manifest.metadata?.name;
    const nameProblem = dnsLabelProblem(String(name ?? ''));
    if (nameProblem) out.push(violation(cluster, `Cluster name "${name}" ${nameProblem}`, 'use a lower-case DNS label', 'metadata.name'));
    // The control planes the rules read, and the cluster object of every infrastructure the run knows (`graph.infrastructures`).
    const known = { controlPlaneRef: (kind: unknown) => CONTROL_PLANE_KINDS.includes(kind as string), infrastructureRef: (kind: unknown) => graph.infrastructures.ofCluster(kind) !== undefined };
    for (const field of ['controlPlaneRef', 'infrastructureRef'] as const) {
      const ref = spec[field];
      if (known[field](ref?.kind) && !graph.resolve(cluster, ref)) {
        out.push(violation(cluster, `spec.${field} names ${ref.kind} "${ref.name}", which is not among the objects`, `name the ${ref.kind} that is written, or write it`, `spec.${field}`));
      }
    }
    return out;
  }),
});

function cidrOrProblem(text: unknown, what: string, example: string, source: ManifestSource, field: string, out: Finding[]): Ipv4Cidr | undefined {
  try {
    return parseCidr(String(text));
  } catch (e) {
    out.push(violation(source, `${what} CIDR: ${(e as Error).message}`, `use an IPv4 network such as "${example}"`, field));
    return undefined;
  }
}

/** Pod and service ranges: well-formed, apart, apart from the VPC, of a size the API server takes, and the same in CAPI and k0s. */
export const clusterNetwork = rule<ManifestGraph>({
  name: 'cluster-network',
  scope: 'object',
  description: 'Pod and service ranges parse, do not overlap each other or the VPC, have a size kube-apiserver takes, and agree between CAPI and k0s',
  source: 'kubernetes v1.34 cmd/kube-apiserver/app/options/validation.go; k0s v1.34 pkg/apis/k0s/v1beta1/network.go',
  check: (graph) => graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI)).flatMap((cluster) => {
    const out: Finding[] = [];
    const net = cluster.manifest.spec?.clusterNetwork ?? {};
    const podText = list(net.pods?.cidrBlocks)[0];
    const serviceText = list(net.services?.cidrBlocks)[0];
    const pods = podText === undefined ? undefined : cidrOrProblem(podText, 'pod', '192.168.0.0/16', cluster, 'spec.clusterNetwork.pods', out);
    const services = serviceText === undefined ? undefined : cidrOrProblem(serviceText, 'service', '10.128.0.0/12', cluster, 'spec.clusterNetwork.services', out);
    if (pods && services && cidrsOverlap(pods, services)) {
      out.push(violation(cluster, `pod CIDR ${podText} overlaps service CIDR ${serviceText}`, 'choose networks that do not overlap'));
    }
    if (services && services.prefix < LARGEST_SERVICE_PREFIX) {
      out.push(violation(cluster, `service CIDR ${serviceText} is larger than /${LARGEST_SERVICE_PREFIX}, which kube-apiserver refuses`, `use a /${LARGEST_SERVICE_PREFIX} or smaller, e.g. 10.128.0.0/12`, 'spec.clusterNetwork.services'));
    }
    if (services && services.prefix > SMALLEST_SERVICE_PREFIX) {
      out.push(violation(cluster, `service CIDR ${serviceText} has ${2 ** (32 - services.prefix)} addresses, too few for the API server's and CoreDNS's addresses and your Services`, `use a /${SMALLEST_SERVICE_PREFIX} or larger, e.g. 10.128.0.0/12`, 'spec.clusterNetwork.services'));
    }
    // Only AWS has a VPC (remote hosts are on networks no object shows).
    const infraRef = cluster.manifest.spec?.infrastructureRef;
    const onAws = graph.infrastructures.ofCluster(infraRef?.kind) === AWS_INFRASTRUCTURE;
    const aws = onAws ? graph.resolve(cluster, infraRef) : undefined;
    const vpc = aws?.manifest.spec?.network?.vpc ?? {};
    const vpcCidrText = vpc.cidrBlock ?? (vpc.id || !onAws ? undefined : CAPA_DEFAULT_VPC_CIDR);
    const vpcCidr = vpcCidrText ? safeCidr(vpcCidrText) : undefined;
    for (const [what, cidr, text] of [['pod', pods, podText], ['service', services, serviceText]] as const) {
      if (cidr && vpcCidr && cidrsOverlap(cidr, vpcCidr)) {
        out.push(violation(cluster, `${what} CIDR ${text} overlaps the VPC ${formatCidr(vpcCidr)}${vpc.cidrBlock ? '' : ' (CAPA\'s default VPC)'}, so traffic to machines there is routed into the cluster`, 'choose a range outside the VPC, e.g. pods 192.168.0.0/16 and services 10.128.0.0/12'));
      }
    }
    const kcp = graph.resolve(cluster, cluster.manifest.spec?.controlPlaneRef);
    const k0sNet = kcp?.manifest.spec?.k0sConfigSpec?.k0s?.spec?.network;
    if (kcp && k0sNet) {
      for (const [what, capi, k0s] of [['pod', podText, k0sNet.podCIDR], ['service', serviceText, k0sNet.serviceCIDR]] as const) {
        if (capi !== undefined && k0s !== undefined && capi !== k0s) {
          out.push(violation(kcp, `k0s ${what} CIDR ${k0s} differs from the Cluster's ${capi}`, 'set the same range in both (change the network prop, not one object)', `spec.k0sConfigSpec.k0s.spec.network.${what}CIDR`,
            `set spec.k0sConfigSpec.k0s.spec.network.${what}CIDR to ${capi}, the Cluster's spec.clusterNetwork.${what === 'pod' ? 'pods' : 'services'}.cidrBlocks[0] (or change both)`));
        }
      }
    }
    return out;
  }),
});

function safeCidr(text: string): Ipv4Cidr | undefined {
  try {
    return parseCidr(text);
  } catch {
    return undefined;
  }
}

/** The k0s control plane: an odd number of Linux controllers on a resolvable machine template. */
export const controlPlane = rule<ManifestGraph>({
  name: 'control-plane',
  scope: 'object',
  description: 'The control plane: a K0sControlPlane\'s k0s network provider, version and odd replica count, no Windows provisioner; a KubeadmControlPlane\'s version and odd replica count over stacked etcd; each on a resolvable machine template',
  source: 'k0s v1.34.4+k0s.0 pkg/apis/k0s/v1beta1/network.go; k0smotron v2.1.0 api/controlplane/v1beta2; cluster-api v1.14 controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go',
  check: (graph) => [
    ...graph.ofKind('K0sControlPlane').filter((k) => isCapi(k, CONTROLPLANE)).flatMap((kcp) => k0sControlPlaneProblems(graph, kcp)),
    ...graph.ofKind('KubeadmControlPlane').filter((k) => isCapi(k, CONTROLPLANE)).flatMap((kcp) => kubeadmControlPlaneProblems(graph, kcp)),
  ],
});

/**
 * A KubeadmControlPlane as CAPI's webhook takes it (cluster-api v1.14
 * controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go, validateCommon): a SemVer
 * version (a missing "v" is prepended by its Default), replicas odd while etcd is stacked, a
 * v1beta2 machine template reference with its apiGroup; and a machine template that is written.
 */
function kubeadmControlPlaneProblems(graph: ManifestGraph, kcp: ManifestSource): Finding[] {
  const out: Finding[] = [];
  const spec = kcp.manifest.spec ?? {};
  if (!kubernetesVersion(spec.version)) out.push(violation(kcp, `version ${JSON.stringify(spec.version)} is not a semantic version, and CAPI's webhook refuses it`, 'write it like "v1.34.4"', 'spec.version'));
  const replicas = spec.replicas ?? 1;
  if (!spec.kubeadmConfigSpec?.clusterConfiguration?.etcd?.external && (integerProblem(replicas, 1) || replicas % 2 === 0)) {
    out.push(violation(kcp, `control plane replicas ${replicas} is not an odd number >= 1, which CAPI's webhook refuses while etcd is stacked: etcd needs a majority to keep working`, 'use 1, 3 or 5', 'spec.replicas'));
  }
  const machine = controlPlaneMachineRef(kcp);
  if (machine && String(kcp.manifest.apiVersion).endsWith('/v1beta2') && !machine.ref.apiGroup) {
    out.push(violation(kcp, `${machine.field} has no apiGroup, which CAPI's webhook refuses`, `write apiGroup: ${INFRA}`, machine.field));
  } else if (machine && graph.infrastructures.ofTemplate(machine.ref.kind) && !graph.resolve(kcp, machine.ref)) {
    out.push(violation(kcp, `${machine.field} names ${machine.ref.kind} "${machine.ref.name}", which is not among the objects`, 'name the template that is written', machine.field));
  }
  return out;
}

function k0sControlPlaneProblems(graph: ManifestGraph, kcp: ManifestSource): Finding[] {
  const out: Finding[] = [];
  const spec = kcp.manifest.spec ?? {};
  // k0s v1.34.4+k0s.0 pkg/apis/k0s/v1beta1/network.go, Network.Validate: calico, kuberouter or custom.
  const provider = spec.k0sConfigSpec?.k0s?.spec?.network?.provider;
  if (provider !== undefined && !Object.values(NetworkProvider).includes(provider)) {
    out.push(violation(kcp, `k0s network provider ${JSON.stringify(provider)} is none of k0s's (calico, kuberouter, custom), and k0s refuses its config`, 'use NetworkProvider.CALICO', 'spec.k0sConfigSpec.k0s.spec.network.provider', 'set spec.k0sConfigSpec.k0s.spec.network.provider: calico'));
  }
  const versionProblem = K0sVersion.problem(spec.version);
  if (versionProblem) out.push(violation(kcp, versionProblem, K0sVersion.FIX, 'spec.version'));
  const replicas = spec.replicas ?? 1;
  if (integerProblem(replicas, 1) || replicas % 2 === 0) {
    out.push(violation(kcp, `control plane replicas ${replicas} is not an odd number >= 1; etcd needs a majority to keep working`, 'use 1, 3 or 5', 'spec.replicas'));
  }
  const provisioner = spec.k0sConfigSpec?.provisioner ?? {};
  if (provisioner.platform === 'windows') {
    out.push(violation(kcp, 'K0sControlPlane provisioner.platform is "windows"; k0s controllers run on Linux only, and k0smotron rejects it', 'remove it (Windows belongs in a WindowsWorkerPool)', 'spec.k0sConfigSpec.provisioner.platform', 'remove spec.k0sConfigSpec.provisioner.platform (Windows machines belong in a MachineDeployment of their own)'));
  }
  if (provisioner.type === 'powershell' || provisioner.type === 'powershell-xml') {
    out.push(violation(kcp, `K0sControlPlane provisioner.type is "${provisioner.type}", a Windows-only provisioner that k0smotron rejects for controllers`, 'use "cloud-config" (the default)'));
  }
  // k0smotron's machineTemplate.infrastructureRef is a classic ObjectReference (k0smotron
  // api/controlplane/v1beta2 K0sControlPlaneMachineTemplate): apiVersion, not apiGroup.
  const ref = spec.machineTemplate?.infrastructureRef;
  if (ref && !ref.apiVersion) {
    out.push(violation(kcp, `machineTemplate.infrastructureRef has no apiVersion${ref.apiGroup ? ` (it has apiGroup "${ref.apiGroup}", which k0smotron ignores)` : ''}`, `write apiVersion: ${INFRA}/v1beta2`, 'spec.machineTemplate.infrastructureRef'));
  } else if (graph.infrastructures.ofTemplate(ref?.kind)) {
    const template = graph.resolve(kcp, ref);
    if (!template) {
      out.push(violation(kcp, `machineTemplate.infrastructureRef names ${ref.kind} "${ref.name}", which is not among the objects`, 'name the template that is written', 'spec.machineTemplate.infrastructureRef'));
    } else {
      out.push(...machineProblems(graph.infrastructures.ofTemplate(ref.kind)!, template));
    }
  }
  return out;
}

/**
 * Templates named after a digest of their content: a template changed after naming (a JSON patch,
 * a later mutation) keeps the old name, so CAPI sees no new template and nothing rolls out.
 */
export const contentNames = rule<ManifestGraph>({
  name: 'content-named-templates',
  scope: 'object',
  description: 'A template named after a digest of its content was not changed after naming (a change would not roll out)',
  source: 'cluster-api v1.14 docs: changing a MachineDeployment\'s template reference rolls it out',
  check: (graph) => graph.sources.filter((s) => s.contentNamed).flatMap((source) => {
    const name = String(source.manifest.metadata?.name ?? '');
    const expected = contentHash(source.manifest.spec?.template?.spec);
    return name.endsWith(`-${expected}`) ? [] : [violation(source,
      `the template was changed after it was named (its content now hashes to ${expected}), so existing machines would keep the old content and the change would not roll out`,
      'change the construct props instead of patching the template: the template is then written under a new name, and CAPI rolls it out',
      'metadata.name',
      `rename the template (metadata.name ending in -${expected}) and point spec.template.spec.infrastructureRef (or bootstrap.configRef) of its MachineDeployment at the new name, so CAPI rolls it out`)];
  }),
});
