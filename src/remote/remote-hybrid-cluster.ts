import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { RemoteCluster } from '../generated/k0smotron-infrastructure.cluster.x-k8s.io';
import { K0S_PORTS } from '../platform/conventions';
import { ControlPlaneUpdateStrategy } from '../cluster/hybrid-cluster';
import { capiCluster, CLUSTER_PROPS_OF_FIELDS, k0sControlPlane } from '../cluster/control-plane';
import { KubernetesNetworkProps, networkWithDefaults } from '../cluster/kubernetes-network';
import { judgeOwnObjects, manifestProblems, markContentNamed, participate, PropsOfFields } from '../rules/engine/judge';
import { typedApiObject } from '../cluster/typed-api-object';
import { dnsLabelProblem, MAX_CLUSTER_NAME } from '../platform/dns';
import { fail, problem } from '../core/errors';
import { integerProblem } from '../platform/numbers';
import { REMOTE_MACHINE_DEFAULTS } from '../platform/remote';
import { RemoteAccessProps, RemoteMachines } from './remote-machines';

/** Where the Kubernetes API of a remote cluster is reached. */
export interface ControlPlaneEndpoint {
  /**
   * Address of a load balancer or virtual IP in front of every controller, forwarding 6443
   * (API), 8132 (konnectivity) and 9443 (k0s join API). k0smotron writes it into k0s's
   * `spec.api.externalAddress` (internal/controller/controlplane/k0s_controlplane_controller.go,
   * reconcileConfig). With one controller it may be that controller's own address.
   */
  readonly host: string;
  /**
   * API port.
   * @default 6443
   */
  readonly port?: number;
}

/** The k0s controllers, on listed Linux hosts. */
export interface RemoteControlPlaneProps extends RemoteAccessProps {
  /**
   * Number of controllers; odd, so that etcd keeps a quorum through one failure.
   * @default - the number of hosts
   */
  readonly replicas?: number;
  /**
   * SSH user.
   * @default 'root'
   */
  readonly user?: string;
  /**
   * Run commands through `sudo` (passwordless): for a user other than root.
   * @default false
   */
  readonly useSudo?: boolean;
  /**
   * Run a kubelet on the controllers too (`k0s controller --enable-worker`): they then count as
   * the Linux worker CoreDNS needs.
   * @default false
   */
  readonly enableWorker?: boolean;
  /**
   * With `enableWorker`, drop the taint k0s gives worker-enabled controllers (`--no-taints`).
   * @default false
   */
  readonly untaintedControllers?: boolean;
  /**
   * How k0smotron rolls out a new version. `RECREATE` adds a controller before removing one, so
   * it needs a spare host; `IN_PLACE` upgrades k0s on the same hosts (k0s autopilot).
   * @default - RECREATE when more hosts than replicas are listed, else IN_PLACE
   */
  readonly updateStrategy?: ControlPlaneUpdateStrategy;
}

/** Props of `RemoteHybridCluster`. */
export interface RemoteHybridClusterProps {
  /**
   * The cluster's name: of the Cluster object and the prefix of every other object (and of the
   * pools k0smotron matches hosts by). A DNS label of at most 40 characters.
   * @default - the construct id
   */
  readonly name?: string;
  /** k0s version of the control plane and, unless a pool says otherwise, the workers: `vX.Y.Z+k0s.N`. */
  readonly k0sVersion: string;
  /** Where the API is reached: Cluster API needs it before the first controller exists. */
  readonly controlPlaneEndpoint: ControlPlaneEndpoint;
  /** The controllers. */
  readonly controlPlane: RemoteControlPlaneProps;
  /**
   * The cluster's pod and service networks and CNI.
   * @default - Calico in VXLAN mode, pods 192.168.0.0/16, services 10.128.0.0/12
   */
  readonly network?: KubernetesNetworkProps;
  /**
   * Give each worker pool a MachineHealthCheck that replaces machines whose node stays unready.
   * @default true
   */
  readonly machineHealthChecks?: boolean;
}

/**
 * A Cluster API cluster on hosts that no cloud provider manages (vSphere or Hyper-V VMs, Proxmox,
 * bare metal, other clouds), through k0smotron's RemoteMachine provider: k0smotron logs in over
 * SSH and runs k0s's install there. The controllers run on listed Linux hosts; add
 * `RemoteLinuxWorkerPool`s and `RemoteWindowsWorkerPool`s as its children.
 */
export class RemoteHybridCluster extends Construct {
  /** The cluster's name. */
  public readonly clusterName: string;
  /** k0s version of the control plane, and the pools' default. */
  public readonly k0sVersion: string;
  /** Whether pools get a MachineHealthCheck unless they say otherwise. */
  public readonly machineHealthChecks: boolean;
  /** The Cluster object (`cluster.x-k8s.io`). */
  public readonly cluster: ApiObject;
  /** The RemoteCluster object (k0smotron): the endpoint, nothing to provision. */
  public readonly remoteCluster: ApiObject;
  /** The K0sControlPlane object (k0smotron). */
  public readonly controlPlane: ApiObject;
  /** The controllers' RemoteMachineTemplate, named after its content. */
  public readonly controlPlaneMachineTemplate: ApiObject;

  public constructor(scope: Construct, id: string, props: RemoteHybridClusterProps) {
    super(scope, id);
    this.clusterName = props.name ?? id;
    this.k0sVersion = props.k0sVersion;
    this.machineHealthChecks = props.machineHealthChecks ?? true;
    const cp = props.controlPlane ?? fail(this, 'no `controlPlane`', 'pass `controlPlane: { hosts: [...], sshKeySecret: \'...\' }`');
    const endpoint = props.controlPlaneEndpoint ?? fail(this, 'no `controlPlaneEndpoint`: k0smotron writes no controller bootstrap data without it (controlplane_bootstrap_controller.go)',
      'pass the address of a load balancer or virtual IP in front of the controllers, e.g. `controlPlaneEndpoint: { host: \'10.0.0.10\' }`');
    if (typeof endpoint.host !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9.:-]*$/.test(endpoint.host)) {
      fail(this, `controlPlaneEndpoint.host ${JSON.stringify(endpoint.host)} is not an IP address or DNS name`, 'write an address such as 10.0.0.10 or api.example.com');
    }
    const port = endpoint.port ?? K0S_PORTS.api;
    const portProblem = integerProblem(port, 1, 65535);
    if (portProblem) fail(this, `controlPlaneEndpoint.port ${portProblem}`, 'use a port from 1 to 65535 (6443 is the default)');
    if (cp.untaintedControllers && !cp.enableWorker) {
      fail(this, 'controlPlane.untaintedControllers without enableWorker: controllers that run no kubelet have no taint to drop', 'set controlPlane.enableWorker too, or remove untaintedControllers');
    }
    const machines = new RemoteMachines(`${this.node.path}/ControlPlane`, cp, { user: cp.user ?? REMOTE_MACHINE_DEFAULTS.user, useSudo: cp.useSudo });
    const replicas = cp.replicas ?? machines.hosts.length;

    const network = networkWithDefaults(props.network);

    this.controlPlaneMachineTemplate = machines.machineTemplate(this, `${this.clusterName}-control-plane`);
    markContentNamed(this.controlPlaneMachineTemplate);
    const spare = machines.hosts.length > replicas;
    this.controlPlane = k0sControlPlane(this, this.clusterName, {
      replicas,
      k0sVersion: props.k0sVersion,
      updateStrategy: cp.updateStrategy ?? (spare ? ControlPlaneUpdateStrategy.RECREATE : ControlPlaneUpdateStrategy.IN_PLACE),
      enableWorker: cp.enableWorker,
      untaintedControllers: cp.untaintedControllers,
      network,
      machineTemplate: this.controlPlaneMachineTemplate,
    });
    const controlPlaneEndpoint = { host: endpoint.host, port };
    this.remoteCluster = typedApiObject(this, 'RemoteCluster', RemoteCluster, {
      metadata: { name: this.clusterName },
      spec: { controlPlaneEndpoint },
    });
    this.cluster = capiCluster(this, this.clusterName, { network, controlPlane: this.controlPlane, infrastructure: this.remoteCluster, controlPlaneEndpoint });

    const own = this.node.children.filter((c): c is ApiObject => c instanceof ApiObject);
    judgeOwnObjects(this, own, [], PROPS_OF_FIELDS);
    participate(this);
    this.node.addValidation({ validate: () => [...this.nameProblems(), ...manifestProblems(this)] });
  }

  private nameProblems(): string[] {
    const p = dnsLabelProblem(this.clusterName, MAX_CLUSTER_NAME);
    return p ? [problem(`cluster name "${this.clusterName}" ${p} (pool and machine names are built from it)`, 'pass a shorter lower-case `name`')] : [];
  }
}

/** The props behind the fields the cluster rules name, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  ...CLUSTER_PROPS_OF_FIELDS,
  'Cluster spec.controlPlaneEndpoint.host': 'controlPlaneEndpoint',
};
