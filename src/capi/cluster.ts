import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Cluster } from '../generated/cluster-api-cluster.x-k8s.io';
import type { ClusterInfra } from '../infra/cluster-infra';
import { problem } from '../core/errors';
import { flag, optional, PropEntry, text } from '../core/props-spec';
import { typedApiObject } from '../core/typed-api-object';
import { apiGroupOf } from '../platform/conventions';
import { dnsLabelProblem, MAX_CLUSTER_NAME } from '../platform/dns';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import { fleetLabels } from '../platform/labels';
import { declareInfrastructure, judgeOwnObjects, manifestProblems, participate, PropsOfFields } from '../rules/run/judge';

/** What every Cluster API cluster's props have, whatever its control plane and infrastructure. */
export interface CapiClusterProps {
  /**
   * The cluster's name: of the Cluster object and the prefix of every other object (and of the
   * infrastructure's resources). A DNS label of at most 40 characters.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Give each worker pool a MachineHealthCheck that replaces machines whose node stays unready.
   * @default true
   */
  readonly machineHealthChecks?: boolean;
}

/**
 * The spec entries of `CapiClusterProps`, whatever the control plane and infrastructure: every
 * cluster's spec spreads them, and the concrete cluster parses its props once, before it calls the
 * base's constructor with what the parse returned. The name's length (room in pool names) is the
 * cluster's own check at synth, its form the `object-meta` rule's on the Cluster.
 * @internal
 */
export const CAPI_CLUSTER_OPTIONS: { readonly [K in keyof CapiClusterProps]-?: PropEntry } = {
  name: optional(text({ max: 1024, form: 'a cluster name', example: 'prod', judgedBy: 'object-meta' })),
  machineHealthChecks: optional(flag()),
};

/**
 * The infrastructure's part of a Cluster API cluster (`CapiCluster`), whatever its control
 * plane: its infrastructure cluster object, the control plane's machine template, the props
 * behind their fields, and what the control plane takes from it.
 */
export interface CapiClusterInfrastructure {
  /**
   * What the rules need to know of a k0smotron infrastructure, handed to them with the objects
   * the cluster judges. An infrastructure whose kinds the rules read themselves (CAPZ's, for
   * kubeadm pools: src/rules/capz) states none.
   * @default - none
   */
  readonly infrastructure?: K0smotronInfrastructure;
  /** The infrastructure cluster object (AWSCluster, RemoteCluster), built as a child of `cluster`. */
  infrastructureCluster(cluster: CapiCluster): ApiObject;
  /** The controllers' machine template, built as a child of `cluster` and named after its content. */
  controlPlaneMachineTemplate(cluster: CapiCluster): ApiObject;
  /** The number of controllers when the props give none. */
  readonly defaultReplicas: number;
  /** The props behind the infrastructure objects' fields the rules name, for messages at construction. */
  readonly propsOfFields: PropsOfFields;
  /**
   * The Cluster's `controlPlaneEndpoint`, when the infrastructure does not report one itself.
   * @default - the infrastructure provider sets it (CAPA: the load balancer's name)
   */
  readonly controlPlaneEndpoint?: { readonly host: string; readonly port: number };
  /**
   * Labels and annotations the infrastructure puts on the Cluster (CAPZ: how its cloud provider is
   * installed), written before the cluster's objects are judged, since rules read them.
   * @default - none
   */
  readonly clusterMetadata?: { readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
  /**
   * The AWS stack's outputs the objects are judged against (the `hand-off` rule).
   * @default - none
   */
  readonly infra?: ClusterInfra;
}

/**
 * The control plane's part of a Cluster API cluster (`CapiCluster`): its object (k0smotron's
 * K0sControlPlane, kubeadm's KubeadmControlPlane), the networks it configures, and the version
 * the cluster's pools default to.
 */
export interface ControlPlanePart {
  /**
   * The control plane's version, in the form its distribution writes it into a
   * MachineDeployment's `spec.template.spec.version` (`v1.34.4+k0s.0`, `v1.34.4`): the pools'
   * default.
   */
  readonly version: string;
  /** The pod and service networks the control plane configures, which the Cluster states too. */
  readonly network: { readonly podCidr: string; readonly serviceCidr: string };
  /** The props behind the control-plane object's fields (and the networks') the rules name, for messages at construction. */
  readonly propsOfFields: PropsOfFields;
  /**
   * Builds the control-plane object as a child of `cluster`, after the infrastructure cluster
   * and the controllers' machine template, which it names.
   */
  controlPlane(cluster: CapiCluster, machineTemplate: ApiObject): ApiObject;
}

/**
 * A Cluster API cluster: the Cluster, a control plane (a `ControlPlanePart`) and an
 * infrastructure (a `CapiClusterInfrastructure`), their judging, and what its pools
 * (`MachineDeploymentPool`) take from it. `K0sCluster` is the k0smotron one.
 */
export abstract class CapiCluster extends Construct {
  /** The cluster's name (`metadata.name` of the Cluster and the prefix of every object). */
  public readonly clusterName: string;
  /** Whether pools get a MachineHealthCheck unless they say otherwise. */
  public readonly machineHealthChecks: boolean;
  /** The control plane's version, in the form a MachineDeployment writes it: the pools' default. */
  public readonly version: string;
  /** The Cluster object (`cluster.x-k8s.io`). */
  public readonly cluster: ApiObject;
  /** The control-plane object (K0sControlPlane). */
  public readonly controlPlane: ApiObject;
  /** The controllers' machine template (AWSMachineTemplate, RemoteMachineTemplate), named after its content. */
  public readonly controlPlaneMachineTemplate: ApiObject;
  /** The infrastructure cluster object (AWSCluster, RemoteCluster). */
  protected readonly infrastructureCluster: ApiObject;

  /**
   * @param props the cluster's props as its spec parsed them (`CAPI_CLUSTER_OPTIONS` spread into
   *   the concrete cluster's spec), never the object the user gave.
   */
  protected constructor(scope: Construct, id: string, props: CapiClusterProps, controlPlane: ControlPlanePart, infrastructure: CapiClusterInfrastructure) {
    super(scope, id);
    this.clusterName = props.name ?? id;
    this.machineHealthChecks = props.machineHealthChecks ?? true;
    this.version = controlPlane.version;
    if (infrastructure.infrastructure) declareInfrastructure(this, infrastructure.infrastructure);

    this.infrastructureCluster = infrastructure.infrastructureCluster(this);
    this.controlPlaneMachineTemplate = infrastructure.controlPlaneMachineTemplate(this);
    this.controlPlane = controlPlane.controlPlane(this, this.controlPlaneMachineTemplate);
    this.cluster = typedApiObject(this, 'Cluster', Cluster, {
      // Fleet labels: Linux-only until a Windows pool adds its build (MachineDeploymentPool).
      metadata: { name: this.clusterName, labels: { ...fleetLabels([]), ...infrastructure.clusterMetadata?.labels }, annotations: infrastructure.clusterMetadata?.annotations },
      spec: {
        controlPlaneEndpoint: infrastructure.controlPlaneEndpoint,
        clusterNetwork: {
          pods: { cidrBlocks: [controlPlane.network.podCidr] },
          services: { cidrBlocks: [controlPlane.network.serviceCidr] },
          serviceDomain: 'cluster.local',
        },
        controlPlaneRef: { apiGroup: apiGroupOf(this.controlPlane.apiVersion), kind: this.controlPlane.kind, name: this.controlPlane.name },
        infrastructureRef: { apiGroup: apiGroupOf(this.infrastructureCluster.apiVersion), kind: this.infrastructureCluster.kind, name: this.infrastructureCluster.name },
      },
    });

    // The objects are judged against the infra (the hand-off rule) from here on.
    participate(this, infrastructure.infra);
    const own = this.node.children.filter((c): c is ApiObject => c instanceof ApiObject);
    judgeOwnObjects(this, own, [], { ...CLUSTER_PROPS_OF_FIELDS, ...controlPlane.propsOfFields, ...infrastructure.propsOfFields });
    this.node.addValidation({ validate: () => [...this.nameProblems(), ...manifestProblems(this)] });
  }

  /** The one limit the objects cannot tell: room in pool names for this cluster's name. */
  private nameProblems(): string[] {
    const p = dnsLabelProblem(this.clusterName, MAX_CLUSTER_NAME);
    return p ? [problem(`cluster name "${this.clusterName}" ${p} (pool and machine names are built from it)`, 'pass a shorter lower-case `name`')] : [];
  }
}

/** The props behind the Cluster's own fields that the rules name, for messages at construction. */
const CLUSTER_PROPS_OF_FIELDS: PropsOfFields = {
  'Cluster metadata.name': 'name',
};
