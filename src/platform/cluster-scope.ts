import { ApiObject, JsonPatch } from 'cdk8s';

/**
 * Kinds of the Kubernetes API that are cluster-scoped (`kubectl api-resources --namespaced=false`
 * on v1.34, built-in groups): they have no namespace, and a `metadata.namespace` on them is
 * dropped by the API server (apiserver pkg/registry/rest/create.go, BeforeCreate) but read as a
 * difference by GitOps tools and refused by `kubectl apply -n` with another namespace. cdk8s
 * gives every object of a chart the chart's namespace, these included.
 */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'APIService', 'CertificateSigningRequest', 'ClusterRole', 'ClusterRoleBinding', 'ClusterTrustBundle',
  'ComponentStatus', 'CSIDriver', 'CSINode', 'CustomResourceDefinition', 'DeviceClass', 'FlowSchema',
  'IngressClass', 'IPAddress', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding',
  'MutatingWebhookConfiguration', 'Namespace', 'Node', 'PersistentVolume', 'PriorityClass',
  'PriorityLevelConfiguration', 'RuntimeClass', 'ServiceCIDR', 'StorageClass', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding', 'ValidatingWebhookConfiguration', 'VolumeAttachment', 'VolumeAttributesClass',
]);

/** Removes the namespace cdk8s gave a cluster-scoped object from its chart, if any. */
export function dropChartNamespace(obj: ApiObject): void {
  if (obj.metadata.namespace !== undefined) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
}
