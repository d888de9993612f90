/** RFC 1123 label: Kubernetes names that also become label values or DNS names, and each label of a subdomain. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why a name is not a DNS label of at most `max` characters, or undefined when it is one. */
export function dnsLabelProblem(name: string, max = 63): string | undefined {
  if (typeof name !== 'string') return `is ${JSON.stringify(name)}, not a string`;
  if (name.length > max) return `is ${name.length} characters long; the limit is ${max}`;
  if (!DNS1123_LABEL.test(name)) return 'must be lower-case letters, digits and "-", starting and ending with a letter or digit';
  return undefined;
}

/**
 * Longest cluster name, on both sides of the hand-off: it leaves room in the 63 characters of a
 * MachineDeployment name (`<cluster>-<pool>-<zone>`, MAX_MACHINE_DEPLOYMENT_NAME) for the pool's name and zone.
 */
export const MAX_CLUSTER_NAME = 40;
