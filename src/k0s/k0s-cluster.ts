import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { K0sControlPlane, K0SControlPlaneSpecUpdateStrategy as L1UpdateStrategy } from '../generated/k0smotron-controlplane.cluster.x-k8s.io';
import { fail } from '../core/errors';
import { choice, flag, judgedNumber, optional, PropEntry, record, required, text } from '../core/props-spec';
import { typedApiObject } from '../core/typed-api-object';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import type { PropsOfFields } from '../rules/run/judge';
import { CAPI_CLUSTER_OPTIONS, CapiCluster, CapiClusterInfrastructure, CapiClusterProps, ControlPlanePart } from '../capi/cluster';
import { k0sNetworkConfig, KUBERNETES_NETWORK_PROPS, KubernetesNetworkProps, networkWithDefaults } from './kubernetes-network';
import { WorkerPool } from './worker-pool';

/**
 * How k0smotron rolls out a change of the controllers (k0smotron v2.1.0
 * internal/controller/controlplane/scale.go): a new k0s version, a `k0sConfigSpec` change
 * (`enableWorker`, `untaintedControllers`, flags) or a new machine template.
 */
export enum ControlPlaneUpdateStrategy {
  /** New machines first, then the old ones go: every change needs room (a spare host) for one more controller. */
  RECREATE = 'Recreate',
  /**
   * From 3 replicas up, the old machine first, then its replacement: never more controllers than
   * replicas (one fewer during each replacement). Below 3 replicas k0smotron still adds one first.
   */
  RECREATE_DELETE_FIRST = 'RecreateDeleteFirst',
  /**
   * A k0s version change is applied in place (k0s autopilot); every other change (k0sConfigSpec,
   * machine template) rolls out like `RECREATE`, adding a controller first.
   */
  IN_PLACE = 'InPlace',
}

/** What every k0s control plane has, whatever infrastructure its machines run on. */
export interface K0sControlPlaneProps {
  /**
   * Number of controllers; odd, so that etcd keeps a quorum through one failure.
   * @default - the infrastructure's: 3 on EC2, the number of hosts on remote hosts
   */
  readonly replicas?: number;
  /**
   * Run a kubelet on the controllers too (`k0s controller --enable-worker`). k0s taints them
   * `node-role.kubernetes.io/control-plane:NoSchedule`, which CoreDNS tolerates, so they count as
   * the Linux worker CoreDNS needs; ordinary workloads land there only with `untaintedControllers`.
   * @default false
   */
  readonly enableWorker?: boolean;
  /**
   * With `enableWorker`, drop the taint k0s gives worker-enabled controllers
   * (`node-role.kubernetes.io/control-plane:NoSchedule`; k0s `--no-taints`, k0s v1.34
   * cmd/controller/controller.go). With the taint only pods that tolerate it run there (CoreDNS,
   * metrics-server); without it, ordinary Linux workloads do too.
   * @default false
   */
  readonly untaintedControllers?: boolean;
  /**
   * How k0smotron rolls out a change. `RECREATE` adds a controller before removing one, so it
   * needs room (or a spare host) for one more; `IN_PLACE` upgrades k0s on the same machines (k0s
   * autopilot) and rolls out any other change like `RECREATE`; `RECREATE_DELETE_FIRST` (3 replicas
   * or more) removes one first.
   * @default - the infrastructure's: RECREATE on EC2; on remote hosts RECREATE when more hosts than replicas are listed, else RECREATE_DELETE_FIRST from 3 replicas, IN_PLACE for one controller
   */
  readonly updateStrategy?: ControlPlaneUpdateStrategy;
}

/** What every k0smotron cluster's props have, whatever infrastructure its machines run on. */
export interface K0sClusterProps extends CapiClusterProps {
  /** k0s version of the control plane and, unless a pool says otherwise, the workers: `vX.Y.Z+k0s.N`. */
  readonly k0sVersion: string;
  /** The controllers. */
  readonly controlPlane: K0sControlPlaneProps;
  /**
   * The cluster's pod and service networks and CNI.
   * @default - Calico in VXLAN mode, pods 192.168.0.0/16, services 10.128.0.0/12
   */
  readonly network?: KubernetesNetworkProps;
}

/**
 * The spec entries of `K0sControlPlaneProps`, which every k0smotron cluster's `controlPlane` spec
 * spreads beside its infrastructure's: the replicas are the `control-plane` rule's (odd, at least 1).
 * @internal
 */
export const K0S_CONTROL_PLANE_OPTIONS: { readonly [K in keyof K0sControlPlaneProps]-?: PropEntry } = {
  replicas: optional(judgedNumber('control-plane')),
  enableWorker: optional(flag()),
  untaintedControllers: optional(flag()),
  updateStrategy: optional(choice(ControlPlaneUpdateStrategy, 'ControlPlaneUpdateStrategy')),
};

/**
 * The spec entries of `K0sClusterProps` but `controlPlane`, whose spec is the infrastructure's
 * (`K0S_CONTROL_PLANE_OPTIONS` and its machines'): every k0smotron cluster's spec spreads them and
 * adds `controlPlane: required(record(...))`. The version's form is the `control-plane` rule's.
 * @internal
 */
export const K0S_CLUSTER_OPTIONS: { readonly [K in Exclude<keyof K0sClusterProps, 'controlPlane'>]-?: PropEntry } = {
  ...CAPI_CLUSTER_OPTIONS,
  k0sVersion: required(text({ max: 256, form: 'a k0s version', example: 'v1.34.4+k0s.0', judgedBy: 'control-plane' }), 'give the k0s version, e.g. `k0sVersion: \'v1.34.4+k0s.0\'`'),
  network: optional(record(KUBERNETES_NETWORK_PROPS)),
};

/**
 * The infrastructure part of a k0smotron cluster (`K0sCluster`): that of every Cluster API
 * cluster (`CapiClusterInfrastructure`), and what k0smotron's control plane takes from it. Not to
 * be confused with `ClusterInfra`, the AWS stack's outputs (docs/architecture.md, "Words").
 */
export interface K0sInfrastructurePart extends CapiClusterInfrastructure {
  /** What the rules need to know of the k0smotron infrastructure, handed to them with the objects the cluster judges. */
  readonly infrastructure: K0smotronInfrastructure;
  /** The update strategy when the props give none, for `replicas` controllers. */
  defaultUpdateStrategy(replicas: number): ControlPlaneUpdateStrategy;
  /**
   * Extra kube-apiserver flags (`spec.api.extraArgs` of the k0s config).
   * @default - none
   */
  readonly apiExtraArgs?: Record<string, string>;
}

/**
 * The infrastructure part of a k0smotron cluster.
 * @deprecated Use `K0sInfrastructurePart`: the name was one letter-run from `ClusterInfra`, the AWS stack's outputs.
 */
export type ClusterInfrastructure = K0sInfrastructurePart;

/**
 * A Cluster API cluster with a k0s control plane (k0smotron), on any infrastructure: a
 * `CapiCluster` with k0smotron's control-plane part (the K0sControlPlane and k0s's ClusterConfig).
 * `HybridCluster` (EC2) and `RemoteHybridCluster` (hosts over SSH) add their infrastructure part
 * (`K0sInfrastructurePart`).
 */
export abstract class K0sCluster extends CapiCluster {
  /** @param props the cluster's props as its spec parsed them (`K0S_CLUSTER_OPTIONS` spread into it). */
  protected constructor(scope: Construct, id: string, props: K0sClusterProps, part: K0sInfrastructurePart) {
    super(scope, id, props, new K0sControlPlanePart(scope.node.path ? `${scope.node.path}/${id}` : id, props, part), part);
  }

  /** k0s version of the control plane, and the pools' default (`version`, known to the parts while the base builds). */
  public get k0sVersion(): string {
    return this.version;
  }

  /** The cluster's worker pools. */
  public get workerPools(): WorkerPool[] {
    return this.node.children.filter((c): c is WorkerPool => c instanceof WorkerPool);
  }
}

/**
 * k0smotron's control plane: the K0sControlPlane with k0s's ClusterConfig (network, API flags),
 * its replicas and update strategy defaulted by the infrastructure. Inputs are checked when made.
 */
class K0sControlPlanePart implements ControlPlanePart {
  public readonly version: string;
  public readonly network: Required<KubernetesNetworkProps>;
  public readonly propsOfFields = K0S_CONTROL_PLANE_PROPS_OF_FIELDS;

  /** @param path construct path the cluster will have, for errors before it exists. */
  public constructor(path: string, private readonly props: K0sClusterProps, private readonly infrastructure: K0sInfrastructurePart) {
    checkInputs(path, props);
    this.version = props.k0sVersion;
    this.network = networkWithDefaults(props.network);
  }

  public controlPlane(cluster: CapiCluster, machineTemplate: ApiObject): ApiObject {
    const cp = this.props.controlPlane;
    const replicas = cp.replicas ?? this.infrastructure.defaultReplicas;
    return typedApiObject(cluster, 'K0sControlPlane', K0sControlPlane, {
      metadata: { name: cluster.clusterName },
      spec: {
        replicas,
        version: this.version,
        updateStrategy: (cp.updateStrategy ?? this.infrastructure.defaultUpdateStrategy(replicas)) as string as L1UpdateStrategy,
        k0SConfigSpec: {
          args: cp.enableWorker ? ['--enable-worker', ...(cp.untaintedControllers ? ['--no-taints'] : [])] : undefined,
          k0S: {
            apiVersion: 'k0s.k0sproject.io/v1beta1',
            kind: 'ClusterConfig',
            metadata: { name: 'k0s' },
            spec: {
              api: this.infrastructure.apiExtraArgs ? { extraArgs: this.infrastructure.apiExtraArgs } : undefined,
              network: k0sNetworkConfig(this.network),
              telemetry: { enabled: false },
            },
          },
        },
        machineTemplate: {
          // k0smotron's machine template reference is a classic ObjectReference: apiVersion, not apiGroup.
          infrastructureRef: { apiVersion: machineTemplate.apiVersion, kind: machineTemplate.kind, name: machineTemplate.name },
        },
      },
    });
  }
}

/**
 * The props behind the K0sControlPlane's fields (and the networks the Cluster states) that the
 * rules name, the same on every k0smotron cluster, for messages at construction.
 */
const K0S_CONTROL_PLANE_PROPS_OF_FIELDS: PropsOfFields = {
  'Cluster spec.clusterNetwork.pods': 'network.podCidr',
  'Cluster spec.clusterNetwork.services': 'network.serviceCidr',
  'K0sControlPlane spec.version': 'k0sVersion',
  'K0sControlPlane spec.replicas': 'controlPlane.replicas',
  'K0sControlPlane spec.k0sConfigSpec.k0s.spec.network.provider': 'network.provider',
  'K0sControlPlane spec.k0sConfigSpec.k0s.spec.network.podCIDR': 'network.podCidr',
  'K0sControlPlane spec.k0sConfigSpec.k0s.spec.network.serviceCIDR': 'network.serviceCidr',
  'K0sControlPlane spec.updateStrategy': 'controlPlane.updateStrategy',
};

/**
 * The flag combination no object can show (the values are the spec's); the rules judge the objects
 * built from the rest, at construction too (`network.provider`, `controlPlane.replicas`, ...).
 */
function checkInputs(path: string, props: K0sClusterProps): void {
  const cp = props.controlPlane;
  if (cp.untaintedControllers && !cp.enableWorker) {
    fail(path, 'controlPlane.untaintedControllers without enableWorker: controllers that run no kubelet have no taint to drop', 'set controlPlane.enableWorker too, or remove untaintedControllers');
  }
}
