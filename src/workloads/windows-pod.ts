import { ApiObject, JsonPatch } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-33';
import { Construct, IConstruct } from 'constructs';
import { Cdk8sPlus, cdk8sPlusOf } from './cdk8s-plus';
import { LABEL_HYPERV, LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_NODE_TAINT, WINDOWS_RELEASES, WindowsVersion, isWindowsAdminUser, hostProcessUserProblem, HOST_PROCESS_USER_FIX } from '../platform/windows';
import { WINDOWS_STARTUP_PROBE, builtContainerSecurityProblems, windowsContainerDefaults, windowsSecurityProblems } from './container-defaults';
import { fail, problem } from '../core/errors';
import { choice, flag, instance, optional, propsSpec, text } from '../core/props-spec';
import { HyperVRuntimeClass } from './hyperv-runtime-class';
import { WindowsIsolation, imageIncompatibility, imageRelease, unsupportedRelease } from './image-compatibility';
import { podSpecPointer, podTemplateOf } from '../rules/pods/pod-template';
import { PodTemplatePolicy } from './pod-template-policy';
import { oncePerSynth } from '../core/synth-scope';
import { windowsNodeTaint } from '../platform/support';
import { rendered } from '../core/render';

/**
 * A cdk8s-plus object that owns a pod template: a Pod, Deployment, StatefulSet, DaemonSet, Job or
 * CronJob of cdk8s-plus-33 or cdk8s-plus-28. Written as the members `WindowsPod` uses, because
 * TypeScript keeps the two majors' classes apart (private members); the classes of both fit.
 */
export interface PodOwner extends IConstruct {
  /** The pod's containers, whose images name the Windows release. */
  readonly containers: ReadonlyArray<{ readonly image: string }>;
  /** The pod's init containers. */
  readonly initContainers: ReadonlyArray<{ readonly image: string }>;
  /** Adds a container; `WindowsPod.addContainer` calls it with the Windows defaults applied. */
  addContainer(props: never): unknown;
  /** Adds an init container; `WindowsPod.addInitContainer` calls it with the Windows defaults applied. */
  addInitContainer(props: never): unknown;
  /** Where the toleration of the Windows node taint goes. */
  readonly scheduling: { tolerate(...tolerations: never[]): void };
}

/** A cdk8s-plus-33 pod owner: the type `WindowsPod` takes when none is named. */
export type Cdk8sPlusPodOwner = kplus.Pod | kplus.Workload;

/** How a Windows pod runs and where it lands. What each prop takes, as the construct checks it: docs/props.md. */
export interface WindowsPodOptions {
  /**
   * Windows Server release of the nodes to run on. Pins the pod with the
   * `node.kubernetes.io/windows-build` node selector and is checked against LTSC image tags.
   * @default - the release of `hyperV`, else the one named by the first LTSC-tagged image (containers, then init containers), else any Windows node
   */
  readonly version?: WindowsVersion;

  /**
   * Run with Hyper-V isolation through this RuntimeClass (experimental; see `HyperVRuntimeClass`).
   * The pods then need Windows nodes with the Hyper-V role, labelled `LABEL_HYPERV`
   * (`WindowsWorkerPool` `hyperV: true`, which on EC2 takes a metal instance type); elsewhere
   * they stay Pending. Image and host releases follow the same rules as process isolation.
   * @default - process isolation
   */
  readonly hyperV?: HyperVRuntimeClass;

  /**
   * Run every container as a HostProcess container (node agents, exporters): implies
   * `hostNetwork: true`. Process isolation only; image tags are not checked, HostProcess images
   * run on any host release.
   * @default false
   */
  readonly hostProcess?: boolean;

  /**
   * Windows user the containers run as (pod-level `windowsOptions.runAsUserName`), e.g.
   * `ContainerUser`, or `NT AUTHORITY\SYSTEM` for HostProcess pods. A user other than
   * ContainerAdministrator and LocalSystem (compared case-insensitively, as the kubelet does) also
   * gives a non-HostProcess pod `runAsNonRoot: true`, which Pod Security `restricted` asks for.
   * @default - the image's user (the pod then claims no `runAsNonRoot`); `NT AUTHORITY\Local service` for HostProcess pods
   */
  readonly runAsUserName?: string;

  /**
   * Name of the GMSACredentialSpec resource (windows-gmsa webhook) giving the pod an Active
   * Directory identity.
   * @default - no gMSA
   */
  readonly gmsaCredentialSpecName?: string;
}

/**
 * The spec of `WindowsPodOptions`: how `WindowsPod` (and `WindowsWorkload`, which takes them too)
 * reads them.
 * @internal
 */
export const WINDOWS_POD_OPTIONS = propsSpec<WindowsPodOptions>('WindowsPodOptions', {
  version: optional(choice(WindowsVersion, 'WindowsVersion')),
  hyperV: optional(instance('a HyperVRuntimeClass', (v) => v instanceof HyperVRuntimeClass, 'pass new HyperVRuntimeClass(chart, id, { ... })')),
  hostProcess: optional(flag()),
  // The API server takes a domain of 256 characters, `\` and a user of 104 (kubernetes v1.34
  // pkg/apis/core/validation/validation.go, validateWindowsSecurityContextOptions); the pod rules
  // judge the rest (runAsUserNameErrors).
  runAsUserName: optional(text({ max: 361, form: 'a Windows user name', example: 'ContainerUser' })),
  // A GMSACredentialSpec is an object of the cluster: its name is a DNS subdomain (253 characters).
  gmsaCredentialSpecName: optional(text({ max: 253, form: 'a GMSACredentialSpec name', example: 'webapp1' })),
});

/** The least-privileged account a HostProcess container can run as. */
export const HOST_PROCESS_DEFAULT_USER = 'NT AUTHORITY\\Local service';

/**
 * The Linux-only security fields cdk8s-plus writes by default (lib/container.js and lib/pod.js:
 * privileged false, allowPrivilegeEscalation false, readOnlyRootFilesystem true, runAsNonRoot
 * true, pod fsGroupChangePolicy Always). The API server rejects the first three and
 * fsGroupChangePolicy on a Windows pod even when false; `runAsNonRoot: true` is accepted but
 * makes the kubelet refuse images whose user is ContainerAdministrator, so it goes too, and comes
 * back only where the user is known. A value other than these defaults was set by the user and is
 * an error, never silently dropped.
 */
const CDK8S_PLUS_CONTAINER_DEFAULTS = ['privileged', 'allowPrivilegeEscalation', 'readOnlyRootFilesystem', 'runAsNonRoot'];

const ID = 'Windows';

/** Workloads none of whose containers carries cdk8s-plus's default startup probe (`withoutDefaultStartupProbes`). */
const NO_DEFAULT_PROBES = new WeakSet<IConstruct>();

/**
 * Tells the `WindowsPod` about to be attached to `workload` that no container of it carries
 * cdk8s-plus's default startup probe (`getsDefaultStartupProbe` is false for each one's props), so
 * it need not render the workload to look for one. `WindowsWorkload` knows, having built them.
 * @internal
 */
export function withoutDefaultStartupProbes(workload: IConstruct): void {
  NO_DEFAULT_PROBES.add(workload);
}

/**
 * Makes the pod template of a cdk8s-plus workload Windows-safe: `spec.os.name: windows`, the
 * `kubernetes.io/os: windows` (and optional windows-build) node selector, a toleration of
 * `WINDOWS_NODE_TAINT` (of GKE's `node.kubernetes.io/os=windows:NoSchedule` in a chart made for
 * `WindowsPlatform.GKE`), Hyper-V or HostProcess settings, Windows security options, and removal of
 * the Linux-only defaults cdk8s-plus emits. Attach it after the workload's containers are added;
 * add later containers through `addContainer` / `addInitContainer` so they get the same treatment.
 *
 * Checks (at synth, on the final manifest): image LTSC tag against the target release and
 * isolation, isolation/HostProcess combinations, and containers added behind its back. The chart's
 * `PodTemplatePolicy` checks API-server acceptance and the Windows scheduling/runtime rules.
 */
export class WindowsPod<W extends PodOwner = Cdk8sPlusPodOwner> extends Construct {
  /** The WindowsPod attached to a workload, if any. */
  public static of<W extends PodOwner>(workload: W): WindowsPod<W> | undefined {
    return workload.node.tryFindChild(ID) as WindowsPod<W> | undefined;
  }

  /** Target release, when the pod is pinned to one. */
  public readonly version?: WindowsVersion;
  /** Process or Hyper-V isolation. */
  public readonly isolation: WindowsIsolation;

  private readonly apiObject: ApiObject;
  private readonly pointer: string;
  private readonly patchedContainers = { containers: 0, initContainers: 0 };
  /** The cdk8s-plus module of the workload's major. */
  private readonly plus: Cdk8sPlus;
  /** The workload through cdk8s-plus-33's API, which cdk8s-plus-28 shares for the members used here. */
  private readonly owner: Cdk8sPlusPodOwner;

  /**
   * @param workload a cdk8s-plus-33 or cdk8s-plus-28 Pod or workload; its containers must be added first
   */
  private readonly options: WindowsPodOptions;

  constructor(private readonly workload: W, options?: WindowsPodOptions) {
    if (WindowsPod.of(workload)) fail(workload, 'is already Windows-safe (a WindowsPod is attached)', 'attach WindowsPod once; add containers with WindowsPod.of(workload).addContainer()');
    const parsed = WINDOWS_POD_OPTIONS.parse(workload.node.path, options);
    super(workload, ID);
    this.options = parsed;
    this.plus = cdk8sPlusOf(workload);
    this.owner = workload as unknown as Cdk8sPlusPodOwner;
    this.apiObject = ApiObject.of(workload);
    const pointer = podSpecPointer(this.apiObject.kind);
    if (!pointer) fail(workload, `${this.apiObject.kind} has no pod template to make Windows-safe`, 'pass a cdk8s-plus Pod or workload (Deployment, StatefulSet, DaemonSet, Job, CronJob)');
    this.pointer = pointer;
    this.isolation = parsed.hyperV ? WindowsIsolation.HYPER_V : WindowsIsolation.PROCESS;
    this.version = parsed.version ?? parsed.hyperV?.version ?? this.versionFromImages();

    this.schedule();
    this.secure();
    this.patientStartupProbes();
    this.patchNewContainers();

    PodTemplatePolicy.of(this);
    this.node.addValidation({ validate: () => oncePerSynth(this, () => this.validate()) });
  }

  /**
   * Adds a container with Windows defaults (requests, slow-start startup probe) and patches it.
   * Props and the returned container are of the workload's cdk8s-plus major.
   */
  public addContainer(props: Parameters<W['addContainer']>[0]): ReturnType<W['addContainer']> {
    const container = this.owner.addContainer(this.withDefaults(props as kplus.ContainerProps, false));
    this.patchNewContainers();
    return container as ReturnType<W['addContainer']>;
  }

  /** Adds an init container with Windows defaults and patches it. */
  public addInitContainer(props: Parameters<W['addInitContainer']>[0]): ReturnType<W['addInitContainer']> {
    const container = this.owner.addInitContainer(this.withDefaults(props as kplus.ContainerProps, true));
    this.patchNewContainers();
    return container as ReturnType<W['addInitContainer']>;
  }

  private withDefaults(props: kplus.ContainerProps, init: boolean): kplus.ContainerProps {
    const security = windowsSecurityProblems(props)[0];
    if (security) fail(this.workload, security.what, security.fix);
    return windowsContainerDefaults(this.plus, props, { init });
  }

  private versionFromImages(): WindowsVersion | undefined {
    if (this.options.hostProcess) return undefined;
    const images = [...this.workload.containers, ...this.workload.initContainers].map((c) => c.image);
    return images.map(imageRelease).find((r) => r?.version)?.version;
  }

  private schedule(): void {
    const nodeSelector: Record<string, string> = { [LABEL_OS]: 'windows' };
    if (this.version) nodeSelector[LABEL_WINDOWS_BUILD] = WINDOWS_RELEASES[this.version].build;
    // The RuntimeClass's own selection, repeated: DaemonSet pods are placed without it.
    if (this.options.hyperV) nodeSelector[LABEL_HYPERV] = 'true';
    this.patch(JsonPatch.add(`${this.pointer}/os`, { name: 'windows' }));
    this.patch(JsonPatch.add(`${this.pointer}/nodeSelector`, nodeSelector));
    // This library's taint on every platform, and the platform's own where it differs (GKE's
    // node.kubernetes.io/os=windows:NoSchedule): tolerating a taint a node lacks changes nothing, so
    // the pod also runs where Windows nodes carry none (pools AKS made without this library, RKE2's
    // agents) or were tainted by hand the usual way.
    const platform = PodTemplatePolicy.of(this.workload).targetPlatform;
    const own = platform === undefined ? undefined : windowsNodeTaint(platform);
    const taints = own === undefined || own === WINDOWS_NODE_TAINT ? [WINDOWS_NODE_TAINT] : [WINDOWS_NODE_TAINT, own];
    for (const taint of taints) {
      this.owner.scheduling.tolerate(this.plus.Node.tainted(this.plus.NodeTaintQuery.is(taint.key, taint.value, { effect: this.plus.TaintEffect.NO_SCHEDULE })));
    }
    if (this.options.hyperV) this.patch(JsonPatch.add(`${this.pointer}/runtimeClassName`, this.options.hyperV.name));
  }

  private secure(): void {
    const pod = this.owner.securityContext;
    if (pod.fsGroupChangePolicy !== this.plus.FsGroupChangePolicy.ALWAYS) {
      fail(this.workload, `the pod sets securityContext.fsGroupChangePolicy: ${pod.fsGroupChangePolicy}, which the API server refuses on Windows pods`, 'drop it: Windows volumes have no group ownership to change');
    }
    const container = [...this.owner.containers, ...this.owner.initContainers].flatMap(builtContainerSecurityProblems)[0];
    if (container) fail(this.workload, container.what, container.fix);

    this.patch(JsonPatch.remove(`${this.pointer}/securityContext/fsGroupChangePolicy`));
    // runAsNonRoot: true is cdk8s-plus's default (or cannot be told from it); a false is the
    // user's, valid on Windows, and kept.
    if (pod.ensureNonRoot) this.patch(JsonPatch.remove(`${this.pointer}/securityContext/runAsNonRoot`));
    // cdk8s-plus-33 also writes `shareProcessNamespace: false` (lib/pod.js, AbstractPod; 28 has no
    // such prop), which the API server refuses on a Windows pod when set at all. A `true` the user
    // asked for stays, and the chart's policy reports it.
    if ((this.owner as { shareProcessNamespace?: boolean }).shareProcessNamespace === false) this.patch(JsonPatch.remove(`${this.pointer}/shareProcessNamespace`));
    const windowsOptions: Record<string, unknown> = {};
    const runAsUserName = this.options.runAsUserName ?? (this.options.hostProcess ? HOST_PROCESS_DEFAULT_USER : undefined);
    const hostUser = this.options.hostProcess && runAsUserName ? hostProcessUserProblem(runAsUserName) : undefined;
    if (hostUser) fail(this.workload, `runAsUserName: ${hostUser}`, HOST_PROCESS_USER_FIX);
    if (runAsUserName !== undefined) windowsOptions.runAsUserName = runAsUserName;
    if (this.options.gmsaCredentialSpecName !== undefined) windowsOptions.gmsaCredentialSpecName = this.options.gmsaCredentialSpecName;
    if (this.options.hostProcess) windowsOptions.hostProcess = true;
    if (Object.keys(windowsOptions).length > 0) this.patch(JsonPatch.add(`${this.pointer}/securityContext/windowsOptions`, windowsOptions));
    if (this.options.hostProcess) this.patch(JsonPatch.add(`${this.pointer}/hostNetwork`, true));
    // Pod Security "restricted" requires runAsNonRoot on every pod, Windows ones included (its
    // Windows relaxations skip capabilities, seccomp and privilege escalation, not this:
    // kubernetes staging/src/k8s.io/pod-security-admission/policy/check_runAsNonRoot.go). The
    // kubelet enforces it on Windows by refusing ContainerAdministrator, so it is set only where
    // the user is known to be another one.
    if (pod.ensureNonRoot && this.runsAsNonAdmin(runAsUserName)) this.patch(JsonPatch.add(`${this.pointer}/securityContext/runAsNonRoot`, true));
  }

  /**
   * Whether the containers are known to run as a non-administrator: only through a
   * `runAsUserName` that names neither ContainerAdministrator nor LocalSystem, never for
   * HostProcess pods. An image's own user is not known here: an image built on nanoserver (whose
   * default user is ContainerUser) can switch to ContainerAdministrator, and the kubelet then
   * refuses it under runAsNonRoot.
   */
  private runsAsNonAdmin(runAsUserName: string | undefined): boolean {
    return !this.options.hostProcess && runAsUserName !== undefined && !isWindowsAdminUser(runAsUserName);
  }

  /**
   * Gives the workload's existing containers the startup probe `WindowsWorkload` gives its own
   * (`WINDOWS_STARTUP_PROBE`: 30 tries 10 s apart) where they carry cdk8s-plus's default, a TCP
   * probe of 3 tries that kills a Windows container still starting (IIS, .NET Framework). A probe
   * the user set is kept.
   */
  private patientStartupProbes(): void {
    // Without a container cdk8s-plus cannot render the pod; validation says so. Rendering the
    // workload here was about half of a WindowsWorkload's construction, so it is skipped where no
    // container can carry the default.
    if (this.workload.containers.length === 0 || NO_DEFAULT_PROBES.has(this.workload)) return;
    const spec = podTemplateOf(this.apiObject.toJson())?.spec ?? {};
    for (const field of ['containers', 'initContainers'] as const) {
      (spec[field] ?? []).forEach((c: { startupProbe?: { tcpSocket?: { port?: unknown }; failureThreshold?: number; [k: string]: unknown } }, i: number) => {
        const probe = c.startupProbe;
        const isDefault = probe !== undefined && Object.keys(probe).sort().join() === 'failureThreshold,tcpSocket' && probe.failureThreshold === 3;
        if (!isDefault) return;
        this.patch(JsonPatch.replace(`${this.pointer}/${field}/${i}/startupProbe`, {
          // cdk8s-plus objects are generated L1 classes: their toJson maps the patched document
          // through toJson_KubeDeploymentProps (cdk8s-plus-28 and -33 lib/imports/k8s.js), which reads an
          // IntOrString port as `{ value }`.
          tcpSocket: { port: { value: probe!.tcpSocket?.port } },
          periodSeconds: WINDOWS_STARTUP_PROBE.periodSeconds.toSeconds(),
          failureThreshold: WINDOWS_STARTUP_PROBE.failureThreshold,
        }));
      });
    }
  }

  /** Removes cdk8s-plus's Linux-only container defaults from containers not yet patched. */
  private patchNewContainers(): void {
    const lists = { containers: this.owner.containers, initContainers: this.owner.initContainers };
    for (const field of ['containers', 'initContainers'] as const) {
      for (let i = this.patchedContainers[field]; i < lists[field].length; i++) {
        for (const key of CDK8S_PLUS_CONTAINER_DEFAULTS) {
          this.patch(JsonPatch.remove(`${this.pointer}/${field}/${i}/securityContext/${key}`));
        }
      }
      this.patchedContainers[field] = lists[field].length;
    }
  }

  private patch(op: JsonPatch): void {
    this.apiObject.addJsonPatch(op);
  }

  private validate(): string[] {
    const errors: string[] = [];
    // cdk8s-plus cannot render a pod without containers, so say it before rendering.
    if (this.workload.containers.length === 0) {
      return [problem(`${this.workload.node.path} has no container`, 'add them with WindowsPod.of(workload).addContainer(), so that they get the Windows defaults')];
    }
    const { hyperV, hostProcess } = this.options;
    if (hyperV && hostProcess) {
      errors.push(problem(`HostProcess containers run directly on the host and cannot use Hyper-V isolation (RuntimeClass ${hyperV.name})`, 'drop hyperV or hostProcess'));
    }
    if (this.options.version && hyperV?.version && this.options.version !== hyperV.version) {
      errors.push(problem(`version ${this.options.version} contradicts RuntimeClass ${hyperV.name}, which schedules to Windows Server ${hyperV.version}, so the pod could never be placed`, 'use the same release'));
    }

    const spec = podTemplateOf(rendered(this.apiObject))?.spec ?? {};
    // The images are judged against the release the final manifest selects: a patch may have
    // changed the windows-build selector this construct wrote.
    const build = spec.nodeSelector?.[LABEL_WINDOWS_BUILD];
    const host = build === undefined ? this.version : Object.values(WindowsVersion).find((v) => WINDOWS_RELEASES[v].build === build);
    if (build !== undefined && host === undefined) {
      errors.push(problem(`nodeSelector ${LABEL_WINDOWS_BUILD}=${JSON.stringify(build)} names no Windows Server release Kubernetes supports`, `select one of ${Object.values(WINDOWS_RELEASES).map((r) => r.build).join(', ')}, or set \`version\` instead of patching`));
    }
    for (const field of ['containers', 'initContainers'] as const) {
      const count = (spec[field] ?? []).length;
      if (count > this.patchedContainers[field]) {
        const names = spec[field].slice(this.patchedContainers[field]).map((c: { name: string }) => c.name).join(', ');
        errors.push(problem(`${field} ${names} were added to ${this.workload.node.path} after it was made Windows-safe and keep cdk8s-plus's Linux-only defaults`, `add them with WindowsPod.of(workload).${field === 'containers' ? 'addContainer' : 'addInitContainer'}()`));
      }
      if (hostProcess) continue;
      (spec[field] ?? []).forEach((c: { name: string; image: string }) => {
        const incompatible = host
          ? imageIncompatibility(c.image, host, this.isolation)
          : unsupportedRelease(c.image);
        if (incompatible) errors.push(problem(`container ${c.name}: ${incompatible.slice(0, incompatible.lastIndexOf('; '))}`, incompatible.slice(incompatible.lastIndexOf('; ') + 2)));
      });
    }
    return errors;
  }
}
