import { taintArgument, WINDOWS_NODE_TAINT } from '../../platform/windows';
import { K0smotronInfrastructure } from '../../platform/infrastructures';
import { capiDefaultReplicas } from '../../platform/cluster-autoscaler';
import { isCapi, Json, list, ManifestGraph, ManifestSource } from '../engine/graph';

/**
 * What the cluster rules share: the pools as the rules see them (a MachineDeployment and what it
 * references, as the controllers follow the references), the control plane of a cluster, and
 * label selection as apimachinery reads it.
 */

/** Cluster API's group. */
export const CAPI = 'cluster.x-k8s.io';
/** k0smotron's control-plane group. */
export const CONTROLPLANE = 'controlplane.cluster.x-k8s.io';
/** The infrastructure providers' group (CAPA, k0smotron's RemoteMachine). */
export const INFRA = 'infrastructure.cluster.x-k8s.io';

/** The K0sControlPlane a Cluster names, when written. */
export function controlPlaneOf(graph: ManifestGraph, cluster: ManifestSource | undefined): ManifestSource | undefined {
  const ref = cluster?.manifest.spec?.controlPlaneRef;
  return cluster && ref?.kind === 'K0sControlPlane' ? graph.resolve(cluster, ref) : undefined;
}

/**
 * Whether a label selector selects `labels`, as apimachinery's LabelSelectorAsSelector reads it
 * (matchLabels equal; matchExpressions In, NotIn, Exists, DoesNotExist). An empty selector selects
 * nothing here: CAPI's webhooks refuse one for MachineHealthChecks.
 */
export function matches(selector: Json, labels: Json): boolean {
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
export interface Pool {
  readonly md: ManifestSource;
  readonly cluster?: ManifestSource;
  readonly config?: ManifestSource;
  /** The machine template, when it is of a known infrastructure's kind and written. */
  readonly machine?: ManifestSource;
  /** The infrastructure of the machine template's kind, when the run knows it (`graph.infrastructures`). */
  readonly infrastructure?: K0smotronInfrastructure;
  readonly windows: boolean;
  readonly replicas: number;
}

export function pools(graph: ManifestGraph): Pool[] {
  return graph.ofKind('MachineDeployment').filter((m) => isCapi(m, CAPI)).map((md) => {
    const spec = md.manifest.spec ?? {};
    const template = spec.template?.spec ?? {};
    const config = template.bootstrap?.configRef?.kind === 'K0sWorkerConfigTemplate' ? graph.resolve(md, template.bootstrap.configRef) : undefined;
    const infrastructure = graph.infrastructures.ofTemplate(template.infrastructureRef?.kind);
    return {
      md,
      cluster: graph.cluster(md, spec.clusterName),
      config,
      machine: infrastructure ? graph.resolve(md, template.infrastructureRef) : undefined,
      infrastructure,
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
export function clustersThere(graph: ManifestGraph, from: ManifestSource): string {
  const names = graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI) && (c.manifest.metadata?.namespace ?? '') === (from.manifest.metadata?.namespace ?? '')).map((c) => `"${c.manifest.metadata?.name}"`);
  return names.length > 0 ? ` (there: ${names.join(', ')})` : '';
}

