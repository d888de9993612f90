import { choice, optional, text } from '../core/props-spec';
import { fail } from '../core/errors';
import { EKS_WINDOWS_TAINT, NodeAccessEntryType, eksWindowsAmiType } from '../platform/eks';
import { isUnresolvedToken } from '../core/tokens';
import { LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_NODE_TAINT, WINDOWS_RELEASES, WindowsEdition, WindowsVersion } from '../platform/windows';
import { WINDOWS_VERSION_ENTRY, windowsRelease } from '../terraform/managed-node-pool';
import { asgNodeTemplateTags } from '../platform/cluster-autoscaler';
import type { HybridEksCluster } from './eks-cluster';
import { EKS_NODE_GROUP_OPTIONS, EksNodeGroupBase, EksNodeGroupOptions, EksOsPart, eksNodeGroupSpec } from './node-group';
import { AutoscalingGroupTag } from '../terraform/providers/aws';
import { EC2_USER_DATA_MAX_BYTES } from '../platform/aws';

/** Props of `EksWindowsNodeGroup`: those of every managed node group, the Windows release and edition, and PowerShell to run before the bootstrap. */
export interface EksWindowsNodeGroupProps extends EksNodeGroupOptions {
  /**
   * The Windows Server release of the nodes; with `edition` it picks the AMI type
   * (`EKS_WINDOWS_AMI_TYPES`). Process-isolated containers need images of the same release.
   * Windows Server 2025 needs Kubernetes 1.35 or newer and a newer provider than
   * `@cdktf/provider-aws` 21 pins (docs/eks.md).
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

/**
 * The spec of `EksWindowsNodeGroupProps`.
 * @internal
 */
export const EKS_WINDOWS_NODE_GROUP_PROPS = eksNodeGroupSpec<EksWindowsNodeGroupProps>('EksWindowsNodeGroup', {
  ...EKS_NODE_GROUP_OPTIONS,
  windowsVersion: WINDOWS_VERSION_ENTRY,
  edition: optional(choice(WindowsEdition, 'WindowsEdition')),
  // The script goes into the user data, which `eks-node-group` holds to EC2's 16 KB in bytes.
  preBootstrapPowerShell: optional(text({ max: EC2_USER_DATA_MAX_BYTES, form: 'a PowerShell script', example: 'Set-TimeZone -Id UTC', multiline: true, judgedBy: 'eks-node-group' })),
});

/**
 * A managed node group of EKS-optimized Windows Server nodes: the AMI type from
 * (`windowsVersion`, `edition`), the `os=windows:NoSchedule` taint the workload constructs
 * tolerate, a node role of its own with an `EC2_WINDOWS` access entry, IMDSv2,
 * and optional PowerShell before the bootstrap. Checked at synth on the final Terraform JSON.
 */
export class EksWindowsNodeGroup extends EksNodeGroupBase<EksWindowsNodeGroupProps> {
  /**
   * Tags on the group's Auto Scaling group that tell cluster-autoscaler its nodes' OS, build and
   * taint, so that it scales the group up from zero for Windows pods and never for Linux ones.
   */
  public readonly autoscalerTags: readonly AutoscalingGroupTag[];

  public constructor(cluster: HybridEksCluster, id: string, props: EksWindowsNodeGroupProps) {
    super(cluster, id, EKS_WINDOWS_NODE_GROUP_PROPS, props);
    // EKS User Guide, windows-support.adoc: a node role of its own gets an EC2_WINDOWS entry from
    // EKS. Groups with a launch template (all of ours) have been given EC2_LINUX instead
    // (aws/containers-roadmap#2327, terraform-aws-eks#2994), so the entry is created here, before
    // the group, and EKS finds it; the same call covers a role shared with Linux groups.
    cluster.addNodeAccessEntry(`${id}AccessEntry`, this.resources.nodeRole, NodeAccessEntryType.EC2_WINDOWS);

    // cluster-autoscaler builds the template node of an empty group from the ASG's tags, as Linux
    // unless they say otherwise (kubernetes/autoscaler cluster-autoscaler-1.36.1
    // cloudprovider/aws/aws_manager.go, buildNodeFromTemplate). EKS copies no node group tag to
    // its ASG, so each is a tag of its own on the ASG EKS made.
    const asgName = this.resources.nodeGroup.resources.get(0).autoscalingGroups.get(0).name;
    const tags = asgNodeTemplateTags({ [LABEL_OS]: 'windows', [LABEL_WINDOWS_BUILD]: WINDOWS_RELEASES[this.os.windowsVersion!].build }, [WINDOWS_NODE_TAINT]);
    this.autoscalerTags = Object.entries(tags).map(([key, value], i) => new AutoscalingGroupTag(this, `AutoscalerTag${i}`, {
      autoscalingGroupName: asgName,
      tag: { key, value, propagateAtLaunch: false },
    }));
  }

  protected osPart(props: EksWindowsNodeGroupProps): EksOsPart {
    const version = windowsRelease(props);
    const script = props.preBootstrapPowerShell;
    if (script !== undefined && (isUnresolvedToken(script) || /<\/?powershell>/i.test(script))) {
      fail(this, 'preBootstrapPowerShell holds a deploy-time token or <powershell> tags', 'pass the plain script; the construct adds the tags');
    }
    return {
      windowsVersion: version,
      amiType: eksWindowsAmiType(version, props.edition ?? WindowsEdition.CORE),
      rootDevice: '/dev/sda1',
      // EKS's default for Windows (CreateNodegroup diskSize), above the AMI's EKS_ROOT_SNAPSHOT_GIB.windows.
      defaultDiskSizeGiB: 50,
      taints: [EKS_WINDOWS_TAINT],
      // EKS User Guide, launch-templates.adoc ("Windows"): with no AMI id in the launch template,
      // EKS keeps the user data's <powershell> block and runs its Start-EKSBootstrap.ps1 after it.
      userData: script === undefined ? undefined : Buffer.from(`<powershell>\n${script}\n</powershell>\n`).toString('base64'),
      propsOfFields: { 'aws_eks_node_group ami_type': 'windowsVersion', 'aws_launch_template user_data': 'preBootstrapPowerShell' },
    };
  }
}
