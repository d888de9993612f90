import { LABEL_OS, taintArgument, WINDOWS_NODE_TAINT } from '../../platform/windows';
import { CAPZ_KINDS } from '../../platform/capz';
import { K0smotronInfrastructure } from '../../platform/infrastructures';
import { CAPI_AUTOSCALER_ANNOTATIONS, capiDefaultReplicas } from '../../platform/cluster-autoscaler';
import { describe, isCapi, Json, list, ManifestGraph, ManifestSource } from '../engine/graph';

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

/** The control-plane kinds the rules read (k0smotron's, CAPI's kubeadm control plane provider's). */
export const CONTROL_PLANE_KINDS: readonly string[] = ['K0sControlPlane', 'KubeadmControlPlane'];

/** The control plane a Cluster names (a K0sControlPlane or a KubeadmControlPlane), when written. */
export function controlPlaneOf(graph: ManifestGraph, cluster: ManifestSource | undefined): ManifestSource | undefined {
  const ref = cluster?.manifest.spec?.controlPlaneRef;
  return cluster && CONTROL_PLANE_KINDS.includes(ref?.kind) ? graph.resolve(cluster, ref) : undefined;
}

/** The K0sControlPlane a Cluster names, when written: what the rules of k0s's own configuration read. */
export function k0sControlPlaneOf(graph: ManifestGraph, cluster: ManifestSource | undefined): ManifestSource | undefined {
  const kcp = controlPlaneOf(graph, cluster);
  return kcp?.manifest.kind === 'K0sControlPlane' ? kcp : undefined;
}

/**
 * The reference to the machine template a control plane's machines boot from: k0smotron's and
 * CAPI v1beta1's `machineTemplate.infrastructureRef`, KubeadmControlPlane v1beta2's
 * `machineTemplate.spec.infrastructureRef` (cluster-api v1.14 api/controlplane/kubeadm/v1beta2).
 */
export function controlPlaneMachineRef(kcp: ManifestSource | undefined): { ref: Json; field: string } | undefined {
  const template = kcp?.manifest.spec?.machineTemplate;
  if (template?.spec?.infrastructureRef) return { ref: template.spec.infrastructureRef, field: 'spec.machineTemplate.spec.infrastructureRef' };
  return template?.infrastructureRef ? { ref: template.infrastructureRef, field: 'spec.machineTemplate.infrastructureRef' } : undefined;
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

/** The bootstraps whose configs the rules read. */
export type Bootstrap = 'k0s' | 'kubeadm';

/** The bootstrap config template kinds the rules read, by bootstrap (k0smotron's, CAPI's kubeadm bootstrap provider's). */
const BOOTSTRAP_KINDS: Readonly<Record<string, Bootstrap>> = { K0sWorkerConfigTemplate: 'k0s', KubeadmConfigTemplate: 'kubeadm' };

/** A worker pool as the rules see it: the MachineDeployment and what it references. */
export interface Pool {
  readonly md: ManifestSource;
  readonly cluster?: ManifestSource;
  /** The bootstrap of the config template's kind, when the rules read that kind. */
  readonly bootstrap?: Bootstrap;
  /** The bootstrap config template, when of a kind the rules read and written. */
  readonly config?: ManifestSource;
  /** The machine template, when it is of a known infrastructure's kind and written. */
  readonly machine?: ManifestSource;
  /** The infrastructure of the machine template's kind, when the run knows it (`graph.infrastructures`). */
  readonly infrastructure?: K0smotronInfrastructure;
  /** The pool's machines run Windows. */
  readonly windows: boolean;
  /** What says so, for messages (`osDisk.osType "Windows" in AzureMachineTemplate x`), when `windows`. */
  readonly windowsEvidence?: string;
  readonly replicas: number;
}

export function pools(graph: ManifestGraph): Pool[] {
  return graph.ofKind('MachineDeployment').filter((m) => isCapi(m, CAPI)).map((md) => {
    const spec = md.manifest.spec ?? {};
    const template = spec.template?.spec ?? {};
    const bootstrap: Bootstrap | undefined = BOOTSTRAP_KINDS[template.bootstrap?.configRef?.kind];
    const config = bootstrap ? graph.resolve(md, template.bootstrap.configRef) : undefined;
    const infrastructure = graph.infrastructures.ofTemplate(template.infrastructureRef?.kind);
    // k0s pools keep their own test (a patched provisioner is reported as such by windows-pool);
    // any other pool is Windows when anything it writes says so.
    const windowsEvidence = bootstrap === 'k0s' ? (isWindowsConfig(config) ? `${describe(config!)} bootstraps Windows` : undefined)
      : windowsSign(md, graph.resolve(md, template.bootstrap?.configRef), graph.resolve(md, template.infrastructureRef));
    return {
      md,
      cluster: graph.cluster(md, spec.clusterName),
      bootstrap,
      config,
      machine: infrastructure ? graph.resolve(md, template.infrastructureRef) : undefined,
      infrastructure,
      windows: windowsEvidence !== undefined,
      windowsEvidence,
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

/** `kubernetes.io/os=windows` in a comma-separated label list (kubelet's --node-labels, cluster-autoscaler's labels annotation). */
const WINDOWS_LABEL = new RegExp(`(^|,)\\s*${LABEL_OS.replace(/\./g, '\\.')}=windows\\s*(,|$)`);

/**
 * What in a pool of any bootstrap says its machines run Windows, or undefined: the machine
 * template's OS (CAPZ `osDisk.osType`, CAPV `os`), a named-pipe CRI socket (the only kind Windows
 * has: containerd listens on `npipe:////./pipe/containerd-containerd`), or `kubernetes.io/os:
 * windows` in the node labels, the autoscaler's labels or the selector.
 */
function windowsSign(md: ManifestSource, config: ManifestSource | undefined, machine: ManifestSource | undefined): string | undefined {
  const machineSpec = machine?.manifest.spec?.template?.spec ?? {};
  // cluster-api-provider-azure v1.26.0 api/v1beta1 OSDisk.OSType ("Windows"); cluster-api-provider-vsphere v1.16 VirtualMachineCloneSpec.OS.
  if (machineSpec.osDisk?.osType === 'Windows') return `osDisk.osType "Windows" in ${describe(machine!)}`;
  if (machineSpec.os === 'Windows') return `os "Windows" in ${describe(machine!)}`;
  const pipe = config ? findString(config.manifest.spec, (s) => /^npipe:/i.test(s)) : undefined;
  if (pipe) return `the named-pipe CRI socket ${JSON.stringify(pipe)} in ${describe(config!)}`;
  const labels = config ? findString(config.manifest.spec, (s) => WINDOWS_LABEL.test(s)) : undefined;
  if (labels) return `node labels "${labels}" in ${describe(config!)}`;
  const spec = md.manifest.spec ?? {};
  if (spec.template?.metadata?.labels?.[LABEL_OS] === 'windows' || spec.selector?.matchLabels?.[LABEL_OS] === 'windows') return `${LABEL_OS}: windows in its labels`;
  const capacity = md.manifest.metadata?.annotations?.[CAPI_AUTOSCALER_ANNOTATIONS.labels];
  if (typeof capacity === 'string' && WINDOWS_LABEL.test(capacity)) return `${LABEL_OS}=windows in its ${CAPI_AUTOSCALER_ANNOTATIONS.labels} annotation`;
  return undefined;
}

/** The first string anywhere in `value` (objects, lists) that passes `test`. */
function findString(value: Json, test: (s: string) => boolean): string | undefined {
  if (typeof value === 'string') return test(value) ? value : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    const found = findString(v, test);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The machine template kinds whose pools the rules judge, by bootstrap: a k0s pool on a declared
 * k0smotron infrastructure (`K0smotronInfrastructure`); a kubeadm pool on CAPZ's (src/rules/capz).
 */
const JUDGED_MACHINES: Readonly<Record<Bootstrap, (pool: Pool) => boolean>> = {
  k0s: (pool) => pool.infrastructure !== undefined,
  kubeadm: (pool) => pool.md.manifest.spec?.template?.spec?.infrastructureRef?.kind === CAPZ_KINDS.machineTemplate,
};

/** Whether rules judge a pool's bootstrap and machines, beyond the MachineDeployment's own fields. */
export function judged(pool: Pool): boolean {
  return pool.bootstrap !== undefined && JUDGED_MACHINES[pool.bootstrap](pool);
}

/** The names of the Clusters in `from`'s namespace, for a message about a name that matches none (a patched name shows here). */
export function clustersThere(graph: ManifestGraph, from: ManifestSource): string {
  const names = graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI) && (c.manifest.metadata?.namespace ?? '') === (from.manifest.metadata?.namespace ?? '')).map((c) => `"${c.manifest.metadata?.name}"`);
  return names.length > 0 ? ` (there: ${names.join(', ')})` : '';
}
