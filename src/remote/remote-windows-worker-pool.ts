import { WorkerPool } from '../k0s/worker-pool';
import { windowsWorker } from '../k0s/windows-pool';
import { WINDOWS_WORKER_OPTIONS, WindowsWorkerProps } from '../capi/windows-os';
import { MACHINE_DEPLOYMENT_POOL_EXCLUSIONS } from '../capi/machine-deployment-pool';
import { optional, propsSpec } from '../core/props-spec';
import { REMOTE_INFRASTRUCTURE } from '../platform/infrastructures';
import { WINDOWS_K0S_INSTALL_DIR } from '../platform/conventions';
import { fail } from '../core/errors';
import { K0sVersion } from '../platform/k0s-version';
import { integerProblem } from '../core/numbers';
import { encodedPowerShell } from '../platform/powershell';
import { WindowsVersion } from '../platform/windows';
import type { RemoteHybridCluster } from './remote-hybrid-cluster';
import { REMOTE_WORKER_POOL_OPTIONS, RemoteWorkerMachines, RemoteWorkerPoolProps, SSH_USER, withHostReplicas } from './remote-worker-pool';
import { publicKeyProblem, windowsCleanupScript, windowsHostPreparationScript } from './windows-host-scripts';

/** Props of `RemoteWindowsWorkerPool`. */
export interface RemoteWindowsWorkerPoolProps extends RemoteWorkerPoolProps, WindowsWorkerProps {
  /**
   * SSH user: a member of Administrators, whose SSH sessions hold an elevated token (rig, the
   * SSH library k0smotron uses, checks for it before writing files). Windows has no `root`.
   * @default 'Administrator'
   */
  readonly user?: string;
}

/**
 * The spec of `RemoteWindowsWorkerPoolProps`.
 * @internal
 */
export const REMOTE_WINDOWS_WORKER_POOL_PROPS = propsSpec<RemoteWindowsWorkerPoolProps>('RemoteWindowsWorkerPool', {
  ...REMOTE_WORKER_POOL_OPTIONS,
  ...WINDOWS_WORKER_OPTIONS,
  user: optional(SSH_USER),
}, MACHINE_DEPLOYMENT_POOL_EXCLUSIONS);

/** Options of `RemoteWindowsWorkerPool.hostPreparationScript`. */
export interface HostPreparationOptions {
  /** The OpenSSH public key of the private key in the pool's `sshKeySecret`. */
  readonly publicKey: string;
  /**
   * Further inbound TCP ports to open on each host, e.g. 9182 (`WINDOWS_EXPORTER_PORT`).
   * @default - none
   */
  readonly additionalTcpPorts?: number[];
  /**
   * Remove what a previous node left on the host before it is used again: the k0sworker service,
   * the bootstrap marker `C:\run\cluster-api\bootstrap-success.complete` (on which k0smotron's
   * next bootstrap script exits at once, "Bootstrap already completed"), the token and the data
   * folders: the pool's own cleanup commands. A host that was down when its machine was deleted
   * kept them, since k0smotron's cleanup could not reach it. Never on a host a node still runs on.
   * @default false
   */
  readonly resetPreviousNode?: boolean;
}

/**
 * Windows Server k0s workers on listed hosts, reached over SSH by k0smotron's RemoteMachine
 * provider. k0smotron writes its Windows install script into a cloud-config (the only format its
 * RemoteMachine controller reads), uploads it with PowerShell and runs it. Each host needs
 * `hostPreparationScript()` run once first. A deleted machine's host is cleaned with PowerShell
 * (`cleanUpCommands`) so that it can join again. Every node carries the taint
 * `os=windows:NoSchedule`.
 *
 * Upstream has no Windows test of this path, and k0smotron does not check the hosts' SSH keys
 * (ssh_provisioner.go: known_hosts is /dev/null): see docs/remote.md.
 */
export class RemoteWindowsWorkerPool extends WorkerPool {
  /** The hosts' Windows Server release. */
  public readonly windowsVersion: WindowsVersion;
  /** The PowerShell of the pool's cleanup commands, when its k0s version has a form. */
  private readonly cleanUpCommandsScript?: string;

  public constructor(cluster: RemoteHybridCluster, id: string, given: RemoteWindowsWorkerPoolProps) {
    // The pool does not exist yet: errors name the path it will have.
    const path = `${cluster.node.path}/${id}`;
    const props = REMOTE_WINDOWS_WORKER_POOL_PROPS.parse(path, given);
    // A version of another form gets no cleanup here: the pool's rules refuse it with the fix.
    const version = K0sVersion.parse(props.k0sVersion ?? cluster.k0sVersion);
    const machines = new RemoteWorkerMachines(props, {
      user: props.user ?? 'Administrator',
      // rig runs commands as they are on Windows (connection.go, sudoWindows); sudo is a Linux idea.
      useSudo: false,
      // true would write the commands into a "#!/bin/sh" script (ssh_provisioner.go, Provision).
      commandsAsScript: false,
      cleanUpCommands: version ? [encodedPowerShell(windowsCleanupScript(version, WINDOWS_K0S_INSTALL_DIR))] : undefined,
    });
    const windows = windowsWorker(path, REMOTE_INFRASTRUCTURE, props);
    super(cluster, id, withHostReplicas(windows.props), windows.osPart, machines);
    this.windowsVersion = windows.windowsVersion;
    this.cleanUpCommandsScript = version ? windowsCleanupScript(version, WINDOWS_K0S_INSTALL_DIR) : undefined;
  }

  /**
   * The PowerShell to run once, elevated, on each host before the pool uses it: OpenSSH server,
   * the public key in `administrators_authorized_keys` (readable only by Administrators and
   * SYSTEM, or sshd ignores it), inbound TCP 22 and 10250 (and `additionalTcpPorts`), and the
   * Containers feature with its reboot, so that k0smotron's bootstrap does not reboot the host
   * in the middle of its SSH session.
   */
  public hostPreparationScript(options: HostPreparationOptions): string {
    const keyProblem = publicKeyProblem(options.publicKey);
    if (keyProblem) fail(this, keyProblem.what, keyProblem.fix);
    for (const port of options.additionalTcpPorts ?? []) {
      const p = integerProblem(port, 1, 65535);
      if (p) fail(this, `additionalTcpPorts: ${p}`, 'list TCP ports from 1 to 65535');
    }
    const cleanup = this.cleanUpCommandsScript;
    return windowsHostPreparationScript({ ...options, previousNodeCleanup: options.resetPreviousNode ? cleanup : undefined });
  }
}
