import { isIPv4 } from 'node:net';
import { ApiObject } from 'cdk8s';
import { listOf, oneOf, show, stringMap, wholeNumber } from '../core/values';
import { Construct } from 'constructs';
import { Ec2NodeClass } from '../generated/karpenter-karpenter.k8s.aws';
import { NodePool, NodePoolSpecDisruptionBudgets, NodePoolSpecDisruptionBudgetsReasons as Reason, NodePoolSpecLimits, NodePoolSpecTemplateSpecRequirementsOperator as Operator, NodePoolSpecTemplateSpecTaintsEffect as TaintEffect } from '../generated/karpenter-karpenter.sh';
import { typedApiObject } from '../core/typed-api-object';
import { fail } from '../core/errors';
import { IAM_ROLE_NAME, iamRoleNameProblem } from '../platform/aws';
import { EKS_LIMITS } from '../platform/eks';
import { InstanceType, windowsInstanceTypeProblem } from '../platform/instance-type';
import { KARPENTER_CAPACITY_TYPES, KARPENTER_GROUPS, KARPENTER_PATTERNS, KARPENTER_WINDOWS_USER_DATA, karpenterWindowsAlias, karpenterWindowsBuild } from '../platform/karpenter';
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
   * PowerShell the nodes run before the EKS bootstrap: Karpenter writes it inside the node's
   * `<powershell>` block, ahead of `Start-EKSBootstrap.ps1` (pkg/providers/amifamily/bootstrap/windows.go),
   * e.g. Karpenter's documented workaround for a service CIDR the bootstrap guesses wrong,
   * `$global:EKSCluster = Get-EKSCluster -Name <cluster>` (concepts/nodeclasses.md, Windows Support Notice).
   * @default - none
   */
  readonly userData?: string;
  /**
   * The cluster DNS address the nodes' kubelets use (`spec.kubelet.clusterDNS`, passed to the bootstrap
   * as `-DNSClusterIP`); without it the bootstrap derives it from the service range it assumes.
   * @default - the bootstrap's
   */
  readonly clusterDns?: string;
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
  const at = (prop: string) => ({ path: scope.node.path, prop: `patchWindow.${prop}` });
  if (window === null || typeof window !== 'object') fail(scope, `patchWindow is ${show(window)}, not { weekday, hour, hours }`, 'give e.g. { weekday: 6, hour: 22, hours: 6 }');
  const weekday = wholeNumber(at('weekday'), window.weekday, 0, 6);
  const period = weekday === undefined ? HOURS_PER.day : HOURS_PER.week;
  const hour = wholeNumber(at('hour'), window.hour, 0, 23);
  if (hour === undefined) fail(scope, 'patchWindow.hour is undefined', 'give the UTC hour the window opens, 0-23');
  const hours = wholeNumber(at('hours'), window.hours, 1, period - 1);
  if (hours === undefined) fail(scope, 'patchWindow.hours is undefined', `give how many hours it stays open, 1-${period - 1}`);
  const nodes = window.nodes ?? '1';
  // The NodePool CRD's pattern for a budget's nodes (karpenter.sh_nodepools.yaml).
  if (typeof nodes !== 'string' || !KARPENTER_PATTERNS.budgetNodes.test(nodes)) {
    fail(scope, `patchWindow.nodes ${show(window.nodes)} is not a count ("1") or a share of at most 100% ("20%"), which the NodePool CRD refuses (budgets[].nodes)`, 'give a count of nodes as a string, e.g. "1", or a percentage from "0%" to "100%"');
  }
  const start = (weekday ?? 0) * 24 + hour;
  const end = (start + hours) % period;
  const schedule = `0 ${end % 24} * * ${weekday === undefined ? '*' : Math.floor(end / 24)}`;
  return [
    { nodes: '10%' },
    { nodes: '0', reasons: [Reason.DRIFTED], schedule, duration: `${period - hours}h` },
    { nodes, reasons: [Reason.DRIFTED] },
  ];
}

/** The pool's limits, as the NodePool CRD takes them: a positive, finite cpu; memory a Kubernetes quantity. */
function checkedLimits(scope: Construct, limits: KarpenterLimits): Record<string, NodePoolSpecLimits> {
  if (limits === null || typeof limits !== 'object') fail(scope, `limits is ${show(limits)}, not { cpu, memory }`, 'give e.g. { cpu: 64, memory: "256Gi" }');
  const cpu = limits.cpu as unknown;
  if (!(typeof cpu === 'number' && Number.isFinite(cpu) && cpu > 0)) {
    fail(scope, `limits.cpu is ${typeof cpu === 'number' ? String(cpu) : show(cpu)}, not a positive finite number`, typeof cpu === 'string' || typeof cpu === 'bigint' ? `write it as a number: cpu: ${String(cpu)}` : 'give the most vCPUs the pool may launch, e.g. 64');
  }
  const out: Record<string, NodePoolSpecLimits> = { cpu: NodePoolSpecLimits.fromNumber(cpu) };
  if (limits.memory !== undefined) {
    if (typeof limits.memory !== 'string' || !KARPENTER_PATTERNS.quantity.test(limits.memory)) {
      fail(scope, `limits.memory ${show(limits.memory)} is not a Kubernetes quantity, which the NodePool CRD refuses (spec.limits)`, `write it with a binary or decimal suffix, e.g. "256Gi" or "256G"${typeof limits.memory === 'string' && /[KMGTPE]B$/i.test(limits.memory) ? ` ("${limits.memory.replace(/B$/i, 'i')}" for ${limits.memory.replace(/B$/i, '')}iB)` : ''}`);
    }
    out.memory = NodePoolSpecLimits.fromString(limits.memory);
  }
  return out;
}

/** Instance types a Windows pool can launch: EC2 type names, amd64, enough memory (`windowsInstanceTypeProblem`). */
function checkedInstanceTypes(scope: Construct, value: unknown): readonly string[] | undefined {
  const types = listOf<string>({ path: scope.node.path, prop: 'instanceTypes' }, value);
  types?.forEach((name, i) => {
    const parsed = InstanceType.parse(name);
    // A family this library does not know is Karpenter's to judge: it matches what EC2 offers.
    if (typeof parsed === 'string') {
      if (typeof name !== 'string' || !/^[a-z0-9-]+\.[a-z0-9-]+$/.test(name)) fail(scope, `instanceTypes[${i}] ${show(name)} is not an EC2 instance type name`, 'give names such as m6i.xlarge');
      return;
    }
    const problem = windowsInstanceTypeProblem(parsed);
    if (problem) fail(scope, `instanceTypes[${i}]: ${problem.what}, and the pool requires ${LABEL_ARCH} amd64, so Karpenter never launches it`, problem.fix);
  });
  return types;
}

/** Capacity types Karpenter knows, as it spells them (lower case). */
function checkedCapacityTypes(scope: Construct, value: unknown): readonly string[] | undefined {
  const types = listOf<string>({ path: scope.node.path, prop: 'capacityTypes' }, value);
  types?.forEach((type, i) => {
    if (!(KARPENTER_CAPACITY_TYPES as readonly unknown[]).includes(type)) {
      const known = KARPENTER_CAPACITY_TYPES.find((k) => typeof type === 'string' && k === type.toLowerCase());
      fail(scope, `capacityTypes[${i}] ${show(type)} is not a capacity type Karpenter knows (${KARPENTER_CAPACITY_TYPES.join(', ')}), so the requirement matches no offering and no node launches`, known ? `write "${known}"` : `use ${KARPENTER_CAPACITY_TYPES.map((k) => `"${k}"`).join(' or ')}`);
    }
  });
  if (types?.length === 0) fail(scope, 'capacityTypes is empty, which no offering matches', 'list at least one, e.g. ["on-demand"], or leave it unset');
  return types;
}

/** Which prop sets which field, for messages at construction. */
const PROPS_OF_FIELDS = {
  'EC2NodeClass spec.amiSelectorTerms.alias': 'windowsVersion',
  'EC2NodeClass spec.role': 'role',
  'EC2NodeClass spec.subnetSelectorTerms.tags': 'subnetTags',
  'EC2NodeClass spec.securityGroupSelectorTerms.tags': 'securityGroupTags',
  'EC2NodeClass spec.userData': 'userData',
  'EC2NodeClass spec.kubelet.clusterDNS': 'clusterDns',
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
    const at = (prop: string) => ({ path: this.node.path, prop });
    const version = oneOf(at('windowsVersion'), props.windowsVersion, WindowsVersion, 'WindowsVersion') ?? WindowsVersion.SERVER_2022;
    const clusterName = props.clusterName as unknown;
    if (typeof clusterName !== 'string' || clusterName.length > EKS_LIMITS.clusterName.max || !EKS_LIMITS.clusterName.pattern.test(clusterName)) {
      fail(this, `clusterName ${show(clusterName)} is not an EKS cluster name (1 to ${EKS_LIMITS.clusterName.max} letters, digits, - and _), and the default selectors would look for the tag kubernetes.io/cluster/${String(clusterName)}`, 'give the EKS cluster\'s name, e.g. HybridEksStack clusterName');
    }
    const role = props.role as unknown;
    // Karpenter takes the part after the last "/" as the role's name (a role with a path:
    // pkg/providers/instanceprofile/instanceprofile.go, before AddRoleToInstanceProfile).
    const roleName = typeof role === 'string' ? role.slice(role.lastIndexOf('/') + 1) : role;
    if (typeof role !== 'string' || !IAM_ROLE_NAME.test(roleName as string)) {
      fail(this, `role ${show(role)}: ${show(roleName)} ${iamRoleNameProblem(roleName)}`, 'give the node role\'s name (KarpenterWindowsNodeRole roleName)');
    }
    const limits = checkedLimits(this, props.limits);
    const instanceTypes = checkedInstanceTypes(this, props.instanceTypes);
    const capacityTypes = checkedCapacityTypes(this, props.capacityTypes);
    const subnetTags = stringMap(at('subnetTags'), props.subnetTags);
    const securityGroupTags = stringMap(at('securityGroupTags'), props.securityGroupTags);
    const userData = props.userData;
    if (userData !== undefined && (typeof userData !== 'string' || KARPENTER_WINDOWS_USER_DATA.notPowerShell.test(userData) || /<\/?powershell>/i.test(userData))) {
      fail(this, `userData ${typeof userData === 'string' ? 'is a shell script, a MIME document or has <powershell> tags' : `is ${show(userData)}`}, and Karpenter writes it inside the node's <powershell> block`, 'give PowerShell commands only, without a #! line or <powershell> tags');
    }
    const clusterDns = props.clusterDns;
    if (clusterDns !== undefined && (typeof clusterDns !== 'string' || !isIPv4(clusterDns))) {
      fail(this, `clusterDns ${show(clusterDns)} is not an IPv4 address (Windows nodes are IPv4 only)`, 'give the kube-dns Service\'s cluster IP, e.g. 172.20.0.10');
    }
    const name = props.name ?? id;
    const budgets = props.patchWindow === undefined ? undefined : patchBudgets(this, props.patchWindow);

    this.nodeClass = typedApiObject(this, 'EC2NodeClass', Ec2NodeClass, {
      metadata: { name },
      spec: {
        amiSelectorTerms: [{ alias: karpenterWindowsAlias(version) }],
        role,
        subnetSelectorTerms: [{ tags: subnetTags ?? { [`kubernetes.io/cluster/${clusterName}`]: 'shared', 'kubernetes.io/role/internal-elb': '1' } }],
        // The security group EKS creates for the cluster and tags itself, `aws:eks:cluster-name: <name>`
        // (EKS User Guide, networking/sec-group-reqs.adoc): the one managed node groups' nodes get too,
        // since HybridEksCluster adds none of its own. Nothing else can write an `aws:` key.
        securityGroupSelectorTerms: [{ tags: securityGroupTags ?? { 'aws:eks:cluster-name': clusterName } }],
        ...(userData === undefined ? {} : { userData }),
        ...(clusterDns === undefined ? {} : { kubelet: { clusterDns: [clusterDns] } }),
      },
    });
    const requirement = (key: string, values: readonly string[]) => ({ key, operator: Operator.IN, values: [...values] });
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
              requirement('karpenter.sh/capacity-type', capacityTypes ?? ['on-demand']),
              ...(instanceTypes === undefined ? [] : [requirement('node.kubernetes.io/instance-type', instanceTypes)]),
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
