import { WindowsVersion } from './windows';

/** The ways this library runs Windows workers. */
export enum WindowsPlatform {
  /** Cluster API + k0smotron on AWS (`HybridCluster`). */
  K0SMOTRON_AWS = 'k0smotron-aws',
  /** Amazon EKS managed node groups (`cdk-hybrid-windows/eks`). */
  EKS = 'eks',
  /** Cluster API + k0smotron's RemoteMachine provider on hosts reached over SSH (`RemoteHybridCluster`). */
  K0SMOTRON_REMOTE = 'k0smotron-remote',
}

/** Whether a platform supports a Windows Server release as a worker, and from which version. */
export interface WindowsSupport {
  /** Documented as supported upstream. */
  readonly supported: boolean;
  /**
   * The oldest platform version that runs this release, in the platform's own notation (k0s
   * `vX.Y.Z+k0s.N`, EKS Kubernetes `1.NN`).
   * @default - every version the platform still supports
   */
  readonly minimumVersion?: string;
  /** Where upstream says so (repository, path, version). */
  readonly source: string;
}

const K0S_WINDOWS_DOC = 'k0sproject/k0s docs/experimental-windows.md (v1.34.9+k0s.0): "Supported Windows versions: Windows Server 2019 and Windows Server 2022"';
const K0SMOTRON_REMOTE_WINDOWS = 'k0smotron v2.1.0 docs/capi-remotemachine-windows.md: Windows Server 2019/2022 over SSH, provisioner windows/cloud-config, k0s v1.34.2+k0s.0 or newer';
const K0SMOTRON_WINDOWS = 'Windows workers exist only in k0smotron bootstrap.cluster.x-k8s.io/v1beta2 (provisioner windows/powershell-xml), with k0s v1.34.2+k0s.0 or newer';

// EKS User Guide (awsdocs/amazon-eks-user-guide latest/ug/nodes): retrieve-windows-ami-id.adoc lists the
// 2025, 2022 and 2019 releases of the EKS-optimized Windows AMIs; eks-ami-versions-windows.adoc lists the
// Windows Server 2025 Core and Full AMIs from 1.35-2026-01-22 on, none for Kubernetes 1.34 or older.
const EKS_WINDOWS_AMIS = 'EKS User Guide retrieve-windows-ami-id.adoc (Windows Server 2019, 2022, 2025) and eks-ami-versions-windows.adoc';

/** Platform × Windows release support, the one table every check reads; each row says where upstream says so. */
export const WINDOWS_SUPPORT: Readonly<Record<WindowsPlatform, Readonly<Record<WindowsVersion, WindowsSupport>>>> = {
  [WindowsPlatform.K0SMOTRON_AWS]: {
    [WindowsVersion.SERVER_2019]: { supported: true, minimumVersion: 'v1.34.2+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_WINDOWS}` },
    [WindowsVersion.SERVER_2022]: { supported: true, minimumVersion: 'v1.34.2+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_WINDOWS}` },
    [WindowsVersion.SERVER_2025]: { supported: false, source: K0S_WINDOWS_DOC },
  },
  [WindowsPlatform.K0SMOTRON_REMOTE]: {
    [WindowsVersion.SERVER_2019]: { supported: true, minimumVersion: 'v1.34.2+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_REMOTE_WINDOWS}` },
    [WindowsVersion.SERVER_2022]: { supported: true, minimumVersion: 'v1.34.2+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_REMOTE_WINDOWS}` },
    [WindowsVersion.SERVER_2025]: { supported: false, source: K0S_WINDOWS_DOC },
  },
  [WindowsPlatform.EKS]: {
    [WindowsVersion.SERVER_2019]: { supported: true, source: `${EKS_WINDOWS_AMIS}: 2019 AMIs for every supported Kubernetes version` },
    [WindowsVersion.SERVER_2022]: { supported: true, source: `${EKS_WINDOWS_AMIS}: 2022 AMIs for every supported Kubernetes version` },
    [WindowsVersion.SERVER_2025]: { supported: true, minimumVersion: '1.35', source: `${EKS_WINDOWS_AMIS}: the first 2025 AMIs are 1.35-2026-01-22` },
  },
};

/** The support row for one platform and release. */
export function windowsSupport(platform: WindowsPlatform, version: WindowsVersion): WindowsSupport {
  return WINDOWS_SUPPORT[platform][version];
}
