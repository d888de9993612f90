import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { RemoteCluster } from '../generated/k0smotron-infrastructure.cluster.x-k8s.io';
import { K0S_PORTS } from '../platform/conventions';
import type { CapiCluster } from '../capi/cluster';
import { ClusterInfrastructure, ControlPlaneUpdateStrategy, K0sCluster, K0sClusterProps, K0sControlPlaneProps } from '../k0s/k0s-cluster';
import { REMOTE_INFRASTRUCTURE } from '../platform/infrastructures';
import { markContentNamed, PropsOfFields } from '../rules/run/judge';
import { typedApiObject } from '../core/typed-api-object';
import { fail } from '../core/errors';
import { integerProblem } from '../core/numbers';
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
 * A Cluster API cluster on hosts that no cloud provider manages (vSphere or Hyper-V VMs, Proxmox,
 * bare metal, other clouds), through k0smotron's RemoteMachine provider: k0smotron logs in over
 * SSH and runs k0s's install there. The controllers run on listed Linux hosts; add
 * `RemoteLinuxWorkerPool`s and `RemoteWindowsWorkerPool`s as its children.
 */
export class RemoteHybridCluster extends K0sCluster {
  /** The RemoteCluster object (k0smotron): the endpoint, nothing to provision. */
  public readonly remoteCluster: ApiObject;

  public constructor(scope: Construct, id: string, props: RemoteHybridClusterProps) {
    super(scope, id, props, new RemoteClusterPart(scope.node.path ? `${scope.node.path}/${id}` : id, props));
    this.remoteCluster = this.infrastructureCluster;
  }
}

/**
 * The RemoteMachine part of a cluster: the RemoteCluster (the endpoint) and the controllers'
 * RemoteMachineTemplate with a PooledRemoteMachine per host.
 */
class RemoteClusterPart implements ClusterInfrastructure {
  public readonly infrastructure = REMOTE_INFRASTRUCTURE;
  public readonly propsOfFields: PropsOfFields = { 'Cluster spec.controlPlaneEndpoint.host': 'controlPlaneEndpoint' };
  public readonly defaultReplicas: number;
  public readonly controlPlaneEndpoint: { readonly host: string; readonly port: number };
  private readonly machines: RemoteMachines;

  /** @param path construct path the cluster will have, for errors before it exists. */
  public constructor(path: string, props: RemoteHybridClusterProps) {
    const cp = props.controlPlane ?? fail(path, 'no `controlPlane`', 'pass `controlPlane: { hosts: [...], sshKeySecret: \'...\' }`');
    const endpoint = props.controlPlaneEndpoint ?? fail(path, 'no `controlPlaneEndpoint`: k0smotron writes no controller bootstrap data without it (controlplane_bootstrap_controller.go)',
      'pass the address of a load balancer or virtual IP in front of the controllers, e.g. `controlPlaneEndpoint: { host: \'10.0.0.10\' }`');
    if (typeof endpoint.host !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9.:-]*$/.test(endpoint.host)) {
      fail(path, `controlPlaneEndpoint.host ${JSON.stringify(endpoint.host)} is not an IP address or DNS name`, 'write an address such as 10.0.0.10 or api.example.com');
    }
    const port = endpoint.port ?? K0S_PORTS.api;
    const portProblem = integerProblem(port, 1, 65535);
    if (portProblem) fail(path, `controlPlaneEndpoint.port ${portProblem}`, 'use a port from 1 to 65535 (6443 is the default)');
    this.controlPlaneEndpoint = { host: endpoint.host, port };
    this.machines = new RemoteMachines(`${path}/ControlPlane`, cp, { user: cp.user ?? REMOTE_MACHINE_DEFAULTS.user, useSudo: cp.useSudo });
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
