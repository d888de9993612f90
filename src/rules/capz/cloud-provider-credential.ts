import { CAPZ_AZURE_JSON_CREDENTIAL, CAPZ_KINDS, capzAzureJsonSecret } from '../../platform/capz';
import { describe, isCapi, list, ManifestGraph, ManifestSource, namespaceOf, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { CAPI, controlPlaneMachineRef, controlPlaneOf, INFRA } from '../cluster/pools';
import { AzurePool, azurePools, cloudProviderProxies, labelledForCloudProvider, machineSpec } from './azure-pools';

const FIELD = 'spec.template.spec.identity';

/**
 * The credential of the cloud-controller-manager that CAPZ's HelmChartProxy installs: the
 * cloud-provider-azure chart runs it on the control plane's nodes with `--cloud-config
 * /etc/kubernetes/azure.json` (v1.34.9 helm/cloud-provider-azure values.yaml: cloudControllerManager
 * cloudConfig, nodeSelector node-role.kubernetes.io/control-plane; its node managers read the
 * instance metadata and no cloud config unless `cloudNodeManager.cloudConfig` is set), the file
 * CAPZ writes per machine template (`CAPZ_AZURE_JSON_CREDENTIAL`). So the control plane's machine
 * template decides whether it reaches Azure; a worker template's azure.json is read by nothing
 * the chart runs, and is advice.
 */
export const capzCloudProviderCredential = rule<ManifestGraph>({
  name: 'capz-cloud-provider-credential',
  scope: 'object',
  description: 'A CAPZ cluster whose cloud provider CAPZ\'s HelmChartProxy installs (the cloud-provider: azure label, or a HelmChartProxy of the cloud-provider-azure chart selecting it) gets a credential into the control plane\'s azure.json, which the cloud-controller-manager reads: a VM identity (identity UserAssigned with userAssignedIdentities, or SystemAssigned) or a ServicePrincipal AzureClusterIdentity; advice for worker templates, and where the AzureClusterIdentity is not among the objects',
  source: 'cluster-api-provider-azure v1.26.0 controllers/helpers.go (GetCloudProviderSecret, newCloudProviderConfig), controllers/azurejson_machinetemplate_controller.go (Reconcile), azure/scope/identity.go (hasClientSecret), api/v1beta1/types.go (VMIdentity, IdentityType), templates/addons/cluster-api-helm/cloud-provider-azure.yaml; kubernetes-sigs/cloud-provider-azure v1.34.9 pkg/azclient/auth.go (NewAuthProvider), pkg/provider/azure.go (starting without credentials), helm/cloud-provider-azure values.yaml (cloudControllerManager.cloudConfig, nodeSelector)',
  check: (graph) => credentialFindings(graph, 'violation'),
  advise: (graph) => credentialFindings(graph, 'advice'),
});

/** The AzureClusterIdentity an AzureCluster names (`spec.identityRef`, in its own namespace unless the ref gives one), when written. */
function identityOf(graph: ManifestGraph, azureCluster: ManifestSource): ManifestSource | undefined {
  const ref = azureCluster.manifest.spec?.identityRef;
  if (ref?.kind !== CAPZ_KINDS.identity || !ref.name) return undefined;
  const target = ref.namespace ?? namespaceOf(azureCluster.manifest);
  // An identity written without a namespace lands where the AzureCluster does.
  return graph.ofKind(CAPZ_KINDS.identity).find((i) => isCapi(i, INFRA) && i.manifest.metadata?.name === ref.name && (namespaceOf(i.manifest) || namespaceOf(azureCluster.manifest)) === target);
}

/** Whether a machine template's VM identity is one azure.json carries as a managed identity (UserAssigned only with an identity to name). */
function carriesVmIdentity(machine: ManifestSource): boolean {
  const spec = machineSpec(machine);
  return (CAPZ_AZURE_JSON_CREDENTIAL.vmIdentities as readonly unknown[]).includes(spec.identity) && (spec.identity !== 'UserAssigned' || list(spec.userAssignedIdentities).length > 0);
}

function credentialFindings(graph: ManifestGraph, severity: 'violation' | 'advice'): Finding[] {
  const out: Finding[] = [];
  // The pools are read only for a cluster the rule judges.
  let workers: AzurePool[] | undefined;
  for (const cluster of graph.ofKind('Cluster').filter((c) => isCapi(c, CAPI))) {
    const proxies = cloudProviderProxies(graph, cluster);
    if (!labelledForCloudProvider(cluster) && proxies.length === 0) continue;
    // A chart whose values point the cloud-controller-manager at another cloud config does not read CAPZ's azure.json.
    if (proxies.some((p) => /^[ \t]+cloudConfig(SecretName)?:/m.test(String(p.manifest.spec?.valuesTemplate ?? '')))) continue;
    const infrastructureRef = cluster.manifest.spec?.infrastructureRef;
    if (infrastructureRef?.kind !== CAPZ_KINDS.cluster) continue;
    const azureCluster = graph.resolve(cluster, infrastructureRef);
    const identity = azureCluster ? identityOf(graph, azureCluster) : undefined;
    const type = identity?.manifest.spec?.type;
    if ((CAPZ_AZURE_JSON_CREDENTIAL.clientSecretIdentities as readonly unknown[]).includes(type)) continue;
    const kcp = controlPlaneOf(graph, cluster);
    const ref = controlPlaneMachineRef(kcp)?.ref;
    const controlPlane = ref?.kind === CAPZ_KINDS.machineTemplate ? graph.resolve(kcp!, ref) : undefined;
    const pools = [...new Set((workers ??= azurePools(graph)).filter((p) => p.pool.cluster === cluster && p.machine).map((p) => p.machine!))].filter((m) => m !== controlPlane);
    const how = proxies.length > 0 ? describe(proxies[0]) : `CAPZ's HelmChartProxy (the label cloud-provider: azure on cluster ${cluster.manifest.metadata?.name})`;
    for (const machine of [...(controlPlane ? [controlPlane] : []), ...pools]) {
      if (carriesVmIdentity(machine)) continue;
      const onControlPlane = machine === controlPlane;
      if (severity === 'violation' && !(identity && onControlPlane)) continue;
      if (severity === 'advice' && identity && onControlPlane) continue;
      const written = machineSpec(machine).identity;
      const said = `${FIELD} is ${written === undefined ? 'absent (CAPZ\'s default None)' : JSON.stringify(written)}${written === 'UserAssigned' ? ' without userAssignedIdentities' : ''}`;
      const holds = `the azure.json CAPZ writes for them (${capzAzureJsonSecret(String(machine.manifest.metadata?.name))}) holds no credential`;
      const cause = identity
        ? `and ${describe(identity)} is ${type === undefined ? 'of no type' : type}, which has no client secret for CAPZ to copy (only a service principal has one), so ${holds}`
        : `and the cluster's AzureClusterIdentity is not among these objects: unless it is a ServicePrincipal, whose client secret CAPZ copies, ${holds}`;
      const what = onControlPlane
        ? `${said} on the control plane's machines ${cause}; the cloud-controller-manager that ${how} installs runs there and reads it (/etc/kubernetes/azure.json), so it starts without credentials and Azure refuses its calls: no LoadBalancer Service gets an Azure load balancer, and no route is written`
        : `${said} on these worker machines ${cause}. Nothing the cloud-provider-azure chart runs reads it (its cloud-controller-manager runs on the control plane, its node managers read the instance metadata), but a program on these nodes that reads azure.json cannot reach Azure, and CAPZ's own CI flavors that label a cluster cloud-provider: azure give every machine template the identity (templates/test/ci)`;
      out.push(violation(machine, what,
        'give the machines a managed identity azure.json can carry: set `machineIdentity` (a user-assigned managed identity with Contributor on the cluster\'s resource group, as CAPZ\'s flavors do: cloud-provider-user-identity), which writes spec.template.spec.identity: UserAssigned and spec.template.spec.userAssignedIdentities; or authenticate CAPZ with a ServicePrincipal identity',
        FIELD,
        'set spec.template.spec.identity: UserAssigned and spec.template.spec.userAssignedIdentities: [{providerID: azure:///subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.ManagedIdentity/userAssignedIdentities/<name>}], an identity with Contributor on the cluster\'s resource group, as CAPZ\'s flavors do (cloud-provider-user-identity); or make the AzureClusterIdentity spec.type ServicePrincipal with a spec.clientSecret'));
    }
  }
  return out;
}
