/**
 * Facts about k0smotron's RemoteMachine provider (SSH to hosts no cloud provider manages) and
 * about what its Windows bootstrap leaves on a host. Checked against k0smotron v2.1.0, k0s
 * v1.34.4+k0s.0 / v1.35.1+k0s.0 and k0sproject/rig v0.21.11 (the rig k0smotron v2.1.0's go.mod pins).
 */

/**
 * CRD defaults of a PooledRemoteMachine's `spec.machine` (and a RemoteMachine's spec):
 * api/infrastructure/v1beta2/remote_machine_types.go, PooledMachineSpec. `user` defaults to
 * `root`, an account Windows does not have.
 */
export const REMOTE_MACHINE_DEFAULTS = { port: 22, user: 'root', workingDir: '/etc/k0smotron', commandsAsScript: false } as const;

/** The SSH port the pools use and the Windows host preparation opens. */
export const SSH_PORT = 22;

/**
 * What k0smotron v2.1.0's Windows bootstrap writes on a host
 * (internal/controller/bootstrap/worker_bootstrap_controller.go, getWindowsCommands), and the
 * k0s paths and service it installs. The join token goes to `/etc/k0s.token`
 * (api/bootstrap/v1beta2 K0sWorkerConfig.GetJoinTokenPath without workingDir), which rig's
 * Windows file system turns into `\etc\k0s.token` on the session's drive (pkg/rigfs/winfsys.go,
 * ToWindowsPath).
 */
export const WINDOWS_BOOTSTRAP = {
  /** The install script's folder (`C:\bootstrap\k0s_install.ps1`) and its transcript. */
  scriptDir: 'C:\\bootstrap',
  transcript: 'C:\\bootstrap.log',
  /**
   * The sentinel folder. The script exits at once while the sentinel exists, so a host that
   * keeps it never joins again.
   */
  sentinelDir: 'C:\\run\\cluster-api',
  /** The scheduled task that resumes the script after the Containers feature's reboot. */
  scheduledTask: 'k0s-bootstrap',
  tokenFile: 'C:\\etc\\k0s.token',
  /** k0s's Windows service for a worker (k0s pkg/install/service.go: "k0s" + role). */
  service: 'k0sworker',
  /**
   * k0s's data folder on Windows (k0s pkg/constant/constant_windows.go, DataDirDefault); the
   * kubelet's root and k0s's run folder lie inside it (pkg/config/cfgvars.go).
   */
  dataDir: 'C:\\var\\lib\\k0s',
} as const;

/**
 * The first k0s release whose Windows build has `k0s reset` (k0s commit 4499c941, "Enable k0s
 * reset sub-command on Windows"; cmd/reset/reset.go is `//go:build linux` in every v1.34 release).
 */
export const K0S_WINDOWS_RESET_SINCE = 'v1.35.1+k0s.0';

/**
 * Why no machine can use `address` as a host or an endpoint, or undefined: an address that carries
 * its own port (rig dials `net.JoinHostPort(address, port)`, k0sproject/rig v0.21.11 ssh.go,
 * so `10.0.0.11:22` becomes `10.0.0.11:22:22`; k0s's `api.externalAddress` takes an address
 * without a port), a loopback address (each machine, and k0smotron's controller for an SSH host,
 * would reach itself) or the unspecified address (nothing listens there).
 * @internal
 */
export function unusableAddressProblem(address: string): string | undefined {
  const a = address.trim().toLowerCase();
  if (/^\[.*\]:\d+$/.test(a) || (/^[^:]+:\d+$/.test(a))) return `${address} carries a port, and the port is a field of its own`;
  if (a === 'localhost' || a.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(a) || a === '::1' || a === '[::1]') {
    return `${address} is a loopback address: every machine reaching it would reach itself`;
  }
  if (a === '0.0.0.0' || a === '::' || a === '[::]') return `${address} is the unspecified address, which nothing can connect to`;
  return undefined;
}
