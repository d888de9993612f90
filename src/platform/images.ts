import { WindowsEdition, WindowsVersion } from './windows';

/**
 * Public AMI publishers and their image names, as EC2 `DescribeImages` filters them (owner-id and
 * name, with `*` wildcards). Shared by CAPA's image lookup on the cluster side and documentation
 * on the AWS side.
 */
export const AMI_OWNERS = {
  /** Canonical's account for the official Ubuntu images (Ubuntu on AWS docs, "Find Ubuntu images"). */
  canonical: '099720109477',
  /** Amazon's account for the Windows Server base images (the `amazon` owner alias of `Windows_Server-*`). */
  amazonWindows: '801119661308',
} as const;

/**
 * Canonical's Ubuntu 24.04 LTS server images on gp3 volumes, for either architecture: the name
 * holds `amd64` or `arm64`, and CAPA adds an `architecture` filter of the instance type's own.
 */
export const UBUNTU_2404_NAME_PATTERN = 'ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-*-server-*';

/** Amazon's English Windows Server base images: `Windows_Server-2022-English-Core-Base-2025.01.15`. */
export function windowsServerNamePattern(version: WindowsVersion, edition: WindowsEdition): string {
  return `Windows_Server-${version}-English-${edition}-Base-*`;
}
