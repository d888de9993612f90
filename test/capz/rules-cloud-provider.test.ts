import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { stringify } from 'yaml';
import { buildCapzCluster } from '../../examples/capz/main';
import { adviseManifests, validateManifests } from '../../src';
import { CapzCloudProviderInstall, CapzCluster, CapzIdentityType, CapzLinuxWorkerPool } from '../../src/capz';
import { K8sObject, synthObjects } from '../support/synth';
import { capzFlavor, find } from './flavor';

// capz-cloud-provider-credential. CAPZ v1.26.0 writes a machine template's azure.json from its VM
// identity (kubernetes-sigs/cluster-api-provider-azure v1.26.0 controllers/helpers.go,
// GetCloudProviderSecret): SystemAssigned / UserAssigned → useManagedIdentityExtension; None → the
// AzureClusterIdentity's client id and client secret, which only a service principal has
// (azure/scope/identity.go, hasClientSecret). cloud-provider-azure then starts without credentials
// (kubernetes-sigs/cloud-provider-azure v1.34.9 pkg/azclient/auth.go, NewAuthProvider; pkg/provider/azure.go),
// and its chart runs the cloud-controller-manager on the control plane with --cloud-config
// /etc/kubernetes/azure.json (v1.34.9 helm/cloud-provider-azure values.yaml), so the control plane's template is the one that decides.
const RULE = 'capz-cloud-provider-credential';
const findings = (list: K8sObject[]) => validateManifests(list).filter((v) => v.rule === RULE).map((v) => `${v.kind}/${v.name} ${v.field}: ${v.what}`);
const advice = (list: K8sObject[]) => adviseManifests(list).filter((v) => v.rule === RULE).map((v) => `${v.kind}/${v.name} ${v.field}: ${v.what}`);

/** The CAPZ example's objects (examples/capz), after `change`. */
function example(change: (objects: ApiObject[]) => void = () => undefined): App {
  const app = new App();
  const chart = buildCapzCluster(app);
  change(chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject));
  return app;
}
const templateOf = (objects: ApiObject[], prefix: string) => objects.find((o) => o.kind === 'AzureMachineTemplate' && o.name.startsWith(prefix))!;
const objectsOf = (app: App) => synthObjects(app);
const dropIdentity = (prefix: string) => example((objects) => {
  templateOf(objects, prefix).addJsonPatch(JsonPatch.remove('/spec/template/spec/identity'), JsonPatch.remove('/spec/template/spec/userAssignedIdentities'));
});
/** The example's objects as a YAML stream, identity dropped from the templates named `prefix` (a JSON patch's result, without synth's validation). */
function exampleYaml(prefix: string): string {
  const app = new App();
  const chart = buildCapzCluster(app);
  return chart.toJson().map((o) => {
    if (o.kind === 'AzureMachineTemplate' && String(o.metadata.name).startsWith(prefix)) {
      delete o.spec.template.spec.identity;
      delete o.spec.template.spec.userAssignedIdentities;
    }
    return `---\n${stringify(o)}`;
  }).join('');
}

test('the CAPZ example\'s objects pass, without advice: every template carries the machine identity', () => {
  const objects = objectsOf(example());
  expect(findings(objects)).toEqual([]);
  expect(advice(objects)).toEqual([]);
});

describe('a JSON patch that drops the identity', () => {
  test('from the control plane\'s template: refused at synth, naming the template\'s field', () => {
    expect(() => objectsOf(dropIdentity('azwin-control-plane-'))).toThrow(/AzureMachineTemplate azwin-control-plane-[0-9a-f]+: spec\.template\.spec\.identity is absent \(CAPZ's default None\) on the control plane's machines and AzureClusterIdentity default\/azwin-identity is WorkloadIdentity, which has no client secret for CAPZ to copy .*the cloud-controller-manager that CAPZ's HelmChartProxy \(the label cloud-provider: azure on cluster azwin\) installs runs there and reads it/);
  });

  test('from a worker template: advice, since nothing the chart runs reads a worker\'s azure.json (the CCM runs on the control plane; node managers read the instance metadata)', () => {
    const app = new App();
    const chart = buildCapzCluster(app);
    const objects = chart.toJson();
    for (const o of objects.filter((x) => x.kind === 'AzureMachineTemplate' && x.metadata.name.startsWith('azwin-linux-'))) delete o.spec.template.spec.identity;
    expect(findings(objects)).toEqual([]);
    expect(advice(objects)).toEqual([expect.stringMatching(/^AzureMachineTemplate\/azwin-linux-[0-9a-f]+ spec\.template\.spec\.identity: spec\.template\.spec\.identity is absent .* on these worker machines and AzureClusterIdentity default\/azwin-identity is WorkloadIdentity/)]);
    // The same patch at synth: refused only for patching a content-named template, not by this rule.
    expect(() => objectsOf(dropIdentity('azwin-linux-'))).toThrow(/the template was changed after it was named/);
    expect(() => objectsOf(dropIdentity('azwin-linux-'))).not.toThrow(/azure\.json/);
  });
});

const BIN = join(__dirname, '..', '..', 'lib', 'src', 'cli', 'main.js');
(existsSync(BIN) ? test : test.skip)('validate on YAML: the control plane\'s template without identity is a violation whose fix names the YAML fields; a worker\'s is advice', () => {
  const run = (input: string) => spawnSync(process.execPath, [BIN, 'validate', '--rules', 'cluster', '-'], { input, encoding: 'utf8' });
  const controlPlane = run(exampleYaml('azwin-control-plane-'));
  expect(controlPlane.status).toBe(1);
  const line = controlPlane.stdout.split('\n').find((l) => l.endsWith(`[${RULE}]`));
  expect(line).toMatch(/^<stdin>:\d+:\d+ AzureMachineTemplate default\/azwin-control-plane-[0-9a-f]+: spec\.template\.spec\.identity is absent/);
  expect(line).toContain('Fix: set spec.template.spec.identity: UserAssigned and spec.template.spec.userAssignedIdentities: [{providerID: azure:///subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.ManagedIdentity/userAssignedIdentities/<name>}]');
  const worker = run(exampleYaml('azwin-linux-'));
  expect(worker.stdout).not.toContain(RULE);
  expect(worker.stderr).toMatch(new RegExp(`advice: .*AzureMachineTemplate default/azwin-linux-[0-9a-f]+: .*\\[${RULE}\\]`));
}, 60_000);

describe('CAPZ\'s Windows flavor (rendered), labelled for CAPZ\'s HelmChartProxy', () => {
  const labelled = (change: (l: K8sObject[]) => void = () => undefined) => {
    const l = capzFlavor();
    find(l, 'Cluster', 'capz-win').metadata.labels['cloud-provider'] = 'azure';
    change(l);
    return l;
  };
  const controlPlane = (l: K8sObject[]) => find(l, 'AzureMachineTemplate', 'capz-win-control-plane').spec.template.spec;
  const identity = (l: K8sObject[]) => find(l, 'AzureClusterIdentity', 'cluster-identity').spec;

  test('the flavor passes; its Linux worker has no VM identity (advice); unlabelled, nothing is judged', () => {
    expect(findings(labelled())).toEqual([]);
    expect(advice(labelled())).toEqual([expect.stringMatching(/^AzureMachineTemplate\/capz-win-md-0 /)]);
    expect(advice(capzFlavor())).toEqual([]);
    expect(findings(capzFlavor().map((o) => (o.kind === 'AzureMachineTemplate' ? { ...o, spec: { template: { spec: { ...o.spec.template.spec, identity: undefined } } } } : o)))).toEqual([]);
  });

  test('a control plane without identity (or UserAssigned without userAssignedIdentities) and a WorkloadIdentity AzureClusterIdentity: refused', () => {
    const expected = [expect.stringContaining('AzureMachineTemplate/capz-win-control-plane spec.template.spec.identity: spec.template.spec.identity is')];
    expect(findings(labelled((l) => { delete controlPlane(l).identity; delete controlPlane(l).userAssignedIdentities; }))).toEqual(expected);
    expect(findings(labelled((l) => { delete controlPlane(l).userAssignedIdentities; }))).toEqual([expect.stringContaining('is "UserAssigned" without userAssignedIdentities')]);
    expect(findings(labelled((l) => { controlPlane(l).identity = 'None'; delete controlPlane(l).userAssignedIdentities; }))).toEqual([expect.stringContaining('is "None" on the control plane')]);
  });

  test('which identities azure.json carries: SystemAssigned, a ServicePrincipal\'s secret; not a certificate, a managed or a workload identity', () => {
    const none = (l: K8sObject[]) => { delete controlPlane(l).identity; delete controlPlane(l).userAssignedIdentities; };
    expect(findings(labelled((l) => { none(l); controlPlane(l).identity = 'SystemAssigned'; }))).toEqual([]);
    for (const type of ['ServicePrincipal', 'ManualServicePrincipal']) {
      expect(findings(labelled((l) => { none(l); identity(l).type = type; identity(l).clientSecret = { name: 'sp', namespace: 'default' }; }))).toEqual([]);
      expect(advice(labelled((l) => { none(l); identity(l).type = type; }))).toEqual([]);
    }
    // The certificate lands in aadClientSecret, which cloud-provider-azure sends as a password.
    for (const type of ['ServicePrincipalCertificate', 'UserAssignedMSI', 'UserAssignedIdentityCredential']) {
      expect(findings(labelled((l) => { none(l); identity(l).type = type; }))).toEqual([expect.stringContaining(`AzureClusterIdentity default/cluster-identity is ${type}, which has no client secret`)]);
    }
  });

  test('no AzureClusterIdentity among the objects: advice, not a violation', () => {
    const missing = labelled((l) => { delete controlPlane(l).identity; delete controlPlane(l).userAssignedIdentities; l.splice(l.indexOf(find(l, 'AzureClusterIdentity', 'cluster-identity')), 1); });
    expect(findings(missing)).toEqual([]);
    expect(advice(missing)).toEqual([
      expect.stringContaining('AzureMachineTemplate/capz-win-control-plane spec.template.spec.identity: spec.template.spec.identity is absent (CAPZ\'s default None) on the control plane\'s machines and the cluster\'s AzureClusterIdentity is not among these objects: unless it is a ServicePrincipal'),
      expect.stringMatching(/^AzureMachineTemplate\/capz-win-md-0 /),
    ]);
  });

  test('a HelmChartProxy of the chart selecting the cluster shows the install without the label; one that points the CCM at another cloud config does not read azure.json', () => {
    const proxy = (values: string) => ({
      apiVersion: 'addons.cluster.x-k8s.io/v1alpha1', kind: 'HelmChartProxy', metadata: { name: 'cloud-provider-azure-chart', namespace: 'default' },
      spec: { clusterSelector: { matchLabels: { 'cni-windows': 'calico' } }, repoURL: 'https://raw.githubusercontent.com/kubernetes-sigs/cloud-provider-azure/master/helm/repo', chartName: 'cloud-provider-azure', valuesTemplate: values },
    }) as K8sObject;
    const broken = capzFlavor();
    delete find(broken, 'AzureMachineTemplate', 'capz-win-control-plane').spec.template.spec.identity;
    delete find(broken, 'AzureMachineTemplate', 'capz-win-control-plane').spec.template.spec.userAssignedIdentities;
    expect(findings(broken)).toEqual([]);
    expect(findings([...broken, proxy('infra:\n  clusterName: {{ .Cluster.metadata.name }}\n')])).toEqual([expect.stringContaining('the cloud-controller-manager that HelmChartProxy default/cloud-provider-azure-chart installs')]);
    expect(findings([...broken, proxy('cloudControllerManager:\n  cloudConfigSecretName: azure-cloud-provider\n')])).toEqual([]);
  });
});

describe('CapzCluster asks the rule at construction', () => {
  const build = (props: Partial<ConstructorParameters<typeof CapzCluster>[2]>) => {
    const app = new App();
    const chart = new Chart(app, 'c', { namespace: 'default', disableResourceNameHashes: true });
    const cluster = new CapzCluster(chart, 'demo', {
      kubernetesVersion: 'v1.34.4', location: 'westeurope', subscriptionId: '00000000-0000-0000-0000-000000000000',
      identity: { type: CapzIdentityType.WORKLOAD_IDENTITY, clientId: '11111111-1111-1111-1111-111111111111', tenantId: 't' },
      cloudProvider: CapzCloudProviderInstall.HELM_CHART_PROXY,
      ...props,
    });
    new CapzLinuxWorkerPool(cluster, 'linux', { vmSize: 'Standard_D4s_v3', replicas: 1 });
    return synthObjects(app);
  };

  test('no machineIdentity with a workload identity and the chart proxy: refused naming the prop; a service principal or helm install passes', () => {
    expect(() => build({})).toThrow(/^\[c\/demo\] machineIdentity: AzureMachineTemplate demo-control-plane-[0-9a-f]+: .*\. Fix: give the machines a managed identity azure\.json can carry: set `machineIdentity`/s);
    expect(findings(build({ identity: { type: CapzIdentityType.SERVICE_PRINCIPAL, clientId: '11111111-1111-1111-1111-111111111111', tenantId: 't', clientSecret: { name: 'sp' } } }))).toEqual([]);
    const helm = build({ cloudProvider: CapzCloudProviderInstall.HELM_INSTALL });
    expect(findings(helm)).toEqual([]);
    expect(advice(helm)).toEqual([]);
  });
});
