import { KUBELET_PORT } from './kubernetes';

/**
 * Facts about Windows nodes shared by the cluster constructs (which label and taint the nodes),
 * the AWS constructs (which look up their images) and the workload constructs (which select and
 * tolerate them). One definition here keeps the three sides in agreement.
 */

/** A Windows Server release that Kubernetes supports as a worker node. */
export enum WindowsVersion {
  /** Windows Server 2019 (LTSC, build 10.0.17763). */
  SERVER_2019 = '2019',
  /** Windows Server 2022 (LTSC, build 10.0.20348): the default where a release is chosen for you. */
  SERVER_2022 = '2022',
  /**
   * Windows Server 2025 (LTSC, build 10.0.26100). k0s does not list it among its Windows releases
   * (`WINDOWS_SUPPORT`); EKS has its AMIs from Kubernetes 1.35 on.
   */
  SERVER_2025 = '2025',
}

/** Windows Server installation option: Server Core or Desktop Experience ("Full"). */
export enum WindowsEdition {
  /** Server Core: no desktop, a smaller image and fewer patches; the default. */
  CORE = 'Core',
  /** Desktop Experience: the full shell, for software that needs it. */
  FULL = 'Full',
}

/** Per-release facts: the kernel build a node reports and the LTSC tag of matching images. */
export interface WindowsRelease {
  /** Value of the `node.kubernetes.io/windows-build` node label (major.minor.build). */
  readonly build: string;
  /** The LTSC channel name used in Microsoft container image tags, e.g. `ltsc2022`. */
  readonly ltscTag: string;
}

/** The build and image tag of each `WindowsVersion`: container images must match the node's build to run process-isolated. */
export const WINDOWS_RELEASES: Readonly<Record<WindowsVersion, WindowsRelease>> = {
  [WindowsVersion.SERVER_2019]: { build: '10.0.17763', ltscTag: 'ltsc2019' },
  [WindowsVersion.SERVER_2022]: { build: '10.0.20348', ltscTag: 'ltsc2022' },
  [WindowsVersion.SERVER_2025]: { build: '10.0.26100', ltscTag: 'ltsc2025' },
};

/**
 * Windows Server releases whose container images Microsoft still lists but no supported node
 * runs: LTSC 2016 and the Semi-Annual Channel releases, out of servicing (the last, 20H2, since
 * 2022-08-09), by the tag Microsoft published them under and their build (Microsoft Learn,
 * "Windows container version compatibility" and "Windows Server release information"; the
 * `mcr.microsoft.com/windows/servercore` and `nanoserver` tag lists). A process-isolated
 * container needs the host's own build, and Kubernetes supports Windows Server 2019 and newer.
 */
export const RETIRED_WINDOWS_RELEASES: readonly { readonly tag: string; readonly build: string; readonly channel: string }[] = [
  { tag: 'ltsc2016', build: '10.0.14393', channel: 'LTSC' },
  { tag: '1709', build: '10.0.16299', channel: 'Semi-Annual Channel' },
  { tag: '1803', build: '10.0.17134', channel: 'Semi-Annual Channel' },
  { tag: '1903', build: '10.0.18362', channel: 'Semi-Annual Channel' },
  { tag: '1909', build: '10.0.18363', channel: 'Semi-Annual Channel' },
  { tag: '2004', build: '10.0.19041', channel: 'Semi-Annual Channel' },
  { tag: '20h2', build: '10.0.19042', channel: 'Semi-Annual Channel' },
];

/**
 * PowerShell that opens inbound TCP `port` in the Windows firewall under the rule name `name`,
 * once: a rerun (a restarted pod, a bootstrap script run again after a reboot) finds it in place
 * and does nothing, so it never fails under `$ErrorActionPreference = "Stop"`.
 */
export function inboundFirewallRuleScript(name: string, port: number): string {
  return `if (-not (Get-NetFirewallRule -DisplayName '${name}' -ErrorAction SilentlyContinue)) { `
    + `New-NetFirewallRule -DisplayName '${name}' -Direction Inbound -Profile Any -Action Allow -Protocol TCP -LocalPort ${port} | Out-Null }`;
}

/**
 * Opens the kubelet's port on a Windows node. The Windows firewall drops inbound ports nothing
 * opened, and neither k0s nor k0smotron opens 10250 (Kubernetes sig-windows-tools
 * `kubeadm/scripts/PrepareNode.ps1` does, for kubeadm): without it `kubectl logs`/`exec` and
 * metrics of Windows pods time out. Windows pools run it from the bootstrap (k0smotron's
 * `preK0sCommands`).
 */
export const WINDOWS_KUBELET_FIREWALL_RULE = inboundFirewallRuleScript(`kubelet-${KUBELET_PORT}`, KUBELET_PORT);

/** Whether a PowerShell command opens inbound TCP `port` in the Windows firewall (as `inboundFirewallRuleScript` does). */
export function opensInboundPort(command: unknown, port: number): boolean {
  return typeof command === 'string' && /\bNew-NetFirewallRule\b/.test(command) && /-Direction\s+Inbound\b/i.test(command)
    && new RegExp(`-LocalPort\\s+${port}\\b`).test(command) && !/-Action\s+Block\b/i.test(command);
}

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

/** containerd's runhcs handler that starts each Windows pod in its own utility VM. */
export const HYPERV_HANDLER = 'runhcs-wcow-hypervisor';

/** Well-known node label: the node's operating system (`linux`, `windows`), set by the kubelet. */
export const LABEL_OS = 'kubernetes.io/os';
/** Well-known node label: the node's CPU architecture (`amd64`, `arm64`), set by the kubelet. */
export const LABEL_ARCH = 'kubernetes.io/arch';
/** Well-known node label: a Windows node's build (`10.0.20348`), set by the kubelet; see `WINDOWS_RELEASES`. */
export const LABEL_WINDOWS_BUILD = 'node.kubernetes.io/windows-build';
/** The node's zone (kubernetes well_known_labels.go): pools spread over zones set it. */
export const LABEL_ZONE = 'topology.kubernetes.io/zone';
/** The node's region (kubernetes well_known_labels.go): pools spread over zones set it. */
export const LABEL_REGION = 'topology.kubernetes.io/region';

/**
 * The taint every Windows worker carries, so that only pods which tolerate it (the workload
 * constructs' Windows pods) are scheduled there. Linux pods without a node selector would
 * otherwise land on Windows nodes and crash-loop.
 */
export const WINDOWS_NODE_TAINT = { key: 'os', value: 'windows', effect: 'NoSchedule' } as const;

/** The taint in the `key=value:Effect` form of the kubelet's `--register-with-taints`. */
export function taintArgument(taint: { key: string; value: string; effect: string }): string {
  return `${taint.key}${taint.value === '' ? '' : `=${taint.value}`}:${taint.effect}`;
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

/**
 * Why a HostProcess container cannot log on as `runAsUserName`, or undefined. hcsshim
 * (microsoft/hcsshim v0.15 `internal/jobcontainers/logon.go`, `processToken`) takes the name of a
 * local group that exists on the host (it then creates a temporary member and logs it on), or logs
 * `DOMAIN\user` on with no password: only the service accounts of `NT AUTHORITY` (SYSTEM, LOCAL
 * SERVICE, NETWORK SERVICE, logon type SERVICE) log on that way, any other user fails with "failed
 * to logon user" and the container never starts. The accounts of a container image
 * (`ContainerUser`, `ContainerAdministrator`) do not exist on the host. A local group of the host
 * cannot be known here, so other bare names pass.
 * @internal
 */
export function hostProcessUserProblem(userName: string): string | undefined {
  const [domain, user] = userName.includes('\\') ? userName.split('\\') : [undefined, userName];
  if (domain === undefined) {
    return isWindowsRootUser(user) || equalFold(user, 'ContainerUser')
      ? `${user} is an account of container images, not of the host, and a HostProcess container logs on to the host (hcsshim takes a host group, or an NT AUTHORITY service account)`
      : undefined;
  }
  if (!equalFold(domain, 'NT AUTHORITY')) {
    return `${userName} is an account hcsshim logs on without a password, which only NT AUTHORITY's service accounts allow, so the HostProcess container fails with "failed to logon user"`;
  }
  return HOST_PROCESS_SERVICE_ACCOUNTS.some((a) => equalFold(user.replace(/\s+/g, ''), a)) ? undefined
    : `${userName} is not one of NT AUTHORITY's service accounts (SYSTEM, LOCAL SERVICE, NETWORK SERVICE), the only ones a HostProcess container logs on as`;
}

/** The fix for `hostProcessUserProblem`. @internal */
export const HOST_PROCESS_USER_FIX = 'use NT AUTHORITY\\SYSTEM, NT AUTHORITY\\LOCAL SERVICE, NT AUTHORITY\\NETWORK SERVICE, or the name of a local group of the host (e.g. Users)';

const HOST_PROCESS_SERVICE_ACCOUNTS = ['SYSTEM', 'LOCALSERVICE', 'NETWORKSERVICE'];

/**
 * Whether the kubelet refuses this `runAsUserName` under `runAsNonRoot` (its `EqualFold` comparison).
 * @internal
 */
export function isWindowsRootUser(userName: string): boolean {
  return equalFold(userName, WINDOWS_ROOT_USER);
}

/**
 * Whether a `runAsUserName` names an administrator: the container's root, or LocalSystem. Only
 * another user is known to be unprivileged, and only then may a pod claim `runAsNonRoot`.
 * @internal
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
