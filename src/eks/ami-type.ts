import { WindowsEdition, WindowsVersion } from '../platform/windows';

/**
 * EKS managed node group AMI types for Windows, one per (release, installation option): the
 * `AMITypes` enum of the EKS API (CreateNodegroup `amiType`, aws/aws-sdk-go-v2
 * service/eks/types/enums.go). "Full" is Desktop Experience. Looking the type up here from the
 * `WindowsEdition` the user chose makes swapping Core and Full (terraform-aws-eks#3736) impossible.
 */
export const EKS_WINDOWS_AMI_TYPES: Readonly<Record<WindowsVersion, Readonly<Record<WindowsEdition, string>>>> = {
  [WindowsVersion.SERVER_2019]: { [WindowsEdition.CORE]: 'WINDOWS_CORE_2019_x86_64', [WindowsEdition.FULL]: 'WINDOWS_FULL_2019_x86_64' },
  [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'WINDOWS_CORE_2022_x86_64', [WindowsEdition.FULL]: 'WINDOWS_FULL_2022_x86_64' },
  [WindowsVersion.SERVER_2025]: { [WindowsEdition.CORE]: 'WINDOWS_CORE_2025_x86_64', [WindowsEdition.FULL]: 'WINDOWS_FULL_2025_x86_64' },
};

/** Amazon Linux 2023 AMI types by CPU architecture (`kubernetes.io/arch`). */
export const EKS_LINUX_AMI_TYPES = { amd64: 'AL2023_x86_64_STANDARD', arm64: 'AL2023_ARM_64_STANDARD' } as const;

/**
 * The node group AMI type of a Windows release and edition.
 * @internal
 */
export function eksWindowsAmiType(version: WindowsVersion, edition: WindowsEdition): string {
  return EKS_WINDOWS_AMI_TYPES[version][edition];
}

/**
 * The Windows release and edition of an AMI type, or undefined when it is not a Windows type.
 * @internal
 */
export function parseEksWindowsAmiType(amiType: unknown): { version: WindowsVersion; edition: WindowsEdition } | undefined {
  for (const version of Object.values(WindowsVersion)) {
    for (const edition of Object.values(WindowsEdition)) {
      if (EKS_WINDOWS_AMI_TYPES[version][edition] === amiType) return { version, edition };
    }
  }
  return undefined;
}
