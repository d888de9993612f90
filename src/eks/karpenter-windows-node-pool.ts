import { isIPv4 } from 'node:net';
import { ApiObject } from 'cdk8s';
import { choice, list, optional, positive, propsSpec, record, required, stringRecord, text, whole } from '../core/props-spec';
import { refuse } from '../core/values';
import { Construct } from 'constructs';
import { Ec2NodeClass } from '../generated/karpenter-karpenter.k8s.aws';
import { NodePool, NodePoolSpecDisruptionBudgets, NodePoolSpecDisruptionBudgetsReasons as Reason, NodePoolSpecLimits, NodePoolSpecTemplateSpecRequirementsOperator as Operator, NodePoolSpecTemplateSpecTaintsEffect as TaintEffect } from '../generated/karpenter-karpenter.sh';
import { typedApiObject } from '../core/typed-api-object';
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

/** Why `role`'s name (after any path: Karpenter takes the part after the last "/" as the role's name) is no IAM role name. */
function roleProblem(role: string): string | undefined {
  // pkg/providers/instanceprofile/instanceprofile.go, before AddRoleToInstanceProfile.
  const name = role.slice(role.lastIndexOf('/') + 1);
  if (IAM_ROLE_NAME.test(name)) return undefined;
  return name === role ? iamRoleNameProblem(name) : `names the role ${JSON.stringify(name)}, which ${iamRoleNameProblem(name)}`;
}

/** Why an instance type cannot carry the pool's Windows nodes: no EC2 type name, or not amd64 or too small (`windowsInstanceTypeProblem`). */
function instanceTypeProblem(name: string): string | { what: string; fix: string } | undefined {
  const parsed = InstanceType.parse(name);
  // A family this library does not know is Karpenter's to judge: it matches what EC2 offers.
  if (typeof parsed === 'string') return /^[a-z0-9-]+\.[a-z0-9-]+$/.test(name) ? undefined : 'is not an EC2 instance type name';
  const problem = windowsInstanceTypeProblem(parsed);
  return problem && { what: `${problem.what.replace(/^instance type \S+ /, '')}, and the pool requires ${LABEL_ARCH} amd64, so Karpenter never launches it`, fix: problem.fix };
}

/** Why a capacity type matches no offering: one Karpenter does not know, or in another case. */
function capacityTypeProblem(type: string): { what: string; fix: string } | undefined {
  if ((KARPENTER_CAPACITY_TYPES as readonly string[]).includes(type)) return undefined;
  const known = KARPENTER_CAPACITY_TYPES.find((k) => k === type.toLowerCase());
  return {
    what: `is not a capacity type Karpenter knows (${KARPENTER_CAPACITY_TYPES.join(', ')}), so the requirement matches no offering and no node launches`,
    fix: known ? `write "${known}"` : `use ${KARPENTER_CAPACITY_TYPES.map((k) => `"${k}"`).join(' or ')}`,
  };
}

/** Why a memory limit is refused by the NodePool CRD (spec.limits: a Kubernetes quantity), with the quantity meant by "256GB". */
function quantityProblem(memory: string): { what: string; fix: string } | undefined {
  if (KARPENTER_PATTERNS.quantity.test(memory)) return undefined;
  const binary = /[KMGTPE]B$/i.test(memory) ? ` ("${memory.replace(/B$/i, 'i')}" for ${memory.replace(/B$/i, '')}iB)` : '';
  return { what: 'is not a Kubernetes quantity, which the NodePool CRD refuses (spec.limits)', fix: `write it with a binary or decimal suffix, e.g. "256Gi" or "256G"${binary}` };
}

/** The spec of `KarpenterPatchWindow`. */
const PATCH_WINDOW = propsSpec<KarpenterPatchWindow>('KarpenterPatchWindow', {
  weekday: optional(whole(0, 6)),
  hour: required(whole(0, 23), 'give the UTC hour the window opens, 0-23'),
  // At most a week less an hour; a daily window at most 23 (the construct checks it against weekday).
  hours: required(whole(1, HOURS_PER.week - 1), 'give how many hours it stays open, 1-23 for a daily window, 1-167 for a weekly one'),
  // The NodePool CRD's pattern for a budget's nodes (karpenter.sh_nodepools.yaml, budgets[].nodes).
  nodes: optional(text({
    max: 16, pattern: KARPENTER_PATTERNS.budgetNodes, form: 'a count ("1") or a share of at most 100% ("20%"), as the NodePool CRD takes it (budgets[].nodes)',
    fix: 'give a count of nodes as a string, e.g. "1", or a percentage from "0%" to "100%"',
  })),
});

/**
 * The spec of `KarpenterWindowsNodePoolProps`: each prop in the form Karpenter, its CRDs (the
 * pinned karpenter.sh_nodepools.yaml and karpenter.k8s.aws_ec2nodeclasses.yaml) or EC2 take it.
 * @internal
 */
export const KARPENTER_WINDOWS_NODE_POOL_PROPS = propsSpec<KarpenterWindowsNodePoolProps>('KarpenterWindowsNodePool', {
  clusterName: required(text({
    max: EKS_LIMITS.clusterName.max, pattern: EKS_LIMITS.clusterName.pattern, form: 'an EKS cluster name (letters, digits, - and _)', example: 'shop',
    fix: 'give the EKS cluster\'s name, e.g. HybridEksStack clusterName: the default selectors look for its tags',
  }), 'give the EKS cluster\'s name, e.g. HybridEksStack clusterName: the default selectors look for its tags'),
  // An IAM role name, or a path and name (IAM: a path of at most 512 characters).
  role: required(text({ max: 512 + 64, form: 'an IAM role name', example: 'KarpenterNodeRole-shop', problem: roleProblem, fix: 'give the node role\'s name (KarpenterWindowsNodeRole roleName)' }),
    'give the node role\'s name (KarpenterWindowsNodeRole roleName)'),
  limits: required(record(propsSpec<KarpenterLimits>('KarpenterLimits', {
    cpu: required(positive('give the most vCPUs the pool may launch, e.g. 64'), 'give the most vCPUs the pool may launch, e.g. 64'),
    memory: optional(text({ max: 64, form: 'a Kubernetes quantity', example: '256Gi', problem: quantityProblem })),
  })), 'give e.g. { cpu: 64, memory: "256Gi" }'),
  windowsVersion: optional(choice(WindowsVersion, 'WindowsVersion')),
  name: optional(text({ max: 253, form: 'a NodePool name', example: 'windows', judgedBy: 'object-meta' })),
  instanceTypes: optional(list(text({ max: 64, form: 'an EC2 instance type name', example: 'm6i.xlarge', problem: instanceTypeProblem, fix: 'give names such as m6i.xlarge' }))),
  capacityTypes: optional(list(text({ max: 32, form: `a capacity type Karpenter knows (${KARPENTER_CAPACITY_TYPES.join(', ')})`, example: 'on-demand', problem: capacityTypeProblem }), { min: 1 })),
  patchWindow: optional(record(PATCH_WINDOW)),
  subnetTags: optional(stringRecord()),
  // EC2 takes at most 16 KB of user data before base64 (EC2 User Guide, user-data.html), Karpenter's bootstrap included.
  userData: optional(text({
    max: 16 * 1024, min: 0, multiline: true, form: 'PowerShell commands',
    problem: (script) => KARPENTER_WINDOWS_USER_DATA.notPowerShell.test(script) || /<\/?powershell>/i.test(script)
      ? 'is a shell script, a MIME document or has <powershell> tags, and Karpenter writes it inside the node\'s <powershell> block' : undefined,
    fix: 'give PowerShell commands only, without a #! line or <powershell> tags',
  })),
  clusterDns: optional(text({
    max: 64, form: 'an IPv4 address', example: '172.20.0.10', problem: (ip) => isIPv4(ip) ? undefined : 'is not an IPv4 address (Windows nodes are IPv4 only)',
    fix: 'give the kube-dns Service\'s cluster IP, e.g. 172.20.0.10',
  })),
  securityGroupTags: optional(stringRecord()),
});

/**
 * The budgets of a patch window: 0 drifted nodes from the window's end to its next start (cron
 * cannot say "outside", so the closed span is the window's complement), `nodes` inside it; the
 * other reasons keep Karpenter's default of 10%.
 */
function patchBudgets(path: string, window: KarpenterPatchWindow): NodePoolSpecDisruptionBudgets[] {
  const { weekday, hour, hours } = window;
  const period = weekday === undefined ? HOURS_PER.day : HOURS_PER.week;
  if (hours > period - 1) refuse({ path, prop: 'patchWindow.hours' }, `${hours} is above ${period - 1}, the most a daily window stays open`, 'give how many hours it stays open, 1-23, or a weekday for a weekly window');
  const start = (weekday ?? 0) * 24 + hour;
  const end = (start + hours) % period;
  const schedule = `0 ${end % 24} * * ${weekday === undefined ? '*' : Math.floor(end / 24)}`;
  return [
    { nodes: '10%' },
    { nodes: '0', reasons: [Reason.DRIFTED], schedule, duration: `${period - hours}h` },
    { nodes: window.nodes ?? '1', reasons: [Reason.DRIFTED] },
  ];
}

/** Which prop sets which field, for messages at construction. */
const PROPS_OF_FIELDS = {
  'EC2NodeClass metadata.name': 'name',
  'NodePool metadata.name': 'name',
  'NodePool spec.template.spec.nodeClassRef.name': 'name',
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

  public constructor(scope: Construct, id: string, given: KarpenterWindowsNodePoolProps) {
    super(scope, id);
    const props = KARPENTER_WINDOWS_NODE_POOL_PROPS.parse(this.node.path, given);
    const version = props.windowsVersion ?? WindowsVersion.SERVER_2022;
    const { clusterName, role, instanceTypes, capacityTypes, subnetTags, securityGroupTags, userData, clusterDns } = props;
    const limits: Record<string, NodePoolSpecLimits> = {
      cpu: NodePoolSpecLimits.fromNumber(props.limits.cpu),
      ...(props.limits.memory === undefined ? {} : { memory: NodePoolSpecLimits.fromString(props.limits.memory) }),
    };
    const name = props.name ?? id;
    const budgets = props.patchWindow === undefined ? undefined : patchBudgets(this.node.path, props.patchWindow);

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
