/**
 * Facts about Windows nodes shared by the cluster constructs (which label and taint the nodes),
 * the AWS constructs (which look up their images) and the workload constructs (which select and
 * tolerate them). One definition here keeps the three sides in agreement.
 */

/** A Windows Server release that Kubernetes supports as a worker node. */
export enum WindowsVersion {
  SERVER_2019 = '2019',
  SERVER_2022 = '2022',
  SERVER_2025 = '2025',
}

/** Windows Server installation option: Server Core or Desktop Experience ("Full"). */
export enum WindowsEdition {
  CORE = 'Core',
  FULL = 'Full',
}

/** Per-release facts: the kernel build a node reports and the LTSC tag of matching images. */
export interface WindowsRelease {
  /** Value of the `node.kubernetes.io/windows-build` node label (major.minor.build). */
  readonly build: string;
  /** The LTSC channel name used in Microsoft container image tags, e.g. `ltsc2022`. */
  readonly ltscTag: string;
}

export const WINDOWS_RELEASES: Readonly<Record<WindowsVersion, WindowsRelease>> = {
  [WindowsVersion.SERVER_2019]: { build: '10.0.17763', ltscTag: 'ltsc2019' },
  [WindowsVersion.SERVER_2022]: { build: '10.0.20348', ltscTag: 'ltsc2022' },
  [WindowsVersion.SERVER_2025]: { build: '10.0.26100', ltscTag: 'ltsc2025' },
};

/**
 * windows_exporter's default listen port: the workloads run it there, and the cluster opens it
 * between machines (`HybridCluster` `nodeAgentPorts`).
 */
export const WINDOWS_EXPORTER_PORT = 9182;

/**
 * The node label of Windows workers that can run Hyper-V isolated pods (the Hyper-V role is
 * installed; on EC2 that takes a metal instance). `WindowsWorkerPool` `hyperV` sets it and
 * `HyperVRuntimeClass` schedules onto it.
 */
export const LABEL_HYPERV = 'node.cdk-hybrid-windows.io/hyperv';

/** Well-known node label keys. */
export const LABEL_OS = 'kubernetes.io/os';
export const LABEL_ARCH = 'kubernetes.io/arch';
export const LABEL_WINDOWS_BUILD = 'node.kubernetes.io/windows-build';

/**
 * The taint every Windows worker carries, so that only pods which tolerate it (the workload
 * constructs' Windows pods) are scheduled there. Linux pods without a node selector would
 * otherwise land on Windows nodes and crash-loop.
 */
export const WINDOWS_NODE_TAINT = { key: 'os', value: 'windows', effect: 'NoSchedule' } as const;

/** The taint in the `key=value:Effect` form of the kubelet's `--register-with-taints`. */
export function taintArgument(taint: { key: string; value: string; effect: string }): string {
  return `${taint.key}=${taint.value}:${taint.effect}`;
}

/**
 * How long CAPI waits for a Windows machine (MachineHealthCheck): k0smotron's Windows bootstrap
 * enables the Containers feature and reboots before k0s starts, so a new machine gets 30 minutes
 * to become a node; a new node stays NotReady until k0s's Windows reconciler, which polls once a
 * minute, has deployed Calico and kube-proxy for Windows and their images are pulled.
 */
export const WINDOWS_NODE_TIMEOUTS = { startupSeconds: 1800, readySeconds: 900 } as const;

/**
 * The user the kubelet treats as root in a Windows container: under `runAsNonRoot` it refuses a
 * container whose `runAsUserName` (or, without one, image user) is this name, compared
 * case-insensitively (kubernetes pkg/kubelet/kuberuntime/security_context_windows.go,
 * verifyRunAsNonRoot: `strings.EqualFold` since v1.25.0, kubernetes#111009, CVE-2021-25749).
 */
export const WINDOWS_ROOT_USER = 'ContainerAdministrator';

/** LocalSystem, the host's most privileged account; HostProcess containers may run as it. */
export const WINDOWS_SYSTEM_USER = 'NT AUTHORITY\\SYSTEM';

/** Whether the kubelet refuses this `runAsUserName` under `runAsNonRoot` (its `EqualFold` comparison). */
export function isWindowsRootUser(userName: string): boolean {
  return equalFold(userName, WINDOWS_ROOT_USER);
}

/**
 * Whether a `runAsUserName` names an administrator: the container's root, or LocalSystem. Only
 * another user is known to be unprivileged, and only then may a pod claim `runAsNonRoot`.
 */
export function isWindowsAdminUser(userName: string): boolean {
  return isWindowsRootUser(userName) || equalFold(userName, WINDOWS_SYSTEM_USER);
}

/**
 * Go's `strings.EqualFold`: equal code point by code point under Unicode simple case folding
 * (CaseFolding.txt C and S), which is what a JavaScript regular expression with the `iu` flags
 * compares by (ECMA-262 Canonicalize): `ſ` matches `s` and the Kelvin sign `k`, `ı` matches no `i`,
 * `ß` never matches `ss`.
 */
function equalFold(a: string, b: string): boolean {
  return new RegExp(`^${b.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`, 'iu').test(a);
}
