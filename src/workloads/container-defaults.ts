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

/**
 * The first port a container declares, as cdk8s-plus sees it.
 * @internal
 */
export function containerPort(props: kplus.ContainerProps): number | undefined {
  return props.portNumber ?? props.port ?? props.ports?.[0]?.number;
}

/**
 * Whether cdk8s-plus gives a container built from `props` its default startup probe (a TCP probe of
 * its port, 3 tries), which `WindowsPod` replaces: cdk8s-plus-33 and -28 lib/container.js,
 * `this._startup = props.startup ?? (this.portNumber ? defaultProbeConfiguration : undefined)`
 * with `portNumber = props.portNumber ?? props.port`. A port of 0 counts as one here: the answer
 * may say yes where cdk8s-plus gives none, never the reverse.
 * @internal
 */
export function getsDefaultStartupProbe(props: kplus.ContainerProps): boolean {
  return props.startup === undefined && (props.portNumber ?? props.port) !== undefined;
}

/**
 * Windows defaults for container props, applied in this one place: resource requests always
 * present, and a startup probe that tolerates slow Windows starts. Explicit user values win.
 * Init containers keep cdk8s-plus's rules (no probes unless they are sidecars). The probe and CPU
 * objects come from `plus`, the major of the workload that takes the container.
 * @internal
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

const API_SERVER_REFUSES = 'which the API server refuses on Windows pods';

/**
 * Container security settings Windows pods cannot carry, with cdk8s-plus's default of each (the
 * same in 28 and 33: lib/container.js, ContainerSecurityContext) and what to use on Windows instead. The construct
 * removes only cdk8s-plus's defaults; a value the user chose is reported, never dropped. Kubernetes
 * v1.34 pkg/apis/core/validation/validation.go, validateWindows: privileged,
 * allowPrivilegeEscalation and readOnlyRootFilesystem "cannot be set for a windows pod"; the kubelet
 * judges runAsNonRoot by the Windows user name (`isWindowsRootUser`), which a container's
 * cdk8s-plus settings cannot give.
 */
const WINDOWS_REFUSED_SECURITY = {
  privileged: { cdk8sPlusDefault: false, why: API_SERVER_REFUSES, fix: 'for host access use a HostProcess container (WindowsWorkload hostProcess: true)' },
  allowPrivilegeEscalation: { cdk8sPlusDefault: false, why: API_SERVER_REFUSES, fix: 'Windows has no privilege escalation to forbid; drop it' },
  readOnlyRootFilesystem: { cdk8sPlusDefault: true, why: API_SERVER_REFUSES, fix: 'Windows containers cannot mount their root read-only; drop it, and keep data in volumes' },
  ensureNonRoot: {
    cdk8sPlusDefault: true,
    why: 'and on Windows the kubelet judges runAsNonRoot by the user name, which a container\'s cdk8s-plus settings cannot give',
    fix: 'drop it and give the pod a non-admin runAsUserName (e.g. ContainerUser), which adds runAsNonRoot to the pod',
  },
} as const;

type RefusedField = keyof typeof WINDOWS_REFUSED_SECURITY;
const REFUSED_FIELDS = Object.keys(WINDOWS_REFUSED_SECURITY) as RefusedField[];

function refused(name: string, field: RefusedField, value: unknown): { what: string; fix: string } {
  const { why, fix } = WINDOWS_REFUSED_SECURITY[field];
  return { what: `container ${name} sets securityContext.${field}: ${String(value)}, ${why}`, fix };
}

/**
 * The container security settings Windows refuses that container props set, as `{ what, fix }` per field.
 * @internal
 */
export function windowsSecurityProblems(props: kplus.ContainerProps): Array<{ what: string; fix: string }> {
  const sc = (props.securityContext ?? {}) as Record<string, unknown>;
  return REFUSED_FIELDS.filter((field) => sc[field] !== undefined).map((field) => refused(props.name ?? props.image, field, sc[field]));
}

/**
 * The same settings on a container cdk8s-plus already built, where only the resolved values are
 * left: a value other than cdk8s-plus's default was set by the user. (One equal to the default
 * cannot be told from it and goes with the defaults.)
 * @internal
 */
export function builtContainerSecurityProblems(container: kplus.Container): Array<{ what: string; fix: string }> {
  const sc = container.securityContext as unknown as Record<RefusedField, unknown>;
  return REFUSED_FIELDS.filter((field) => sc[field] !== WINDOWS_REFUSED_SECURITY[field].cdk8sPlusDefault)
    .map((field) => refused(container.name ?? container.image, field, sc[field]));
}
