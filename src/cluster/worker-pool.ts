import { ApiObject, Duration } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import {
  MachineDeployment,
  MachineHealthCheck,
  MachineHealthCheckSpecRemediationTriggerIfUnhealthyLessThanOrEqualTo as UnhealthyLimit,
  MachineDeploymentSpecRolloutStrategyRollingUpdateMaxSurge as SurgeLimit,
  MachineDeploymentSpecRolloutStrategyRollingUpdateMaxUnavailable as UnavailableLimit,
  MachineDeploymentSpecRolloutStrategyType as RolloutType,
} from '../generated/cluster-api-cluster.x-k8s.io';
import { K0sWorkerConfigTemplate, K0SWorkerConfigTemplateSpecTemplateSpec } from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { dnsLabelProblem } from '../platform/dns';
import { fail, problem } from '../platform/errors';
import { taintArgument } from '../platform/windows';
import { apiGroupOf } from '../platform/conventions';
import { judgeOwnObjects, manifestProblems, markContentNamed, participate, PropsOfFields } from '../rules/judge';
import { contentHash, MAX_MACHINE_DEPLOYMENT_NAME } from '../platform/names';
import { typedApiObject } from './typed-api-object';

/** Node label with the pool's name: set by k0s at registration, and kept in sync by CAPI. */
export const POOL_LABEL = 'node.cluster.x-k8s.io/pool';

/** What a worker pool takes from its cluster, whatever infrastructure the machines run on. */
export interface IWorkerPoolCluster extends IConstruct {
  /** The Cluster's name: the pools' objects are named and labelled after it. */
  readonly clusterName: string;
  /** The pools' default k0s version. */
  readonly k0sVersion: string;
  /** Whether pools get a MachineHealthCheck unless they say otherwise. */
  readonly machineHealthChecks: boolean;
}

/** Props every worker pool has, whatever infrastructure its machines run on. */
export interface WorkerPoolProps {
  /**
   * The pool's name; the MachineDeployment is `<cluster>-<name>`.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Number of machines.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * k0s version of the pool's workers (`vX.Y.Z+k0s.N`).
   * @default - the cluster's
   */
  readonly k0sVersion?: string;
  /**
   * Extra node labels, set by k0s when the node registers (kubelet `--node-labels`). Keys and
   * values must be what the kubelet accepts: no `kubernetes.io`/`k8s.io` keys outside
   * `node.kubernetes.io` and `kubelet.kubernetes.io`, and never `kubernetes.io/os` or `arch`.
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * Replace machines whose node stays unready (a MachineHealthCheck for this pool).
   * @default - the cluster's `machineHealthChecks`
   */
  readonly machineHealthCheck?: boolean;
  /**
   * How long a node may stay NotReady (or Unknown) before its MachineHealthCheck replaces the
   * machine. A new Windows node is NotReady until k0s's Windows reconciler (it polls once a minute)
   * has deployed Calico and kube-proxy for Windows and their images are pulled, which takes minutes.
   * @default Duration.minutes(5) on Linux, Duration.minutes(15) on Windows
   */
  readonly nodeReadyTimeout?: Duration;
}

/** What a concrete pool decides for its operating system. */
export interface WorkerPlatform {
  /** The machines' operating system. */
  readonly os: 'linux' | 'windows';
  /** The platform's part of the K0sWorkerConfigTemplate spec (provisioner, install dir). */
  readonly bootstrap: K0SWorkerConfigTemplateSpecTemplateSpec;
  /** Taints every node of the pool registers with. */
  readonly taints: ReadonlyArray<{ key: string; value: string; effect: string }>;
  /** How long a new machine may take to become a node before CAPI replaces it. */
  readonly nodeStartupTimeoutSeconds: number;
  /** How long a node may stay NotReady before CAPI replaces it, unless the props say otherwise. */
  readonly nodeReadyTimeoutSeconds: number;
}

/**
 * What the machines' infrastructure decides: the template the MachineDeployment's machines are
 * made from (AWSMachineTemplate on AWS), and how a rollout may replace them.
 */
export interface WorkerInfrastructure {
  /**
   * Builds the pool's machine template as a child of `pool`, after the pool's names are set;
   * called once, from the pool's constructor.
   */
  machineTemplate(pool: WorkerPool): ApiObject;
  /** The props behind the machine template's fields that the rules name, for messages at construction. */
  readonly propsOfFields: PropsOfFields;
  /**
   * The rolling update's limits for `replicas` machines, when the infrastructure cannot take
   * CAPI's default (one machine more, none fewer): fixed hosts have no room for one more.
   * @default - CAPI's default, unwritten
   */
  rollout?(replicas: number): { readonly maxSurge: number; readonly maxUnavailable: number };
}

/**
 * A MachineDeployment of k0s workers with its K0sWorkerConfigTemplate, the machine template of
 * its infrastructure and a MachineHealthCheck: the platform-neutral base of every pool. Use
 * `LinuxWorkerPool` or `WindowsWorkerPool` (EC2 machines).
 */
export abstract class WorkerPool extends Construct {
  /** The cluster the pool belongs to. */
  public readonly cluster: IWorkerPoolCluster;
  /** The pool's name. */
  public readonly poolName: string;
  /** Name of the MachineDeployment (and of the pool's other objects, before their hash). */
  public readonly deploymentName: string;
  /** Number of machines. */
  public readonly replicas: number;
  /** k0s version of the pool's workers. */
  public readonly k0sVersion: string;
  /** The machines' operating system. */
  public readonly os: 'linux' | 'windows';
  /** The MachineDeployment (`cluster.x-k8s.io`). */
  public readonly machineDeployment: ApiObject;
  /** The K0sWorkerConfigTemplate, named after its content. */
  public readonly workerConfigTemplate: ApiObject;
  /** The machines' template (an AWSMachineTemplate on EC2), named after its content. */
  public readonly machineTemplate: ApiObject;
  /** The MachineHealthCheck, unless turned off. */
  public readonly machineHealthCheck?: ApiObject;

  protected constructor(cluster: IWorkerPoolCluster, id: string, props: WorkerPoolProps, platform: WorkerPlatform, infrastructure: WorkerInfrastructure) {
    super(cluster, id);
    this.cluster = cluster;
    this.poolName = props.name ?? id;
    this.deploymentName = `${cluster.clusterName}-${this.poolName}`;
    this.replicas = props.replicas ?? 1;
    this.k0sVersion = props.k0sVersion ?? cluster.k0sVersion;
    this.os = platform.os;
    checkInputs(this, props);

    this.machineTemplate = infrastructure.machineTemplate(this);
    markContentNamed(this.machineTemplate);

    const labels = { [POOL_LABEL]: this.poolName, ...props.labels };
    const bootstrap: K0SWorkerConfigTemplateSpecTemplateSpec = {
      version: this.k0sVersion,
      args: [
        `--labels=${Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',')}`,
        ...(platform.taints.length > 0 ? [`--taints=${platform.taints.map(taintArgument).join(',')}`] : []),
      ],
      ...platform.bootstrap,
    };
    // Bootstrap templates are read when a machine is created: a new name makes a change roll out.
    // Hashed as written (JSON field names), so that the rules can recompute it on the final object.
    const written = K0sWorkerConfigTemplate.manifest({ spec: { template: { spec: bootstrap } } }).spec?.template.spec;
    this.workerConfigTemplate = typedApiObject(this, 'K0sWorkerConfigTemplate', K0sWorkerConfigTemplate, {
      metadata: { name: `${this.deploymentName}-${contentHash(written)}` },
      spec: { template: { spec: bootstrap } },
    });
    markContentNamed(this.workerConfigTemplate);

    const rollout = infrastructure.rollout?.(this.replicas);
    const selectorLabels = { 'cluster.x-k8s.io/cluster-name': cluster.clusterName, [POOL_LABEL]: this.poolName };
    this.machineDeployment = typedApiObject(this, 'MachineDeployment', MachineDeployment, {
      metadata: { name: this.deploymentName },
      spec: {
        clusterName: cluster.clusterName,
        replicas: this.replicas,
        rollout: rollout ? { strategy: { type: RolloutType.ROLLING_UPDATE, rollingUpdate: {
          maxSurge: SurgeLimit.fromNumber(rollout.maxSurge), maxUnavailable: UnavailableLimit.fromNumber(rollout.maxUnavailable),
        } } } : undefined,
        selector: { matchLabels: selectorLabels },
        template: {
          metadata: { labels: selectorLabels },
          spec: {
            clusterName: cluster.clusterName,
            version: this.k0sVersion,
            bootstrap: {
              configRef: {
                apiGroup: apiGroupOf(K0sWorkerConfigTemplate.GVK.apiVersion),
                kind: K0sWorkerConfigTemplate.GVK.kind,
                name: this.workerConfigTemplate.name,
              },
            },
            infrastructureRef: {
              apiGroup: apiGroupOf(this.machineTemplate.apiVersion),
              kind: this.machineTemplate.kind,
              name: this.machineTemplate.name,
            },
          },
        },
      },
    });

    const readyTimeoutSeconds = props.nodeReadyTimeout?.toSeconds() ?? platform.nodeReadyTimeoutSeconds;
    if (props.machineHealthCheck ?? cluster.machineHealthChecks) {
      this.machineHealthCheck = typedApiObject(this, 'MachineHealthCheck', MachineHealthCheck, {
        metadata: { name: this.deploymentName },
        spec: {
          clusterName: cluster.clusterName,
          selector: { matchLabels: selectorLabels },
          checks: {
            nodeStartupTimeoutSeconds: platform.nodeStartupTimeoutSeconds,
            unhealthyNodeConditions: ['False', 'Unknown'].map((status) => ({ type: 'Ready', status, timeoutSeconds: readyTimeoutSeconds })),
          },
          // Stop remediating when many machines fail at once: that is an outage, not a bad machine.
          remediation: { triggerIf: { unhealthyLessThanOrEqualTo: UnhealthyLimit.fromNumber(remediationLimit(this.replicas)) } },
        },
      });
    }

    // Judged beside the cluster's own objects (its control plane, for the version skew), not other pools'.
    const clusterObjects = cluster.node.children.filter((c): c is ApiObject => c instanceof ApiObject);
    const own = [this.machineDeployment, this.workerConfigTemplate, this.machineTemplate, ...(this.machineHealthCheck ? [this.machineHealthCheck] : [])];
    judgeOwnObjects(this, own, clusterObjects, { ...POOL_PROPS_OF_FIELDS, ...infrastructure.propsOfFields });
    participate(this);
    this.node.addValidation({
      validate: () => [...this.nameProblems(), ...this.platformProblems(), ...manifestProblems(this)],
    });
  }

  /** Problems of the props that the objects cannot show; each names the offending value and the fix. */
  protected abstract platformProblems(): string[];

  private nameProblems(): string[] {
    const nameProblem = dnsLabelProblem(this.deploymentName, MAX_MACHINE_DEPLOYMENT_NAME);
    return nameProblem
      ? [problem(`MachineDeployment name "${this.deploymentName}" (cluster name + pool name) ${nameProblem}`, 'give the pool a shorter lower-case `name` (or the cluster a shorter one)')]
      : [];
  }
}

/** The props behind the pool's fields that the rules name, for messages at construction. */
const POOL_PROPS_OF_FIELDS: PropsOfFields = {
  'MachineDeployment metadata.name': 'name',
  'MachineDeployment spec.replicas': 'replicas',
  'MachineDeployment spec.template.spec.version': 'k0sVersion',
  'K0sWorkerConfigTemplate spec.template.spec.args': 'labels',
  'MachineHealthCheck spec.checks.unhealthyNodeConditions.timeoutSeconds': 'nodeReadyTimeout',
};

/** The one input no object can show: a label that would overwrite the pool's own. The rules judge the rest. */
function checkInputs(pool: WorkerPool, props: WorkerPoolProps): void {
  if (props.labels && POOL_LABEL in props.labels) fail(pool, `label ${POOL_LABEL} is the pool's own label (its name)`, 'remove it; the pool sets it');
}

/**
 * How many unhealthy machines a pool's MachineHealthCheck may remediate at once: 40% of the pool,
 * but at least 1. CAPI rounds a percentage down (`GetScaledValueFromIntOrPercent(..., false)` in
 * cluster-api v1.14 core/reconcilers/machinehealthcheck/machinehealthcheck_controller.go,
 * getMaxUnhealthy), so "40%" of a 1- or 2-machine pool is 0 and nothing is ever remediated.
 * Above the limit CAPI remediates nothing: many machines failing at once is an outage (network,
 * control plane, AMI), and replacing them all would make it worse.
 */
export function remediationLimit(replicas: number): number {
  return Math.max(1, Math.floor(replicas * 0.4));
}
