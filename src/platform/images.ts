import { AwsPartitionId } from './aws';
import { WindowsEdition, WindowsVersion } from './windows';

/**
 * Public AMI publishers and their image names, as EC2 `DescribeImages` filters them (owner-id and
 * name, with `*` wildcards). Shared by CAPA's image lookup on the cluster side and documentation
 * on the AWS side.
 */
export interface ImagePublisher {
  /** Whose images, for messages. */
  readonly name: string;
  /**
   * The publisher's account in each partition where it is documented. CAPA filters on `owner-id`,
   * which takes an account id only (no `amazon` alias), and each partition has its own accounts.
   */
  readonly owners: Readonly<Partial<Record<AwsPartitionId, string>>>;
}

export const IMAGE_PUBLISHERS = {
  /**
   * Canonical's official Ubuntu images: 099720109477 in `aws` (Ubuntu on AWS docs, "Find Ubuntu
   * images"), 513442679011 in GovCloud (cluster-api-provider-aws v2.11.1
   * pkg/cloud/services/ec2/ami.go, ubuntuOwnerID and ubuntuOwnerIDUsGov).
   */
  canonical: { name: 'Canonical\'s Ubuntu images', owners: { 'aws': '099720109477', 'aws-us-gov': '513442679011' } },
  /** Amazon's Windows Server base images in `aws` (the account behind the `amazon` alias of `Windows_Server-*`). */
  amazonWindows: { name: 'Amazon\'s Windows Server images', owners: { aws: '801119661308' } },
} as const satisfies Record<string, ImagePublisher>;

/**
 * Canonical's Ubuntu 24.04 LTS server images on gp3 volumes, for either architecture: the name
 * holds `amd64` or `arm64`, and CAPA adds an `architecture` filter of the instance type's own.
 */
export const UBUNTU_2404_NAME_PATTERN = 'ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-*-server-*';

/** Amazon's English Windows Server base images: `Windows_Server-2022-English-Core-Base-2025.01.15`. */
export function windowsServerNamePattern(version: WindowsVersion, edition: WindowsEdition): string {
  return `Windows_Server-${version}-English-${edition}-Base-*`;
}

/**
 * Root snapshot of Amazon's Windows Server base images, in GiB (DescribeImages BlockDeviceMappings
 * of `Windows_Server-*-English-*-Base-*`: 30). EC2 refuses a root volume smaller than its image's
 * snapshot (RunInstances: InvalidBlockDeviceMapping, "Volume of size N is smaller than snapshot"),
 * so CAPA would fail to launch every machine.
 */
export const WINDOWS_BASE_AMI_ROOT_GIB = 30;
/**
 * The smallest root volume CAPA accepts (cluster-api-provider-aws v2.11.1 api/v1beta2/types.go,
 * Volume.Size: minimum 8, "must be greater than the image snapshot size or 8").
 */
export const CAPA_MIN_ROOT_VOLUME_GIB = 8;
/** gp3's largest volume, in GiB (EBS volume types). */
export const GP3_MAX_VOLUME_GIB = 16384;
