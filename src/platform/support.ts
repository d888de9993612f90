import { AKS_WINDOWS_2025_NEWEST_REFUSING } from './aks';
import { CALICO_WINDOWS_2025 } from './capz';
import { K0S_WINDOWS_RESET_SINCE } from './remote';
import { WINDOWS_NODE_TAINT, WindowsVersion } from './windows';

/** The ways this library runs Windows workers. */
export enum WindowsPlatform {
  /** Cluster API + k0smotron on AWS (`HybridCluster`). */
  K0SMOTRON_AWS = 'k0smotron-aws',
  /** Amazon EKS managed node groups (`cdk-hybrid-windows/eks`). */
  EKS = 'eks',
  /** Cluster API + k0smotron's RemoteMachine provider on hosts reached over SSH (`RemoteHybridCluster`). */
  K0SMOTRON_REMOTE = 'k0smotron-remote',
  /** Azure Kubernetes Service Windows node pools. */
  AKS = 'aks',
  /** Google Kubernetes Engine Windows node pools (Standard clusters, `cdk-hybrid-windows/gke`). */
  GKE = 'gke',
  /** k3s: no Windows agents (support rows only; docs/gke.md "k3s and RKE2"). */
  K3S = 'k3s',
  /** RKE2 with Windows agents, installed outside Cluster API (support rows only). */
  RKE2 = 'rke2',
  /** Cluster API's kubeadm bootstrap on Azure (Cluster API Provider Azure), Windows workers through cloudbase-init. */
  CAPZ = 'capz',
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
  /**
   * The newest platform version that still runs this release (AKS refuses Windows2019 pools from
   * Kubernetes 1.33 on), in the platform's own notation.
   * @default - every newer version too
   */
  readonly maximumVersion?: string;
  /** Where upstream says so (repository, path, version). */
  readonly source: string;
  /**
   * What works on this release only from a later platform version, each with that version and
   * where upstream says so.
   * @default - none
   */
  readonly caveats?: readonly string[];
}

const K0S_WINDOWS_DOC = 'k0sproject/k0s docs/experimental-windows.md (v1.34.9+k0s.0): "Supported Windows versions: Windows Server 2019 and Windows Server 2022"';
/**
 * The oldest k0s whose Windows workers k0smotron admits: its K0sWorkerConfig webhook refuses older
 * ones (k0smotron v2.1.0 api/bootstrap/v1beta2/k0s_types.go, minWindowsVersion). Windows pods get
 * a network only from a later one (K0S_WINDOWS_NETWORKING): the support rows' minimum.
 */
export const K0SMOTRON_WINDOWS_MINIMUM = 'v1.34.2+k0s.0';
const K0SMOTRON_REMOTE_WINDOWS = `k0smotron v2.1.0 docs/capi-remotemachine-windows.md: Windows Server 2019/2022 over SSH, provisioner windows/cloud-config, k0s ${K0SMOTRON_WINDOWS_MINIMUM} or newer in its docs`;
const K0SMOTRON_WINDOWS = `Windows workers exist only in k0smotron bootstrap.cluster.x-k8s.io/v1beta2 (provisioner windows/powershell-xml); its webhook refuses k0s below ${K0SMOTRON_WINDOWS_MINIMUM} (k0sproject/k0smotron v2.1.0 api/bootstrap/v1beta2/k0s_types.go, minWindowsVersion)`;
/**
 * Windows pod networking works from k0s v1.34.4+k0s.0 on: before v1.34.3 calico-node-windows wrote a
 * host CNI config pointing at c:/host/etc/cni/net.d/calico-kubeconfig, a path that exists only in
 * its container (fixed by k0sproject/k0s 6a3eb47c, first in v1.34.3+k0s.0,
 * static/manifests/calico/DaemonSet/calico-node-windows.yaml CNI_NET_DIR), and before v1.34.4 the
 * Windows pause image came from the frozen k8s.gcr.io (pkg/constant/constant.go
 * KubePauseWindowsContainerImage, registry.k8s.io from v1.34.4+k0s.0): pods stay in ContainerCreating.
 */
const K0S_WINDOWS_NETWORKING = 'k0sproject/k0s v1.34.3+k0s.0 static/manifests/calico/DaemonSet/calico-node-windows.yaml (CNI_NET_DIR /etc/cni/net.d, commit 6a3eb47c) and v1.34.4+k0s.0 pkg/constant/constant.go (KubePauseWindowsContainerImage registry.k8s.io/pause)';
/** k0s v1.34 registers `k0s reset` on Linux only (cmd/root_linux.go); v1.35.1+k0s.0 on every OS (cmd/root.go, pkg/cleanup/*_windows.go). */
const K0S_WINDOWS_RESET = `\`k0s reset\` runs on Windows only from ${K0S_WINDOWS_RESET_SINCE} (k0sproject/k0s v1.34.10+k0s.0 cmd/root_linux.go registers it on Linux only; ${K0S_WINDOWS_RESET_SINCE} cmd/root.go on every OS)`;

// EKS User Guide (awsdocs/amazon-eks-user-guide latest/ug/nodes): retrieve-windows-ami-id.adoc lists the
// 2025, 2022 and 2019 releases of the EKS-optimized Windows AMIs; eks-ami-versions-windows.adoc lists the
// Windows Server 2025 Core and Full AMIs from 1.35-2026-01-22 on, none for Kubernetes 1.34 or older.
const EKS_WINDOWS_AMIS = 'EKS User Guide retrieve-windows-ami-id.adoc (Windows Server 2019, 2022, 2025) and eks-ami-versions-windows.adoc';

const AKS_WINDOWS_DOCS = 'AKS docs "Windows Server node pools FAQ" and "Upgrade the OS version of Windows workloads" (learn.microsoft.com/azure/aks)';
// GKE: Windows Server node pools run only in Standard clusters with VPC-native networking, beside a
// Linux pool for the system components (GKE docs concepts/windows-server-gke, how-to/creating-a-cluster-windows).
const GKE_WINDOWS_DOCS = 'GKE docs concepts/windows-server-gke and how-to/creating-a-cluster-windows: Windows Server LTSC node pools (image type WINDOWS_LTSC_CONTAINERD) in Standard clusters only, not Autopilot';
const GKE_OS_VERSIONS = 'hashicorp/terraform-provider-google v7.45.0 google/services/container/node_config.go windows_node_config.osversion: OS_VERSION_UNSPECIFIED, OS_VERSION_LTSC2019, OS_VERSION_LTSC2022 (the API\'s WindowsNodeConfig.OSVersion)';
const GKE_LTSC_ONLY = 'GKE docs deprecations/windows-server-sac: from GKE 1.23 WINDOWS_LTSC_CONTAINERD is the only Windows Server image type for new node pools';
// k3s-io/k3s .github/workflows/release.yml (main, 051a497f) builds amd64, arm64 and arm binaries and
// linux/* images only; scripts/validate-cross-compilation (4765e097) builds k3s.exe only to check that
// downstream (RKE2's Windows agent) compiles, and deletes it.
const K3S_NO_WINDOWS = 'k3s publishes no Windows agent: k3s-io/k3s#114 (Windows agent support) is open, and k3s-io/k3s .github/workflows/release.yml builds Linux binaries only';
const RKE2_WINDOWS = 'RKE2 docs (docs.rke2.io install/quickstart, "Windows Agent (Worker) Node Installation"): Windows agents on Windows Server 2019 and 2022 (LTSC), with Calico or Flannel, joined to a Linux RKE2 server; not through Cluster API';

// CAPZ v1.26.0 azure/services/virtualmachineimages/images.go (GetDefaultWindowsImage): the default
// image is capi-win-2022-containerd; windows-2019 images only as the cncf-upstream marketplace
// images of Kubernetes up to 1.30.3 (oldWindows2019Versions); capi-win-2025-containerd is
// published (CAPZ #5317), but Calico, CAPZ's Windows CNI, does not run on it.
const CAPZ_WINDOWS_IMAGES = 'kubernetes-sigs/cluster-api-provider-azure v1.26.0 azure/services/virtualmachineimages/images.go (GetDefaultWindowsImage, oldWindows2019Versions), azure/defaults.go (DefaultWindowsGalleryImageName capi-win-2022-containerd)';

/** Platform × Windows release support, the one table every check reads; each row says where upstream says so. */
export const WINDOWS_SUPPORT: Readonly<Record<WindowsPlatform, Readonly<Record<WindowsVersion, WindowsSupport>>>> = {
  [WindowsPlatform.K0SMOTRON_AWS]: {
    [WindowsVersion.SERVER_2019]: { supported: true, minimumVersion: 'v1.34.4+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_WINDOWS}; ${K0S_WINDOWS_NETWORKING}`, caveats: [K0S_WINDOWS_RESET] },
    [WindowsVersion.SERVER_2022]: { supported: true, minimumVersion: 'v1.34.4+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_WINDOWS}; ${K0S_WINDOWS_NETWORKING}`, caveats: [K0S_WINDOWS_RESET] },
    [WindowsVersion.SERVER_2025]: { supported: false, source: K0S_WINDOWS_DOC },
  },
  [WindowsPlatform.K0SMOTRON_REMOTE]: {
    [WindowsVersion.SERVER_2019]: { supported: true, minimumVersion: 'v1.34.4+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_REMOTE_WINDOWS}; ${K0S_WINDOWS_NETWORKING}`, caveats: [K0S_WINDOWS_RESET] },
    [WindowsVersion.SERVER_2022]: { supported: true, minimumVersion: 'v1.34.4+k0s.0', source: `${K0S_WINDOWS_DOC}; ${K0SMOTRON_REMOTE_WINDOWS}; ${K0S_WINDOWS_NETWORKING}`, caveats: [K0S_WINDOWS_RESET] },
    [WindowsVersion.SERVER_2025]: { supported: false, source: K0S_WINDOWS_DOC },
  },
  [WindowsPlatform.EKS]: {
    [WindowsVersion.SERVER_2019]: { supported: true, source: `${EKS_WINDOWS_AMIS}: 2019 AMIs for every supported Kubernetes version` },
    [WindowsVersion.SERVER_2022]: { supported: true, source: `${EKS_WINDOWS_AMIS}: 2022 AMIs for every supported Kubernetes version` },
    [WindowsVersion.SERVER_2025]: { supported: true, minimumVersion: '1.35', source: `${EKS_WINDOWS_AMIS}: the first 2025 AMIs are 1.35-2026-01-22` },
  },
  // AKS, as the AKS documentation stood on 2026-11-25: "Windows Server node pools FAQ" and "Upgrade the
  // OS version of Windows workloads" (learn.microsoft.com/azure/aks), and Azure/AKS#5904 (2026-08-07).
  [WindowsPlatform.AKS]: {
    [WindowsVersion.SERVER_2019]: { supported: true, maximumVersion: '1.32', source: `${AKS_WINDOWS_DOCS}: Windows2019 is refused for new node pools on Kubernetes 1.33 and newer (MicrosoftDocs/azure-aks-docs fb060abe articles/aks/windows-faq.yml, includes/windows-server-2019-retirement.md; checked 2026-11-25)` },
    [WindowsVersion.SERVER_2022]: { supported: true, maximumVersion: '1.36', source: `${AKS_WINDOWS_DOCS}: Windows2022 is not supported on Kubernetes 1.37 and newer, and retires on 2028-06-30 (MicrosoftDocs/azure-aks-docs fb060abe articles/aks/includes/windows-server-2022-retirement.md, upgrade-os-version.md: Windows2022 "1.23 to 1.36"; checked 2026-11-25)` },
    [WindowsVersion.SERVER_2025]: {
      supported: true,
      minimumVersion: '1.32',
      source: `${AKS_WINDOWS_DOCS}; MicrosoftDocs/azure-aks-docs (fb060abe) articles/aks/upgrade-windows-os.md: "Windows Server 2025 is supported starting in Kubernetes version 1.32", upgrade-os-version.md: Windows2025 "1.32 and above", "Requires a FIPS-enabled image"; Azure/AKS#5904 (2026-08-07): Windows2025 is the only Windows SKU on 1.37+`,
      caveats: [`azurerm accepts no os_sku Windows2025 for node pools up to v${AKS_WINDOWS_2025_NEWEST_REFUSING.join('.')} (internal/services/containers/kubernetes_cluster_node_pool_resource.go; hashicorp/terraform-provider-azurerm#33451, #33463 open on 2026-11-25): the aks-provider-version rule`],
    },
  },
  [WindowsPlatform.GKE]: {
    [WindowsVersion.SERVER_2019]: { supported: true, minimumVersion: '1.23', source: `${GKE_WINDOWS_DOCS}; ${GKE_OS_VERSIONS} (OS_VERSION_LTSC2019); ${GKE_LTSC_ONLY}` },
    [WindowsVersion.SERVER_2022]: { supported: true, minimumVersion: '1.23', source: `${GKE_WINDOWS_DOCS}; ${GKE_OS_VERSIONS} (OS_VERSION_LTSC2022); ${GKE_LTSC_ONLY}` },
    [WindowsVersion.SERVER_2025]: { supported: false, source: `${GKE_OS_VERSIONS}: no 2025 release` },
  },
  [WindowsPlatform.K3S]: {
    [WindowsVersion.SERVER_2019]: { supported: false, source: K3S_NO_WINDOWS },
    [WindowsVersion.SERVER_2022]: { supported: false, source: K3S_NO_WINDOWS },
    [WindowsVersion.SERVER_2025]: { supported: false, source: K3S_NO_WINDOWS },
  },
  [WindowsPlatform.RKE2]: {
    [WindowsVersion.SERVER_2019]: { supported: true, source: RKE2_WINDOWS },
    [WindowsVersion.SERVER_2022]: { supported: true, source: RKE2_WINDOWS },
    [WindowsVersion.SERVER_2025]: { supported: false, source: RKE2_WINDOWS },
  },
  [WindowsPlatform.CAPZ]: {
    [WindowsVersion.SERVER_2019]: { supported: true, maximumVersion: '1.30', source: `${CAPZ_WINDOWS_IMAGES}: windows-2019 images for Kubernetes up to 1.30.3 only` },
    [WindowsVersion.SERVER_2022]: { supported: true, source: `${CAPZ_WINDOWS_IMAGES}: the default Windows image` },
    [WindowsVersion.SERVER_2025]: { supported: false, source: `${CAPZ_WINDOWS_IMAGES}; ${CALICO_WINDOWS_2025}` },
  },
};

/** A node taint: `key=value:Effect`. */
export interface NodeTaint {
  /** The taint's key. */
  readonly key: string;
  /** The taint's value. */
  readonly value: string;
  /** `NoSchedule`, `PreferNoSchedule` or `NoExecute`. */
  readonly effect: string;
}

/**
 * GKE's own taint on every Windows Server node (GKE docs "Deploy Windows Server applications":
 * node.kubernetes.io/os=windows:NoSchedule).
 */
export const GKE_WINDOWS_NODE_TAINT: NodeTaint = { key: 'node.kubernetes.io/os', value: 'windows', effect: 'NoSchedule' };

/**
 * The taint each platform's Windows nodes carry: this library's own (`WINDOWS_NODE_TAINT`) where
 * its pools make them, GKE's on GKE, none where the platform sets none or has no Windows nodes.
 */
const WINDOWS_NODE_TAINT_OF: Readonly<Record<WindowsPlatform, NodeTaint | undefined>> = {
  [WindowsPlatform.K0SMOTRON_AWS]: WINDOWS_NODE_TAINT,
  [WindowsPlatform.K0SMOTRON_REMOTE]: WINDOWS_NODE_TAINT,
  [WindowsPlatform.EKS]: WINDOWS_NODE_TAINT,
  // AKS itself taints nothing; the library's AKS Windows pools write this one.
  [WindowsPlatform.AKS]: WINDOWS_NODE_TAINT,
  [WindowsPlatform.GKE]: GKE_WINDOWS_NODE_TAINT,
  // No Windows nodes to taint (WINDOWS_SUPPORT); the windows-nodes rule says so instead.
  [WindowsPlatform.K3S]: undefined,
  // An RKE2 Windows agent registers with the taints of its node-taint option and no other: rancher/rke2
  // v1.35.7+rke2r1 pkg/cli/cmds/agent.go takes k3s's node-taint flag as is, k3s-io/k3s
  // pkg/daemons/agent/agent_windows.go (kubeletArgs, at 02dc4e0d) sets register-with-taints from it alone, windows/rke2-install.ps1 passes on only the taints it is
  // given, and tests/e2e/mixedos runs a Windows Deployment without tolerations
  // (resource_files/windows_app_deployment.yaml) on a default Windows agent.
  [WindowsPlatform.RKE2]: undefined,
  // CAPZ's Windows flavor registers Windows nodes with the cloud provider's taint only, which
  // cloud-node-manager removes (v1.26.0 templates/flavors/windows/machine-deployment-windows.yaml).
  [WindowsPlatform.CAPZ]: undefined,
};

/**
 * The taint Windows nodes carry on a platform, which Windows pods must tolerate: this library's own
 * (`WINDOWS_NODE_TAINT`) on the clusters and pools it makes (k0smotron, EKS and AKS pools; AKS
 * itself taints nothing), GKE's on GKE, and `undefined` where Windows nodes carry none: RKE2's
 * Windows agents register with only the taints given to them (`--node-taint`), and k3s has no
 * Windows nodes (`WINDOWS_SUPPORT`).
 */
export function windowsNodeTaint(platform: WindowsPlatform): NodeTaint | undefined {
  return WINDOWS_NODE_TAINT_OF[platform];
}

/**
 * Whether a platform runs Windows nodes at all: a release of its row in `WINDOWS_SUPPORT` is
 * supported (k3s has none).
 * @internal
 */
export function runsWindowsNodes(platform: WindowsPlatform): boolean {
  return Object.values(WINDOWS_SUPPORT[platform]).some((row) => row.supported);
}

/**
 * Every taint a platform puts on its Windows nodes: what a pod that tolerates one of them while
 * selecting no OS can land beside.
 */
export const WINDOWS_NODE_TAINTS: readonly NodeTaint[] = [...new Set(Object.values(WINDOWS_NODE_TAINT_OF))].filter((t): t is NodeTaint => t !== undefined);

/** The taint effects the API server accepts on a node (k8s.io/api/core/v1 TaintEffect). */
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * A taint written `key=value:Effect` or `key:Effect` (kubectl taint's forms: a taint's value is
 * optional), or undefined when it is not one.
 * @internal
 */
export function parseNodeTaint(text: string): NodeTaint | undefined {
  const m = /^([^=:\s]+)(?:=([^=:\s]*))?:([A-Za-z]+)$/.exec(text.trim());
  return m && TAINT_EFFECTS.includes(m[3]) ? { key: m[1], value: m[2] ?? '', effect: m[3] } : undefined;
}

/** The support row for one platform and release. */
export function windowsSupport(platform: WindowsPlatform, version: WindowsVersion): WindowsSupport {
  return WINDOWS_SUPPORT[platform][version];
}
