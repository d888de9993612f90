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
import { fail } from '../core/errors';
import { integerProblem } from '../core/numbers';
import { date, Exclusion, flag, judgedNumber, optional, PropEntry, propsSpec, record, required, seconds, stringRecord, text, whole } from '../core/props-spec';
import { typedApiObject } from '../core/typed-api-object';
import { CAPI_AUTOSCALER_ANNOTATIONS, capacityAnnotations, DEFAULT_MAX_PODS, splitOver } from '../platform/cluster-autoscaler';
import { apiGroupOf } from '../platform/conventions';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import { FLEET_LABELS, fleetLabels, labelKeyProblem, labelValueProblem, POOL_LABEL } from '../platform/labels';
import { NODE_DRAIN_TIMEOUT_SECONDS } from '../platform/rollout';
import { declareInfrastructure, judgeOwnObjects, manifestProblems, markContentNamed, participate, PropsOfFields } from '../rules/run/judge';

/** What a MachineDeployment pool takes from its cluster, whatever its bootstrap and infrastructure. */
export interface IMachineDeploymentPoolCluster extends IConstruct {
  /** The Cluster's name: the pools' objects are named and labelled after it. */
  readonly clusterName: string;
  /** Whether pools get a MachineHealthCheck unless they say otherwise. */
  readonly machineHealthChecks: boolean;
}

/** Props every MachineDeployment pool has, whatever its bootstrap and infrastructure. */
export interface MachineDeploymentPoolProps {
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
   * Extra node labels, set by the bootstrap (k0s, kubeadm) when the node registers (kubelet `--node-labels`). Keys and
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
   * @default - the bootstrap part's: Duration.minutes(5) on Linux, Duration.minutes(15) on Windows (k0s)
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

/**
 * The spec of `NodeCapacity`: the numbers go into cluster-autoscaler's capacity annotations, which
 * the `autoscaler` rule judges as it parses them; the ephemeral disk, which it does not read, is
 * held to whole GiB here.
 * @internal
 */
export const NODE_CAPACITY_PROPS = propsSpec<NodeCapacity>('NodeCapacity', {
  cpu: required(judgedNumber('autoscaler'), 'state the vCPUs of one machine, e.g. `cpu: 4`'),
  memoryGiB: required(judgedNumber('autoscaler'), 'state the memory of one machine in GiB, e.g. `memoryGiB: 16`'),
  maxPods: optional(judgedNumber('autoscaler')),
  ephemeralDiskGiB: optional(whole()),
});

/**
 * The spec of `WorkerPoolAutoscaling`: the bounds as the user wrote them, whole numbers before
 * they are split over the zones (the `autoscaler` rule judges each zone's share, which a split
 * fraction would hide).
 * @internal
 */
export const WORKER_POOL_AUTOSCALING_PROPS = propsSpec<WorkerPoolAutoscaling>('WorkerPoolAutoscaling', {
  min: required(whole(), 'give the fewest machines, e.g. `min: 0`'),
  max: required(whole(), 'give the most machines, e.g. `max: 4`'),
  capacity: optional(record(NODE_CAPACITY_PROPS)),
});

/**
 * The spec entries of `MachineDeploymentPoolProps`, whatever the bootstrap and infrastructure:
 * every pool's spec spreads them (`{ ...MACHINE_DEPLOYMENT_POOL_OPTIONS, ...its own }`) with
 * `MACHINE_DEPLOYMENT_POOL_EXCLUSIONS`, and parses its props once, before it calls the base's
 * constructor with what the parse returned. What the objects show stays the rules': the
 * MachineDeployment's name (`machine-deployment`, `object-meta`) and replicas (`machine-deployment`).
 * @internal
 */
export const MACHINE_DEPLOYMENT_POOL_OPTIONS: { readonly [K in keyof MachineDeploymentPoolProps]-?: PropEntry } = {
  name: optional(text({ max: 1024, form: 'a pool name', example: 'win', judgedBy: 'machine-deployment' })),
  replicas: optional(judgedNumber('machine-deployment')),
  labels: optional(stringRecord()),
  machineHealthCheck: optional(flag()),
  // The MachineHealthCheck's range is the machine-health-check rule's; the seconds must be whole to be written at all.
  nodeReadyTimeout: optional(seconds()),
  nodeDrainTimeout: optional(seconds(1)),
  autoscaling: optional(record(WORKER_POOL_AUTOSCALING_PROPS)),
  rolloutAfter: optional(date('2026-12-01T02:00:00Z')),
};

/**
 * The props of every pool that exclude each other: a fixed count and autoscaling bounds.
 * @internal
 */
export const MACHINE_DEPLOYMENT_POOL_EXCLUSIONS: readonly Exclusion<MachineDeploymentPoolProps>[] = [
  { props: ['replicas', 'autoscaling'], what: 'replicas and autoscaling are both set', fix: 'give `autoscaling: { min, max }` for an autoscaled pool, or `replicas` for a fixed one' },
];

/**
 * What a pool's operating system decides, whatever its bootstrap: the taints, labels and timeouts
 * of its nodes.
 */
export interface WorkerOs {
  /** The machines' operating system. */
  readonly os: 'linux' | 'windows';
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

/** One bootstrap config template of a pool: one per failure domain, since their node labels differ. */
export interface BootstrapTemplate {
  /** The MachineDeployment's name, which the template's name starts with (then a digest of its content). */
  readonly name: string;
  /** The failure domain of the MachineDeployment, if the pool has domains. */
  readonly domain?: FailureDomain;
  /** The labels its nodes register with: the pool's, the props', the domain's. */
  readonly nodeLabels: Readonly<Record<string, string>>;
}

/**
 * The bootstrap's part of a MachineDeployment pool (k0smotron's K0sWorkerConfigTemplate, kubeadm's
 * KubeadmConfigTemplate): the config template each MachineDeployment names, the version form its
 * machines write, how its nodes get their labels and taints, and its operating system's facts.
 */
export interface BootstrapPart extends WorkerOs {
  /**
   * The workers' version, in the form the bootstrap's MachineDeployments write into
   * `spec.template.spec.version` (`v1.34.4+k0s.0` for k0s, `v1.34.4` for kubeadm).
   */
  readonly version: string;
  /** The kubelet's root directory on the pool's nodes, where CSI node plugins register. */
  readonly kubeletRootDir: string;
  /**
   * How the node labels reach the kubelet, joined into one argument (`k0s's --labels`), for the
   * message about a label that would read as two there.
   */
  readonly labelArgument: string;
  /** The props behind the config template's fields (and the version's) the rules name, for messages at construction. */
  readonly propsOfFields: PropsOfFields;
  /**
   * Builds one bootstrap config template as a child of `pool`, named `template.name` and a digest
   * of its content (a changed config then gets a new name, which rolls the MachineDeployment out).
   * The pool's machine template is built first: a config that names it reads `pool.machineTemplate`
   * (CAPZ's azure.json Secret is `<AzureMachineTemplate name>-azure-json`).
   */
  configTemplate(pool: MachineDeploymentPool, template: BootstrapTemplate): ApiObject;
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
  /**
   * What the rules need to know of a k0smotron infrastructure, handed to them with the objects
   * the pool judges; none where the rules read the infrastructure's kinds themselves (as
   * `CapiClusterInfrastructure.infrastructure`).
   * @default - none
   */
  readonly infrastructure?: K0smotronInfrastructure;
  /**
   * Builds the pool's machine template as a child of `pool`, after the pool's names are set;
   * called once, from the pool's constructor.
   */
  machineTemplate(pool: MachineDeploymentPool): ApiObject;
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
 * A Cluster API MachineDeployment pool, whatever its bootstrap and infrastructure: a
 * MachineDeployment per failure domain with the bootstrap's config template and the
 * infrastructure's machine template, a MachineHealthCheck, cluster-autoscaler's annotations,
 * rollout and drain settings, the Cluster's fleet labels, and the judging of its objects.
 * `WorkerPool` is the k0s one (with a k0smotron bootstrap part).
 */
export abstract class MachineDeploymentPool extends Construct {
  /** The cluster the pool belongs to. */
  public readonly cluster: IMachineDeploymentPoolCluster;
  /** The pool's name. */
  public readonly poolName: string;
  /** `<cluster>-<pool>`: the name of the pool's objects, before their zone or content hash. */
  public readonly baseName: string;
  /** Number of machines, over all its failure domains. */
  public readonly replicas: number;
  /** The workers' version, as the MachineDeployments write it (`spec.template.spec.version`). */
  public readonly version: string;
  /** The machines' operating system. */
  public readonly os: 'linux' | 'windows';
  /**
   * The kubelet's root directory on the pool's nodes, the bootstrap's (k0s's
   * `C:\var\lib\k0s\kubelet`, `/var/lib/k0s/kubelet`), where CSI node plugins must register:
   * `WindowsSmbCsi` and `WindowsEbsCsiNode` take it as `kubeletRootDir`.
   */
  public readonly kubeletRootDir: string;
  /** The build of a Windows pool's machines (`node.kubernetes.io/windows-build`); undefined for Linux. */
  public readonly windowsBuild?: string;
  /** The failure domains the pool spreads over, in the order of `machineDeployments`. */
  public readonly failureDomains: readonly FailureDomain[];
  /** The MachineDeployments (`cluster.x-k8s.io`), one per failure domain. */
  public readonly machineDeployments: readonly ApiObject[];
  /** The bootstrap config templates, one per failure domain (their node labels differ), named after their content. */
  public readonly bootstrapConfigTemplates: readonly ApiObject[];
  /** The machines' template (an AWSMachineTemplate on EC2), named after its content. */
  public readonly machineTemplate: ApiObject;
  /** The MachineHealthCheck over all the pool's machines, unless turned off. */
  public readonly machineHealthCheck?: ApiObject;
  /** The autoscaler's bounds, when the pool is autoscaled. */
  public readonly autoscaling?: WorkerPoolAutoscaling;

  /**
   * @param props the pool's props as its spec parsed them (`MACHINE_DEPLOYMENT_POOL_OPTIONS` spread
   *   into the concrete pool's spec): read here, never the object the user gave.
   */
  protected constructor(cluster: IMachineDeploymentPoolCluster, id: string, props: MachineDeploymentPoolProps, bootstrap: BootstrapPart, infrastructure: WorkerInfrastructure) {
    super(cluster, id);
    this.cluster = cluster;
    this.poolName = props.name ?? id;
    this.baseName = `${cluster.clusterName}-${this.poolName}`;
    const autoscaling = props.autoscaling;
    // An autoscaled pool starts at min (CAPI defaults a new MachineDeployment's replicas to it).
    this.replicas = autoscaling?.min ?? props.replicas ?? 1;
    this.autoscaling = autoscaling;
    this.version = bootstrap.version;
    this.os = bootstrap.os;
    this.kubeletRootDir = bootstrap.kubeletRootDir;
    this.windowsBuild = bootstrap.windowsBuild;
    checkInputs(this, props, bootstrap);
    if (infrastructure.infrastructure) declareInfrastructure(this, infrastructure.infrastructure);

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
      // Bootstrap templates are read when a machine is created: a new name makes a change roll out.
      const config = bootstrap.configTemplate(this, { name, domain, nodeLabels: labels });
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
          labels: bootstrap.windowsBuild ? { [FLEET_LABELS.poolBuild]: bootstrap.windowsBuild } : undefined,
          annotations: bounds && this.autoscalerAnnotations(bounds, labels, bootstrap, infrastructure),
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
              version: this.version,
              deletion: { nodeDrainTimeoutSeconds: drainTimeoutSeconds },
              // CAPA puts a machine without one in the first private subnet
              // (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go, findSubnet).
              failureDomain: domain?.name,
              bootstrap: {
                configRef: { apiGroup: apiGroupOf(config.apiVersion), kind: config.kind, name: config.name },
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
    this.bootstrapConfigTemplates = configs;

    const readyTimeoutSeconds = props.nodeReadyTimeout?.toSeconds() ?? bootstrap.nodeReadyTimeoutSeconds;
    if (props.machineHealthCheck ?? cluster.machineHealthChecks) {
      this.machineHealthCheck = typedApiObject(this, 'MachineHealthCheck', MachineHealthCheck, {
        metadata: { name: this.baseName },
        spec: {
          clusterName: cluster.clusterName,
          selector: { matchLabels: poolLabels },
          checks: {
            nodeStartupTimeoutSeconds: bootstrap.nodeStartupTimeoutSeconds,
            unhealthyNodeConditions: ['False', 'Unknown'].map((status) => ({ type: 'Ready', status, timeoutSeconds: readyTimeoutSeconds })),
          },
          // Stop remediating when many machines fail at once: that is an outage, not a bad machine.
          remediation: { triggerIf: { unhealthyLessThanOrEqualTo: UnhealthyLimit.fromNumber(remediationLimit(autoscaling?.max ?? this.replicas)) } },
        },
      });
    }

    // Every object beneath the pool (its infrastructure part may write more than the template,
    // such as the RemoteMachine pool's hosts), judged beside the cluster's own objects (its
    // control plane, for the version skew), not other pools'.
    const isObject = (c: IConstruct): c is ApiObject => c instanceof ApiObject;
    const clusterObjects = cluster.node.children.filter(isObject);
    if (bootstrap.windowsBuild !== undefined) {
      // The Cluster says which builds its Windows pools run (FLEET_LABELS), from every pool so far.
      const builds = cluster.node.children.filter((c): c is MachineDeploymentPool => c instanceof MachineDeploymentPool && c.windowsBuild !== undefined).map((p) => p.windowsBuild!);
      const capiCluster = clusterObjects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('cluster.x-k8s.io/'));
      Object.entries(fleetLabels(builds)).forEach(([k, v]) => capiCluster?.metadata.addLabel(k, v));
    }
    const own = this.node.findAll().filter(isObject);
    judgeOwnObjects(this, own, clusterObjects, { ...POOL_PROPS_OF_FIELDS, ...bootstrap.propsOfFields, ...infrastructure.propsOfFields });
    participate(this);
    this.node.addValidation({ validate: () => manifestProblems(this) });
  }

  /**
   * The autoscaler's annotations of one MachineDeployment: its bounds, and what a node of it
   * would be when it has none (cluster-autoscaler's template node).
   */
  private autoscalerAnnotations(bounds: { min: number; max: number }, labels: Record<string, string>, os: WorkerOs, infrastructure: WorkerInfrastructure): Record<string, string> {
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
        labels: { ...os.nodeLabels, ...infrastructure.capacity?.labels, ...labels },
        taints: os.taints,
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
  'MachineHealthCheck spec.checks.unhealthyNodeConditions.timeoutSeconds': 'nodeReadyTimeout',
  'MachineDeployment spec.template.spec.deletion.nodeDrainTimeoutSeconds': 'nodeDrainTimeout',
};

/**
 * What no object can show, across the parsed props (their values are the spec's): bounds the
 * wrong way round before the split, and a label that would overwrite the pool's own. The rules
 * judge the rest.
 */
function checkInputs(pool: MachineDeploymentPool, props: MachineDeploymentPoolProps, bootstrap: BootstrapPart): void {
  const { min, max } = props.autoscaling ?? {};
  if (min !== undefined && max !== undefined && max < min) fail(pool, `autoscaling is min ${min}, max ${max}: the max is below the min, which cluster-autoscaler refuses`, `give a max of at least ${min}`);
  const labels = props.labels;
  if (labels && Object.hasOwn(labels, POOL_LABEL)) fail(pool, `label ${POOL_LABEL} is the pool's own label (its name)`, 'remove it; the pool sets it');
  // The one thing the written object cannot show: once joined into one argument (k0s's
  // `--labels=k=v,k=v`, the kubelet's `--node-labels`), a value such as "web,team=ops" reads as
  // two valid pairs, the second one smuggled in (the pools rule judges every pair it sees there).
  // Label values never hold "," or "=".
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (/[,=]/.test(key) || /[,=]/.test(value)) {
      fail(pool, `labels: ${labelKeyProblem(key) ?? labelValueProblem(key, value)}, and joined into ${bootstrap.labelArgument} it would read as more than one label`,
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
