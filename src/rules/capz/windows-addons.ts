import {
  CALICO_WINDOWS, CALICO_WINDOWS_2025, CAPZ_IMAGE_ANNOTATIONS, capzImageYear, CLOUD_PROVIDER_ANNOTATION, CLOUD_PROVIDER_AZURE, KUBELET_SERVICE_ANNOTATION, WINDOWS_KUBE_PROXY_IMAGE, windowsKubeProxyTag, WindowsKubeletService,
} from '../../platform/capz';
import { LABEL_OS } from '../../platform/windows';
import { describe, Json, list, Manifest, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { CAPI, controlPlaneOf, Pool, pools } from '../cluster/pools';
import { AddonObject, addonObjects, azurePools, bootstrapSpec, cloudProviderProxies, disablesInValues, helmChartProxies, kubeletArgs, labelledForCloudProvider, machineSpec, nodeRegistrations, selects } from './azure-pools';

/**
 * The rules of a kubeadm cluster with Windows pools and its add-ons: a Linux worker beside them,
 * Calico as Windows runs it, and the Windows kube-proxy at the cluster's version. Add-ons are read
 * where ClusterResourceSets carry them (their ConfigMaps and Secrets), and as objects of their own
 * when the YAML holds them.
 */

/** The kubeadm clusters with Windows pools, with those pools. */
function windowsClusters(graph: ManifestGraph): Map<ManifestSource, Pool[]> {
  const out = new Map<ManifestSource, Pool[]>();
  for (const pool of pools(graph).filter((p) => p.windows && p.bootstrap === 'kubeadm' && p.cluster)) out.set(pool.cluster!, [...(out.get(pool.cluster!) ?? []), pool]);
  return out;
}

/** An add-on object and where it is written: in a ConfigMap or Secret of a ClusterResourceSet, or as an object of its own. */
interface Addon {
  readonly object: Manifest;
  /** The object that holds it (itself, or the ConfigMap or Secret). */
  readonly source: ManifestSource;
  /** The field to name, relative to `source`. */
  readonly at: (field: string) => string;
  /** How to name it in messages. */
  readonly said: string;
  /** The clusters it goes to: the ClusterResourceSet's, or every cluster with Windows pools. */
  readonly clusters: readonly ManifestSource[];
}

function addons(graph: ManifestGraph, windows: Map<ManifestSource, Pool[]>): Addon[] {
  const carried = addonObjects(graph).map((a: AddonObject): Addon => ({
    object: a.object, source: a.holder, at: (field) => `${a.field} (${a.object.kind} ${a.object.metadata?.name}: ${field})`,
    said: `${a.object.kind} ${a.object.metadata?.name} in ${describe(a.holder)} ${a.field}`, clusters: a.clusters,
  }));
  // Objects of their own go to every cluster with Windows pools: with none, to no cluster, which no rule reads.
  const own = windows.size === 0 ? [] : graph.sources.filter((s) => !String(s.manifest.apiVersion ?? '').startsWith(`${CAPI}/`)).map((s): Addon => ({
    object: s.manifest, source: s, at: (field) => field, said: describe(s), clusters: [...windows.keys()],
  }));
  return [...carried, ...own];
}

const isInstallation = (o: Manifest) => o.kind === 'Installation' && String(o.apiVersion ?? '').startsWith('operator.tigera.io/');
const isIpPool = (o: Manifest) => o.kind === 'IPPool' && /^(crd\.)?projectcalico\.org\//.test(String(o.apiVersion ?? ''));

/** Calico's configuration against Windows nodes: VXLAN only, BGP off, the HNS dataplane on (tigera operator Installation; Calico IPPools). */
function calicoProblems(addon: Addon, severity: 'violation' | 'advice'): Finding[] {
  const { object, source, at, said } = addon;
  const out: Finding[] = [];
  const v = (what: string, fix: string, field: string) => out.push(violation(source, `${said}: ${what}`, fix, at(field)));
  if (isInstallation(object)) {
    const network = object.spec?.calicoNetwork ?? {};
    if (severity === 'violation') {
      if (network.windowsDataplane !== CALICO_WINDOWS.dataplane) {
        v(`calicoNetwork.windowsDataplane is ${JSON.stringify(network.windowsDataplane ?? 'absent (Disabled)')}, so the operator installs no Calico on Windows nodes, which stay NotReady without a CNI`, `set spec.calicoNetwork.windowsDataplane: ${CALICO_WINDOWS.dataplane}`, 'spec.calicoNetwork.windowsDataplane');
      }
      if (network.bgp === 'Enabled') v('calicoNetwork.bgp is Enabled: Calico for Windows runs VXLAN with BGP off, and Azure\'s network does not route pod addresses', `set spec.calicoNetwork.bgp: ${CALICO_WINDOWS.bgp}`, 'spec.calicoNetwork.bgp');
    } else if (network.bgp === undefined) {
      v('calicoNetwork.bgp is not written, and the operator may turn BGP on', `write spec.calicoNetwork.bgp: ${CALICO_WINDOWS.bgp}, as CAPZ's Windows add-ons do`, 'spec.calicoNetwork.bgp');
    }
    for (const [i, pool] of list(network.ipPools).entries()) {
      const encapsulation = pool?.encapsulation;
      if (severity === 'violation' && encapsulation !== undefined && !(CALICO_WINDOWS.encapsulations as readonly string[]).includes(encapsulation)) {
        v(`ipPools[${i}] (${pool?.cidr}) encapsulation is ${encapsulation}, which Calico for Windows does not run (VXLAN only; no IP-in-IP)`, `set spec.calicoNetwork.ipPools[${i}].encapsulation: VXLAN`, `spec.calicoNetwork.ipPools[${i}].encapsulation`);
      } else if (severity === 'advice' && encapsulation === undefined) {
        v(`ipPools[${i}] (${pool?.cidr}) has no encapsulation, and the operator's default may not be VXLAN`, `write spec.calicoNetwork.ipPools[${i}].encapsulation: VXLAN`, `spec.calicoNetwork.ipPools[${i}].encapsulation`);
      }
    }
  }
  if (isIpPool(object) && severity === 'violation' && ['Always', 'CrossSubnet'].includes(object.spec?.ipipMode)) {
    v(`ipipMode ${object.spec.ipipMode}: Calico for Windows has no IP-in-IP`, 'set spec.ipipMode: Never and spec.vxlanMode: Always', 'spec.ipipMode');
  }
  return out;
}

/** Calico for Windows: VXLAN, BGP off, HNS dataplane, for the clusters with Windows kubeadm pools. */
export const calicoWindows = rule<ManifestGraph>({
  name: 'calico-windows',
  scope: 'graph',
  description: 'Calico for a cluster with Windows kubeadm pools runs as Windows runs it: the HNS Windows dataplane, VXLAN encapsulation, BGP off (operator Installation and IPPools, in ClusterResourceSets or on their own), and one Installation (not the tigera-operator chart\'s beside a set\'s)',
  source: 'cluster-api-provider-azure v1.26.0 templates/addons/cluster-api-helm/calico.yaml (bgp Disabled, windowsDataplane HNS, encapsulation VXLAN); tigera/operator v1.36.9 (Calico v3.29.4) pkg/controller/installation/core_controller.go and pkg/controller/ippool/defaults.go (fillDefaults); projectcalico/calico charts/tigera-operator values.yaml (installation.enabled); cluster-api v1.14.0 core/reconcilers/clusterresourceset/clusterresourceset_scope.go (ApplyOnce)',
  check: (graph) => judgedCalico(graph, 'violation'),
  advise: (graph) => judgedCalico(graph, 'advice'),
});

function judgedCalico(graph: ManifestGraph, severity: 'violation' | 'advice'): Finding[] {
  const windows = windowsClusters(graph);
  if (windows.size === 0) return [];
  const all = addons(graph, windows).filter((a) => a.clusters.some((c) => windows.has(c)));
  return [...all.flatMap((a) => calicoProblems(a, severity)), ...(severity === 'violation' ? twoInstallations(graph, all) : [])];
}

/**
 * The tigera-operator chart beside a ClusterResourceSet's Installation for the same cluster: the
 * chart writes an Installation named default unless `installation.enabled` is false
 * (projectcalico/calico charts/tigera-operator values.yaml), and an ApplyOnce set only creates
 * what does not exist (cluster-api v1.14.0 core/reconcilers/clusterresourceset/clusterresourceset_scope.go,
 * reconcileApplyOnceScope.applyObj), so whichever comes first is the cluster's Calico.
 */
function twoInstallations(graph: ManifestGraph, all: readonly Addon[]): Finding[] {
  // Installations a ClusterResourceSet carries (one written as an object of its own is applied elsewhere).
  const carried = all.filter((a) => a.source.manifest !== a.object && isInstallation(a.object));
  return helmChartProxies(graph, 'tigera-operator').filter((s) => !disablesInValues(s, 'installation'))
    .flatMap((proxy) => carried.filter((a) => a.clusters.some((c) => selects(proxy, c)))
      .slice(0, 1).map((a) => violation(proxy, `the tigera-operator chart writes its own Installation "default" beside ${a.said}, and a ClusterResourceSet only creates what does not exist: whichever comes first is the cluster's Calico (the chart's has no Windows dataplane and BGP on), and Helm refuses to adopt the other`,
      'set installation.enabled: false in spec.valuesTemplate, so the set\'s Installation is the one, or move its calicoNetwork into the chart\'s values and drop it from the set', 'spec.valuesTemplate')));
}

/** The Windows Server year of a CAPZ pool's machines: its image's name, else the annotation, else CAPZ's default (2022). */
function windowsYear(machine: ManifestSource | undefined): string {
  const image = machineSpec(machine).image;
  const annotation = machine?.manifest.spec?.template?.metadata?.annotations?.[CAPZ_IMAGE_ANNOTATIONS.windowsServerVersion];
  return (image ? capzImageYear(image) : /^windows-(20\d\d)$/.exec(String(annotation ?? ''))?.[1]) ?? '2022';
}

/** Whether a cluster runs Calico, as the objects show: its Windows add-on labels (CAPZ's flavor), or Calico objects that go to it. */
function runsCalico(cluster: ManifestSource, all: readonly Addon[]): boolean {
  const labels: Record<string, unknown> = cluster.manifest.metadata?.labels ?? {};
  return Object.entries(labels).some(([k, v]) => /^cni/.test(k) && /calico/i.test(String(v)))
    || all.some((a) => a.clusters.includes(cluster) && (isInstallation(a.object) || isIpPool(a.object)));
}

/** Windows Server 2025 pools where Calico is the CNI. */
export const calicoWindows2025 = rule<ManifestGraph>({
  name: 'calico-windows-2025',
  scope: 'graph',
  description: 'No Windows Server 2025 pool in a cluster whose CNI is Calico (no Windows Server 2025 support in Calico); advice where the CNI is not shown',
  source: `${CALICO_WINDOWS_2025}; cluster-api-provider-azure v1.26.0 azure/services/virtualmachineimages/images.go (GetDefaultWindowsImage)`,
  check: (graph) => windows2025(graph, true),
  advise: (graph) => windows2025(graph, false),
});

function windows2025(graph: ManifestGraph, calico: boolean): Finding[] {
  const windows = windowsClusters(graph);
  const all = addons(graph, windows);
  return azurePools(graph).filter((p) => p.pool.windows && p.pool.cluster && windowsYear(p.machine) === '2025' && runsCalico(p.pool.cluster, all) === calico).map((p) => violation(p.machine ?? p.pool.md,
    `the pool runs Windows Server 2025, ${calico ? 'and its cluster\'s CNI is Calico, which does not support it' : 'and Calico, the CNI of CAPZ\'s Windows add-ons, does not support it'} (${CALICO_WINDOWS_2025}): Windows pods get no network`,
    `use Windows Server 2022 (annotation ${CAPZ_IMAGE_ANNOTATIONS.windowsServerVersion}: windows-2022 in spec.template.metadata.annotations, or a 2022 image)`, 'spec.template.metadata.annotations'));
}

/** The Windows kube-proxy's image tag against the Kubernetes version of the clusters it goes to. */
export const windowsKubeProxy = rule<ManifestGraph>({
  name: 'windows-kube-proxy',
  scope: 'graph',
  description: `The Windows kube-proxy (${WINDOWS_KUBE_PROXY_IMAGE}) runs the Kubernetes version of the cluster's control plane`,
  source: 'cluster-api-provider-azure v1.26.0 templates/addons/windows/calico/kube-proxy-windows.yaml (image sigwindowstools/kube-proxy:${KUBERNETES_VERSION/+/_}-calico-hostprocess)',
  check: (graph) => addons(graph, windowsClusters(graph)).flatMap((addon) => containersOf(addon.object).flatMap(({ image, field }) => {
    const [repository, tag] = splitImage(image);
    if (repository !== WINDOWS_KUBE_PROXY_IMAGE && !repository.endsWith(`/${WINDOWS_KUBE_PROXY_IMAGE}`)) return [];
    return addon.clusters.flatMap((cluster) => {
      const version = controlPlaneOf(graph, cluster)?.manifest.spec?.version;
      const expected = typeof version === 'string' ? windowsKubeProxyTag(version.startsWith('v') ? version : `v${version}`) : undefined;
      return expected && tag !== expected
        ? [violation(addon.source, `${addon.said}: image ${image} is not the Kubernetes version of cluster ${cluster.manifest.metadata?.name}'s control plane (${version}): kube-proxy on Windows nodes would run another version than kubeadm's kube-proxy ConfigMap is written for`,
          `use ${repository}:${expected}`, addon.at(field))]
        : [];
    });
  })),
});

function containersOf(object: Json): Array<{ image: string; field: string }> {
  const spec = object?.spec?.template?.spec ?? {};
  return (['initContainers', 'containers'] as const).flatMap((k) => list(spec[k]).map((c, i) => ({ image: String(c?.image ?? ''), field: `spec.template.spec.${k}[${i}].image` })));
}

function splitImage(image: string): [string, string] {
  const at = image.indexOf('@');
  const name = at < 0 ? image : image.slice(0, at);
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? [name.slice(0, colon), name.slice(colon + 1)] : [name, 'latest'];
}

/** A kubeadm cluster with Windows pools and no Linux worker. */
export const kubeadmWindowsCluster = rule<ManifestGraph>({
  name: 'kubeadm-windows-cluster',
  scope: 'graph',
  description: 'Advice: a kubeadm cluster with Windows pools has a Linux worker pool, so CoreDNS and Linux add-ons need not share the control plane',
  source: 'kubernetes/kubernetes cmd/kubeadm/app/phases/addons/dns/manifests.go (CoreDNS: nodeSelector linux, tolerates the control-plane taint); kubernetes docs "Windows containers in Kubernetes"',
  check: () => [],
  advise: (graph) => {
    const all = pools(graph);
    return [...windowsClusters(graph)].filter(([cluster]) => controlPlaneOf(graph, cluster)?.manifest.kind === 'KubeadmControlPlane' && !all.some((p) => p.cluster === cluster && !p.windows && p.replicas >= 1))
      .map(([cluster, windows]) => violation(cluster, `Windows pools (${windows.map((p) => p.md.manifest.metadata?.name).join(', ')}) and no Linux worker: CoreDNS and every Linux add-on run on the control plane (kubeadm's CoreDNS tolerates its taint), beside etcd and the API server`,
        'add a Linux MachineDeployment for this cluster with spec.replicas >= 1', 'metadata.name'));
  },
});

/**
 * The Windows node manager of cloud-provider-azure for the CAPZ clusters whose Windows kubelets run
 * the external cloud provider. Shown by: a node-manager DaemonSet going to the cluster (in a
 * ClusterResourceSet or on its own), a HelmChartProxy of the chart selecting it, CAPZ's
 * `cloud-provider: azure` label (its HelmChartProxy lives in the management cluster), or the
 * annotation that says it is installed otherwise. Nothing shown is advice only: CAPZ's own Windows
 * flavor leaves the chart to `helm install`.
 */
export const capzCloudNodeManager = rule<ManifestGraph>({
  name: 'capz-cloud-node-manager',
  scope: 'graph',
  description: 'A CAPZ cluster whose Windows kubelets run the external cloud provider gets cloud-provider-azure\'s node manager on its Windows nodes (a node manager that runs on Linux only, or a chart with it disabled, is refused), and its Windows nodes register with the cloud taint it initializes them by (refused: a native kubelet service without a kubeadm patch); advice where the objects do not show how it is installed',
  source: 'kubernetes-sigs/cloud-provider-azure helm/cloud-provider-azure chart 1.36.0 templates/cloud-provider-azure.yaml (--controllers=*,-cloud-node; DaemonSet cloud-node-manager-windows), pkg/nodemanager/nodemanager.go (handleNodeEvent); kubernetes-sigs/image-builder v0.1.55 ansible/windows/roles/kubernetes/tasks/sc.yml; cluster-api-provider-azure v1.26.0 templates/addons/cluster-api-helm/cloud-provider-azure.yaml, docs/book/src/self-managed/addons.md',
  check: (graph) => nodeManager(graph, 'violation'),
  advise: (graph) => nodeManager(graph, 'advice'),
});

const TAINTED = 'its Windows nodes keep the node.cloudprovider.kubernetes.io/uninitialized taint the kubelet registers with (only the node manager removes it and sets the providerID), so they take no pod and their Machines never get a node';

/**
 * A Windows pool whose image runs the kubelet as a native service: its fixed command line has no
 * `--cloud-provider=external` (image-builder v0.1.55 ansible/windows/roles/kubernetes/tasks/sc.yml)
 * and it drops the join taints, so the node registers without the cloud taint, which is the one
 * cue the node manager initializes a node by (cloud-provider-azure pkg/nodemanager/nodemanager.go,
 * handleNodeEvent): the node never gets a providerID, and CAPI never links its Machine to it.
 * Unless a kubeadm patch puts the taint into the kubelet's configuration (`registerWithTaints`).
 */
function uninitializedWindows(graph: ManifestGraph): Finding[] {
  const field = `metadata.annotations.${KUBELET_SERVICE_ANNOTATION}`;
  return azurePools(graph).filter((p) => p.pool.windows && p.machine?.manifest.metadata?.annotations?.[KUBELET_SERVICE_ANNOTATION] === WindowsKubeletService.WINDOWS_SERVICE
    && bootstrapSpec(p.config).joinConfiguration?.patches?.directory === undefined)
    .map((p) => violation(p.machine!, `the image runs the kubelet as a native service, whose command line has no --cloud-provider=external and which drops the join taints, so the Windows node registers without the ${CLOUD_TAINT} taint, cloud-provider-azure's node manager skips it (only that taint makes it initialize a node), the node never gets a providerID, and CAPI never links its Machine to it`,
      'run an image whose kubelet runs under nssm (image-builder up to v0.1.52, or windows_service_manager nssm) and annotate nssm, or put registerWithTaints with the taint into the kubelet\'s configuration with a kubeadm patch (joinConfiguration.patches.directory, written by files)', field));
}

const CLOUD_TAINT = 'node.cloudprovider.kubernetes.io/uninitialized';

function nodeManager(graph: ManifestGraph, severity: 'violation' | 'advice'): Finding[] {
  const stranded = severity === 'violation' ? uninitializedWindows(graph) : [];
  const external = new Set(azurePools(graph).filter((p) => p.pool.windows && p.pool.cluster && nodeRegistrations(p.config).some(({ registration, field }) => kubeletArgs(registration, field).some((a) => a.name === 'cloud-provider' && a.value === 'external'))).map((p) => p.pool.cluster!));
  if (external.size === 0) return stranded;
  const windows = windowsClusters(graph);
  const managers = addons(graph, windows).filter((a) => a.object.kind === 'DaemonSet' && containersOf(a.object).some(({ image }) => splitImage(image)[0].endsWith(`/${CLOUD_PROVIDER_AZURE.nodeManagerImage}`)));
  const out: Finding[] = [];
  for (const cluster of external) {
    const name = cluster.manifest.metadata?.name;
    const mine = managers.filter((a) => a.clusters.includes(cluster));
    const chart = cloudProviderProxies(graph, cluster);
    if (severity === 'violation') {
      if (mine.length > 0 && !mine.some((a) => a.object.spec?.template?.spec?.nodeSelector?.[LABEL_OS] === 'windows')) {
        out.push(violation(mine[0].source, `${mine[0].said}: cloud-provider-azure's node manager goes to cluster ${name} for Linux nodes only, and ${TAINTED}`, 'add the chart\'s cloud-node-manager-windows DaemonSet (nodeSelector kubernetes.io/os: windows, a HostProcess pod), or install the chart, which writes both', mine[0].at('spec.template.spec.nodeSelector')));
      }
      for (const p of chart.filter((c) => disablesInValues(c, 'cloudNodeManager'))) {
        out.push(violation(p, `the cloud-provider-azure chart for cluster ${name} has cloudNodeManager.enabled false, and ${TAINTED}`, 'remove cloudNodeManager.enabled: false from spec.valuesTemplate', 'spec.valuesTemplate'));
      }
    } else if (mine.length === 0 && chart.length === 0 && !labelledForCloudProvider(cluster) && !cluster.manifest.metadata?.annotations?.[CLOUD_PROVIDER_ANNOTATION]) {
      out.push(violation(cluster, `nothing in these objects installs cloud-provider-azure (its cloud-controller-manager and Windows node manager) in cluster ${name}, whose Windows kubelets run the external cloud provider: without it ${TAINTED}`,
        `label the Cluster ${CLOUD_PROVIDER_AZURE.helmChartProxyLabel.key}: ${CLOUD_PROVIDER_AZURE.helmChartProxyLabel.value} and apply CAPZ's HelmChartProxy for the chart, or run helm install of the chart on the workload cluster and say so with the annotation ${CLOUD_PROVIDER_ANNOTATION}: helm-install`, 'metadata.labels'));
    }
  }
  return [...stranded, ...out];
}
