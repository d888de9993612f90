import {
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform,
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType,
} from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { WINDOWS_K0S_INSTALL_DIR } from '../platform/conventions';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import { WINDOWS_KUBELET_FIREWALL_RULE, WINDOWS_NODE_TAINT, WINDOWS_NODE_TIMEOUTS, WindowsVersion } from '../platform/windows';
import { windowsOs, WindowsWorkerProps } from '../capi/windows-os';
import type { K0sOsPart, WorkerPoolProps } from './worker-pool';

/** A k0s Windows pool's part, whatever its infrastructure: its release, its props with the pool's labels, and its OS part. */
export interface WindowsWorker<P extends WorkerPoolProps> {
  /** The machines' Windows Server release. */
  readonly windowsVersion: WindowsVersion;
  /** The pool's props, with the Hyper-V label when `hyperV` is set. */
  readonly props: P;
  /** The OS part of the pool (`WorkerPool`): Windows's facts and its part of the K0sWorkerConfigTemplate. */
  readonly osPart: K0sOsPart;
  /**
   * The OS part of the pool.
   * @deprecated Use `osPart`: "platform" names a `WindowsPlatform` (where Windows nodes run) only.
   */
  readonly platform: K0sOsPart;
}

/**
 * The k0s Windows pool part: the Windows operating system of every bootstrap (`windowsOs`: the
 * release checked against the support matrix of the infrastructure's `WindowsPlatform`, the build and
 * Hyper-V labels) with k0s's Windows taint (`os=windows:NoSchedule`) and longer node timeouts, and
 * k0smotron's Windows bootstrap: the provisioner the infrastructure needs, the kubelet's firewall
 * rule when its bootstrap opens the port, the install directory.
 * @param path construct path the pool will have, for errors before it exists.
 */
export function windowsWorker<P extends WorkerPoolProps & WindowsWorkerProps>(path: string, infrastructure: K0smotronInfrastructure, props: P): WindowsWorker<P> {
  const windows = windowsOs(path, infrastructure.platform, props, { name: 'k0s', taint: WINDOWS_NODE_TAINT, timeouts: WINDOWS_NODE_TIMEOUTS });
  const osPart: K0sOsPart = {
    ...windows.os,
    bootstrap: {
      provisioner: { platform: Platform.WINDOWS, type: infrastructure.windowsProvisioner as ProvisionerType },
      k0SInstallDir: WINDOWS_K0S_INSTALL_DIR,
      // k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go
      // (getWindowsCommands) writes preK0sCommands into C:\bootstrap\k0s_install.ps1 before
      // `k0s install worker`; powershell.exe runs it under $ErrorActionPreference = "Stop", and a
      // scheduled task reruns it from the top after the Containers feature's reboot until it
      // completes: the command is PowerShell, and a rerun finds the rule and does nothing.
      preK0SCommands: infrastructure.kubeletPortOpenedBy === 'bootstrap' ? [WINDOWS_KUBELET_FIREWALL_RULE] : undefined,
    },
  };
  return { windowsVersion: windows.windowsVersion, props: windows.props, osPart, platform: osPart };
}
