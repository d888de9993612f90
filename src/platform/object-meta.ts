import { isUnresolvedToken } from '../core/tokens';
import { DNS1123_LABEL } from './dns';
import { labelKeyProblem, labelValueProblem } from './labels';

/**
 * The API server's OS-independent validation of what every object carries, for the objects this
 * library writes and YAML from anywhere (k8s.io/apimachinery v0.34.0
 * `pkg/api/validation/objectmeta.go` `ValidateObjectMetaAccessor`, `ValidateAnnotations`,
 * `TotalAnnotationSizeLimitB`; `pkg/api/validation/generic.go` `NameIsDNSSubdomain`,
 * `NameIsDNSLabel`, `NameIsDNS1035Label`; `pkg/apis/meta/v1/validation/validation.go`
 * `ValidateLabels`; `pkg/util/validation/validation.go` `IsDNS1123Subdomain`, `IsQualifiedName`,
 * `IsValidLabelValue`; `pkg/api/validation/path/name.go` `IsValidPathSegmentName`), and of the
 * containers of a pod (kubernetes/kubernetes v1.34 `pkg/apis/core/validation/validation.go`
 * `validateContainerCommon`: a DNS-1123 label name, an image without surrounding whitespace).
 */

/** One field the API server refuses: its path in the object and what is wrong. */
export interface MetaProblem {
  readonly field: string;
  readonly what: string;
}

const DNS1123_SUBDOMAIN_MAX = 253;
/** A DNS-1123 subdomain's form, lower-case labels joined by dots (apimachinery IsDNS1123Subdomain's regex); at most 253 characters. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A Service's name (apimachinery IsDNS1035Label): a lower-case letter first. */
export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** Annotations: at most 256 KiB, keys and values together (`TotalAnnotationSizeLimitB`). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Why `name` is not a DNS-1123 subdomain (lower-case labels joined by dots, 253 at most), or undefined. */
export function dnsSubdomainProblem(name: string): string | undefined {
  if (name.length > DNS1123_SUBDOMAIN_MAX) return `is ${name.length} characters long; the limit is ${DNS1123_SUBDOMAIN_MAX}`;
  if (!DNS1123_SUBDOMAIN.test(name)) return 'must be lower-case letters, digits, "-" and ".", starting and ending with a letter or digit (a DNS-1123 subdomain)';
  return undefined;
}

type NameCheck = (name: string) => string | undefined;

const label: NameCheck = (name) => name.length > 63 ? `is ${name.length} characters long; the limit is 63`
  : DNS1123_LABEL.test(name) ? undefined : 'must be lower-case letters, digits and "-", starting and ending with a letter or digit (a DNS-1123 label)';
const dns1035: NameCheck = (name) => name.length > 63 ? `is ${name.length} characters long; the limit is 63`
  : DNS1035_LABEL.test(name) ? undefined : 'must be lower-case letters, digits and "-", starting with a letter and ending with a letter or digit (a DNS-1035 label)';
// RBAC names are path segments (pkg/apis/rbac/validation ValidateRBACName): `system:...` is fine.
const pathSegment: NameCheck = (name) => name === '.' || name === '..' ? `may not be "${name}"`
  : /[/%]/.test(name) ? 'may not contain "/" or "%"' : undefined;

/** The name rule of each kind whose rule is not `NameIsDNSSubdomain` (the rule of every other built-in kind and of custom resources). */
const NAME_CHECKS: Readonly<Record<string, NameCheck>> = {
  Namespace: label, Service: dns1035,
  Role: pathSegment, ClusterRole: pathSegment, RoleBinding: pathSegment, ClusterRoleBinding: pathSegment,
};

function known(value: unknown): value is string {
  return typeof value === 'string' && !isUnresolvedToken(value);
}

/** What the API server refuses in an object's `metadata` (paths `metadata.*`). */
export function objectMetaProblems(manifest: { kind?: unknown; metadata?: unknown }): MetaProblem[] {
  const meta = (manifest.metadata ?? {}) as Record<string, unknown>;
  if (meta === null || typeof meta !== 'object') return [];
  const out: MetaProblem[] = [];
  const kind = typeof manifest.kind === 'string' ? manifest.kind : '';
  const nameCheck = Object.hasOwn(NAME_CHECKS, kind) ? NAME_CHECKS[kind] : dnsSubdomainProblem;
  if (known(meta.name)) {
    const p = meta.name === '' ? 'is empty' : nameCheck(meta.name);
    if (p) out.push({ field: 'metadata.name', what: `${kind} name "${meta.name}" ${p}` });
  }
  if (known(meta.generateName) && meta.generateName !== '') {
    // NameIsDNSSubdomain(prefix=true) masks a trailing "-" (generic.go maskTrailingDash).
    const prefix = meta.generateName.replace(/-$/, 'a');
    const p = nameCheck(prefix);
    if (p) out.push({ field: 'metadata.generateName', what: `${kind} generateName "${meta.generateName}" ${p}` });
  }
  if (known(meta.namespace) && meta.namespace !== '') {
    const p = label(meta.namespace);
    if (p) out.push({ field: 'metadata.namespace', what: `namespace "${meta.namespace}" ${p}` });
  }
  const labels = meta.labels;
  if (labels !== undefined && labels !== null && typeof labels === 'object') {
    for (const key in labels) {
      const value = (labels as Record<string, unknown>)[key];
      if (!known(key) || isUnresolvedToken(value)) continue;
      const p = labelKeyProblem(key) ?? labelValueProblem(key, value);
      if (p) out.push({ field: 'metadata.labels', what: p });
    }
  }
  const annotations = meta.annotations;
  if (annotations !== undefined && annotations !== null && typeof annotations === 'object') {
    let size = 0;
    for (const [key, value] of Object.entries(annotations)) {
      size += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
      if (!known(key)) continue;
      // "The rule is QualifiedName except that case doesn't matter" (ValidateAnnotations).
      const p = labelKeyProblem(key.toLowerCase());
      if (p) out.push({ field: 'metadata.annotations', what: p.replace(/^label key/, 'annotation key') });
      if (typeof value !== 'string' && !isUnresolvedToken(value)) out.push({ field: 'metadata.annotations', what: `annotation ${key} has the value ${JSON.stringify(value)}, not a string` });
    }
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
      out.push({ field: 'metadata.annotations', what: `the annotations take ${size} bytes, and the API server takes at most ${TOTAL_ANNOTATION_SIZE_LIMIT} (256 KiB, keys and values together)` });
    }
  }
  return out;
}

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** What the API server refuses in a pod spec's containers' names and images (paths rooted at `spec`). */
export function containerProblems(spec: unknown): MetaProblem[] {
  if (spec === null || typeof spec !== 'object') return [];
  const out: MetaProblem[] = [];
  const seen = new Map<string, string>();
  for (const list of CONTAINER_LISTS) {
    const containers = (spec as Record<string, unknown>)[list];
    if (!Array.isArray(containers)) continue;
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i] as Record<string, unknown> | null;
      // Written out only when named: this runs for every pod template.
      const path = () => `spec.${list}[${i}]`;
      const name = c?.name;
      if (known(name)) {
        const p = name === '' ? 'is empty' : label(name);
        if (p) out.push({ field: `${path()}.name`, what: `container name "${name}" ${p}` });
        else if (seen.has(name)) out.push({ field: `${path()}.name`, what: `container name "${name}" is also the name of ${seen.get(name)}, and container names are unique in a pod` });
        else seen.set(name, path());
      }
      const image = c?.image;
      if (known(image) && image.trim() !== image) {
        out.push({ field: `${path()}.image`, what: `image ${JSON.stringify(image)} has leading or trailing whitespace, which the API server refuses` });
      }
    }
  }
  return out;
}
