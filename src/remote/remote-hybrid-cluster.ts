import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { RemoteCluster } from '../generated/k0smotron-infrastructure.cluster.x-k8s.io';
import { K0S_PORTS } from '../platform/conventions';
import type { CapiCluster } from '../capi/cluster';
import { K0sInfrastructurePart, ControlPlaneUpdateStrategy, K0S_CLUSTER_OPTIONS, K0S_CONTROL_PLANE_OPTIONS, K0sCluster, K0sClusterProps, K0sControlPlaneProps } from '../k0s/k0s-cluster';
import { REMOTE_INFRASTRUCTURE } from '../platform/infrastructures';
import { markContentNamed, PropsOfFields } from '../rules/run/judge';
import { typedApiObject } from '../core/typed-api-object';
import { flag, optional, propsSpec, record, required, text, whole } from '../core/props-spec';
import { REMOTE_MACHINE_DEFAULTS } from '../platform/remote';
import { REMOTE_ACCESS_OPTIONS, REMOTE_ADDRESS, RemoteAccessProps, RemoteMachines } from './remote-machines';
import { SSH_USER } from './remote-worker-pool';

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
export interface RemoteControlPlaneProps extends RemoteAccessProps, K0sControlPlaneProps {
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
}

/** Props of `RemoteHybridCluster`: those of every k0smotron cluster, and where its API is reached. */
export interface RemoteHybridClusterProps extends K0sClusterProps {
  /** Where the API is reached: Cluster API needs it before the first controller exists. */
  readonly controlPlaneEndpoint: ControlPlaneEndpoint;
  /** The controllers. */
  readonly controlPlane: RemoteControlPlaneProps;
}

/**
 * The spec of `ControlPlaneEndpoint`.
 * @internal
 */
export const CONTROL_PLANE_ENDPOINT_PROPS = propsSpec<ControlPlaneEndpoint>('ControlPlaneEndpoint', {
  host: required(text({ max: 253, pattern: REMOTE_ADDRESS, form: 'an IP address or DNS name', example: '10.0.0.10' }), 'give the address of a load balancer or virtual IP in front of the controllers'),
  port: optional(whole(1, 65535)),
});

/**
 * The spec of `RemoteControlPlaneProps`: the hosts', k0smotron's control plane's, and the login.
 * @internal
 */
export const REMOTE_CONTROL_PLANE_PROPS = propsSpec<RemoteControlPlaneProps>('RemoteControlPlaneProps', {
  ...REMOTE_ACCESS_OPTIONS,
  ...K0S_CONTROL_PLANE_OPTIONS,
  user: optional(SSH_USER),
  useSudo: optional(flag()),
});

/**
 * The spec of `RemoteHybridClusterProps`.
 * @internal
 */
export const REMOTE_HYBRID_CLUSTER_PROPS = propsSpec<RemoteHybridClusterProps>('RemoteHybridCluster', {
  ...K0S_CLUSTER_OPTIONS,
  // k0smotron writes no controller bootstrap data without it (controlplane_bootstrap_controller.go).
  controlPlaneEndpoint: required(record(CONTROL_PLANE_ENDPOINT_PROPS), 'pass the address of a load balancer or virtual IP in front of the controllers, e.g. `controlPlaneEndpoint: { host: \'10.0.0.10\' }`: k0smotron writes no controller bootstrap data without it'),
  controlPlane: required(record(REMOTE_CONTROL_PLANE_PROPS), 'pass the controllers\' props, e.g. `controlPlane: { hosts: [...], sshKeySecret: \'...\' }`'),
});

/**
 * A Cluster API cluster on hosts that no cloud provider manages (vSphere or Hyper-V VMs, Proxmox,
 * bare metal, other clouds), through k0smotron's RemoteMachine provider: k0smotron logs in over
 * SSH and runs k0s's install there. The controllers run on listed Linux hosts; add
 * `RemoteLinuxWorkerPool`s and `RemoteWindowsWorkerPool`s as its children.
 */
export class RemoteHybridCluster extends K0sCluster {
  /** The RemoteCluster object (k0smotron): the endpoint, nothing to provision. */
  public readonly remoteCluster: ApiObject;

  public constructor(scope: Construct, id: string, given: RemoteHybridClusterProps) {
    // The cluster does not exist yet: errors name the path it will have.
    const props = REMOTE_HYBRID_CLUSTER_PROPS.parse(scope.node.path ? `${scope.node.path}/${id}` : id, given);
    super(scope, id, props, new RemoteClusterPart(props));
    this.remoteCluster = this.infrastructureCluster;
  }
}

/**
 * The RemoteMachine part of a cluster: the RemoteCluster (the endpoint) and the controllers'
 * RemoteMachineTemplate with a PooledRemoteMachine per host.
 */
class RemoteClusterPart implements K0sInfrastructurePart {
  public readonly infrastructure = REMOTE_INFRASTRUCTURE;
  public readonly propsOfFields: PropsOfFields = { 'Cluster spec.controlPlaneEndpoint.host': 'controlPlaneEndpoint' };
  public readonly defaultReplicas: number;
  public readonly controlPlaneEndpoint: { readonly host: string; readonly port: number };
  private readonly machines: RemoteMachines;

  /** @param props the cluster's props, as its spec parsed them. */
  public constructor(props: RemoteHybridClusterProps) {
    const cp = props.controlPlane;
    this.controlPlaneEndpoint = { host: props.controlPlaneEndpoint.host, port: props.controlPlaneEndpoint.port ?? K0S_PORTS.api };
    this.machines = new RemoteMachines(cp, { user: cp.user ?? REMOTE_MACHINE_DEFAULTS.user, useSudo: cp.useSudo });
    this.defaultReplicas = this.machines.hosts.length;
  }

  /** Recreate needs a spare host for the extra controller; without one, k0s autopilot upgrades in place. */
  public defaultUpdateStrategy(replicas: number): ControlPlaneUpdateStrategy {
    // k0smotron adds a controller before it deletes one, except under RecreateDeleteFirst from 3
    // replicas up (v2.1.0 scale.go, calculateMaxSurge): without a spare host that is the only
    // strategy that cannot wedge, at the price of one controller fewer during each replacement
    // (etcd keeps its quorum of 2 out of 3, with no failure to spare meanwhile). One controller
    // on one host can only be upgraded in place (version changes): see docs/remote.md.
    if (this.machines.hosts.length > replicas) return ControlPlaneUpdateStrategy.RECREATE;
    return replicas >= 3 ? ControlPlaneUpdateStrategy.RECREATE_DELETE_FIRST : ControlPlaneUpdateStrategy.IN_PLACE;
  }

  public infrastructureCluster(cluster: CapiCluster): ApiObject {
    return typedApiObject(cluster, 'RemoteCluster', RemoteCluster, {
      metadata: { name: cluster.clusterName },
      spec: { controlPlaneEndpoint: this.controlPlaneEndpoint },
    });
  }

  public controlPlaneMachineTemplate(cluster: CapiCluster): ApiObject {
    const template = this.machines.machineTemplate(cluster, `${cluster.clusterName}-control-plane`);
    markContentNamed(template);
    return template;
  }
}
