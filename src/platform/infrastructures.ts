import { WindowsPlatform } from './support';

/**
 * What the rules need to know of a k0smotron infrastructure (where a cluster's machines come
 * from), stated as data by the infrastructure itself, so that no rule tells infrastructures
 * apart by hand and a new one needs no edited rule: its constructs pass it with the objects they
 * build, and `validateManifests` / `validate --infrastructures` take it for YAML from elsewhere.
 */
export interface K0smotronInfrastructure {
  /** A short name for messages, e.g. `AWS` or `remote hosts`. */
  readonly name: string;
  /** The platform of the Windows support matrix (`WINDOWS_SUPPORT`) its Windows pools run on. */
  readonly platform: WindowsPlatform;
  /** The infrastructure cluster's kind, which the Cluster's `infrastructureRef` names (`AWSCluster`). */
  readonly clusterKind: string;
  /** The machine template's kind, which MachineDeployments and the K0sControlPlane name (`AWSMachineTemplate`). */
  readonly machineTemplateKind: string;
  /**
   * The k0smotron provisioner type its Windows workers need (`K0sWorkerConfigTemplate`
   * `provisioner.type`): how their bootstrap data reaches the machine.
   */
  readonly windowsProvisioner: 'powershell-xml' | 'powershell' | 'cloud-config';
  /** Why Windows workers need that provisioner there, for messages. */
  readonly windowsProvisionerReason: string;
  /**
   * Who opens the kubelet's port (10250) in a Windows host's firewall, which drops inbound ports
   * nothing opened: the bootstrap (the worker config's `preK0sCommands`), or the host's own
   * preparation before it joins (then no object shows it).
   */
  readonly kubeletPortOpenedBy: 'bootstrap' | 'host';
  /**
   * Where machines are placed: in the failure domains (zones) the provider creates machines in,
   * or on listed hosts, one machine each (the kind of the objects that list them).
   */
  readonly placement: { readonly by: 'zones' } | { readonly by: 'hosts'; readonly hostKind: string };
  /**
   * Whether its machine template reports `status.capacity` (cpu, memory), which cluster-autoscaler
   * falls back on for a node group at zero without capacity annotations
   * (kubernetes/autoscaler cluster-autoscaler-1.36.1 clusterapi_unstructured.go, InstanceCapacity).
   * @default false
   */
  readonly templateReportsCapacity?: boolean;
}

/**
 * EC2 through Cluster API Provider AWS: k0smotron hands Windows bootstrap data over as
 * PowerShell in EC2 user data (`powershell-xml`, k0smotron v2.1.0
 * internal/controller/bootstrap/worker_bootstrap_controller.go), and the pool's preK0sCommands
 * open the kubelet port (`WINDOWS_KUBELET_FIREWALL_RULE`).
 */
export const AWS_INFRASTRUCTURE: K0smotronInfrastructure = {
  name: 'AWS',
  platform: WindowsPlatform.K0SMOTRON_AWS,
  clusterKind: 'AWSCluster',
  machineTemplateKind: 'AWSMachineTemplate',
  windowsProvisioner: 'powershell-xml',
  windowsProvisionerReason: 'EC2 runs Windows user data only as PowerShell inside <powershell> tags, and only k0smotron\'s powershell-xml writes them',
  kubeletPortOpenedBy: 'bootstrap',
  placement: { by: 'zones' },
  // cluster-api-provider-aws v2.11.1 controllers/awsmachinetemplate_controller.go (Reconcile) queries the instance type.
  templateReportsCapacity: true,
};

/**
 * Hosts reached over SSH through k0smotron's RemoteMachine provider: its controller parses the
 * bootstrap data as cloud-config whatever the OS (k0smotron v2.1.0
 * internal/controller/infrastructure/remote_machine_controller.go, Reconcile), and the host
 * preparation script opens the kubelet port (`RemoteWindowsWorkerPool.hostPreparationScript`).
 */
export const REMOTE_INFRASTRUCTURE: K0smotronInfrastructure = {
  name: 'remote hosts',
  platform: WindowsPlatform.K0SMOTRON_REMOTE,
  clusterKind: 'RemoteCluster',
  machineTemplateKind: 'RemoteMachineTemplate',
  windowsProvisioner: 'cloud-config',
  windowsProvisionerReason: 'k0smotron\'s RemoteMachine controller reads the bootstrap data as cloud-config YAML (write_files, runcmd) whatever the OS, and fails on any other format; k0smotron still writes the Windows install script into it',
  kubeletPortOpenedBy: 'host',
  placement: { by: 'hosts', hostKind: 'PooledRemoteMachine' },
};

/** The infrastructures this library builds on, which every run of the rules knows unless told otherwise. */
export const BUILT_IN_INFRASTRUCTURES: readonly K0smotronInfrastructure[] = Object.freeze([AWS_INFRASTRUCTURE, REMOTE_INFRASTRUCTURE]);

const DECLARATION_KEYS = ['name', 'platform', 'clusterKind', 'machineTemplateKind', 'windowsProvisioner', 'windowsProvisionerReason', 'kubeletPortOpenedBy', 'placement', 'templateReportsCapacity'];

/**
 * Why a value read from a file (a config, the plugin's properties, a module) is not a
 * `K0smotronInfrastructure`, naming the first field at fault; undefined when it is one.
 */
export function infrastructureProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `is ${JSON.stringify(value)}, not a declaration { name, platform, clusterKind, machineTemplateKind, ... }`;
  const d = value as Record<string, unknown>;
  const unknown = Object.keys(d).filter((k) => !DECLARATION_KEYS.includes(k));
  if (unknown.length > 0) return `has no field ${unknown.join(', ')} (the fields are ${DECLARATION_KEYS.join(', ')})`;
  for (const key of ['name', 'clusterKind', 'machineTemplateKind', 'windowsProvisionerReason'] as const) {
    if (typeof d[key] !== 'string' || d[key] === '') return `${key} is ${JSON.stringify(d[key])}, not a string`;
  }
  const oneOf = (key: string, values: readonly unknown[]) => (values.includes(d[key]) ? undefined : `${key} is ${JSON.stringify(d[key])}, not one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
  const placement = d.placement as Record<string, unknown> | undefined;
  return oneOf('platform', Object.values(WindowsPlatform))
    ?? oneOf('windowsProvisioner', ['powershell-xml', 'powershell', 'cloud-config'])
    ?? oneOf('kubeletPortOpenedBy', ['bootstrap', 'host'])
    ?? (placement?.by === 'zones' || (placement?.by === 'hosts' && typeof placement.hostKind === 'string' && placement.hostKind !== '')
      ? undefined : `placement is ${JSON.stringify(placement)}, not { by: "zones" } or { by: "hosts", hostKind }`)
    ?? (d.templateReportsCapacity === undefined || typeof d.templateReportsCapacity === 'boolean' ? undefined : `templateReportsCapacity is ${JSON.stringify(d.templateReportsCapacity)}, not true or false`);
}
