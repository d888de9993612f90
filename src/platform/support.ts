import { WindowsVersion } from './windows';

/** The ways this library runs Windows workers. */
export enum WindowsPlatform {
  /** Cluster API + k0smotron on AWS (`HybridCluster`). */
  K0SMOTRON_AWS = 'k0smotron-aws',
  /** Amazon EKS managed node groups (`cdk-hybrid-windows/eks`). */
  EKS = 'eks',
}

/** Whether a platform supports a Windows Server release as a worker, and from which version. */
export interface WindowsSupport {
  /** Documented as supported upstream. */
  readonly supported: boolean;
  /**
   * The oldest platform version that runs this release, in the platform's own notation
   * (k0s `vX.Y.Z+k0s.N`, EKS Kubernetes `1.NN`).
   */
  readonly minimumVersion?: string;
  /** Where upstream says so (repository/path@version or documentation page). */
  readonly source: string;
}

/**
 * Platform × Windows release support, the one table every check reads. Rows are filled from
 * upstream documentation; each row's `source` says where.
 */
export const WINDOWS_SUPPORT: Readonly<Record<WindowsPlatform, Readonly<Record<WindowsVersion, WindowsSupport>>>> = {
  [WindowsPlatform.K0SMOTRON_AWS]: {
    [WindowsVersion.SERVER_2019]: { supported: true, minimumVersion: 'v1.34.2+k0s.0', source: 'k0sproject/k0s docs/windows.md (v1.34); k0smotron v1beta2 windows provisioner' },
    [WindowsVersion.SERVER_2022]: { supported: true, minimumVersion: 'v1.34.2+k0s.0', source: 'k0sproject/k0s docs/windows.md (v1.34); k0smotron v1beta2 windows provisioner' },
    [WindowsVersion.SERVER_2025]: { supported: false, source: 'k0sproject/k0s docs/windows.md (v1.34) lists Windows Server 2019 and 2022 only' },
  },
  [WindowsPlatform.EKS]: {
    [WindowsVersion.SERVER_2019]: { supported: true, source: 'to be verified (issue 10)' },
    [WindowsVersion.SERVER_2022]: { supported: true, source: 'to be verified (issue 10)' },
    [WindowsVersion.SERVER_2025]: { supported: true, minimumVersion: '1.35', source: 'to be verified (issue 10)' },
  },
};

/** The support row for one platform and release. */
export function windowsSupport(platform: WindowsPlatform, version: WindowsVersion): WindowsSupport {
  return WINDOWS_SUPPORT[platform][version];
}
