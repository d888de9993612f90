import { WindowsEdition, WindowsVersion } from '../platform/windows';

/**
 * What the AWS stack deployed and the cluster objects consume: the typed hand-off between the
 * cdktf side (`HybridClusterInfra`) and the cdk8s side (`HybridCluster`).
 */
export interface ClusterInfraProps {
  /** AWS region the infrastructure lives in. */
  readonly region: string;
  /** Id of the VPC the cluster uses (CAPA bring-your-own network). */
  readonly vpcId: string;
  /** Public subnets (load balancers, NAT), at least one per availability zone. */
  readonly publicSubnetIds: readonly string[];
  /** Private subnets (nodes), at least one per availability zone. */
  readonly privateSubnetIds: readonly string[];
  /** IAM instance profile for control-plane machines. */
  readonly controlPlaneInstanceProfile: string;
  /** IAM instance profile for worker machines. */
  readonly nodeInstanceProfile: string;
  /** AMI for the control plane and Linux workers. */
  readonly linuxAmiId: string;
  /** Windows AMIs that were looked up, by version and edition. */
  readonly windowsAmiIds: Readonly<Partial<Record<WindowsVersion, Readonly<Partial<Record<WindowsEdition, string>>>>>>;
  /**
   * EC2 key pair imported by the stack, if any.
   * @default - none
   */
  readonly sshKeyName?: string;
}

/** Deployed AWS infrastructure for one cluster. */
export class ClusterInfra {
  public readonly region: string;
  public readonly vpcId: string;
  public readonly publicSubnetIds: readonly string[];
  public readonly privateSubnetIds: readonly string[];
  public readonly controlPlaneInstanceProfile: string;
  public readonly nodeInstanceProfile: string;
  public readonly linuxAmiId: string;
  public readonly windowsAmiIds: ClusterInfraProps['windowsAmiIds'];
  public readonly sshKeyName?: string;

  public constructor(props: ClusterInfraProps) {
    this.region = props.region;
    this.vpcId = props.vpcId;
    this.publicSubnetIds = props.publicSubnetIds;
    this.privateSubnetIds = props.privateSubnetIds;
    this.controlPlaneInstanceProfile = props.controlPlaneInstanceProfile;
    this.nodeInstanceProfile = props.nodeInstanceProfile;
    this.linuxAmiId = props.linuxAmiId;
    this.windowsAmiIds = props.windowsAmiIds;
    this.sshKeyName = props.sshKeyName;
  }

  /** The Windows AMI for a version and edition, if the stack looked it up. */
  public windowsAmiId(version: WindowsVersion, edition: WindowsEdition): string | undefined {
    return this.windowsAmiIds[version]?.[edition];
  }
}
