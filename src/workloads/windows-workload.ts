import { ApiObject, ApiObjectMetadata, Chart, Cron, OwnerReference } from 'cdk8s';
import { Construct } from 'constructs';
import { CDK8S_PLUS, kplus } from './cdk8s-plus';
import { containerPort, getsDefaultStartupProbe, windowsContainerDefaults, windowsSecurityProblems } from './container-defaults';
import { dropChartNamespace } from '../platform/cluster-scope';
import { fail, problem } from '../core/errors';
import { checked, choice, flag, handedOn, instance, list, optional, propsSpec, record, required, stringRecord, text, whole } from '../core/props-spec';
import { listOf, wholeNumber } from '../core/values';
import { WINDOWS_POD_OPTIONS, WindowsPod, WindowsPodOptions, withoutDefaultStartupProbes } from './windows-pod';

/** The cdk8s-plus workload a WindowsWorkload creates. */
export enum WindowsWorkloadKind {
  /** A `kplus.Deployment`: replicated, stateless pods. */
  DEPLOYMENT = 'Deployment',
  /** A `kplus.StatefulSet`: pods with stable names and their own volumes. */
  STATEFUL_SET = 'StatefulSet',
  /** A `kplus.DaemonSet`: one pod on every Windows node. */
  DAEMON_SET = 'DaemonSet',
  /** A `kplus.Job`: pods that run to completion once. */
  JOB = 'Job',
  /** A `kplus.CronJob`: a Job on a schedule. */
  CRON_JOB = 'CronJob',
}

/** Props of `WindowsWorkload`: the kind of workload, its containers, and the Windows pod options. What each prop takes, as the construct checks it: docs/props.md. */
export interface WindowsWorkloadProps extends WindowsPodOptions {
  /**
   * Which workload to create.
   * @default WindowsWorkloadKind.DEPLOYMENT
   */
  readonly kind?: WindowsWorkloadKind;

  /**
   * Image of the main container (named `main`), e.g.
   * `mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022`.
   * @default - no main container; `containers` must name at least one
   */
  readonly image?: string;

  /**
   * Port the main container serves on.
   * @default - none
   */
  readonly port?: number;

  /**
   * Further settings for the main container (env, probes, command, mounts...), as cdk8s-plus takes them.
   * @default - cdk8s-plus defaults, plus the Windows defaults
   */
  readonly main?: Omit<kplus.ContainerProps, 'image' | 'portNumber' | 'port'>;

  /**
   * Additional containers, after the main one.
   * @default - none
   */
  readonly containers?: kplus.ContainerProps[];

  /**
   * Init containers.
   * @default - none
   */
  readonly initContainers?: kplus.ContainerProps[];

  /**
   * Volumes the containers can mount. Not for a StatefulSet, whose pod volumes cdk8s-plus-33
   * drops (cdk8s-team/cdk8s-plus#6735): an error there.
   * @default - none
   */
  readonly volumes?: kplus.Volume[];

  /**
   * Replicas of a Deployment or StatefulSet. An error for the other kinds.
   * @default 1
   */
  readonly replicas?: number;

  /**
   * Schedule of a CronJob; required for that kind, an error for the others.
   * @default - none
   */
  readonly schedule?: Cron;

  /**
   * Service account of the pods. With `gmsaCredentialSpecName` it is granted `use` of that
   * GMSACredentialSpec, which the windows-gmsa webhook requires.
   * @default - the namespace's default service account, token not mounted (cdk8s-plus default);
   *   with `gmsaCredentialSpecName`, a service account of the workload's own
   */
  readonly serviceAccount?: kplus.IServiceAccount;

  /**
   * Mount the service account's API token into the pods (`automountServiceAccountToken`), for
   * containers that call the API server (e.g. a log agent's Kubernetes metadata filter).
   * @default false (cdk8s-plus's default)
   */
  readonly automountServiceAccountToken?: boolean;

  /**
   * Metadata of the workload object.
   * @default - generated name
   */
  readonly metadata?: ApiObjectMetadata;
}

/**
 * The metadata of an object as cdk8s takes it: checked here, and handed on as it is (cdk8s writes
 * any further field the user gives, such as `generateName`).
 * @internal
 */
export const OBJECT_METADATA = propsSpec<ApiObjectMetadata>('ApiObjectMetadata', {
  // Object names are DNS subdomains, namespaces DNS labels (kubernetes apimachinery
  // pkg/util/validation/validation.go, IsDNS1123Subdomain, IsDNS1123Label); the rules judge the form.
  name: optional(text({ max: 253, form: 'an object name', example: 'web' })),
  namespace: optional(text({ max: 63, form: 'a namespace name', example: 'apps' })),
  labels: optional(stringRecord()),
  annotations: optional(stringRecord()),
  finalizers: optional(list(text({ max: 316, form: 'a finalizer name', example: 'example.com/cleanup' }))),
  ownerReferences: optional(list(record(propsSpec<OwnerReference>('OwnerReference', {
    apiVersion: required(text({ max: 317, form: 'an API version', example: 'apps/v1' }), 'give apiVersion'),
    kind: required(text({ max: 63, form: 'a kind', example: 'Deployment' }), 'give kind'),
    name: required(text({ max: 253, form: 'an object name', example: 'web' }), 'give name'),
    uid: required(text({ max: 64, form: 'a uid', example: 'd9607e19-f88f-11e6-a518-42010a800195' }), 'give uid'),
    blockOwnerDeletion: optional(flag()),
    controller: optional(flag()),
  })))),
});

/**
 * A container's props as cdk8s-plus takes them: an object, whose image and ports the workload
 * checks (`checkContainerInputs`) and cdk8s-plus reads.
 */
const CONTAINER_PROPS = instance<kplus.ContainerProps>('an object of container props', (v) => !Array.isArray(v), 'give { image: ..., ... } as cdk8s-plus ContainerProps', true);

/**
 * The spec of `WindowsWorkloadProps`. The Windows pod options are handed on to `WindowsPod`, which
 * parses them (its errors name the workload's pod owner).
 * @internal
 */
export const WINDOWS_WORKLOAD_PROPS = propsSpec<WindowsWorkloadProps>('WindowsWorkload', {
  ...handedOn(WINDOWS_POD_OPTIONS.entries, 'WindowsPod'),
  kind: optional(choice(WindowsWorkloadKind, 'WindowsWorkloadKind')),
  // An image reference: a name of at most 255 characters, a tag of at most 128 and a digest
  // (distribution/reference v0.6.0 reference.go, NameTotalLengthMax, and regexp.go).
  image: optional(text({ max: 512, form: 'an image reference', example: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' })),
  port: optional(whole(1, 65535)),
  main: optional(CONTAINER_PROPS),
  containers: optional(list(CONTAINER_PROPS)),
  initContainers: optional(list(CONTAINER_PROPS)),
  volumes: optional(list(instance<kplus.Volume>('a cdk8s-plus Volume', (v) => typeof (v as kplus.Volume).asVolume === 'function', 'make it with kplus.Volume.fromEmptyDir, fromConfigMap, ...'))),
  replicas: optional(whole()),
  schedule: optional(instance<Cron>('a cdk8s Cron', (v) => typeof (v as Cron).expressionString === 'string', 'give Cron.daily() or Cron.schedule({ ... })')),
  serviceAccount: optional(instance<kplus.IServiceAccount>('a cdk8s-plus service account', (v) => typeof (v as kplus.IServiceAccount).name === 'string', 'give a kplus.ServiceAccount, or kplus.ServiceAccount.fromServiceAccountName(...)')),
  automountServiceAccountToken: optional(flag()),
  metadata: optional(checked(OBJECT_METADATA)),
});

/**
 * A Windows Deployment, StatefulSet, DaemonSet, Job or CronJob built on cdk8s-plus, that the API
 * server accepts and that lands on the right Windows nodes (see `WindowsPod`).
 *
 * The cdk8s-plus object is `workload`; its conveniences (env, volumes, probes, `scheduling`...)
 * stay available. Add containers through `addContainer` so they are made Windows-safe too.
 */
export class WindowsWorkload extends Construct {
  /** The cdk8s-plus workload. */
  public readonly workload: kplus.Workload;
  /** The Windows settings of the workload's pod template. */
  public readonly windows: WindowsPod;
  /** The kind of workload. */
  public readonly kind: WindowsWorkloadKind;

  constructor(scope: Construct, id: string, given: WindowsWorkloadProps) {
    super(scope, id);
    requireChart(this);
    const props = WINDOWS_WORKLOAD_PROPS.parse(this.node.path, given);
    this.kind = props.kind ?? WindowsWorkloadKind.DEPLOYMENT;

    const containers = [
      ...(props.image !== undefined ? [{ ...props.main, image: props.image, portNumber: props.port }] : []),
      ...(props.containers ?? []),
    ];
    if (containers.length === 0) fail(this, 'a Windows workload needs a container', 'give `image` or `containers`');
    checkContainerInputs(this, [...containers, ...(props.initContainers ?? [])]);
    if (this.kind === WindowsWorkloadKind.STATEFUL_SET && !containers.some((c) => containerPort(c) !== undefined)) {
      fail(this, 'a StatefulSet without a port: its headless Service is built from its container ports', 'give `port`');
    }
    if (this.kind === WindowsWorkloadKind.STATEFUL_SET && (props.volumes ?? []).length > 0) {
      // cdk8s-plus-33 2.5.57 writes a StatefulSet's pod volumes only beside volumeClaimTemplates
      // (lib/stateful-set.js, _filterPodSpecVolumes returns undefined otherwise:
      // cdk8s-team/cdk8s-plus#6735, open), so these would vanish from the manifest.
      fail(this, `volumes on a StatefulSet: ${CDK8S_PLUS} drops a StatefulSet's pod volumes when it has no volumeClaimTemplates (cdk8s-team/cdk8s-plus#6735)`,
        'use kind Deployment, or a cdk8s-plus StatefulSet with volumeClaimTemplates made Windows-safe with WindowsPod');
    }
    if (this.kind === WindowsWorkloadKind.CRON_JOB && props.schedule === undefined) {
      fail(this, 'a CronJob without a schedule', 'give `schedule`, e.g. Cron.daily()');
    }

    // The windows-gmsa webhook admits the pod only when its service account may `use` the
    // GMSACredentialSpec (kubernetes-sigs/windows-gmsa v0.13.0 admission-webhook/kube_client.go,
    // isAuthorizedToUseCredSpec: a LocalSubjectAccessReview in the pod's namespace).
    const serviceAccount = props.serviceAccount
      ?? (props.gmsaCredentialSpecName !== undefined ? new kplus.ServiceAccount(this, 'GmsaServiceAccount', { metadata: { namespace: props.metadata?.namespace } }) : undefined);

    const built = containers.map((c) => windowsContainerDefaults(kplus, c));
    const builtInit = (props.initContainers ?? []).map((c) => windowsContainerDefaults(kplus, c, { init: true }));
    // 'Default' keeps the generated object names as short as a plain cdk8s-plus workload's.
    this.workload = createWorkload(this, 'Default', this.kind, {
      containers: built,
      initContainers: builtInit,
      volumes: props.volumes,
      serviceAccount,
      automountServiceAccountToken: props.automountServiceAccountToken,
      metadata: props.metadata,
    }, props);
    if (![...built, ...builtInit].some(getsDefaultStartupProbe)) withoutDefaultStartupProbes(this.workload);
    this.windows = new WindowsPod(this.workload, props);
    if (props.gmsaCredentialSpecName !== undefined && serviceAccount) {
      this.grantGmsaUse(props.gmsaCredentialSpecName, serviceAccount);
    }

    this.node.addValidation({ validate: () => this.validateKindProps(props) });
  }

  /**
   * A ClusterRole allowing `use` of the one GMSACredentialSpec (cluster-scoped), bound in the
   * workload's namespace to its service account: what the webhook's access review asks.
   */
  private grantGmsaUse(credSpec: string, serviceAccount: kplus.IServiceAccount): void {
    const namespace = ApiObject.of(this.workload).metadata.namespace ?? Chart.of(this).namespace;
    if (namespace === undefined) {
      fail(this, `gmsaCredentialSpecName ${credSpec} without a namespace: the RoleBinding that lets the service account use it must name the service account's namespace`,
        'give the workload `metadata.namespace`, or the chart a `namespace`');
    }
    const role = new ApiObject(this, 'GmsaRole', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      rules: [{ apiGroups: ['windows.k8s.io'], resources: ['gmsacredentialspecs'], verbs: ['use'], resourceNames: [credSpec] }],
    });
    dropChartNamespace(role);
    new ApiObject(this, 'GmsaRoleBinding', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.name },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount.name, namespace }],
    });
  }

  /** Adds a container with the Windows defaults. */
  public addContainer(props: kplus.ContainerProps): kplus.Container {
    return this.windows.addContainer(props);
  }

  /** Adds an init container with the Windows defaults. */
  public addInitContainer(props: kplus.ContainerProps): kplus.Container {
    return this.windows.addInitContainer(props);
  }

  /** Exposes a Deployment through a Service (cdk8s-plus `Deployment.exposeViaService`). */
  public exposeViaService(options: kplus.DeploymentExposeViaServiceOptions = {}): kplus.Service {
    if (!(this.workload instanceof kplus.Deployment)) {
      fail(this, `exposeViaService needs a Deployment, and this is a ${this.kind}`, 'create a kplus.Service with selector: workload.workload');
    }
    return this.workload.exposeViaService(options);
  }

  private validateKindProps(props: WindowsWorkloadProps): string[] {
    const errors: string[] = [];
    const scalable = this.kind === WindowsWorkloadKind.DEPLOYMENT || this.kind === WindowsWorkloadKind.STATEFUL_SET;
    if (props.replicas !== undefined && !scalable) {
      errors.push(problem(`replicas (${props.replicas}) has no meaning for a ${this.kind}`, 'remove it'));
    }
    if (props.schedule !== undefined && this.kind !== WindowsWorkloadKind.CRON_JOB) {
      errors.push(problem(`schedule is only used by a CronJob, and this is a ${this.kind}`, 'remove it, or set kind: WindowsWorkloadKind.CRON_JOB'));
    }
    return errors;
  }
}

function createWorkload(scope: Construct, id: string, kind: WindowsWorkloadKind, common: kplus.WorkloadProps, props: WindowsWorkloadProps): kplus.Workload {
  // The documented default, applied here: cdk8s-plus (28 and 33) would write 2 for a Deployment
  // (lib/deployment.js, `this.replicas ?? 2`) and 1 for a StatefulSet.
  const replicas = props.replicas ?? 1;
  switch (kind) {
    case WindowsWorkloadKind.DEPLOYMENT:
      return new kplus.Deployment(scope, id, { ...common, replicas });
    case WindowsWorkloadKind.STATEFUL_SET:
      return new kplus.StatefulSet(scope, id, { ...common, replicas });
    case WindowsWorkloadKind.DAEMON_SET:
      return new kplus.DaemonSet(scope, id, common);
    case WindowsWorkloadKind.JOB:
      return new kplus.Job(scope, id, common);
    case WindowsWorkloadKind.CRON_JOB:
      return new kplus.CronJob(scope, id, { ...common, schedule: props.schedule! });
  }
}

/** A workload is an object of a chart: cdk8s-plus would fail without a path outside one. */
function requireChart(scope: Construct): void {
  try {
    Chart.of(scope);
  } catch {
    fail(scope, 'is not inside a cdk8s Chart', 'create it in a Chart (e.g. new HybridChart(app, \'apps\')), not directly in the App');
  }
}

/** Each container's image, ports and Windows-refused settings, checked where they enter. */
function checkContainerInputs(scope: Construct, containers: readonly kplus.ContainerProps[]): void {
  for (const c of containers) {
    if (typeof c.image !== 'string' || c.image.trim() === '') fail(scope, `container ${c.name ?? ''} has image ${JSON.stringify(c.image)}`, 'give an image reference such as mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022');
    const name = `container ${c.name ?? c.image}`;
    const ports = listOf<kplus.ContainerPort>({ path: scope.node.path, prop: `${name} ports` }, c.ports) ?? [];
    for (const port of [c.portNumber, c.port, ...ports.map((p) => p.number)]) wholeNumber({ path: scope.node.path, prop: `${name} port` }, port, 1, 65535);
    const security = windowsSecurityProblems(c)[0];
    if (security) fail(scope, security.what, security.fix);
  }
}
