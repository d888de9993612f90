import { GMSA_GROUP, GMSA_KIND, GMSA_RESOURCE, GMSA_USE_VERB } from '../../platform/gmsa';
import { Json, list, ManifestGraph, ManifestSource, groupOf, namespaceOf, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { manifestPath, podTemplatesOf } from './pod-template';

const WEBHOOK_SOURCE = 'kubernetes-sigs/windows-gmsa v0.13.0 admission-webhook/kube_client.go';

/**
 * Pods that name a gMSA credential spec, judged as the windows-gmsa webhook judges them
 * (`WEBHOOK_SOURCE`): the `GMSACredentialSpec` must exist (retrieveCredSpecContents: "cred spec
 * %s does not exist"), and the pod's service account must be allowed to `use` it in the pod's
 * namespace (isAuthorizedToUseCredSpec, a LocalSubjectAccessReview). It holds for objects that
 * manage their credential specs, i.e. that hold at least one `GMSACredentialSpec`: YAML whose specs
 * live elsewhere is not judged. A ClusterRole with an `aggregationRule` counts as allowing, since
 * its rules are filled in by the cluster.
 */
export const GMSA_RULE = rule<ManifestGraph>({
  name: 'gmsa',
  scope: 'graph',
  description: 'A pod that names a gMSA credential spec names one that exists, and its service account may use it',
  source: `${WEBHOOK_SOURCE} (retrieveCredSpecContents, isAuthorizedToUseCredSpec)`,
  check: (graph) => {
    const specs = new Set(graph.ofKind(GMSA_KIND).filter((s) => groupOf(s.manifest.apiVersion) === GMSA_GROUP).map((s) => String(s.manifest.metadata?.name)));
    if (specs.size === 0) return [];
    return graph.sources.flatMap((source) => podTemplatesOf(source.manifest).flatMap((location) => {
      const item = location.pointer.startsWith('/items/') ? source.manifest.items[Number(location.pointer.split('/')[2])] : source.manifest;
      const namespace = namespaceOf(item);
      const serviceAccount = String(location.spec.serviceAccountName ?? 'default');
      return credentialSpecNames(location.spec).flatMap(({ name, field }): Finding[] => {
        const at = manifestPath(location, `spec.${field}`);
        if (!specs.has(name)) {
          return [violation(source, `${at}: GMSACredentialSpec "${name}" is not among the objects (${[...specs].join(', ')} are), and the windows-gmsa webhook refuses a pod whose spec does not exist (${WEBHOOK_SOURCE}, retrieveCredSpecContents)`,
            `name one of ${[...specs].join(', ')}, or add a GmsaCredentialSpec named ${name}`, at)];
        }
        if (mayUse(graph, serviceAccount, namespace, name)) return [];
        const ns = namespace === '' ? '<namespace>' : namespace;
        return [violation(source,
          `${at}: service account ${ns}/${serviceAccount} may not use GMSACredentialSpec "${name}": no RoleBinding in ${ns} or ClusterRoleBinding binds it to a role granting "${GMSA_USE_VERB}" on ${GMSA_RESOURCE}/${name}, and the windows-gmsa webhook refuses the pod (${WEBHOOK_SOURCE}, isAuthorizedToUseCredSpec)`,
          `grant it with GmsaCredentialSpec.grant(id, '${serviceAccount}', '${ns}'), or add a RoleBinding in ${ns} of a ClusterRole with apiGroups [${GMSA_GROUP}], resources [${GMSA_RESOURCE}], verbs [${GMSA_USE_VERB}], resourceNames [${name}] to ServiceAccount ${serviceAccount}`, at)];
      });
    }));
  },
});

/** The spec names a pod spec carries: the pod's own and each container's `securityContext.windowsOptions.gmsaCredentialSpecName`. */
function credentialSpecNames(spec: Json): Array<{ name: string; field: string }> {
  const out: Array<{ name: string; field: string }> = [];
  const own = spec.securityContext?.windowsOptions?.gmsaCredentialSpecName;
  if (typeof own === 'string') out.push({ name: own, field: 'securityContext.windowsOptions.gmsaCredentialSpecName' });
  for (const field of ['initContainers', 'containers'] as const) {
    list(spec[field]).forEach((c, i) => {
      const name = c?.securityContext?.windowsOptions?.gmsaCredentialSpecName;
      if (typeof name === 'string') out.push({ name, field: `${field}[${i}].securityContext.windowsOptions.gmsaCredentialSpecName` });
    });
  }
  return out;
}

/** Whether a binding among the objects lets the service account `use` the spec in `namespace` (RBAC's rules, k8s.io/kubernetes plugin/pkg/auth/authorizer/rbac). */
function mayUse(graph: ManifestGraph, serviceAccount: string, namespace: string, spec: string): boolean {
  const bindings: ManifestSource[] = [
    ...graph.ofKind('ClusterRoleBinding'),
    // A RoleBinding grants in its own namespace only; an object without one lands where it is applied.
    ...graph.ofKind('RoleBinding').filter((b) => namespace === '' || namespaceOf(b.manifest) === '' || namespaceOf(b.manifest) === namespace),
  ].filter((b) => groupOf(b.manifest.apiVersion) === 'rbac.authorization.k8s.io');
  return bindings.some((binding) => {
    const bindingNs = namespaceOf(binding.manifest);
    const subjectMatches = list(binding.manifest.subjects).some((s) => {
      if (s?.kind === 'ServiceAccount') {
        const subjectNs = String(s.namespace ?? bindingNs);
        return s.name === serviceAccount && (namespace === '' || subjectNs === '' || subjectNs === namespace);
      }
      if (s?.kind === 'Group') return s.name === 'system:serviceaccounts' || (namespace !== '' && s.name === `system:serviceaccounts:${namespace}`);
      if (s?.kind === 'User') return namespace !== '' && s.name === `system:serviceaccount:${namespace}:${serviceAccount}`;
      return false;
    });
    if (!subjectMatches) return false;
    const ref = binding.manifest.roleRef ?? {};
    const role = (ref.kind === 'ClusterRole' ? graph.ofKind('ClusterRole') : graph.ofKind('Role').filter((r) => namespaceOf(r.manifest) === bindingNs))
      .find((r) => r.manifest.metadata?.name === ref.name);
    if (role === undefined) return false;
    if (role.manifest.aggregationRule !== undefined) return true;
    return list(role.manifest.rules).some((r) =>
      list(r?.apiGroups).some((g) => g === GMSA_GROUP || g === '*')
      && list(r?.resources).some((x) => x === GMSA_RESOURCE || x === '*')
      && list(r?.verbs).some((v) => v === GMSA_USE_VERB || v === '*')
      && (list(r?.resourceNames).length === 0 || list(r?.resourceNames).includes(spec)));
  });
}
