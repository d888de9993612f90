import { Construct } from 'constructs';
import { fail, problem } from '../platform/errors';
import { InstanceType, windowsInstanceTypeProblem } from '../platform/instance-type';
import { WindowsPlatform, windowsSupport } from '../platform/support';
import { isUnresolvedToken } from '../platform/tokens';
import { WINDOWS_NODE_TAINT, WindowsEdition, WindowsVersion } from '../platform/windows';
import { eksWindowsAmiType, parseEksWindowsAmiType } from './ami-type';
import { type HybridEksCluster, NodeAccessEntryType } from './eks-cluster';
import { EksNodeGroupOptions, NodeGroupParts, createNodeGroup } from './node-group';
import { EKS_WINDOWS_2025_PROVIDER, EKS_WINDOWS_2025_PROVIDER_ADVICE, admitsVersionAtLeast } from './provider-version';
import { blockOf, synthesizedStack } from './synthesized';

/** Props of `EksWindowsNodeGroup`: those of every managed node group, the Windows release and edition, and PowerShell to run before the bootstrap. */
export interface EksWindowsNodeGroupProps extends EksNodeGroupOptions {
  /**
   * The Windows Server release of the nodes; with `edition` it picks the AMI type
   * (`EKS_WINDOWS_AMI_TYPES`). Process-isolated containers need images of the same release.
   * Windows Server 2025 needs Kubernetes 1.35 or newer and hashicorp/aws 6.32 or newer: CDK
   * Terrain's `@cdktn/provider-aws` 25 wraps 6.66, cdktf's `@cdktf/provider-aws` 21 pins 6.25
   * (docs/eks.md).
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
  /**
   * Server Core or Full (Desktop Experience); part of the AMI type.
   * @default WindowsEdition.CORE
   */
  readonly edition?: WindowsEdition;
  /**
   * PowerShell each node runs before EKS's bootstrap joins it to the cluster: the launch
   * template's user data in `<powershell>` tags, after which EKS runs its own bootstrap.
   * @default - none
   */
  readonly preBootstrapPowerShell?: string;
}

/** Kubernetes taint effects as the EKS API spells them (CreateNodegroup `taints[].effect`). */
const EKS_TAINT_EFFECT: Readonly<Record<string, string>> = { NoSchedule: 'NO_SCHEDULE', NoExecute: 'NO_EXECUTE', PreferNoSchedule: 'PREFER_NO_SCHEDULE' };
/** `WINDOWS_NODE_TAINT`, which the workload constructs tolerate, in EKS's spelling. */
export const EKS_WINDOWS_TAINT = { key: WINDOWS_NODE_TAINT.key, value: WINDOWS_NODE_TAINT.value, effect: EKS_TAINT_EFFECT[WINDOWS_NODE_TAINT.effect] };

/**
 * EKS User Guide, launch-templates.adoc ("Windows user data"): with no AMI id in the launch
 * template, EKS puts its own bootstrap after the user's PowerShell in one <powershell> block, and
 * the user data must not run the bootstrap script itself.
 */
const BOOTSTRAP_CALL = /Start-EKSBootstrap/i;
const POWERSHELL_BLOCK = /^\s*<powershell>[\s\S]*<\/powershell>\s*$/;

/**
 * A managed node group of EKS-optimized Windows Server nodes: the AMI type from
 * (`windowsVersion`, `edition`), the `os=windows:NoSchedule` taint the workload constructs
 * tolerate, a node role of its own with an `EC2_WINDOWS` access entry, IMDSv2,
 * and optional PowerShell before the bootstrap. Checked at synth on the final Terraform JSON.
 */
export class EksWindowsNodeGroup extends Construct {
  /** The node group, its launch template and its role, for their attributes and for escape hatches. */
  public readonly parts: NodeGroupParts;
  private readonly cluster: HybridEksCluster;

  public constructor(cluster: HybridEksCluster, id: string, props: EksWindowsNodeGroupProps) {
    super(cluster, id);
    this.cluster = cluster;
    const version = props.windowsVersion ?? WindowsVersion.SERVER_2022;
    const edition = props.edition ?? WindowsEdition.CORE;
    if (!Object.values(WindowsVersion).includes(version)) fail(this, `windowsVersion "${version}" is not a WindowsVersion`, `use one of ${Object.values(WindowsVersion).join(', ')}`);
    if (!Object.values(WindowsEdition).includes(edition)) fail(this, `edition "${edition}" is not a WindowsEdition`, `use one of ${Object.values(WindowsEdition).join(', ')}`);
    const script = props.preBootstrapPowerShell;
    if (script !== undefined && (isUnresolvedToken(script) || /<\/?powershell>/i.test(script))) {
      fail(this, 'preBootstrapPowerShell holds a deploy-time token or <powershell> tags', 'pass the plain script; the construct adds the tags');
    }
    if (script !== undefined && BOOTSTRAP_CALL.test(script)) {
      fail(this, 'preBootstrapPowerShell calls Start-EKSBootstrap.ps1, which EKS runs itself right after the script', 'remove the call: EKS runs the bootstrap with its own arguments');
    }
    this.parts = createNodeGroup(this, cluster, props, {
      amiType: eksWindowsAmiType(version, edition),
      rootDevice: '/dev/sda1',
      defaultDiskSizeGiB: 50,
      taints: [EKS_WINDOWS_TAINT],
      // EKS User Guide, launch-templates.adoc ("Windows"): with no AMI id in the launch template,
      // EKS keeps the user data's <powershell> block and runs its Start-EKSBootstrap.ps1 after it.
      userData: script === undefined ? undefined : Buffer.from(`<powershell>\n${script}\n</powershell>\n`).toString('base64'),
    });
    // EKS User Guide, windows-support.adoc: a node role of its own gets an EC2_WINDOWS entry from
    // EKS. Groups with a launch template (all of ours) have been given EC2_LINUX instead
    // (aws/containers-roadmap#2327, terraform-aws-eks#2994), so the entry is created here, before
    // the group, and EKS finds it; the same call covers a role shared with Linux groups.
    cluster.addNodeAccessEntry(`${id}AccessEntry`, this.parts.nodeRole, NodeAccessEntryType.EC2_WINDOWS);
    this.node.addValidation({ validate: () => this.check() });
  }

  /** This group's rules, on its synthesized block (escape hatches included). */
  private check(): string[] {
    const tf = synthesizedStack(this);
    const group = blockOf(tf, this.parts.nodeGroup);
    const image = parseEksWindowsAmiType(group?.ami_type);
    if (group === undefined || image === undefined) return []; // removed, or no longer Windows
    const problems: string[] = [];

    const support = windowsSupport(WindowsPlatform.EKS, image.version);
    const k8s = String(group.version ?? blockOf(tf, this.cluster.cluster)?.version ?? '');
    const minor = /^1\.(\d+)$/.exec(k8s);
    if (!support.supported) {
      problems.push(problem(`AMI type ${group.ami_type}: EKS has no Windows Server ${image.version} nodes (${support.source})`, 'pick another windowsVersion'));
    } else if (support.minimumVersion !== undefined && minor && Number(minor[1]) < Number(support.minimumVersion.split('.')[1])) {
      problems.push(problem(
        `AMI type ${group.ami_type} needs Kubernetes ${support.minimumVersion} or newer, and the node group runs ${k8s} (${support.source})`,
        `raise kubernetesVersion to ${support.minimumVersion}, or use WindowsVersion.SERVER_2022`,
      ));
    }
    const userData = blockOf(tf, this.parts.launchTemplate)?.user_data;
    if (typeof userData === 'string' && !userData.includes('${')) { // a Terraform expression is known at apply only
      const text = Buffer.from(userData, 'base64').toString();
      const callsBootstrap = BOOTSTRAP_CALL.test(text);
      if (callsBootstrap || !POWERSHELL_BLOCK.test(text)) {
        problems.push(problem(
          `the launch template's user data (${JSON.stringify(text.slice(0, 40))}…) is ${callsBootstrap ? 'calling Start-EKSBootstrap.ps1, which EKS runs itself' : 'not one <powershell> block, the only user data EKS runs on Windows nodes before its bootstrap'}`,
          'set preBootstrapPowerShell instead of overriding user_data',
        ));
      }
    }
    const provider = tf.terraform.required_providers?.aws?.version;
    if (image.version === WindowsVersion.SERVER_2025 && typeof provider === 'string' && admitsVersionAtLeast(provider, EKS_WINDOWS_2025_PROVIDER) === false) {
      problems.push(problem(
        `AMI type ${group.ami_type} is unknown to hashicorp/aws ${provider}, whose AWS SDK predates the Windows Server 2025 AMI types (EKS API of 2026-02-11), so the plan fails with "expected ami_type to be one of"`,
        `use CDK Terrain's @cdktn/provider-aws 25 (hashicorp/aws 6.66), or allow a newer provider: stack.addOverride('terraform.required_providers.aws.version', '${EKS_WINDOWS_2025_PROVIDER_ADVICE}'), then terraform init -upgrade`,
      ));
    }
    for (const name of (group.instance_types ?? []) as string[]) {
      const type = InstanceType.parse(name);
      if (typeof type === 'string') continue; // a family this library does not know: EKS decides
      const verdict = windowsInstanceTypeProblem(type);
      if (verdict) problems.push(problem(verdict.what, verdict.fix));
    }
    const taints = (group.taint ?? []) as { key?: string; value?: string; effect?: string }[];
    if (!taints.some((t) => t.key === EKS_WINDOWS_TAINT.key && t.value === EKS_WINDOWS_TAINT.value && t.effect === EKS_WINDOWS_TAINT.effect)) {
      problems.push(problem(
        `the node group lacks the taint ${EKS_WINDOWS_TAINT.key}=${EKS_WINDOWS_TAINT.value}:${EKS_WINDOWS_TAINT.effect}, so Linux pods would be scheduled onto Windows nodes`,
        'keep the taint the construct sets (drop the override that changed it)',
      ));
    }
    return problems;
  }
}
