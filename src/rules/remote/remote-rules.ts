import { controlPlaneRolloutProblem, resolveRollout } from '../../platform/rollout';
import { REMOTE_MACHINE_DEFAULTS, unusableAddressProblem } from '../../platform/remote';
import { capiDefaultReplicas } from '../../platform/cluster-autoscaler';
import { REMOTE_INFRASTRUCTURE } from '../../platform/infrastructures';
import { describe, groupOf, Json, list, ManifestGraph, ManifestSource, namespaceOf, violation } from '../engine/graph';
import { Finding, registry, Rule, rule } from '../engine/rule';

/**
 * Rules for k0smotron's RemoteMachine provider (SSH to fixed hosts), over the final objects:
 * a machine takes one of the PooledRemoteMachines of its template's pool and keeps it until it is
 * deleted, so every count is a count of hosts. Read from k0smotron v2.1.0
 * internal/controller/infrastructure (remote_machine_controller.go, ssh_provisioner.go,
 * job_provisioner.go) and internal/controller/bootstrap/worker_bootstrap_controller.go.
 */

const CAPI = 'cluster.x-k8s.io';
const INFRA = 'infrastructure.cluster.x-k8s.io';
const TEMPLATE = REMOTE_INFRASTRUCTURE.machineTemplateKind;
const HOST = REMOTE_INFRASTRUCTURE.placement.by === 'hosts' ? REMOTE_INFRASTRUCTURE.placement.hostKind : '';

/** Something that makes machines from a RemoteMachineTemplate: a MachineDeployment or a K0sControlPlane. */
interface RemoteOwner {
  readonly owner: ManifestSource;
  readonly template: ManifestSource;
  readonly pool: string;
  readonly hosts: ManifestSource[];
  readonly replicas: number;
}

/** The PooledRemoteMachines of `pool` in `from`'s namespace, as k0smotron lists them (reservePooledMachineAndPopulateRemoteMachine). */
function hostsOf(graph: ManifestGraph, from: ManifestSource, pool: string): ManifestSource[] {
  return graph.ofKind(HOST).filter((p) => groupOf(p.manifest.apiVersion) === INFRA
    && namespaceOf(p.manifest) === namespaceOf(from.manifest) && p.manifest.spec?.pool === pool);
}

function owners(graph: ManifestGraph): RemoteOwner[] {
  const out: RemoteOwner[] = [];
  const add = (owner: ManifestSource, ref: Json, replicas: number) => {
    if (ref?.kind !== TEMPLATE) return;
    const template = graph.resolve(owner, ref);
    const pool = template?.manifest.spec?.template?.spec?.pool;
    if (template && typeof pool === 'string') out.push({ owner, template, pool, hosts: hostsOf(graph, template, pool), replicas });
  };
  // CAPI defaults an unset replicas to the autoscaler's min size when both bounds are set, else 1
  // (k0smotron's control plane to 1); the autoscaler's max is judged below.
  for (const md of graph.ofKind('MachineDeployment').filter((m) => groupOf(m.manifest.apiVersion) === CAPI)) {
    add(md, md.manifest.spec?.template?.spec?.infrastructureRef, capiDefaultReplicas(md.manifest) as number);
  }
  for (const kcp of graph.ofKind('K0sControlPlane')) {
    add(kcp, kcp.manifest.spec?.machineTemplate?.infrastructureRef, kcp.manifest.spec?.replicas ?? 1);
  }
  return out;
}

/** The cluster autoscaler's largest size for a MachineDeployment (its clusterapi provider). */
const AUTOSCALER_MAX_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';

/** Pools of fixed hosts: enough hosts for the machines and for every rollout, each host and pool used once. */
const remotePools = rule<ManifestGraph>({
  name: 'remote-pools',
  scope: 'graph',
  description: 'Remote pools list a host for every machine and every rollout, and each host and pool name is used once',
  source: 'k0smotron v2.1.0 internal/controller/infrastructure/remote_machine_controller.go (reservePooledMachineAndPopulateRemoteMachine)',
  check: (graph) => {
    const out: Finding[] = [];
    const all = owners(graph);
    for (const o of all) {
      const v = (what: string, fix: string, field?: string) => out.push(violation(o.owner, what, fix, field));
      const hosts = o.hosts.length;
      if (typeof o.replicas === 'number' && o.replicas > hosts) {
        v(`${o.replicas} replicas but pool "${o.pool}" lists ${hosts} host${hosts === 1 ? '' : 's'} (PooledRemoteMachines): ${o.replicas - hosts} machine${o.replicas - hosts === 1 ? '' : 's'} would wait forever for a free host`,
          'list a host for every replica, or lower replicas', 'spec.replicas');
        continue;
      }
      if (o.owner.manifest.kind === 'MachineDeployment') {
        // The cluster autoscaler scales up to this (kubernetes/autoscaler cluster-autoscaler
        // cloudprovider/clusterapi/clusterapi_utils.go, nodeGroupMaxSizeAnnotationKey). A machine
        // above the hosts waits for one, and if it is scaled away again before it reserved one,
        // its RemoteMachine never finishes deleting (remote_machine_controller.go reads the SSH key
        // Secret of the host it never got before it reaches its deletion branch).
        const maxSize = Number(o.owner.manifest.metadata?.annotations?.[AUTOSCALER_MAX_SIZE]);
        if (Number.isInteger(maxSize) && maxSize > hosts) {
          v(`the cluster autoscaler may scale pool "${o.pool}" to ${maxSize} machines (${AUTOSCALER_MAX_SIZE}), and it has ${hosts} host${hosts === 1 ? '' : 's'}: the machines above them wait for a host, and one deleted before it got a host never finishes deleting`,
            `lower the max-size annotation to ${hosts}, or list more hosts`, `metadata.annotations.${AUTOSCALER_MAX_SIZE}`);
        }
        const strategy = o.owner.manifest.spec?.rollout?.strategy ?? {};
        if (strategy.type === 'OnDelete') continue;
        const rolling = strategy.rollingUpdate ?? {};
        let resolved;
        try {
          resolved = resolveRollout(o.replicas, rolling.maxSurge, rolling.maxUnavailable);
        } catch {
          continue; // the CRD's own schema refuses a malformed value
        }
        // CAPI adds at most maxSurge machines, and never more new ones than replicas
        // (mdutil.NewMSNewReplicas), so a rollout holds replicas + min(maxSurge, replicas) machines.
        const extra = Math.min(resolved.maxSurge, o.replicas);
        if (o.replicas + extra > hosts) {
          v(`a rollout adds up to ${extra} machine${extra === 1 ? '' : 's'} (maxSurge${rolling.maxSurge === undefined ? ', CAPI\'s default 1' : ''}) to ${o.replicas}, and pool "${o.pool}" has ${hosts} host${hosts === 1 ? '' : 's'}: the extra machine waits for a host that does not exist${resolved.maxUnavailable === 0 && hosts <= o.replicas ? ', and with maxUnavailable 0 and no spare host no old machine is ever deleted to free one' : ''}`,
            'set rollout.strategy.rollingUpdate to maxSurge 0 and maxUnavailable 1, or list a spare host', 'spec.rollout.strategy.rollingUpdate');
        }
      } else if (typeof o.replicas === 'number') {
        // The CRD's default strategy is InPlace.
        const p = controlPlaneRolloutProblem(o.owner.manifest.spec?.updateStrategy ?? 'InPlace', o.replicas, hosts);
        if (p) v(`${p.what} (pool "${o.pool}")`, p.fix, 'spec.updateStrategy');
      }
    }
    // k0smotron matches a template's pool by name across the namespace: two owners would take each other's hosts.
    const byPool = new Map<string, RemoteOwner[]>();
    for (const o of all) {
      const key = `${namespaceOf(o.template.manifest)}|${o.pool}`;
      const same = byPool.get(key) ?? [];
      if (!same.some((s) => s.owner === o.owner)) byPool.set(key, [...same, o]);
    }
    for (const same of [...byPool.values()].filter((l) => l.length > 1)) {
      for (const o of same.slice(1)) {
        out.push(violation(o.template, `pool "${o.pool}" is also the pool of ${describe(same[0].owner)}; k0smotron hands its hosts to machines of both, across clusters`,
          'give each pool its own name (the constructs name it <cluster>-<pool>)', 'spec.template.spec.pool', 'give spec.template.spec.pool a name no other RemoteMachineTemplate uses, and the PooledRemoteMachines of the pool the same name in spec.pool'));
      }
    }
    const byHost = new Map<string, ManifestSource[]>();
    for (const p of graph.ofKind(HOST).filter((s) => groupOf(s.manifest.apiVersion) === INFRA)) {
      const m = p.manifest.spec?.machine ?? {};
      const key = `${String(m.address).toLowerCase()}:${m.port ?? REMOTE_MACHINE_DEFAULTS.port}`;
      byHost.set(key, [...(byHost.get(key) ?? []), p]);
    }
    for (const [host, same] of [...byHost].filter(([, l]) => l.length > 1)) {
      for (const p of same.slice(1)) {
        out.push(violation(p, `host ${host} is also ${describe(same[0])} (pool "${same[0].manifest.spec?.pool}"), so two machines could install k0s on it`,
          'list each host in one pool only', 'spec.machine.address'));
      }
    }
    return out;
  },
});

/** The controllers' endpoint: set, and not one controller's own address when there are several. */
const remoteEndpoint = rule<ManifestGraph>({
  name: 'remote-endpoint',
  scope: 'object',
  description: 'A cluster on remote controllers has a controlPlaneEndpoint, and not one controller\'s address when there are several',
  source: 'k0smotron v2.1.0 internal/controller/bootstrap/controlplane_bootstrap_controller.go',
  check: (graph) => graph.ofKind('Cluster').filter((c) => groupOf(c.manifest.apiVersion) === CAPI && c.manifest.spec?.infrastructureRef?.kind === REMOTE_INFRASTRUCTURE.clusterKind).flatMap((cluster) => {
    const spec = cluster.manifest.spec ?? {};
    const out: Finding[] = [];
    const kcp = spec.controlPlaneRef?.kind === 'K0sControlPlane' ? graph.resolve(cluster, spec.controlPlaneRef) : undefined;
    const cp = kcp ? owners(graph).find((o) => o.owner === kcp) : undefined;
    if (!cp) return out;
    const host = spec.controlPlaneEndpoint?.host;
    if (!host) {
      out.push(violation(cluster, 'no spec.controlPlaneEndpoint, and the controllers run on remote machines: k0smotron writes no controller bootstrap data without it (controlplane_bootstrap_controller.go)',
        'set controlPlaneEndpoint to a load balancer or virtual IP in front of the controllers', 'spec.controlPlaneEndpoint'));
    } else if (cp.hosts.length > 1 && cp.hosts.some((h) => String(h.manifest.spec?.machine?.address).toLowerCase() === String(host).toLowerCase())) {
      out.push(violation(cluster, `controlPlaneEndpoint ${host} is the address of one of the ${cp.hosts.length} controller hosts: every node and client reaches the API through that one host (k0s api.externalAddress), and the cluster is down whenever it is`,
        'put a load balancer or virtual IP in front of the controllers (6443, 8132, 9443) and use its address', 'spec.controlPlaneEndpoint.host'));
    }
    return out;
  }),
});

/**
 * Hosts and endpoints no machine can use: an address with its own port, a loopback or unspecified
 * address (`unusableAddressProblem`), and an empty login user, with which rig's SSH client logs
 * in as nobody: the CRD defaults an absent user to root (k0smotron v2.1.0
 * api/infrastructure/v1beta2/remote_machine_types.go, `+kubebuilder:default="root"`), and an
 * empty string is a value, kept as written.
 */
const remoteHosts = rule<ManifestGraph>({
  name: 'remote-hosts',
  scope: 'object',
  description: 'Remote hosts and control plane endpoints are addresses a machine can reach, without a port of their own, with a login user',
  source: 'k0sproject/rig v0.21.11 ssh.go (net.JoinHostPort); k0smotron v2.1.0 api/infrastructure/v1beta2/remote_machine_types.go (PooledMachineSpec.User)',
  check: (graph) => {
    const out: Finding[] = [];
    for (const host of [...graph.ofKind(HOST), ...graph.ofKind('RemoteMachine')].filter((s) => groupOf(s.manifest.apiVersion) === INFRA)) {
      const machine = host.manifest.kind === HOST ? host.manifest.spec?.machine ?? {} : host.manifest.spec ?? {};
      const prefix = host.manifest.kind === HOST ? 'spec.machine' : 'spec';
      const p = typeof machine.address === 'string' && machine.address !== '' ? unusableAddressProblem(machine.address) : undefined;
      if (p) out.push(violation(host, `host ${p}`, 'give the host\'s own IP address or DNS name, and its SSH port in port', `${prefix}.address`));
      if (machine.user === '' || (typeof machine.user === 'string' && machine.user.trim() === '')) {
        out.push(violation(host, `the login user of ${machine.address} is empty, so SSH logs in as nobody`, 'give the user (Administrator on Windows hosts), or leave it out for root', `${prefix}.user`));
      }
    }
    for (const cluster of graph.ofKind(REMOTE_INFRASTRUCTURE.clusterKind).filter((s) => groupOf(s.manifest.apiVersion) === INFRA)) {
      const endpoint = cluster.manifest.spec?.controlPlaneEndpoint?.host;
      const p = typeof endpoint === 'string' && endpoint !== '' ? unusableAddressProblem(endpoint) : undefined;
      if (p) out.push(violation(cluster, `controlPlaneEndpoint ${p}, and every node and client reaches the API there (k0s api.externalAddress)`, 'use the address of a load balancer or virtual IP the nodes reach, and its port in port', 'spec.controlPlaneEndpoint.host'));
    }
    return out;
  },
});

/** A Windows pool on remote machines: what k0smotron's SSH path and Windows script can run. */
const remoteWindows = rule<ManifestGraph>({
  name: 'remote-windows',
  scope: 'object',
  description: 'A remote Windows pool: no customUserDataRef, downloadURL or provisionJob, hosts with an Administrators account, no shell scripts, PowerShell cleanup',
  source: 'k0smotron v2.1.0 internal/controller/infrastructure/ssh_provisioner.go, job_provisioner.go; k0sproject/rig v0.21.11 connection.go',
  check: (graph) => owners(graph).filter((o) => o.owner.manifest.kind === 'MachineDeployment').flatMap((o) => {
    const ref = o.owner.manifest.spec?.template?.spec?.bootstrap?.configRef;
    const config = ref?.kind === 'K0sWorkerConfigTemplate' ? graph.resolve(o.owner, ref) : undefined;
    const bootstrap = config?.manifest.spec?.template?.spec ?? {};
    if (!config || bootstrap.provisioner?.platform !== 'windows') return [];
    const out: Finding[] = [];
    const v = (source: ManifestSource, what: string, fix: string, field?: string, yamlFix?: string) => out.push(violation(source, what, fix, field, yamlFix));
    if (bootstrap.provisioner?.customUserDataRef !== undefined) {
      v(config, 'provisioner.customUserDataRef on a remote Windows pool: its cloud-config is appended to k0smotron\'s, and the RemoteMachine controller parses one YAML document, which then either repeats write_files/runcmd and fails or drops the rest unread',
        'put the commands in preK0sCommands/postK0sCommands (PowerShell, run inside the install script)', 'spec.template.spec.provisioner.customUserDataRef');
    }
    if (o.template.manifest.spec?.template?.spec?.provisionJob !== undefined) {
      v(o.template, 'provisionJob on a Windows pool: k0smotron\'s Job provisioner chmods each file over ssh, copies into C:\\bootstrap without creating it, and quotes the install command in double quotes that contain double quotes (job_provisioner.go), none of which works on Windows, and it never cleans a host up',
        'remove provisionJob: k0smotron then connects over SSH itself', 'spec.template.spec.provisionJob');
    }
    for (const host of o.hosts) {
      const machine = host.manifest.spec?.machine ?? {};
      const user = machine.user ?? REMOTE_MACHINE_DEFAULTS.user;
      if (user === 'root') {
        v(host, `user ${machine.user === undefined ? 'unset (the CRD default "root")' : '"root"'} on a Windows host, which has no root account; k0smotron needs an account of the Administrators group, whose SSH sessions hold an elevated token (rig v0.21.11 connection.go, discoverSudo)`,
          'set the user to Administrator or another member of Administrators', 'spec.machine.user');
      }
      if (machine.commandsAsScript === true) {
        v(host, 'commandsAsScript on a Windows host: k0smotron then writes the commands into a "#!/bin/sh" script under workingDir and runs it (ssh_provisioner.go, Provision)',
          'set commandsAsScript to false', 'spec.machine.commandsAsScript');
      }
      if (list(machine.cleanUpCommands).length === 0) {
        v(host, 'no cleanUpCommands on a Windows host: k0smotron\'s own cleanup is Linux shell (systemctl, k0s reset: ssh_provisioner.go, Cleanup), so a deleted machine leaves the k0sworker service and the bootstrap sentinel behind and the host cannot join again',
          'give PowerShell cleanUpCommands (RemoteWindowsWorkerPool writes them for the pool\'s k0s version)', 'spec.machine.cleanUpCommands',
          'list PowerShell commands under spec.machine.cleanUpCommands that stop and remove the k0sworker service and delete the bootstrap sentinel (docs/remote.md, "PowerShell cleanUpCommands")');
      }
    }
    return out;
  }),
});

/** Windows pools with a hosted control plane reached through an ingress: the Windows script has no ingress support. */
const hostedIngress = rule<ManifestGraph>({
  name: 'windows-hosted-ingress',
  scope: 'graph',
  description: 'A hosted control plane reached through an ingress has no Windows pools (the Windows install script has no ingress support)',
  source: 'k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go (getWindowsCommands)',
  check: (graph) => graph.ofKind('K0smotronControlPlane').filter((k) => k.manifest.spec?.ingress !== undefined).flatMap((kcp) => {
    const clusters = graph.ofKind('Cluster').filter((c) => c.manifest.spec?.controlPlaneRef?.kind === 'K0smotronControlPlane' && graph.resolve(c, c.manifest.spec.controlPlaneRef) === kcp);
    const windows = graph.ofKind('MachineDeployment').filter((md) => clusters.some((c) => graph.cluster(md, md.manifest.spec?.clusterName) === c)).filter((md) => {
      const ref = md.manifest.spec?.template?.spec?.bootstrap?.configRef;
      return graph.resolve(md, ref)?.manifest.spec?.template?.spec?.provisioner?.platform === 'windows';
    });
    return windows.length === 0 ? [] : [violation(kcp,
      `spec.ingress with Windows pools (${windows.map((m) => m.manifest.metadata?.name).join(', ')}): k0smotron's Windows install script has no ingress support (getWindowsCommands, "TODO: implement ingress support for Windows")`,
      'remove spec.ingress (expose the hosted control plane through its Service), or run only Linux pools', 'spec.ingress')];
  }),
});

/** The rules of remote (SSH) clusters and pools; part of `CLUSTER_RULES`. */
export const REMOTE_RULES: readonly Rule<ManifestGraph>[] = registry([remotePools, remoteEndpoint, remoteHosts, remoteWindows, hostedIngress]);
