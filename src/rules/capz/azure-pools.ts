import { CAPZ_KINDS, CAPZ_OS_TYPE, CLOUD_PROVIDER_AZURE } from '../../platform/capz';
import { Json, list, Manifest, ManifestGraph, ManifestSource } from '../engine/graph';
import { CAPI, matches, Pool, pools } from '../cluster/pools';

/**
 * What the CAPZ rules share: kubeadm pools on Azure machines (a MachineDeployment, its
 * KubeadmConfigTemplate and its AzureMachineTemplate), their kubelet flags in either API version,
 * and the add-on objects ClusterResourceSets carry to the clusters they select.
 */

/** A kubeadm pool on CAPZ machines. */
export interface AzurePool {
  readonly pool: Pool;
  /** The KubeadmConfigTemplate, when written. */
  readonly config?: ManifestSource;
  /** The AzureMachineTemplate, when written. */
  readonly machine?: ManifestSource;
}

/** The kubeadm pools whose machines are CAPZ's. */
export function azurePools(graph: ManifestGraph): AzurePool[] {
  return pools(graph).filter((p) => p.bootstrap === 'kubeadm' && p.md.manifest.spec?.template?.spec?.infrastructureRef?.kind === CAPZ_KINDS.machineTemplate).map((pool) => ({
    pool,
    config: pool.config,
    machine: graph.resolve(pool.md, pool.md.manifest.spec.template.spec.infrastructureRef),
  }));
}

/** The bootstrap spec of a KubeadmConfigTemplate (`spec.template.spec`). */
export function bootstrapSpec(config: ManifestSource | undefined): Json {
  return config?.manifest.spec?.template?.spec ?? {};
}

/** The machine spec of an AzureMachineTemplate (`spec.template.spec`). */
export function machineSpec(machine: ManifestSource | undefined): Json {
  return machine?.manifest.spec?.template?.spec ?? {};
}

/** Whether an AzureMachineTemplate makes Windows VMs (an absent osType is CAPZ's default, Linux). */
export function windowsMachine(machine: ManifestSource | undefined): boolean {
  return (machineSpec(machine).osDisk?.osType ?? CAPZ_OS_TYPE.default) === CAPZ_OS_TYPE.windows;
}

/** A kubelet flag as kubeadm's nodeRegistration carries it, with the field that holds it. */
export interface KubeletArg {
  readonly name: string;
  readonly value: unknown;
  readonly field: string;
}

/**
 * The kubelet flags of a nodeRegistration at `path`: a `{name, value}` list in v1beta2, a map in
 * v1beta1 (cluster-api v1.14 api/bootstrap/kubeadm/v1beta2 NodeRegistrationOptions.KubeletExtraArgs).
 */
export function kubeletArgs(nodeRegistration: Json, path: string): KubeletArg[] {
  const args = nodeRegistration?.kubeletExtraArgs;
  if (Array.isArray(args)) return args.map((a, i) => ({ name: String(a?.name), value: a?.value, field: `${path}.kubeletExtraArgs[${i}]` }));
  if (args !== null && typeof args === 'object') return Object.entries(args).map(([name, value]) => ({ name, value, field: `${path}.kubeletExtraArgs.${name}` }));
  return [];
}

/** The nodeRegistrations a KubeadmConfigTemplate bootstraps with, with their fields. */
export function nodeRegistrations(config: ManifestSource | undefined): Array<{ registration: Json; field: string }> {
  const spec = bootstrapSpec(config);
  return (['joinConfiguration', 'initConfiguration'] as const).filter((k) => spec[k]?.nodeRegistration)
    .map((k) => ({ registration: spec[k].nodeRegistration, field: `spec.template.spec.${k}.nodeRegistration` }));
}

/** An object a ClusterResourceSet applies, from the ConfigMap or Secret that holds it. */
export interface AddonObject {
  readonly object: Manifest;
  /** The ConfigMap or Secret. */
  readonly holder: ManifestSource;
  /** The field of the holder: `data.<key>`. */
  readonly field: string;
  /** The Clusters the ClusterResourceSet selects. */
  readonly clusters: readonly ManifestSource[];
}

/**
 * The objects the ClusterResourceSets of the graph apply to the clusters they select: each data
 * value of their ConfigMaps and Secrets (base64 in a Secret) read as a YAML stream, as CAPI's
 * ClusterResourceSet controller applies it (cluster-api v1.14
 * core/reconcilers/clusterresourceset/clusterresourceset_helpers.go, normalizeData and objsFromYamlData). Values
 * that are not Kubernetes objects are skipped.
 */
export function addonObjects(graph: ManifestGraph): AddonObject[] {
  const out: AddonObject[] = [];
  for (const crs of graph.ofKind('ClusterResourceSet').filter((c) => String(c.manifest.apiVersion ?? '').startsWith('addons.cluster.x-k8s.io/'))) {
    const namespace = crs.manifest.metadata?.namespace ?? '';
    const clusters = graph.ofKind('Cluster').filter((c) => String(c.manifest.apiVersion ?? '').startsWith(`${CAPI}/`)
      && (c.manifest.metadata?.namespace ?? '') === namespace && matches(crs.manifest.spec?.clusterSelector, c.manifest.metadata?.labels));
    for (const resource of list(crs.manifest.spec?.resources)) {
      const holder = graph.resolve(crs, { apiVersion: 'v1', kind: resource?.kind, name: resource?.name });
      if (!holder) continue;
      for (const [key, value] of Object.entries(holder.manifest.data ?? {})) {
        const text = holder.manifest.kind === 'Secret' && typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value;
        for (const object of yamlObjects(text)) out.push({ object, holder, field: `data.${key}`, clusters });
      }
    }
  }
  return out;
}

/** The HelmChartProxies of a chart (Cluster API add-on provider for Helm, `addons.cluster.x-k8s.io`). */
export function helmChartProxies(graph: ManifestGraph, chart: string): ManifestSource[] {
  return graph.ofKind('HelmChartProxy').filter((s) => String(s.manifest.apiVersion ?? '').startsWith('addons.cluster.x-k8s.io/') && s.manifest.spec?.chartName === chart);
}

/**
 * Whether a HelmChartProxy's values set `<section>.enabled: false`. Read as text: a valuesTemplate
 * is a Go template, which is YAML only once CAAPH has rendered it for a cluster.
 */
export function disablesInValues(proxy: ManifestSource, section: string): boolean {
  return new RegExp(`^${section}:[ \\t]*\\n(?:[ \\t]+.*\\n)*?[ \\t]+enabled:[ \\t]*false\\b`, 'm').test(String(proxy.manifest.spec?.valuesTemplate ?? ''));
}

/** Whether a HelmChartProxy installs its chart in `cluster`: a Cluster of its namespace that its clusterSelector selects. */
export function selects(proxy: ManifestSource, cluster: ManifestSource): boolean {
  return (proxy.manifest.metadata?.namespace ?? '') === (cluster.manifest.metadata?.namespace ?? '') && matches(proxy.manifest.spec?.clusterSelector, cluster.manifest.metadata?.labels);
}

/** The HelmChartProxies of cloud-provider-azure's chart that install it in `cluster`. */
export function cloudProviderProxies(graph: ManifestGraph, cluster: ManifestSource): ManifestSource[] {
  return helmChartProxies(graph, CLOUD_PROVIDER_AZURE.chart).filter((p) => selects(p, cluster));
}

/**
 * Whether a Cluster carries the label CAPZ's HelmChartProxy for cloud-provider-azure selects
 * (`cloud-provider: azure`, v1.26.0 templates/addons/cluster-api-helm/cloud-provider-azure.yaml):
 * that proxy lives in the management cluster, so a flavor's objects show the install by the label alone.
 */
export function labelledForCloudProvider(cluster: ManifestSource): boolean {
  const { key, value } = CLOUD_PROVIDER_AZURE.helmChartProxyLabel;
  return cluster.manifest.metadata?.labels?.[key] === value;
}

function yamlObjects(text: unknown): Manifest[] {
  if (typeof text !== 'string') return [];
  try {
    // The yaml package costs milliseconds to load: only a run whose ClusterResourceSets carry YAML pays it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('yaml') as typeof import('yaml')).parseAllDocuments(text, { version: '1.1' }).flatMap((d) => (d.errors.length > 0 ? [] : [d.toJS()]))
      .flatMap((o) => (o?.kind === 'List' ? list(o.items) : [o]))
      .filter((o): o is Manifest => o !== null && typeof o === 'object' && typeof o.kind === 'string');
  } catch {
    return [];
  }
}
