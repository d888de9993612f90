import { DNS1123_LABEL } from './dns';
import { LABEL_ARCH, LABEL_OS } from './windows';

/**
 * Label keys and values as the API server and the kubelet check them (k8s.io/apimachinery
 * `pkg/util/validation/validation.go`: `IsQualifiedName`, `IsValidLabelValue`; kubelet
 * `--node-labels`: kubernetes/kubernetes `cmd/kubelet/app/options/options.go` with
 * `staging/src/k8s.io/kubelet/pkg/apis/well_known_labels.go`, v1.34).
 */

const NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN_MAX = 253;

/** Why `key` is not a label key (`[prefix/]name`), or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `label key "${key}" has more than one "/"`;
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (prefix !== undefined) {
    if (prefix.length === 0 || prefix.length > DNS1123_SUBDOMAIN_MAX || !prefix.split('.').every((l) => DNS1123_LABEL.test(l))) {
      return `label key "${key}" has a prefix that is not a lower-case DNS subdomain`;
    }
  }
  if (name.length === 0 || name.length > 63) return `label key "${key}" has a name of ${name.length} characters; it must be 1 to 63`;
  if (!NAME_PART.test(name)) return `label key "${key}" has a name that is not alphanumeric with "-", "_" or "." inside`;
  return undefined;
}

/** Why `value` is not a label value (at most 63 characters, alphanumeric with `-_.` inside, or empty), or undefined. */
export function labelValueProblem(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `label ${key} has the value ${JSON.stringify(value)}, not a string`;
  if (value.length > 63) return `label ${key}=${value} has a value of ${value.length} characters; the limit is 63`;
  if (value !== '' && !NAME_PART.test(value)) return `label ${key}="${value}" has a value that is not alphanumeric with "-", "_" or "." inside`;
  return undefined;
}

// Keys the kubelet may set on its own Node object (well_known_labels.go `kubeletLabels`).
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type',
  'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
]);
const KUBELET_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
/** The kubelet sets these from the running node: a label must not claim otherwise. */
const NODE_OWNED = new Set([LABEL_OS, LABEL_ARCH, 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch', 'kubernetes.io/hostname']);

function inDomain(namespace: string, domain: string): boolean {
  return namespace === domain || namespace.endsWith(`.${domain}`);
}

/**
 * Why `key=value` cannot be passed to the kubelet's `--node-labels`, or undefined: the general
 * rules above, the kubelet's refusal of `kubernetes.io`/`k8s.io` keys outside its allowed set
 * (e.g. `node-role.kubernetes.io/worker`), and the labels the kubelet derives from the node itself.
 */
export function nodeLabelProblem(key: string, value: unknown): string | undefined {
  const problem = labelKeyProblem(key) ?? labelValueProblem(key, value);
  if (problem) return problem;
  if (NODE_OWNED.has(key)) return `label ${key} is set by the kubelet from the node itself and must not be overridden`;
  const namespace = key.includes('/') ? key.split('/')[0] : '';
  const restricted = inDomain(namespace, 'kubernetes.io') || inDomain(namespace, 'k8s.io');
  if (restricted && !KUBELET_LABELS.has(key) && !KUBELET_NAMESPACES.some((n) => inDomain(namespace, n))) {
    return `label ${key} is in the kubernetes.io/k8s.io namespace, and the kubelet refuses such --node-labels outside kubelet.kubernetes.io, node.kubernetes.io and its own well-known keys`;
  }
  return undefined;
}

/**
 * Node label with the pool's name, on the machines of its MachineDeployments too: set by k0s at
 * registration (kubelet --node-labels), and kept in sync by CAPI (its `node.cluster.x-k8s.io`
 * domain). A pool's MachineDeployments (one per zone) share it; its health check selects it.
 */
export const POOL_LABEL = 'node.cluster.x-k8s.io/pool';

/**
 * Fleet labels: what a CAPI `Cluster` says about its Windows workers, for tools that pick
 * clusters by label (Sveltos ClusterProfile `clusterSelector`, CAAPH HelmChartProxy
 * `clusterSelector`, Argo CD ApplicationSet cluster generators, Rancher Fleet).
 *
 * A label value cannot hold a list: values are at most 63 characters of alphanumerics with `-`,
 * `_` and `.` inside (k8s.io/apimachinery IsValidLabelValue), so no comma, and a selector matches
 * a value whole, never a part of it. So each build is a label key of its own,
 * `build.windows.cdk-hybrid-windows.io/10.0.20348: "true"`, which `matchLabels` and `Exists`
 * select on; `builds` adds the whole set in one value for people and for `In` on exact sets,
 * builds joined by `_` (a build holds dots, so `.` cannot separate them), sorted.
 */
export const FLEET_LABELS = {
  /** `"true"` when the cluster has a Windows pool (at any size, zero included), else `"false"`. */
  windowsWorkers: 'windows.cdk-hybrid-windows.io/workers',
  /** The Windows builds of its pools, sorted, joined by `_`, e.g. `10.0.17763_10.0.20348`; absent without Windows pools. */
  builds: 'windows.cdk-hybrid-windows.io/builds',
  /** Prefix of one key per build: `build.windows.cdk-hybrid-windows.io/<build>: "true"`. */
  buildPrefix: 'build.windows.cdk-hybrid-windows.io/',
  /** On a Windows pool's MachineDeployments: the build of its machines, which the Cluster's labels are made from. */
  poolBuild: 'windows.cdk-hybrid-windows.io/build',
} as const;

/** The fleet labels of a cluster whose Windows pools run `builds` (none: a Linux-only cluster). */
export function fleetLabels(builds: Iterable<string>): Record<string, string> {
  const sorted = [...new Set(builds)].sort();
  if (sorted.length === 0) return { [FLEET_LABELS.windowsWorkers]: 'false' };
  return {
    [FLEET_LABELS.windowsWorkers]: 'true',
    [FLEET_LABELS.builds]: sorted.join('_'),
    ...Object.fromEntries(sorted.map((b) => [`${FLEET_LABELS.buildPrefix}${b}`, 'true'])),
  };
}

/** Whether a label key is a fleet label (`FLEET_LABELS`, the per-build keys included). */
export function isFleetLabel(key: string): boolean {
  return key === FLEET_LABELS.windowsWorkers || key === FLEET_LABELS.builds || key.startsWith(FLEET_LABELS.buildPrefix);
}
