import { Duration, Size } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-33';
import { Cdk8sPlus } from './cdk8s-plus';

/**
 * Requests given to a Windows container that declares none. Windows nodes reserve far more for the
 * OS than Linux ones and do not overcommit memory gracefully, so the scheduler needs real numbers.
 */
export const WINDOWS_DEFAULT_REQUESTS = { cpuMillis: 500, memory: Size.mebibytes(512) } as const;

/**
 * The startup probe given to a Windows container that exposes a port and has none: 30 tries 10 s
 * apart, five minutes, because Windows containers (IIS, .NET Framework) often take minutes to
 * become ready on first start while images are large and pulls are slow.
 */
export const WINDOWS_STARTUP_PROBE = { periodSeconds: Duration.seconds(10), failureThreshold: 30 } as const;

/** The first port a container declares, as cdk8s-plus sees it. */
export function containerPort(props: kplus.ContainerProps): number | undefined {
  return props.portNumber ?? props.port ?? props.ports?.[0]?.number;
}

/**
 * Windows defaults for container props, applied in this one place: resource requests always
 * present, and a startup probe that tolerates slow Windows starts. Explicit user values win.
 * Init containers keep cdk8s-plus's rules (no probes unless they are sidecars). The probe and CPU
 * objects come from `plus`, the major of the workload that takes the container.
 */
export function windowsContainerDefaults(plus: Cdk8sPlus, props: kplus.ContainerProps, options: { init?: boolean } = {}): kplus.ContainerProps {
  const port = containerPort(props);
  const isSidecar = props.restartPolicy === plus.ContainerRestartPolicy.ALWAYS;
  const wantsProbe = props.startup === undefined && port !== undefined && (!options.init || isSidecar);
  return {
    ...props,
    resources: withRequests(plus, props.resources),
    startup: wantsProbe ? plus.Probe.fromTcpSocket({ port, ...WINDOWS_STARTUP_PROBE }) : props.startup,
  };
}

/**
 * Fills missing requests. A request the user left out but bounded with a limit takes the limit
 * (what the API server would default it to), so a small limit never ends up below the request.
 */
function withRequests(plus: Cdk8sPlus, resources: kplus.ContainerResources | undefined): kplus.ContainerResources {
  return {
    ...resources,
    cpu: {
      ...resources?.cpu,
      request: resources?.cpu?.request ?? resources?.cpu?.limit ?? plus.Cpu.millis(WINDOWS_DEFAULT_REQUESTS.cpuMillis),
    },
    memory: {
      ...resources?.memory,
      request: resources?.memory?.request ?? resources?.memory?.limit ?? WINDOWS_DEFAULT_REQUESTS.memory,
    },
  };
}

/**
 * Container security settings the API server refuses on Windows pods, set by the user: they are
 * reported, never dropped (the construct removes only cdk8s-plus's own defaults of them). Each
 * with what to use on Windows instead. Kubernetes v1.34 pkg/apis/core/validation/validation.go,
 * validateWindows: privileged, allowPrivilegeEscalation and readOnlyRootFilesystem "cannot be set
 * for a windows pod"; runAsNonRoot is judged against runAsUserName, which cdk8s-plus cannot set.
 */
const WINDOWS_REFUSED_SECURITY = {
  privileged: 'for host access use a HostProcess container (WindowsWorkload hostProcess: true)',
  allowPrivilegeEscalation: 'Windows has no privilege escalation to forbid; drop it',
  readOnlyRootFilesystem: 'Windows containers cannot mount their root read-only; drop it, and keep data in volumes',
  ensureNonRoot: 'run as the unprivileged ContainerUser account instead (runAsUserName: ContainerUser; nanoserver\'s default user)',
} as const;

/** The user-set container security settings Windows refuses, as `{ what, fix }` per field. */
export function windowsSecurityProblems(props: kplus.ContainerProps): Array<{ what: string; fix: string }> {
  const sc = (props.securityContext ?? {}) as Record<string, unknown>;
  return (Object.keys(WINDOWS_REFUSED_SECURITY) as Array<keyof typeof WINDOWS_REFUSED_SECURITY>)
    .filter((field) => sc[field] !== undefined)
    .map((field) => ({
      what: `container ${props.name ?? props.image} sets securityContext.${field}: ${String(sc[field])}, which the API server refuses on Windows pods`,
      fix: WINDOWS_REFUSED_SECURITY[field],
    }));
}
