import { DNS1123_LABEL } from '../../platform/dns';
import { podTemplateOf } from './pod-template';

/**
 * The Kubernetes API server's OS-specific pod validation (kubernetes/kubernetes
 * `pkg/apis/core/validation/validation.go`: `validateOS`, `validateLinux`, `validateWindows`,
 * `validateWindowsHostProcessPod` and the Windows security-context options checks), reimplemented
 * over a plain JSON pod spec so that a manifest can be checked at synth time instead of at
 * `kubectl apply` time.
 *
 * Only the OS-specific rules are covered; generic pod validation (names, ports, quantities...) is
 * left to the API server.
 */

/** One reason the API server would reject a pod spec. */
export interface PodSpecViolation {
  /** Field path in the API server's form, rooted at `spec`, e.g. `spec.containers[0].securityContext.privileged`. */
  readonly path: string;
  /** What is wrong, in the API server's words where it has them. */
  readonly message: string;
  /**
   * What to change, naming the fields by their paths rooted at `spec` (the manifest rules root them
   * where the pod spec sits: `spec.template.spec...`).
   * @default - derived from the API server's reason (`podSpecFix`)
   */
  readonly fix?: string;
  /**
   * The rule the finding belongs to, one concern each (`POD_RULES`: `windows-host-port`,
   * `windows-toleration`...), so that a suppression of one leaves the others standing.
   * @default - `pod-os-validation`, the API server's OS-specific pod validation
   */
  readonly rule?: string;
}

/**
 * What to change for a violation of the API server's pod validation, from the kind of its reason:
 * remove what is forbidden, set what is required, pick a value it supports.
 * @internal
 */
export function podSpecFix(v: PodSpecViolation): string {
  if (v.fix !== undefined) return v.fix;
  const reason = /^(Forbidden|Required value|Unsupported value|Invalid value): (.*)$/s.exec(v.message);
  switch (reason?.[1]) {
    case 'Forbidden':
      return `remove ${v.path} (${reason[2].replace(/\.$/, '')})`;
    case 'Required value':
      return `set ${v.path}`;
    case 'Unsupported value':
      return `set ${v.path} to one of the supported values (${reason[2].replace(/^"[^"]*": supported values: /, '')})`;
    case 'Invalid value':
      return `change ${v.path}: ${reason[2].replace(/^(?:"[^"]*"|[^:]*): /, '')}`;
    default:
      return `change ${v.path}: it ${v.message}`;
  }
}

// Loosely typed views of the JSON the function receives: it must cope with any manifest.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const VALID_OS = ['linux', 'windows'];
const WINDOWS_FORBIDDEN = 'cannot be set for a windows pod';

/** Pod-level securityContext fields the API server forbids on Windows pods (set at all, even to `false`). */
const WINDOWS_FORBIDDEN_POD_SECURITY_CONTEXT = [
  'appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy',
  'runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy',
] as const;

/** Container-level securityContext fields the API server forbids on Windows pods (set at all, even to `false`). */
const WINDOWS_FORBIDDEN_CONTAINER_SECURITY_CONTEXT = [
  'appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem',
  'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup',
] as const;

/**
 * Limits from validation.go (`maxGMSACredentialSpecLengthInKiB`, `maxRunAsUserName*Length`).
 * @internal
 */
export const MAX_GMSA_CREDENTIAL_SPEC_BYTES = 64 * 1024;
/** @internal */
export const MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH = 256;
/** @internal */
export const MAX_RUN_AS_USER_NAME_USER_LENGTH = 104;

// NetBIOS domain: 1-15 characters (Go counts runes, hence the u flag), no leading dot, none of \ / : * ? " < > |
const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const DNS_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const DNS_DOMAIN = new RegExp(`^${DNS_LABEL}(?:\\.${DNS_LABEL})*$`);
const USER_FORBIDDEN_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const USER_ONLY_DOTS_SPACES = /^[. ]+$/;
// Go's [[:cntrl:]] is ASCII 0x00-0x1F and 0x7F.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;

const DNS1123_SUBDOMAIN_MAX = 253;

/**
 * Checks a pod spec the way the API server's OS-specific validation does.
 *
 * @param spec the pod spec itself — the contents of a Pod's `spec` (or of a workload's
 *   `spec.template.spec`), not a `{ spec }` wrapper. Violation paths are rooted at `spec`.
 * @returns every violation found; empty when the API server would accept the OS-specific fields.
 */
export function validatePodSpec(spec: Json): PodSpecViolation[] {
  const errors: PodSpecViolation[] = [];
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    return [{ path: 'spec', message: 'must be an object' }];
  }
  const wrapped = wrapperOf(spec);
  if (wrapped) return [{ path: 'spec', message: wrapped }];
  const containers = visitContainers(spec);

  // Windows security options are validated whatever the OS (ValidateSecurityContext and
  // validatePodSpecSecurityContext call the same helper).
  // Each check appends to `errors`: this runs for every pod template of every object.
  validateWindowsOptions(errors, spec.securityContext?.windowsOptions, 'spec.securityContext.windowsOptions');
  for (const c of containers) {
    const options = c.container?.securityContext?.windowsOptions;
    if (isSet(options)) validateWindowsOptions(errors, options, `${c.path}.securityContext.windowsOptions`);
  }
  validateHostProcess(errors, spec, containers);
  validateGenericRules(errors, spec, containers);

  if (spec.os !== undefined && spec.os !== null) {
    const name = spec.os.name;
    if (name === undefined || name === null || name === '') {
      errors.push({ path: 'spec.os.name', message: 'Required value: cannot be empty' });
    } else if (!VALID_OS.includes(name)) {
      errors.push({ path: 'spec.os', message: `Unsupported value: "${name}": supported values: "linux", "windows"` });
    } else if (name === 'linux') {
      validateLinux(errors, spec, containers);
    } else {
      validateWindows(errors, spec, containers);
    }
  }
  return errors;
}

/**
 * Why `value` is a whole object or a pod template rather than a pod spec, or undefined: a pod spec
 * has neither `kind` nor `spec` nor `template`, and the API server would find no containers in it.
 */
function wrapperOf(value: Json): string | undefined {
  if (Array.isArray(value.containers)) return undefined;
  if (typeof value.kind === 'string') {
    const location = podTemplateOf(value);
    return `is a ${value.kind} manifest, not a pod spec; pass its ${location ? location.dotted : 'pod spec'} (podTemplateOf(manifest).spec)`;
  }
  if (value.spec !== null && typeof value.spec === 'object') return 'is a pod template ({ metadata, spec }), not a pod spec; pass its spec';
  if (value.template !== null && typeof value.template === 'object') return 'is a workload spec, not a pod spec; pass its template.spec';
  return undefined;
}

interface VisitedContainer {
  readonly container: Json;
  readonly path: string;
}

/** The API server visits init, regular and ephemeral containers, in that order (podshelper.VisitContainersWithPath). */
function visitContainers(spec: Json): VisitedContainer[] {
  const out: VisitedContainer[] = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = spec[field];
    if (Array.isArray(list)) {
      list.forEach((container, i) => out.push({ container, path: `spec.${field}[${i}]` }));
    }
  }
  return out;
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function validateLinux(errors: PodSpecViolation[], spec: Json, containers: VisitedContainer[]): void {
  const message = 'Forbidden: windows options cannot be set for a linux pod';
  if (isSet(spec.securityContext?.windowsOptions)) {
    errors.push({ path: 'spec.securityContext.windowsOptions', message });
  }
  for (const c of containers) {
    if (isSet(c.container?.securityContext?.windowsOptions)) {
      errors.push({ path: `${c.path}.securityContext.windowsOptions`, message });
    }
  }
}

function validateWindows(errors: PodSpecViolation[], spec: Json, containers: VisitedContainer[]): void {
  const forbidden = (path: string) => errors.push({ path, message: `Forbidden: ${WINDOWS_FORBIDDEN}` });
  const sc = spec.securityContext;
  if (isSet(sc)) {
    for (const field of WINDOWS_FORBIDDEN_POD_SECURITY_CONTEXT) {
      if (isSet(sc[field])) forbidden(`spec.securityContext.${field}`);
    }
    // An empty sysctls list is accepted: the API server checks len() > 0.
    if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) forbidden('spec.securityContext.sysctls');
  }
  // In the v1 API these live on the pod spec; pointers are forbidden when set, booleans when true.
  // Pod-level resources (PodLevelResources, beta in 1.34) are not supported on Windows.
  if (isSet(spec.resources)) forbidden('spec.resources');
  if (isSet(spec.hostUsers)) forbidden('spec.hostUsers');
  if (spec.hostPID === true) forbidden('spec.hostPID');
  if (spec.hostIPC === true) forbidden('spec.hostIPC');
  if (isSet(spec.shareProcessNamespace)) forbidden('spec.shareProcessNamespace');
  for (const c of containers) {
    const csc = c.container?.securityContext;
    if (!isSet(csc)) continue;
    for (const field of WINDOWS_FORBIDDEN_CONTAINER_SECURITY_CONTEXT) {
      if (isSet(csc[field])) forbidden(`${c.path}.securityContext.${field}`);
    }
  }
}

/** IPC-namespaced sysctls (kubernetes pkg/apis/core/validation, `isIPCNamespacedSysctl`). */
const IPC_SYSCTL = /^(kernel\.(shmall|shmmax|shmmni|shm_rmid_forced|msgmax|msgmnb|msgmni|sem)|fs\.mqueue\..*)$/;

/**
 * The generic pod rules a Windows or hybrid pod meets, whatever its OS (validation.go v1.34):
 * seccomp and AppArmor profile types and their `localhostProfile`, `privileged` with
 * `allowPrivilegeEscalation: false`, IPC and network sysctls beside `hostIPC`/`hostNetwork`,
 * `hostUsers: false` with host namespaces, and `hostPort` = `containerPort` on host-network pods
 * (after the v1 defaulting that fills an unset `hostPort` there).
 */
function validateGenericRules(errors: PodSpecViolation[], spec: Json, containers: VisitedContainer[]): void {
  genericSecurityContext(errors, spec.securityContext, 'spec.securityContext');
  for (const c of containers) {
    const sc = c.container?.securityContext;
    if (isSet(sc)) genericSecurityContext(errors, sc, `${c.path}.securityContext`);
  }
  (Array.isArray(spec.securityContext?.sysctls) ? spec.securityContext.sysctls : []).forEach((s: Json, i: number) => {
    const name = String(s?.name ?? '');
    const path = `spec.securityContext.sysctls[${i}].name`;
    if (spec.hostIPC === true && IPC_SYSCTL.test(name)) errors.push({ path, message: `Invalid value: "${name}": sysctl not allowed with host ipc enabled` });
    if (spec.hostNetwork === true && name.startsWith('net.')) errors.push({ path, message: `Invalid value: "${name}": sysctl not allowed with host net enabled` });
  });
  if (spec.hostUsers === false) {
    for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) {
      if (spec[field] === true) errors.push({ path: `spec.${field}`, message: 'Forbidden: when `hostUsers` is false' });
    }
  }
  if (spec.hostNetwork === true) {
    // kubernetes pkg/apis/core/validation/validation.go, validatePodHostNetworkDeps: it reads
    // spec.containers only, so an init container's ports are not compared; an unset or 0 hostPort
    // passes (a pod template's is defaulted to containerPort when the pod is made, and a Pod's
    // before validation: pkg/apis/core/v1/defaults.go, SetDefaults_Pod).
    for (const c of containers.filter((v) => v.path.startsWith('spec.containers['))) {
      (Array.isArray(c.container?.ports) ? c.container.ports : []).forEach((p: Json, j: number) => {
        if (isSet(p?.hostPort) && p.hostPort !== 0 && p.hostPort !== p.containerPort) {
          errors.push({ path: `${c.path}.ports[${j}].hostPort`, message: `Invalid value: ${p.hostPort}: must match \`containerPort\` when \`hostNetwork\` is true` });
        }
      });
    }
  }
}

/** A pod's or container's securityContext: its seccomp and AppArmor profiles, and privileged beside allowPrivilegeEscalation. */
function genericSecurityContext(errors: PodSpecViolation[], sc: Json, path: string): void {
  if (!isSet(sc) || typeof sc !== 'object') return;
  profileErrors(errors, sc.seccompProfile, `${path}.seccompProfile`, 'seccomp');
  profileErrors(errors, sc.appArmorProfile, `${path}.appArmorProfile`, 'AppArmor');
  if (sc.privileged === true && sc.allowPrivilegeEscalation === false) {
    errors.push({ path, message: 'Invalid value: cannot set `allowPrivilegeEscalation` to false and `privileged` to true' });
  }
}

const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** A seccomp or AppArmor profile: a known type, and `localhostProfile` exactly when Localhost. */
function profileErrors(errors: PodSpecViolation[], profile: Json, path: string, kind: 'seccomp' | 'AppArmor'): void {
  if (!isSet(profile) || typeof profile !== 'object') return;
  if (!PROFILE_TYPES.includes(profile.type)) {
    errors.push({ path: `${path}.type`, message: `Unsupported value: "${profile.type}": supported values: ${PROFILE_TYPES.map((t) => `"${t}"`).join(', ')}` });
    return;
  }
  const local = profile.localhostProfile;
  if (profile.type === 'Localhost' && (!isSet(local) || String(local).trim() === '')) {
    errors.push({ path: `${path}.localhostProfile`, message: `Required value: must be set when ${kind} type is Localhost` });
  } else if (profile.type !== 'Localhost' && isSet(local)) {
    errors.push({ path: `${path}.localhostProfile`, message: `Invalid value: "${local}": can only be set when ${kind} type is Localhost` });
  }
}

/**
 * HostProcess is all-or-nothing: every container's effective value (its own, else the pod's) must
 * agree, explicit pod and container values must be identical, and the pod needs hostNetwork.
 * Checked whatever the OS, like validateWindowsHostProcessPod.
 */
function validateHostProcess(errors: PodSpecViolation[], spec: Json, containers: VisitedContainer[]): void {
  const podHostProcess = spec.securityContext?.windowsOptions?.hostProcess;
  let hostProcessCount = 0;
  for (const c of containers) {
    const own = c.container?.securityContext?.windowsOptions?.hostProcess;
    if (isSet(podHostProcess) && isSet(own) && podHostProcess !== own) {
      errors.push({
        path: `${c.path}.securityContext.windowsOptions.hostProcess`,
        message: `Invalid value: ${own}: pod hostProcess value must be identical if both are specified, was ${podHostProcess}`,
      });
    }
    if (own === true || (!isSet(own) && podHostProcess === true)) hostProcessCount++;
  }
  if (hostProcessCount > 0) {
    if (hostProcessCount !== containers.length) {
      errors.push({ path: 'spec', message: 'Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers' });
    }
    if (spec.hostNetwork !== true) {
      errors.push({ path: 'spec.hostNetwork', message: 'Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers' });
    }
  }
}

function validateWindowsOptions(errors: PodSpecViolation[], options: Json, path: string): void {
  if (!isSet(options) || typeof options !== 'object') return;
  const invalid = (field: string, value: unknown, message: string) =>
    errors.push({ path: `${path}.${field}`, message: `Invalid value: ${JSON.stringify(value)}: ${message}` });

  const credName = options.gmsaCredentialSpecName;
  if (isSet(credName)) {
    for (const msg of dns1123SubdomainErrors(String(credName))) invalid('gmsaCredentialSpecName', credName, msg);
  }

  const credSpec = options.gmsaCredentialSpec;
  if (isSet(credSpec)) {
    const bytes = Buffer.byteLength(String(credSpec), 'utf8');
    if (bytes === 0) {
      invalid('gmsaCredentialSpec', credSpec, 'gmsaCredentialSpec cannot be an empty string');
    } else if (bytes > MAX_GMSA_CREDENTIAL_SPEC_BYTES) {
      invalid('gmsaCredentialSpec', `<${bytes} bytes>`, `gmsaCredentialSpec size must be under ${MAX_GMSA_CREDENTIAL_SPEC_BYTES / 1024} KiB`);
    }
  }

  const userName = options.runAsUserName;
  if (isSet(userName)) {
    for (const msg of runAsUserNameErrors(String(userName))) invalid('runAsUserName', userName, msg);
  }
}

/**
 * The runAsUserName rules, in the API server's order. Exported for the constructs' own early checks.
 * @internal
 */
export function runAsUserNameErrors(value: string): string[] {
  if (value.length === 0) return ['runAsUserName cannot be an empty string'];
  if (CONTROL_CHARS.test(value)) return ['runAsUserName cannot contain control characters'];
  const parts = value.split('\\');
  if (parts.length > 2) return ['runAsUserName cannot contain more than one backslash'];

  const errors: string[] = [];
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0] : '';
  const user = hasDomain ? parts[1] : parts[0];
  // Go's len() counts bytes; so does this.
  if (Buffer.byteLength(domain, 'utf8') >= MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH) {
    errors.push(`runAsUserName's Domain length must be under ${MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH} characters`);
  }
  if (hasDomain && !(NETBIOS_DOMAIN.test(domain) || DNS_DOMAIN.test(domain))) {
    errors.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  }
  const userBytes = Buffer.byteLength(user, 'utf8');
  if (userBytes === 0) {
    errors.push("runAsUserName's User cannot be empty");
  } else if (userBytes > MAX_RUN_AS_USER_NAME_USER_LENGTH) {
    errors.push(`runAsUserName's User length must not be longer than ${MAX_RUN_AS_USER_NAME_USER_LENGTH} characters`);
  }
  if (USER_ONLY_DOTS_SPACES.test(user)) errors.push("runAsUserName's User cannot contain only periods or spaces");
  if (USER_FORBIDDEN_CHARS.test(user)) errors.push('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]');
  return errors;
}

/**
 * apimachinery's IsDNS1123Subdomain.
 * @internal
 */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX) errors.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!value.split('.').every((label) => DNS1123_LABEL.test(label))) {
    errors.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return errors;
}
