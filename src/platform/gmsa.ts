/**
 * The windows-gmsa API (kubernetes-sigs/windows-gmsa v0.13.0, admission-webhook/types.go and
 * charts/gmsa/crds/crds.yaml): the cluster-scoped `GMSACredentialSpec` kind in `windows.k8s.io`,
 * and the verb the webhook's LocalSubjectAccessReview asks a pod's service account for.
 */
export const GMSA_GROUP = 'windows.k8s.io';
/** The kind of a credential spec. */
export const GMSA_KIND = 'GMSACredentialSpec';
/** Its resource (plural) in RBAC rules. */
export const GMSA_RESOURCE = 'gmsacredentialspecs';
/** The verb a service account needs on the spec its pods name (admission-webhook/kube_client.go, isAuthorizedToUseCredSpec). */
export const GMSA_USE_VERB = 'use';
