import { ApiObject } from 'cdk8s';
import { oneOf } from '../core/values';
import { Construct } from 'constructs';
import { Ec2NodeClass } from '../generated/karpenter-karpenter.k8s.aws';
import { NodePool, NodePoolSpecDisruptionBudgets, NodePoolSpecDisruptionBudgetsReasons as Reason, NodePoolSpecLimits, NodePoolSpecTemplateSpecRequirementsOperator as Operator, NodePoolSpecTemplateSpecTaintsEffect as TaintEffect } from '../generated/karpenter-karpenter.sh';
import { typedApiObject } from '../core/typed-api-object';
import { fail } from '../core/errors';
import { KARPENTER_GROUPS, karpenterWindowsAlias, karpenterWindowsBuild } from '../platform/karpenter';
import { LABEL_ARCH, LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_NODE_TAINT, WindowsVersion } from '../platform/windows';
import { judgeOwnObjects, manifestProblems, participate } from '../rules/run/judge';

/**
 * When Karpenter may replace drifted nodes (a new Windows AMI behind the `@latest` alias, a
 * changed EC2NodeClass): a weekly or daily window, in UTC. Outside it a disruption budget of 0
 * nodes for the reason `Drifted` holds them.
 */
export interface KarpenterPatchWindow {
  /**
   * Day of the week it opens, 0 (Sunday) to 6, as cron counts them.
   * @default - every day
   */
  readonly weekday?: number;
  /** Hour (UTC, 0-23) it opens. */
  readonly hour: number;
  /** How many hours it stays open (1-23 for a daily window, 1-167 for a weekly one). */
  readonly hours: number;
  /**
   * How many nodes may be replaced at once inside the window: a count (`"1"`) or a share (`"20%"`).
   * @default "1"
   */
  readonly nodes?: string;
}

/** The most a Karpenter pool may launch, summed over its nodes (`spec.limits`). */
export interface KarpenterLimits {
  /** vCPUs, e.g. 64. */
  readonly cpu: number;
  /**
   * Memory as a Kubernetes quantity, e.g. `"256Gi"`.
   * @default - no memory limit
   */
  readonly memory?: string;
}

/** Props of `KarpenterWindowsNodePool`. */
export interface KarpenterWindowsNodePoolProps {
  /** The EKS cluster's name: the default subnet and security group selectors use its tags. */
  readonly clusterName: string;
  /**
   * The IAM role name of the nodes: `KarpenterWindowsNodeRole.roleName` on the Terraform side,
   * which has the `EC2_WINDOWS` access entry Windows nodes need. Karpenter makes the instance profile.
   */
  readonly role: string;
  /** The most the pool may launch (`spec.limits`). */
  readonly limits: KarpenterLimits;
  /**
   * The Windows Server release: the EC2NodeClass alias `windows<year>@latest` (Server Core; Karpenter's
   * Windows aliases take `latest` only) and the `node.kubernetes.io/windows-build` requirement.
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
  /**
   * Name of the NodePool and its EC2NodeClass.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * EC2 instance types the pool may launch (`node.kubernetes.io/instance-type`).
   * @default - any amd64 type Karpenter finds fitting
   */
  readonly instanceTypes?: readonly string[];
  /**
   * Capacity types: `on-demand`, `spot`.
   * @default ['on-demand']
   */
  readonly capacityTypes?: readonly string[];
  /**
   * When drifted nodes may be replaced; without it, Karpenter's default budget (10% of the nodes
   * at any time) applies to drift too.
   * @default - none
   */
  readonly patchWindow?: KarpenterPatchWindow;
  /**
   * Tags that select the nodes' subnets.
   * @default - the private subnets of `ClusterNetwork`: `kubernetes.io/cluster/<clusterName>: shared`, `kubernetes.io/role/internal-elb: 1`
   */
  readonly subnetTags?: Record<string, string>;
  /**
   * Tags that select the nodes' security groups.
   * @default - the EKS cluster security group: `aws:eks:cluster-name: <clusterName>`
   */
  readonly securityGroupTags?: Record<string, string>;
}

const HOURS_PER = { day: 24, week: 168 } as const;

/**
 * The budgets of a patch window: 0 drifted nodes from the window's end to its next start (cron
 * cannot say "outside", so the closed span is the window's complement), `nodes` inside it; the
 * other reasons keep Karpenter's default of 10%.
 */
function patchBudgets(scope: Construct, window: KarpenterPatchWindow): NodePoolSpecDisruptionBudgets[] {
  const period = window.weekday === undefined ? HOURS_PER.day : HOURS_PER.week;
  const whole = (v: unknown, lo: number, hi: number) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
  if (!whole(window.hour, 0, 23)) fail(scope, `patchWindow.hour ${window.hour} is not a whole hour 0-23`, 'give the UTC hour the window opens');
  if (window.weekday !== undefined && !whole(window.weekday, 0, 6)) fail(scope, `patchWindow.weekday ${window.weekday} is not 0 (Sunday) to 6`, 'give the day as cron counts it, or leave it unset for a daily window');
  if (!whole(window.hours, 1, period - 1)) fail(scope, `patchWindow.hours ${window.hours} is not 1 to ${period - 1}`, `keep the window shorter than a ${period === 24 ? 'day' : 'week'}`);
  const start = (window.weekday ?? 0) * 24 + window.hour;
  const end = (start + window.hours) % period;
  const schedule = `0 ${end % 24} * * ${window.weekday === undefined ? '*' : Math.floor(end / 24)}`;
  return [
    { nodes: '10%' },
    { nodes: '0', reasons: [Reason.DRIFTED], schedule, duration: `${period - window.hours}h` },
    { nodes: window.nodes ?? '1', reasons: [Reason.DRIFTED] },
  ];
}

/** Which prop sets which field, for messages at construction. */
const PROPS_OF_FIELDS = {
  'EC2NodeClass spec.amiSelectorTerms.alias': 'windowsVersion',
  'EC2NodeClass spec.role': 'role',
  'EC2NodeClass spec.subnetSelectorTerms.tags': 'subnetTags',
  'EC2NodeClass spec.securityGroupSelectorTerms.tags': 'securityGroupTags',
  'NodePool spec.limits': 'limits',
  'NodePool spec.disruption.budgets': 'patchWindow',
  'NodePool spec.template.spec.requirements': 'instanceTypes, capacityTypes',
};

/**
 * A Karpenter pool of EKS-optimized Windows Server Core nodes (aws/karpenter-provider-aws v1.14):
 * a `NodePool` (`karpenter.sh/v1`) requiring `kubernetes.io/os: windows`, the release's
 * `node.kubernetes.io/windows-build` and amd64, tainted `os=windows:NoSchedule` (the taint the
 * workload constructs tolerate), with limits and optional patch-window budgets; and its
 * `EC2NodeClass` (`karpenter.k8s.aws/v1`) with the release's `@latest` alias. Judged against the
 * pinned CRDs' CEL rules and the Karpenter rules at construction and at synth. Put it in the chart
 * you apply to the EKS cluster; the node role is `KarpenterWindowsNodeRole` in the Terraform stack.
 */
export class KarpenterWindowsNodePool extends Construct {
  /** The `NodePool`. */
  public readonly nodePool: ApiObject;
  /** The `EC2NodeClass`. */
  public readonly nodeClass: ApiObject;

  public constructor(scope: Construct, id: string, props: KarpenterWindowsNodePoolProps) {
    super(scope, id);
    const version = oneOf({ path: this.node.path, prop: 'windowsVersion' }, props.windowsVersion, WindowsVersion, 'WindowsVersion') ?? WindowsVersion.SERVER_2022;
    if (!(typeof props.limits?.cpu === 'number' && props.limits.cpu > 0)) fail(this, `limits.cpu ${props.limits?.cpu} is not a positive number`, 'give the most vCPUs the pool may launch, e.g. 64');
    const name = props.name ?? id;
    const budgets = props.patchWindow === undefined ? undefined : patchBudgets(this, props.patchWindow);

    this.nodeClass = typedApiObject(this, 'EC2NodeClass', Ec2NodeClass, {
      metadata: { name },
      spec: {
        amiSelectorTerms: [{ alias: karpenterWindowsAlias(version) }],
        role: props.role,
        subnetSelectorTerms: [{ tags: props.subnetTags ?? { [`kubernetes.io/cluster/${props.clusterName}`]: 'shared', 'kubernetes.io/role/internal-elb': '1' } }],
        // The security group EKS creates for the cluster and tags itself, `aws:eks:cluster-name: <name>`
        // (EKS User Guide, networking/sec-group-reqs.adoc): the one managed node groups' nodes get too,
        // since HybridEksCluster adds none of its own. Nothing else can write an `aws:` key.
        securityGroupSelectorTerms: [{ tags: props.securityGroupTags ?? { 'aws:eks:cluster-name': props.clusterName } }],
      },
    });
    const requirement = (key: string, values: readonly string[]) => ({ key, operator: Operator.IN, values: [...values] });
    const limits: Record<string, NodePoolSpecLimits> = { cpu: NodePoolSpecLimits.fromNumber(props.limits.cpu) };
    if (props.limits.memory !== undefined) limits.memory = NodePoolSpecLimits.fromString(props.limits.memory);
    this.nodePool = typedApiObject(this, 'NodePool', NodePool, {
      metadata: { name },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: KARPENTER_GROUPS.nodeClass, kind: 'EC2NodeClass', name },
            requirements: [
              requirement(LABEL_OS, ['windows']),
              requirement(LABEL_WINDOWS_BUILD, [karpenterWindowsBuild(version)]),
              // Windows Server on EC2 is amd64 only.
              requirement(LABEL_ARCH, ['amd64']),
              requirement('karpenter.sh/capacity-type', props.capacityTypes ?? ['on-demand']),
              ...(props.instanceTypes === undefined ? [] : [requirement('node.kubernetes.io/instance-type', props.instanceTypes)]),
            ],
            taints: [{ key: WINDOWS_NODE_TAINT.key, value: WINDOWS_NODE_TAINT.value, effect: TaintEffect.NO_SCHEDULE }],
          },
        },
        limits,
        disruption: budgets === undefined ? undefined : { consolidateAfter: '0s', budgets },
      },
    });
    judgeOwnObjects(this, [this.nodeClass, this.nodePool], [], PROPS_OF_FIELDS);
    participate(this);
    this.node.addValidation({ validate: () => manifestProblems(this) });
  }
}
