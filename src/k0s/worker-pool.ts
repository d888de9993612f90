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
import { fail } from '../core/errors';
import { labelKeyProblem, labelValueProblem, POOL_LABEL } from '../platform/labels';
import { integerProblem } from '../core/numbers';
import { NODE_DRAIN_TIMEOUT_SECONDS } from '../platform/rollout';
import { stringMap, wholeNumber, wholeSeconds } from '../core/values';
import { taintArgument } from '../platform/windows';
import { apiGroupOf } from '../platform/conventions';
import { judgeOwnObjects, manifestProblems, markContentNamed, participate, PropsOfFields } from '../rules/engine/judge';
import { contentHash } from '../core/hash';
import { K0S_LINUX_KUBELET_ROOT, WINDOWS_KUBELET_ROOT } from '../platform/csi';
import { CAPI_AUTOSCALER_ANNOTATIONS, capacityAnnotations, DEFAULT_MAX_PODS, splitOver } from '../platform/cluster-autoscaler';
import { typedApiObject } from './typed-api-object';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import { registerInfrastructure } from '../rules/engine/infrastructure';

export { POOL_LABEL } from '../platform/labels';
import { FLEET_LABELS, fleetLabels } from '../platform/labels';

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
   * The pool's name: its objects are named `<cluster>-<name>`, and its MachineDeployments
   * `<cluster>-<name>-<zone>` (`prod-linux-a` for eu-north-1a), which must be DNS labels of at
   * most 63 characters (CAPI's webhook takes only a label value; the Machine names made from them
   * are cut to fit).
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Number of machines, divided over the pool's zones: each gets the same number, and the first
   * zones one more until all are placed (5 over three zones: 2, 2, 1).
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
  /**
   * How long CAPI drains a node (evicting its pods, honouring PodDisruptionBudgets) before it
   * deletes the machine anyway, in a rollout, a scale-down or a remediation. CAPI's own default
   * is no limit, which lets one PodDisruptionBudget or an unreachable node hold them forever.
   * @default Duration.minutes(15)
   */
  readonly nodeDrainTimeout?: Duration;
  /**
   * Let cluster-autoscaler size the pool between `min` and `max` machines (split over the pool's
   * zones like `replicas`): its MachineDeployments carry CAPI's min/max annotations and no
   * `replicas`, so an apply never resets what the autoscaler chose, and the capacity annotations
   * that describe a node of a pool at zero (labels with the OS, build and zone, taints, cpu, memory,
   * maxPods). Instead of `replicas`.
   * @default - a fixed `replicas`
   */
  readonly autoscaling?: WorkerPoolAutoscaling;
  /**
   * Replace every machine created before this time, once it has passed (`spec.rollout.after`):
   * the rollout trigger of an image lookup (`MachineImage.windowsServer`, `.lookup`), whose
   * template does not change when a newer AMI appears. Each replacement boots the newest AMI. A
   * later date triggers the next rollout (docs/day2.md).
   * @default - machines roll only when the templates change
   */
  readonly rolloutAfter?: Date;
}

/** The bounds of an autoscaled pool (`WorkerPoolProps.autoscaling`). */
export interface WorkerPoolAutoscaling {
  /** The fewest machines; 0 lets a Windows pool scale to zero (the Linux worker for CoreDNS never may). */
  readonly min: number;
  /** The most machines (a remote pool: at most its hosts). */
  readonly max: number;
  /**
   * What one machine offers, where the pool cannot tell (an unknown instance family, hosts).
   * @default - from the instance type
   */
  readonly capacity?: NodeCapacity;
}

/** What one node offers the scheduler, for cluster-autoscaler's template node of an empty pool. */
export interface NodeCapacity {
  /** vCPUs. */
  readonly cpu: number;
  /** Memory in GiB. */
  readonly memoryGiB: number;
  /**
   * Pods per node.
   * @default 110 (the kubelet's default, which k0s keeps)
   */
  readonly maxPods?: number;
  /**
   * The node's ephemeral storage in GiB (its kubelet's root filesystem), for pods that request
   * `ephemeral-storage`.
   * @default - the root volume's size on EC2; unknown on hosts
   */
  readonly ephemeralDiskGiB?: number;
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
  /**
   * Labels the kubelet gives every node itself (`kubernetes.io/os`, the Windows build), for the
   * autoscaler's template node.
   */
  readonly nodeLabels: Readonly<Record<string, string>>;
  /** A Windows pool's build (`node.kubernetes.io/windows-build`), for the Cluster's fleet labels. */
  readonly windowsBuild?: string;
}

/**
 * A failure domain of the cluster (CAPA: an availability zone, as the AWSCluster reports it in
 * `status.failureDomains`): a pool has one MachineDeployment in each of its domains, which sets
 * `spec.template.spec.failureDomain`, so that one domain's outage leaves the others' machines.
 */
export interface FailureDomain {
  /** The domain's name, as the infrastructure provider reports it (`eu-north-1a`). */
  readonly name: string;
  /** What names the pool's MachineDeployment in it: `<cluster>-<pool>-<suffix>` (`a`). */
  readonly suffix: string;
  /** Node labels every machine in it registers with (`topology.kubernetes.io/zone`). */
  readonly nodeLabels: Readonly<Record<string, string>>;
}

/**
 * What the machines' infrastructure decides: the template the MachineDeployment's machines are
 * made from (AWSMachineTemplate on AWS), the failure domains the pool spreads over, and how a
 * rollout may replace the machines.
 */
export interface WorkerInfrastructure {
  /** What the rules need to know of the machines' infrastructure (registered when the pool is built). */
  readonly infrastructure: K0smotronInfrastructure;
  /**
   * Builds the pool's machine template as a child of `pool`, after the pool's names are set;
   * called once, from the pool's constructor.
   */
  machineTemplate(pool: WorkerPool): ApiObject;
  /**
   * The failure domains the pool spreads over, one MachineDeployment each.
   * @default - none: one MachineDeployment, placed as the provider places machines without one
   */
  readonly failureDomains?: readonly FailureDomain[];
  /** The props behind the machine template's fields that the rules name, for messages at construction. */
  readonly propsOfFields: PropsOfFields;
  /**
   * The rolling update's limits for `replicas` machines, when the infrastructure cannot take
   * CAPI's default (one machine more, none fewer): fixed hosts have no room for one more.
   * @default - CAPI's default, unwritten
   */
  rollout?(replicas: number): { readonly maxSurge: number; readonly maxUnavailable: number };
  /**
   * What one machine offers, when the infrastructure knows (the instance type's vCPUs and memory).
   * @default - unknown: an autoscaled pool states `autoscaling.capacity`
   */
  readonly capacity?: { readonly cpu?: number; readonly memoryGiB?: number; readonly ephemeralDiskGiB?: number; readonly labels?: Readonly<Record<string, string>> };
}

/**
 * A MachineDeployment of k0s workers with its K0sWorkerConfigTemplate, the machine template of
 * its infrastructure and a MachineHealthCheck: the platform-neutral base of every pool. Use
 * `LinuxWorkerPool` or `WindowsWorkerPool` (EC2 machines), `RemoteLinuxWorkerPool` or
 * `RemoteWindowsWorkerPool` (hosts over SSH).
 */
export abstract class WorkerPool extends Construct {
  /** The cluster the pool belongs to. */
  public readonly cluster: IWorkerPoolCluster;
  /** The pool's name. */
  public readonly poolName: string;
  /** `<cluster>-<pool>`: the name of the pool's objects, before their zone or content hash. */
  public readonly baseName: string;
  /** Number of machines, over all its failure domains. */
  public readonly replicas: number;
  /** k0s version of the pool's workers. */
  public readonly k0sVersion: string;
  /** The machines' operating system. */
  public readonly os: 'linux' | 'windows';
  /**
   * The kubelet's root directory on the pool's nodes, k0s's (`C:\var\lib\k0s\kubelet`,
   * `/var/lib/k0s/kubelet`), where CSI node plugins must register: `WindowsSmbCsi` and
   * `WindowsEbsCsiNode` take it as `kubeletRootDir`.
   */
  public readonly kubeletRootDir: string;
  /** The build of a Windows pool's machines (`node.kubernetes.io/windows-build`); undefined for Linux. */
  public readonly windowsBuild?: string;
  /** The failure domains the pool spreads over, in the order of `machineDeployments`. */
  public readonly failureDomains: readonly FailureDomain[];
  /** The MachineDeployments (`cluster.x-k8s.io`), one per failure domain. */
  public readonly machineDeployments: readonly ApiObject[];
  /** The K0sWorkerConfigTemplates, one per failure domain (their node labels differ), named after their content. */
  public readonly workerConfigTemplates: readonly ApiObject[];
  /** The machines' template (an AWSMachineTemplate on EC2), named after its content. */
  public readonly machineTemplate: ApiObject;
  /** The MachineHealthCheck over all the pool's machines, unless turned off. */
  public readonly machineHealthCheck?: ApiObject;
  /** The autoscaler's bounds, when the pool is autoscaled. */
  public readonly autoscaling?: WorkerPoolAutoscaling;

  protected constructor(cluster: IWorkerPoolCluster, id: string, props: WorkerPoolProps, platform: WorkerPlatform, infrastructure: WorkerInfrastructure) {
    super(cluster, id);
    this.cluster = cluster;
    this.poolName = props.name ?? id;
    this.baseName = `${cluster.clusterName}-${this.poolName}`;
    const autoscaling = props.autoscaling;
    if (autoscaling !== undefined && props.replicas !== undefined) fail(this, 'replicas and autoscaling are both set', 'give `autoscaling: { min, max }` for an autoscaled pool, or `replicas` for a fixed one');
    // An autoscaled pool starts at min (CAPI defaults a new MachineDeployment's replicas to it).
    this.replicas = autoscaling?.min ?? props.replicas ?? 1;
    this.autoscaling = autoscaling;
    this.k0sVersion = props.k0sVersion ?? cluster.k0sVersion;
    this.os = platform.os;
    this.kubeletRootDir = platform.os === 'windows' ? WINDOWS_KUBELET_ROOT.k0s : K0S_LINUX_KUBELET_ROOT;
    this.windowsBuild = platform.windowsBuild;
    checkInputs(this, props);
    registerInfrastructure(infrastructure.infrastructure);

    this.machineTemplate = infrastructure.machineTemplate(this);
    markContentNamed(this.machineTemplate);

    this.failureDomains = infrastructure.failureDomains ?? [];
    const domainLabel = Object.keys(props.labels ?? {}).find((key) => this.failureDomains.some((d) => Object.hasOwn(d.nodeLabels, key)));
    if (domainLabel) fail(this, `label ${domainLabel} is set per zone by the pool`, 'remove it; pin the pool\'s zones with `zones` instead');
    const drainTimeoutSeconds = props.nodeDrainTimeout?.toSeconds() ?? NODE_DRAIN_TIMEOUT_SECONDS;
    const domains: ReadonlyArray<FailureDomain | undefined> = this.failureDomains.length > 0 ? this.failureDomains : [undefined];
    const poolLabels = { 'cluster.x-k8s.io/cluster-name': cluster.clusterName, [POOL_LABEL]: this.poolName };
    const configs: ApiObject[] = [];
    this.machineDeployments = domains.map((domain, i) => {
      const name = domain ? `${this.baseName}-${domain.suffix}` : this.baseName;
      const labels = { [POOL_LABEL]: this.poolName, ...props.labels, ...domain?.nodeLabels };
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
      const config = typedApiObject(this, domain ? `K0sWorkerConfigTemplate-${domain.suffix}` : 'K0sWorkerConfigTemplate', K0sWorkerConfigTemplate, {
        metadata: { name: `${name}-${contentHash(written)}` },
        spec: { template: { spec: bootstrap } },
      });
      markContentNamed(config);
      configs.push(config);

      // Each MachineDeployment selects its own machines (CAPI's own label for it, which its webhook
      // adds only to a selector left empty); the health check selects the whole pool.
      const selectorLabels = { ...poolLabels, 'cluster.x-k8s.io/deployment-name': name };
      // Counts that are no whole number are written as given, for the rules to name.
      const split = (total: number) => (integerProblem(total, 0) ? total : splitOver(total, domains.length, i));
      const replicas = split(this.replicas);
      const bounds = autoscaling && { min: split(autoscaling.min), max: split(autoscaling.max) };
      const rollout = infrastructure.rollout?.(bounds?.max ?? replicas);
      return typedApiObject(this, domain ? `MachineDeployment-${domain.suffix}` : 'MachineDeployment', MachineDeployment, {
        metadata: {
          name,
          labels: platform.windowsBuild ? { [FLEET_LABELS.poolBuild]: platform.windowsBuild } : undefined,
          annotations: bounds && this.autoscalerAnnotations(bounds, labels, platform, infrastructure),
        },
        spec: {
          clusterName: cluster.clusterName,
          // The autoscaler owns the count (CAPI defaults a new one to min).
          replicas: bounds ? undefined : replicas,
          // cluster-api v1.14.0 core/reconcilers/machinedeployment/mdutil/util.go (FindNewAndOldMachineSets):
          // once rollout.after has passed, MachineSets created before it are outdated.
          rollout: rollout || props.rolloutAfter ? {
            after: props.rolloutAfter,
            strategy: rollout ? { type: RolloutType.ROLLING_UPDATE, rollingUpdate: {
              maxSurge: SurgeLimit.fromNumber(rollout.maxSurge), maxUnavailable: UnavailableLimit.fromNumber(rollout.maxUnavailable),
            } } : undefined,
          } : undefined,
          selector: { matchLabels: selectorLabels },
          template: {
            metadata: { labels: selectorLabels },
            spec: {
              clusterName: cluster.clusterName,
              version: this.k0sVersion,
              deletion: { nodeDrainTimeoutSeconds: drainTimeoutSeconds },
              // CAPA puts a machine without one in the first private subnet
              // (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go, findSubnet).
              failureDomain: domain?.name,
              bootstrap: {
                configRef: {
                  apiGroup: apiGroupOf(K0sWorkerConfigTemplate.GVK.apiVersion),
                  kind: K0sWorkerConfigTemplate.GVK.kind,
                  name: config.name,
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
    });
    this.workerConfigTemplates = configs;

    const readyTimeoutSeconds = props.nodeReadyTimeout?.toSeconds() ?? platform.nodeReadyTimeoutSeconds;
    if (props.machineHealthCheck ?? cluster.machineHealthChecks) {
      this.machineHealthCheck = typedApiObject(this, 'MachineHealthCheck', MachineHealthCheck, {
        metadata: { name: this.baseName },
        spec: {
          clusterName: cluster.clusterName,
          selector: { matchLabels: poolLabels },
          checks: {
            nodeStartupTimeoutSeconds: platform.nodeStartupTimeoutSeconds,
            unhealthyNodeConditions: ['False', 'Unknown'].map((status) => ({ type: 'Ready', status, timeoutSeconds: readyTimeoutSeconds })),
          },
          // Stop remediating when many machines fail at once: that is an outage, not a bad machine.
          remediation: { triggerIf: { unhealthyLessThanOrEqualTo: UnhealthyLimit.fromNumber(remediationLimit(autoscaling?.max ?? this.replicas)) } },
        },
      });
    }

    // Judged beside the cluster's own objects (its control plane, for the version skew), not other pools'.
    // Every object beneath the pool (its infrastructure part may write more than the template,
    // such as the RemoteMachine pool's hosts), beside the cluster's own objects.
    const isObject = (c: IConstruct): c is ApiObject => c instanceof ApiObject;
    const clusterObjects = cluster.node.children.filter(isObject);
    if (platform.windowsBuild !== undefined) {
      // The Cluster says which builds its Windows pools run (FLEET_LABELS), from every pool so far.
      const builds = cluster.node.children.filter((c): c is WorkerPool => c instanceof WorkerPool && c.windowsBuild !== undefined).map((p) => p.windowsBuild!);
      const capiCluster = clusterObjects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('cluster.x-k8s.io/'));
      Object.entries(fleetLabels(builds)).forEach(([k, v]) => capiCluster?.metadata.addLabel(k, v));
    }
    const own = this.node.findAll().filter(isObject);
    judgeOwnObjects(this, own, clusterObjects, { ...POOL_PROPS_OF_FIELDS, ...infrastructure.propsOfFields });
    participate(this);
    this.node.addValidation({
      validate: () => [...this.platformProblems(), ...manifestProblems(this)],
    });
  }

  /** Problems of the props that the objects cannot show; each names the offending value and the fix. */
  protected abstract platformProblems(): string[];

  /**
   * The autoscaler's annotations of one MachineDeployment: its bounds, and what a node of it
   * would be when it has none (cluster-autoscaler's template node).
   */
  private autoscalerAnnotations(bounds: { min: number; max: number }, labels: Record<string, string>, platform: WorkerPlatform, infrastructure: WorkerInfrastructure): Record<string, string> {
    const stated = this.autoscaling?.capacity;
    const cpu = stated?.cpu ?? infrastructure.capacity?.cpu;
    const memoryGiB = stated?.memoryGiB ?? infrastructure.capacity?.memoryGiB;
    if ((cpu === undefined || memoryGiB === undefined) && this.autoscaling!.min === 0) {
      fail(this, 'autoscaling.min is 0 and the pool cannot tell what one machine offers, so cluster-autoscaler could never scale it up from zero', 'state `autoscaling.capacity: { cpu, memoryGiB }`');
    }
    return {
      [CAPI_AUTOSCALER_ANNOTATIONS.minSize]: String(bounds.min),
      [CAPI_AUTOSCALER_ANNOTATIONS.maxSize]: String(bounds.max),
      ...capacityAnnotations({
        labels: { ...platform.nodeLabels, ...infrastructure.capacity?.labels, ...labels },
        taints: platform.taints,
        cpu,
        memoryGiB,
        ephemeralDiskGiB: stated?.ephemeralDiskGiB ?? infrastructure.capacity?.ephemeralDiskGiB,
        maxPods: stated?.maxPods ?? DEFAULT_MAX_PODS,
      }),
    };
  }
}

/** The props behind the pool's fields that the rules name, for messages at construction. */
const POOL_PROPS_OF_FIELDS: PropsOfFields = {
  'MachineDeployment metadata.name': 'name',
  'MachineDeployment spec.replicas': 'replicas',
  'MachineDeployment metadata.annotations': 'autoscaling',
  'MachineDeployment spec.template.spec.version': 'k0sVersion',
  'K0sWorkerConfigTemplate spec.template.spec.args': 'labels',
  'MachineHealthCheck spec.checks.unhealthyNodeConditions.timeoutSeconds': 'nodeReadyTimeout',
  'MachineDeployment spec.template.spec.deletion.nodeDrainTimeoutSeconds': 'nodeDrainTimeout',
};

/** The props' values (labels, nodeReadyTimeout; replicas are the machine-deployment rule's), and the one input no object can show: a label that would overwrite the pool's own. The rules judge the rest. */
function checkInputs(pool: WorkerPool, props: WorkerPoolProps): void {
  const at = (prop: string) => ({ path: pool.node.path, prop });
  wholeSeconds(at('nodeReadyTimeout'), props.nodeReadyTimeout);
  wholeSeconds(at('nodeDrainTimeout'), props.nodeDrainTimeout, 1);
  // The bounds as the user wrote them, before they are split over the zones (the autoscaler rule then judges each zone's).
  const min = wholeNumber(at('autoscaling.min'), props.autoscaling?.min);
  const max = wholeNumber(at('autoscaling.max'), props.autoscaling?.max);
  if (min !== undefined && max !== undefined && max < min) fail(pool, `autoscaling is min ${min}, max ${max}: the max is below the min, which cluster-autoscaler refuses`, `give a max of at least ${min}`);
  const labels = stringMap(at('labels'), props.labels);
  if (props.rolloutAfter !== undefined && !(props.rolloutAfter instanceof Date && Number.isFinite(props.rolloutAfter.getTime()))) {
    fail(pool, `rolloutAfter ${String(props.rolloutAfter)} is not a valid Date`, 'pass a Date, e.g. new Date(\'2026-12-01T02:00:00Z\')');
  }
  if (labels && Object.hasOwn(labels, POOL_LABEL)) fail(pool, `label ${POOL_LABEL} is the pool's own label (its name)`, 'remove it; the pool sets it');
  // The one thing the written object cannot show: once joined into k0s's `--labels=k=v,k=v`, a
  // value such as "web,team=ops" reads as two valid pairs, the second one smuggled in (the
  // pools rule judges every pair it sees there). Label values never hold "," or "=".
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (/[,=]/.test(key) || /[,=]/.test(value)) {
      fail(pool, `labels: ${labelKeyProblem(key) ?? labelValueProblem(key, value)}, and joined into k0s's --labels it would read as more than one label`,
        'use label keys and values the API server takes (values: 63 characters at most, letters, digits, "-", "_" and "." inside)');
    }
  }
}

/**
 * How many unhealthy machines a pool's MachineHealthCheck may remediate at once: 40% of the pool,
 * but at least 1. CAPI rounds a percentage down (`GetScaledValueFromIntOrPercent(..., false)` in
 * cluster-api v1.14 core/reconcilers/machinehealthcheck/machinehealthcheck_controller.go,
 * getMaxUnhealthy), so "40%" of a 1- or 2-machine pool is 0 and nothing is ever remediated.
 * Above the limit CAPI remediates nothing: many machines failing at once is an outage (network,
 * control plane, AMI), and replacing them all would make it worse.
 * @internal
 */
export function remediationLimit(replicas: number): number {
  return Math.max(1, Math.floor(replicas * 0.4));
}
