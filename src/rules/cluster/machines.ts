import { K0sVersion } from '../../platform/k0s-version';
import { MAX_MACHINE_DEPLOYMENT_NAME } from '../../platform/names';
import { KubernetesVersion, kubernetesVersion, MAX_KUBELET_MINOR_SKEW, MIN_NODE_CONDITION_TIMEOUT_SECONDS } from '../../platform/kubernetes';
import { nodeLabelProblem } from '../../platform/labels';
import { integerProblem } from '../../core/numbers';
import { describe, isCapi, list, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { machineProblems } from './aws-machines';
import { CAPI, clustersThere, controlPlaneOf, matches, Pool, pools } from './pools';

/**
 * The rules over a cluster's machines: each MachineDeployment and its templates, the version skew
 * against the control plane, machine names, and the MachineHealthChecks.
 */

/** Each MachineDeployment: its references, selector, replicas, version and node labels. */
export const machineDeployments = rule<ManifestGraph>({
  name: 'machine-deployment',
  scope: 'object',
  description: 'Each MachineDeployment: its cluster and templates resolve, its selector matches, whole replicas, a k0s version, valid node labels, a bootable machine template',
  source: 'cluster-api v1.14 core/webhooks/admission/machinedeployment.go (IsValidLabelValue of the name); kubernetes kubelet --node-labels validation',
  check: (graph) => pools(graph).flatMap((pool) => {
    const { md } = pool;
    const out: Finding[] = [];
    const spec = md.manifest.spec ?? {};
    const template = spec.template?.spec ?? {};
    const v = (what: string, fix: string, field?: string) => out.push(violation(md, what, fix, field));
    if (!pool.cluster) v(`spec.clusterName "${spec.clusterName}" names no Cluster among the objects${clustersThere(graph, md)}`, 'use the name of the Cluster this pool belongs to', 'spec.clusterName');
    // CAPI's webhook takes only a name that is a label value (MAX_MACHINE_DEPLOYMENT_NAME: 63); the
    // MachineSet and Machine names made from it are cut to fit, so no shorter limit follows. Its
    // characters are the API server's (a DNS-1123 subdomain, dots included: object-meta), which a
    // label value of at most 63 characters then always is.
    const name = md.manifest.metadata?.name;
    if (typeof name === 'string' && name.length > MAX_MACHINE_DEPLOYMENT_NAME) {
      v(`MachineDeployment name "${name}" is ${name.length} characters long; the limit is ${MAX_MACHINE_DEPLOYMENT_NAME} (a label value)`, `shorten it to at most ${MAX_MACHINE_DEPLOYMENT_NAME} characters`, 'metadata.name');
    }
    // CAPI's defaulting webhook (cluster-api v1.14 core/webhooks/admission/machinedeployment.go,
    // Default) gives an empty selector and the template the deployment-name label, and adds the
    // cluster-name label to both: an empty selector always matches, a written one must.
    const selector = spec.selector ?? {};
    const defaulted = Object.keys(selector.matchLabels ?? {}).length === 0 && list(selector.matchExpressions).length === 0;
    if (!defaulted && !matches(selector, { ...spec.template?.metadata?.labels, [CLUSTER_NAME_LABEL]: spec.clusterName })) {
      v(`spec.selector ${JSON.stringify(spec.selector?.matchLabels ?? {})} does not match the machine template's labels ${JSON.stringify(spec.template?.metadata?.labels ?? {})}, so the MachineDeployment would not own its machines`, 'keep the selector and spec.template.metadata.labels in step', 'spec.selector');
    }
    const replicasProblem = integerProblem(pool.replicas, 0);
    if (replicasProblem) v(`replicas ${replicasProblem}`, 'set `replicas` to a whole number, 0 or more', 'spec.replicas');
    const configRef = template.bootstrap?.configRef;
    if (pool.bootstrap && !pool.config) v(`bootstrap.configRef names ${configRef.kind} "${configRef.name}", which is not among the objects`, 'name the template that is written', 'spec.template.spec.bootstrap.configRef');
    const infraRef = template.infrastructureRef;
    if (pool.infrastructure && !pool.machine) v(`infrastructureRef names ${infraRef.kind} "${infraRef.name}", which is not among the objects`, 'name the template that is written', 'spec.template.spec.infrastructureRef');
    if (pool.machine) out.push(...machineProblems(pool.infrastructure, pool.machine, pool.windows));

    const version = template.version;
    // k0smotron installs the k0s release the version names; CAPI's webhook takes any SemVer after
    // prepending a missing "v" (cluster-api v1.14 core/webhooks/admission/machinedeployment.go).
    if (pool.bootstrap === 'k0s') {
      const versionProblem = version === undefined ? undefined : K0sVersion.problem(version);
      if (versionProblem) v(versionProblem, K0sVersion.FIX, 'spec.template.spec.version');
    } else if (version !== undefined && !kubernetesVersion(version)) {
      v(`version ${JSON.stringify(version)} is not a semantic version, and CAPI's webhook refuses it`, 'write it like "v1.34.4"', 'spec.template.spec.version');
    }
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
          if (p) out.push(violation(pool.config, p, 'use a key like example.com/role and a value of letters, digits, "-", "_" or "."', 'spec.template.spec.args'));
        }
      }
    }
    return out;
  }),
});

/** Pools against their control plane: the version skew CAPI's MachineSet preflight checks enforce. */
export const versionSkew = rule<ManifestGraph>({
  name: 'version-skew',
  scope: 'object',
  description: 'A pool\'s Kubernetes minor (whatever the distribution\'s version form) is not newer than the control plane\'s nor more than three older',
  source: 'cluster-api v1.14 core/reconcilers/machineset/machineset_preflight.go (kubernetesVersionPreflightCheck)',
  check: (graph) => pools(graph).flatMap((pool) => {
    const kcp = controlPlaneOf(graph, pool.cluster);
    const cp = kubernetesVersion(kcp?.manifest.spec?.version);
    const worker = kubernetesVersion(pool.md.manifest.spec?.template?.spec?.version);
    if (!cp || !worker) return [];
    // k0s names its releases after the Kubernetes release they carry (vX.Y.Z+k0s.N): the minor is Kubernetes's.
    const said = (v: KubernetesVersion) => `${/\+k0s\./.test(v.text) ? 'k0s' : 'Kubernetes'} ${v.text}`;
    // CAPI v1.14 core/reconcilers/machineset/machineset_preflight.go kubernetesVersionPreflightCheck:
    // a MachineSet minor above the control plane's, or more than 3 below it, holds every new Machine.
    if (worker.minor > cp.minor) {
      return [violation(pool.md, `pool ${said(worker)} is newer than the control plane's ${cp.text}; CAPI's MachineSet preflight check (KubernetesVersionSkew) holds its machines forever, and a kubelet may not be newer than its API server`, `upgrade the control plane to ${worker.text} first, or give the pool Kubernetes 1.${cp.minor}`, 'spec.template.spec.version')];
    }
    if (worker.minor < cp.minor - MAX_KUBELET_MINOR_SKEW) {
      return [violation(pool.md, `pool ${said(worker)} is more than ${MAX_KUBELET_MINOR_SKEW} minors older than the control plane's ${cp.text}; CAPI's MachineSet preflight check (KubernetesVersionSkew) holds its machines forever`, `upgrade the pool to at least 1.${cp.minor - MAX_KUBELET_MINOR_SKEW}`, 'spec.template.spec.version')];
    }
    return [];
  }),
});

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
      // KubeadmControlPlane labels its machines control-plane: "" (cluster-api v1.14
      // controlplane/kubeadm/pkg/desiredstate/desired_state.go, ControlPlaneMachineLabels).
      labels: { ...kcp.manifest.spec?.machineTemplate?.metadata?.labels, [CLUSTER_NAME_LABEL]: clusterName, [CONTROL_PLANE_LABEL]: kcp.manifest.kind === 'KubeadmControlPlane' ? '' : 'true', 'cluster.x-k8s.io/control-plane-name': String(kcp.manifest.metadata?.name) },
      replicas: kcp.manifest.spec?.replicas ?? 1,
    });
  }
  return groups;
}

/** Each MachineHealthCheck selects machines of its cluster (a pool's or the control plane's), or it guards nothing. */
export const healthChecks = rule<ManifestGraph>({
  name: 'machine-health-check',
  scope: 'object',
  description: 'Each MachineHealthCheck selects machines of its cluster, with a remediation limit above zero and timeouts a kubelet restart survives',
  source: 'cluster-api v1.14 core/reconcilers/machinehealthcheck/machinehealthcheck_controller.go (getMaxUnhealthy), machinehealthcheck_targets.go',
  check: (graph) => {
    const all = pools(graph);
    // Each cluster's machine groups once, not once per MachineHealthCheck: a pool has one, so
    // building them per check grew with pools x pools (40 ms of the 100-pool large app).
    const groupsOf = new Map<ManifestSource, MachineGroup[]>();
    return graph.ofKind('MachineHealthCheck').filter((m) => isCapi(m, CAPI)).flatMap((mhc) => {
      const spec = mhc.manifest.spec ?? {};
      const cluster = graph.cluster(mhc, spec.clusterName);
      if (!cluster) return [violation(mhc, `spec.clusterName "${spec.clusterName}" names no Cluster among the objects${clustersThere(graph, mhc)}`, 'use the name of the Cluster it guards', 'spec.clusterName')];
      // CAPI's webhook (cluster-api v1.14 core/webhooks/admission/machinehealthcheck.go) refuses a
      // selector whose cluster-name label names another cluster.
      const named = spec.selector?.matchLabels?.[CLUSTER_NAME_LABEL];
      if (named !== undefined && named !== spec.clusterName) {
        return [violation(mhc, `spec.selector names cluster "${named}" and spec.clusterName "${spec.clusterName}": CAPI's webhook refuses a cluster selector other than clusterName`, `drop ${CLUSTER_NAME_LABEL} from the selector`, 'spec.selector')];
      }
      // The controller lists the Machines of the MHC's namespace that match the selector plus the
      // cluster-name label (core/reconcilers/machinehealthcheck/machinehealthcheck_targets.go,
      // getMachinesFromMHC): a pool's machines and the control plane's.
      if (!groupsOf.has(cluster)) groupsOf.set(cluster, machineGroups(graph, all, cluster));
      const selected = groupsOf.get(cluster)!.filter((g) => matches(spec.selector, g.labels));
      if (selected.length === 0) {
        const controlPlaneHint = spec.selector?.matchLabels?.[CONTROL_PLANE_LABEL] === ''
          ? `; k0smotron labels its control-plane machines ${CONTROL_PLANE_LABEL}: "true", not "" (k0smotron v2.1.0 internal/controller/controlplane/util.go, controlPlaneCommonLabelsForCluster)`
          : '';
        return [violation(mhc, `spec.selector ${JSON.stringify(spec.selector ?? {})} matches the machines of no MachineDeployment and not the control plane of cluster ${spec.clusterName}, so it never remediates anything${controlPlaneHint}`,
          `select the labels of the pool's machine template, or ${CONTROL_PLANE_LABEL}: "true" (or an Exists expression on it) for the control plane`, 'spec.selector')];
      }
      const out: Finding[] = [];
      const v = (what: string, fix: string, field: string) => out.push(violation(mhc, what, fix, field));
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
  },
});

/** Machines of two MachineDeployments named from one template would take each other's names. */
export const machineNaming = rule<ManifestGraph>({
  name: 'machine-naming',
  scope: 'graph',
  description: 'No two MachineDeployments name their machines from the same template',
  source: 'cluster-api v1.14 api/core/v1beta2 MachineNamingSpec',
  check: (graph) => {
    const byTemplate = new Map<string, ManifestSource[]>();
    for (const md of graph.ofKind('MachineDeployment').filter((m) => isCapi(m, CAPI))) {
      const template = md.manifest.spec?.machineNaming?.template;
      // A template with the MachineSet's name in it is unique per MachineDeployment by construction.
      if (typeof template !== 'string' || template.includes('.machineSet.name')) continue;
      const key = `${md.manifest.metadata?.namespace ?? ''}|${template}`;
      byTemplate.set(key, [...(byTemplate.get(key) ?? []), md]);
    }
    return [...byTemplate.values()].filter((l) => l.length > 1).flatMap((list) => list.slice(1).map((md) => violation(md,
      `MachineDeployments ${list.map((m) => m.manifest.metadata?.name).join(' and ')} name their machines from the same template "${md.manifest.spec.machineNaming.template}", so their machines' names can collide`,
      'give each pool its own `machineNaming.template`, or drop the patch that sets it (CAPI\'s default names carry the MachineDeployment\'s name)', 'spec.machineNaming.template',
      'give spec.machineNaming.template a value of its own in each MachineDeployment (e.g. with {{ .machineSet.name }}), or remove it: CAPI\'s default names carry the MachineDeployment\'s name')));
  },
});
