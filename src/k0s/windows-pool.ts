import {
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform,
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType,
} from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { fail } from '../core/errors';
import { oneOf } from '../core/values';
import { WINDOWS_K0S_INSTALL_DIR } from '../platform/conventions';
import type { K0smotronInfrastructure } from '../platform/infrastructures';
import { windowsSupport } from '../platform/support';
import { LABEL_ARCH, LABEL_HYPERV, LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_KUBELET_FIREWALL_RULE, WINDOWS_NODE_TAINT, WINDOWS_NODE_TIMEOUTS, WINDOWS_RELEASES, WindowsVersion } from '../platform/windows';
import type { WorkerPlatform, WorkerPoolProps } from './worker-pool';

/** What every Windows pool's props have, whatever infrastructure its machines run on. */
export interface WindowsWorkerProps {
  /**
   * Windows Server release of the machines, checked against the support matrix
   * (`WINDOWS_SUPPORT`) of the pool's infrastructure.
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
  /**
   * Run a Windows Server release that k0s does not document as supported (Windows Server 2025:
   * k0s documents 2019 and 2022 and bundles Calico for Windows 3.29). Set it to say you accept
   * that upstream does not test it.
   * @default false
   */
  readonly acknowledgeUnsupportedWindowsVersion?: boolean;
  /**
   * The machines have the Hyper-V role for Hyper-V isolated pods (`HyperVRuntimeClass`,
   * experimental): the nodes get the `LABEL_HYPERV` label the RuntimeClass schedules onto. The
   * image must have the Hyper-V role installed and containerd the `runhcs-wcow-hypervisor`
   * handler, and the machine nested virtualization (on EC2 a metal instance type).
   * @default false
   */
  readonly hyperV?: boolean;
}

/** A Windows pool's part, whatever its infrastructure: its release, its props with the pool's labels, and its platform. */
export interface WindowsWorker<P extends WorkerPoolProps> {
  /** The machines' Windows Server release. */
  readonly windowsVersion: WindowsVersion;
  /** The pool's props, with the Hyper-V label when `hyperV` is set. */
  readonly props: P;
  /** The Windows part of the pool's objects (`WorkerPool`). */
  readonly platform: WorkerPlatform;
}

/**
 * The one Windows pool module: the release, checked against the support matrix of the
 * infrastructure's platform (the one release check of every Windows pool), the Windows
 * provisioner the infrastructure needs, the kubelet's firewall rule when its bootstrap opens the
 * port, the install directory, the Windows taint (`os=windows:NoSchedule`), Windows' longer node
 * timeouts and the Hyper-V label.
 * @param path construct path the pool will have, for errors before it exists.
 */
export function windowsWorker<P extends WorkerPoolProps & WindowsWorkerProps>(path: string, infrastructure: K0smotronInfrastructure, props: P): WindowsWorker<P> {
  const windowsVersion = oneOf({ path, prop: 'windowsVersion' }, props.windowsVersion, WindowsVersion, 'WindowsVersion') ?? WindowsVersion.SERVER_2022;
  // The support matrix (src/platform/support.ts) is the one place that says which releases k0s runs.
  const support = windowsSupport(infrastructure.platform, windowsVersion);
  if (!support.supported && !props.acknowledgeUnsupportedWindowsVersion) {
    fail(path, `Windows Server ${windowsVersion} is not supported by k0s (${support.source})`,
      'use WindowsVersion.SERVER_2022, or set `acknowledgeUnsupportedWindowsVersion: true` to run it untested upstream');
  }
  return {
    windowsVersion,
    props: props.hyperV ? { ...props, labels: { ...props.labels, [LABEL_HYPERV]: 'true' } } : props,
    platform: {
      os: 'windows',
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
      taints: [WINDOWS_NODE_TAINT],
      nodeStartupTimeoutSeconds: WINDOWS_NODE_TIMEOUTS.startupSeconds,
      nodeReadyTimeoutSeconds: WINDOWS_NODE_TIMEOUTS.readySeconds,
      // Windows Server runs on amd64 only.
      nodeLabels: { [LABEL_OS]: 'windows', [LABEL_ARCH]: 'amd64', [LABEL_WINDOWS_BUILD]: WINDOWS_RELEASES[windowsVersion].build },
      windowsBuild: WINDOWS_RELEASES[windowsVersion].build,
    },
  };
}
