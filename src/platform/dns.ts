/** RFC 1123 label: Kubernetes names that also become label values or DNS names, and each label of a subdomain. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
