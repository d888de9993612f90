import { fail } from '../core/errors';
import { choice, flag, optional, PropEntry } from '../core/props-spec';
import { oneOf } from '../core/values';
import { windowsSupport, WindowsPlatform } from '../platform/support';
import { LABEL_ARCH, LABEL_HYPERV, LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_RELEASES, WindowsVersion } from '../platform/windows';
import type { MachineDeploymentPoolProps, WorkerOs } from './machine-deployment-pool';

/** What every Windows pool's props have, whatever its bootstrap and infrastructure. */
export interface WindowsWorkerProps {
  /**
   * Windows Server release of the machines, checked against the support matrix
   * (`WINDOWS_SUPPORT`) of the pool's infrastructure.
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
  /**
   * Run a Windows Server release that the bootstrap does not document as supported (Windows
   * Server 2025 on k0s: k0s documents 2019 and 2022 and bundles Calico for Windows 3.29). Set it
   * to say you accept that upstream does not test it.
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

/**
 * The spec entries of `WindowsWorkerProps`, which every Windows pool's spec spreads beside its
 * pool's; whether the release runs on the pool's platform is `windowsOs`'s check.
 * @internal
 */
export const WINDOWS_WORKER_OPTIONS: { readonly [K in keyof WindowsWorkerProps]-?: PropEntry } = {
  windowsVersion: optional(choice(WindowsVersion, 'WindowsVersion')),
  acknowledgeUnsupportedWindowsVersion: optional(flag()),
  hyperV: optional(flag()),
};

/** What a bootstrap decides of its Windows nodes (k0s: `os=windows:NoSchedule`, 30 and 15 minutes). */
export interface WindowsBootstrapFacts {
  /** The bootstrap's name, for the message about a release it does not support (`k0s`). */
  readonly name: string;
  /**
   * The taint its Windows nodes register with.
   * @default - none
   */
  readonly taint?: { readonly key: string; readonly value: string; readonly effect: string };
  /** How long a new Windows machine may take to become a node, and a node may stay NotReady, before CAPI replaces it. */
  readonly timeouts: { readonly startupSeconds: number; readonly readySeconds: number };
}

/** A Windows pool's operating system, whatever its bootstrap: its release, its props with the pool's labels, and its facts. */
export interface WindowsOs<P extends MachineDeploymentPoolProps> {
  /** The machines' Windows Server release. */
  readonly windowsVersion: WindowsVersion;
  /** The pool's props, with the Hyper-V label when `hyperV` is set. */
  readonly props: P;
  /** The Windows facts of the pool's nodes (`BootstrapPart`). */
  readonly os: WorkerOs;
}

/**
 * The one release check of every Windows pool, against the support matrix of its platform, and
 * the facts of its nodes: the bootstrap's taint and timeouts, the OS, architecture and build
 * labels the kubelet sets, and the Hyper-V label.
 * @param path construct path the pool will have, for errors before it exists.
 */
export function windowsOs<P extends MachineDeploymentPoolProps & WindowsWorkerProps>(path: string, platform: WindowsPlatform, props: P, bootstrap: WindowsBootstrapFacts): WindowsOs<P> {
  const windowsVersion = oneOf({ path, prop: 'windowsVersion' }, props.windowsVersion, WindowsVersion, 'WindowsVersion') ?? WindowsVersion.SERVER_2022;
  // The support matrix (src/platform/support.ts) is the one place that says which releases a platform runs.
  const support = windowsSupport(platform, windowsVersion);
  if (!support.supported && !props.acknowledgeUnsupportedWindowsVersion) {
    fail(path, `Windows Server ${windowsVersion} is not supported by ${bootstrap.name} (${support.source})`,
      'use WindowsVersion.SERVER_2022, or set `acknowledgeUnsupportedWindowsVersion: true` to run it untested upstream');
  }
  const build = WINDOWS_RELEASES[windowsVersion].build;
  return {
    windowsVersion,
    props: props.hyperV ? { ...props, labels: { ...props.labels, [LABEL_HYPERV]: 'true' } } : props,
    os: {
      os: 'windows',
      taints: bootstrap.taint ? [bootstrap.taint] : [],
      nodeStartupTimeoutSeconds: bootstrap.timeouts.startupSeconds,
      nodeReadyTimeoutSeconds: bootstrap.timeouts.readySeconds,
      // Windows Server runs on amd64 only.
      nodeLabels: { [LABEL_OS]: 'windows', [LABEL_ARCH]: 'amd64', [LABEL_WINDOWS_BUILD]: build },
      windowsBuild: build,
    },
  };
}
