import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Cluster } from '../generated/cluster-api-cluster.x-k8s.io';
import { K0sControlPlane, K0SControlPlaneSpecUpdateStrategy as L1UpdateStrategy } from '../generated/k0smotron-controlplane.cluster.x-k8s.io';
import type { ClusterInfra } from '../infra/cluster-infra';
import { fail, problem } from '../core/errors';
import { oneOf } from '../core/values';
import { apiGroupOf } from '../platform/conventions';
import { dnsLabelProblem, MAX_CLUSTER_NAME } from '../platform/dns';
import { fleetLabels } from '../platform/labels';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import { CalicoMode } from '../platform/network';
import { declareInfrastructure, judgeOwnObjects, manifestProblems, participate, PropsOfFields } from '../rules/run/judge';
import { k0sNetworkConfig, KubernetesNetworkProps, networkWithDefaults } from './kubernetes-network';
import { typedApiObject } from './typed-api-object';
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
export interface K0sClusterProps {
  /**
   * The cluster's name: of the Cluster object and the prefix of every other object (and of the
   * infrastructure's resources). A DNS label of at most 40 characters.
   * @default - the construct id
   */
  readonly name?: string;
  /** k0s version of the control plane and, unless a pool says otherwise, the workers: `vX.Y.Z+k0s.N`. */
  readonly k0sVersion: string;
  /** The controllers. */
  readonly controlPlane: K0sControlPlaneProps;
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
 * The infrastructure's part of a k0smotron cluster (`K0sCluster`): its infrastructure cluster
 * object, the control plane's machine template, the props behind their fields, and its defaults
 * for the control plane.
 */
export interface ClusterInfrastructure {
  /** What the rules need to know of the infrastructure (registered when the cluster is built). */
  readonly infrastructure: K0smotronInfrastructure;
  /** The infrastructure cluster object (AWSCluster, RemoteCluster), built as a child of `cluster`. */
  infrastructureCluster(cluster: K0sCluster): ApiObject;
  /** The controllers' machine template, built as a child of `cluster` and named after its content. */
  controlPlaneMachineTemplate(cluster: K0sCluster): ApiObject;
  /** The number of controllers when the props give none. */
  readonly defaultReplicas: number;
  /** The update strategy when the props give none, for `replicas` controllers. */
  defaultUpdateStrategy(replicas: number): ControlPlaneUpdateStrategy;
  /** The props behind the infrastructure objects' fields the rules name, for messages at construction. */
  readonly propsOfFields: PropsOfFields;
  /**
   * Extra kube-apiserver flags (`spec.api.extraArgs` of the k0s config).
   * @default - none
   */
  readonly apiExtraArgs?: Record<string, string>;
  /**
   * The Cluster's `controlPlaneEndpoint`, when the infrastructure does not report one itself.
   * @default - the infrastructure provider sets it (CAPA: the load balancer's name)
   */
  readonly controlPlaneEndpoint?: { readonly host: string; readonly port: number };
  /**
   * The AWS stack's outputs the objects are judged against (the `hand-off` rule).
   * @default - none
   */
  readonly infra?: ClusterInfra;
}

/**
 * A Cluster API cluster with a k0s control plane (k0smotron), on any infrastructure: the Cluster,
 * the K0sControlPlane, their props and their judging. `HybridCluster` (EC2) and
 * `RemoteHybridCluster` (hosts over SSH) add their infrastructure part (`ClusterInfrastructure`).
 */
export abstract class K0sCluster extends Construct {
  /** The cluster's name (`metadata.name` of the Cluster and the prefix of every object). */
  public readonly clusterName: string;
  /** k0s version of the control plane, and the pools' default. */
  public readonly k0sVersion: string;
  /** Whether pools get a MachineHealthCheck unless they say otherwise. */
  public readonly machineHealthChecks: boolean;
  /** The Cluster object (`cluster.x-k8s.io`). */
  public readonly cluster: ApiObject;
  /** The K0sControlPlane object (k0smotron). */
  public readonly controlPlane: ApiObject;
  /** The controllers' machine template (AWSMachineTemplate, RemoteMachineTemplate), named after its content. */
  public readonly controlPlaneMachineTemplate: ApiObject;
  /** The infrastructure cluster object (AWSCluster, RemoteCluster). */
  protected readonly infrastructureCluster: ApiObject;

  protected constructor(scope: Construct, id: string, props: K0sClusterProps, part: ClusterInfrastructure) {
    super(scope, id);
    this.clusterName = props.name ?? id;
    this.k0sVersion = props.k0sVersion;
    this.machineHealthChecks = props.machineHealthChecks ?? true;
    const cp = props.controlPlane;
    checkInputs(this, props);
    declareInfrastructure(this, part.infrastructure);

    const network = networkWithDefaults(props.network);
    this.infrastructureCluster = part.infrastructureCluster(this);
    this.controlPlaneMachineTemplate = part.controlPlaneMachineTemplate(this);
    const replicas = cp.replicas ?? part.defaultReplicas;
    this.controlPlane = typedApiObject(this, 'K0sControlPlane', K0sControlPlane, {
      metadata: { name: this.clusterName },
      spec: {
        replicas,
        version: props.k0sVersion,
        updateStrategy: (cp.updateStrategy ?? part.defaultUpdateStrategy(replicas)) as string as L1UpdateStrategy,
        k0SConfigSpec: {
          args: cp.enableWorker ? ['--enable-worker', ...(cp.untaintedControllers ? ['--no-taints'] : [])] : undefined,
          k0S: {
            apiVersion: 'k0s.k0sproject.io/v1beta1',
            kind: 'ClusterConfig',
            metadata: { name: 'k0s' },
            spec: {
              api: part.apiExtraArgs ? { extraArgs: part.apiExtraArgs } : undefined,
              network: k0sNetworkConfig(network),
              telemetry: { enabled: false },
            },
          },
        },
        machineTemplate: {
          // k0smotron's machine template reference is a classic ObjectReference: apiVersion, not apiGroup.
          infrastructureRef: { apiVersion: this.controlPlaneMachineTemplate.apiVersion, kind: this.controlPlaneMachineTemplate.kind, name: this.controlPlaneMachineTemplate.name },
        },
      },
    });
    this.cluster = typedApiObject(this, 'Cluster', Cluster, {
      // Fleet labels: Linux-only until a Windows pool adds its build (WorkerPool).
      metadata: { name: this.clusterName, labels: fleetLabels([]) },
      spec: {
        controlPlaneEndpoint: part.controlPlaneEndpoint,
        clusterNetwork: {
          pods: { cidrBlocks: [network.podCidr] },
          services: { cidrBlocks: [network.serviceCidr] },
          serviceDomain: 'cluster.local',
        },
        controlPlaneRef: { apiGroup: apiGroupOf(this.controlPlane.apiVersion), kind: this.controlPlane.kind, name: this.controlPlane.name },
        infrastructureRef: { apiGroup: apiGroupOf(this.infrastructureCluster.apiVersion), kind: this.infrastructureCluster.kind, name: this.infrastructureCluster.name },
      },
    });

    // The objects are judged against the infra (the hand-off rule) from here on.
    participate(this, part.infra);
    const own = this.node.children.filter((c): c is ApiObject => c instanceof ApiObject);
    judgeOwnObjects(this, own, [], { ...CLUSTER_PROPS_OF_FIELDS, ...part.propsOfFields });
    this.node.addValidation({ validate: () => [...this.nameProblems(), ...manifestProblems(this)] });
  }

  /** The cluster's worker pools. */
  public get workerPools(): WorkerPool[] {
    return this.node.children.filter((c): c is WorkerPool => c instanceof WorkerPool);
  }

  /** The one limit the objects cannot tell: room in pool names for this cluster's name. */
  private nameProblems(): string[] {
    const p = dnsLabelProblem(this.clusterName, MAX_CLUSTER_NAME);
    return p ? [problem(`cluster name "${this.clusterName}" ${p} (pool and machine names are built from it)`, 'pass a shorter lower-case `name`')] : [];
  }
}

/**
 * The props behind the Cluster's and K0sControlPlane's fields that the rules name, the same on
 * every cluster construct, for messages at construction.
 */
const CLUSTER_PROPS_OF_FIELDS: PropsOfFields = {
  'Cluster metadata.name': 'name',
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
 * The inputs no object can show (value forms, flag combinations); the rules judge the objects
 * built from the rest, at construction too (`network.provider`, `controlPlane.replicas`, ...).
 */
function checkInputs(scope: Construct, props: K0sClusterProps): void {
  const at = (prop: string) => ({ path: scope.node.path, prop });
  const cp = props.controlPlane ?? fail(scope, 'no `controlPlane`', 'pass the controllers\' props, e.g. `controlPlane: { instanceType: \'t3.large\' }` on EC2 or `controlPlane: { hosts: [...], sshKeySecret: \'...\' }` on remote hosts');
  oneOf(at('network.calicoMode'), props.network?.calicoMode, CalicoMode, 'CalicoMode');
  oneOf(at('controlPlane.updateStrategy'), cp.updateStrategy, ControlPlaneUpdateStrategy, 'ControlPlaneUpdateStrategy');
  if (cp.untaintedControllers && !cp.enableWorker) {
    fail(scope, 'controlPlane.untaintedControllers without enableWorker: controllers that run no kubelet have no taint to drop', 'set controlPlane.enableWorker too, or remove untaintedControllers');
  }
}
