import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { validateManifests } from '../../src';
import { GMSA_WEBHOOK_IMAGE, GmsaCredentialSpec, GmsaWebhook, HybridChart, WindowsPod, WindowsWorkload, validatePodSpec } from '../../src/workloads';
import { K8sObject, only, synthObjects } from '../support/synth';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const DOMAIN = { dnsName: 'contoso.com', netBiosName: 'CONTOSO', guid: '244818ae-87ca-4fcd-92ec-e79e5252348a', sid: 'S-1-5-21-2126729477-2524075714-3094792973' };

/** The webhook, a spec and an IIS workload that names it, in one app. */
function gmsaApp(options: { grant?: boolean } = {}): { app: App; chart: Chart } {
  const app = new App();
  const platform = new HybridChart(app, 'platform');
  new GmsaWebhook(platform, 'gmsa');
  const spec = new GmsaCredentialSpec(platform, 'webapp1', { name: 'webapp1', account: 'WebApp1', domain: DOMAIN });
  const chart = new HybridChart(app, 'apps', { namespace: 'shop' });
  const sa = new kplus.ServiceAccount(chart, 'iis-sa', { metadata: { name: 'iis' } });
  const deployment = new kplus.Deployment(chart, 'iis', { serviceAccount: sa });
  new WindowsPod(deployment, { gmsaCredentialSpecName: 'webapp1' }).addContainer({ image: IIS, portNumber: 80 });
  if (options.grant !== false) spec.grant('IisUse', 'iis', 'shop');
  return { app, chart };
}

// kubernetes-sigs/windows-gmsa chart charts/gmsa 0.13.0 (v0.13.0): templates and crds/crds.yaml.
describe('GmsaWebhook: windows-gmsa chart 0.13.0 as objects (issue 27.2)', () => {
  const app = new App();
  new GmsaWebhook(new HybridChart(app, 'platform'), 'gmsa');
  const objects = synthObjects(app);

  test('the webhook runs on Linux nodes, and its pod passes the API server\'s pod validation', () => {
    const deployment = only(objects, 'Deployment');
    const pod = deployment.spec.template.spec;
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.os).toEqual({ name: 'linux' });
    expect(pod.containers[0].image).toBe(GMSA_WEBHOOK_IMAGE);
    expect(validatePodSpec(pod)).toEqual([]);
    expect(validateManifests(objects)).toEqual([]);
  });

  test('the serving certificate covers the Service\'s names, is the secret the pod mounts, and its CA is what cert-manager injects', () => {
    const service = only(objects, 'Service');
    const certs = objects.filter((o) => o.kind === 'Certificate');
    const serving = certs.find((c) => !c.spec.isCA)!;
    const ca = certs.find((c) => c.spec.isCA)!;
    expect(serving.spec.dnsNames).toEqual([`${service.metadata.name}.gmsa-webhook.svc`, `${service.metadata.name}.gmsa-webhook.svc.cluster.local`]);
    expect(only(objects, 'Deployment').spec.template.spec.volumes[0].secret.secretName).toBe(serving.spec.secretName);
    expect(only(objects, 'Issuer').spec.ca.secretName).toBe(ca.spec.secretName);
    expect(ca.spec.issuerRef).toEqual({ name: only(objects, 'ClusterIssuer').metadata.name, kind: 'ClusterIssuer', group: 'cert-manager.io' });
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      const config = only(objects, kind);
      expect(config.metadata.annotations['cert-manager.io/inject-ca-from']).toBe(`${ca.metadata.namespace}/${ca.metadata.name}`);
      expect(config.webhooks[0].clientConfig.service).toMatchObject({ name: service.metadata.name, namespace: service.metadata.namespace });
      expect(config.webhooks[0].failurePolicy).toBe('Fail');
      // Its own namespace is exempt: the webhook's pods must start without it.
      expect(config.webhooks[0].namespaceSelector.matchExpressions[0]).toEqual({ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['gmsa-webhook'] });
    }
    expect(only(objects, 'MutatingWebhookConfiguration').webhooks[0].clientConfig.service.path).toBe('/mutate');
    expect(only(objects, 'ValidatingWebhookConfiguration').webhooks[0].rules[0].operations).toEqual(['CREATE', 'UPDATE']);
  });

  test('its service account may read specs and ask access reviews; cluster-scoped objects carry no namespace', () => {
    const binding = only(objects, 'ClusterRoleBinding');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: only(objects, 'ServiceAccount').metadata.name, namespace: 'gmsa-webhook' }]);
    expect(only(objects, 'ClusterRole').rules).toEqual([
      { apiGroups: ['windows.k8s.io'], resources: ['gmsacredentialspecs'], verbs: ['get', 'use'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
    ]);
    for (const kind of ['CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding', 'ClusterIssuer', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'Namespace']) {
      expect([kind, only(objects, kind).metadata.namespace]).toEqual([kind, undefined]);
    }
    const crd = only(objects, 'CustomResourceDefinition');
    expect([crd.metadata.name, crd.spec.scope, crd.spec.names.kind]).toEqual(['gmsacredentialspecs.windows.k8s.io', 'Cluster', 'GMSACredentialSpec']);
    expect(crd.spec.versions.filter((v: K8sObject) => v.storage).map((v: K8sObject) => v.name)).toEqual(['v1']);
  });
});

/** Every field path of `value` the structural schema does not declare: the API server would prune it. */
function pruned(value: unknown, schema: K8sObject, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => pruned(v, schema.items, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (schema.properties?.[k] === undefined ? [`${at}.${k}`] : pruned(v, schema.properties[k], `${at}.${k}`)));
}

describe('GmsaCredentialSpec (issue 27.2)', () => {
  test('domain-joined and domainless specs fit the CRD\'s schema: nothing is pruned', () => {
    const app = new App();
    const chart = new HybridChart(app, 'platform');
    new GmsaWebhook(chart, 'gmsa');
    new GmsaCredentialSpec(chart, 'joined', { name: 'webapp1', account: 'WebApp1', domain: DOMAIN });
    new GmsaCredentialSpec(chart, 'domainless', {
      name: 'webapp2', account: 'WebApp2', domain: DOMAIN,
      hostAccountConfig: { pluginGuid: '859E1386-BDB4-49E8-85C7-3070B13920E1', pluginInput: '{"credentialArn":"arn:aws:secretsmanager:eu-north-1:123456789012:secret:gmsa"}' },
    });
    const objects = synthObjects(app);
    const schema = only(objects, 'CustomResourceDefinition').spec.versions.find((v: K8sObject) => v.name === 'v1').schema.openAPIV3Schema;
    const specs = objects.filter((o) => o.kind === 'GMSACredentialSpec');
    expect(specs.map((s) => s.apiVersion)).toEqual(['windows.k8s.io/v1', 'windows.k8s.io/v1']);
    for (const spec of specs) expect(pruned({ credspec: spec.credspec }, schema)).toEqual([]);
    const domainless = specs.find((s) => s.metadata.name === 'webapp2')!;
    expect(domainless.credspec.ActiveDirectoryConfig.HostAccountConfig).toEqual({ PortableCcgVersion: '1', PluginGUID: '{859E1386-BDB4-49E8-85C7-3070B13920E1}', PluginInput: expect.stringContaining('credentialArn') });
    expect(domainless.credspec.DomainJoinConfig).toMatchObject({ DnsName: 'contoso.com', MachineAccountName: 'WebApp2', NetBiosName: 'CONTOSO' });
    expect(specs.find((s) => s.metadata.name === 'webapp1')!.credspec.ActiveDirectoryConfig.HostAccountConfig).toBeUndefined();
  });

  test('a workload naming the spec, granted its use, passes the rules', () => {
    const objects = synthObjects(gmsaApp().app);
    expect(validateManifests(objects)).toEqual([]);
    const binding = objects.find((o) => o.kind === 'RoleBinding')!;
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'iis', namespace: 'shop' }]);
  });

  test('the same workload without the spec\'s RBAC fails, naming the service account and the spec', () => {
    expect(() => gmsaApp({ grant: false }).app.synthYaml()).toThrow(
      /service account shop\/iis may not use GMSACredentialSpec "webapp1": no RoleBinding in shop or ClusterRoleBinding binds it to a role granting "use" on gmsacredentialspecs\/webapp1.*Fix: grant it with GmsaCredentialSpec\.grant\(id, 'iis', 'shop'\)/s);
    // And as YAML from anywhere: WindowsWorkload's own grant, removed.
    const app = new App();
    const platform = new HybridChart(app, 'platform');
    new GmsaCredentialSpec(platform, 'webapp1', { name: 'webapp1', account: 'WebApp1', domain: DOMAIN });
    new WindowsWorkload(new HybridChart(app, 'apps', { namespace: 'shop' }), 'iis', { image: IIS, gmsaCredentialSpecName: 'webapp1' });
    const objects = synthObjects(app);
    expect(validateManifests(objects)).toEqual([]);
    const messages = validateManifests(objects.filter((o) => o.kind !== 'RoleBinding')).map((v) => `${v.rule}: ${v.message}`);
    expect(messages).toEqual([expect.stringMatching(/^gmsa: spec\.template\.spec\.securityContext\.windowsOptions\.gmsaCredentialSpecName: service account shop\/apps-iis-gmsaserviceaccount-c8\w+ may not use GMSACredentialSpec "webapp1"/)]);
  });

  test('a spec that is not among the objects fails; objects with no spec at all are not judged', () => {
    const { app, chart } = gmsaApp();
    const other = new kplus.Deployment(chart, 'other', { serviceAccount: kplus.ServiceAccount.fromServiceAccountName(chart, 'o', 'iis') });
    new WindowsPod(other, { gmsaCredentialSpecName: 'webapp9' }).addContainer({ image: IIS });
    expect(() => app.synthYaml()).toThrow(/GMSACredentialSpec "webapp9" is not among the objects \(webapp1 are\).*Fix: name one of webapp1, or add a GmsaCredentialSpec named webapp9/s);
    const plain = new App();
    new WindowsWorkload(new Chart(plain, 'apps', { namespace: 'shop' }), 'iis', { image: IIS, gmsaCredentialSpecName: 'elsewhere' });
    expect(validateManifests(synthObjects(plain).filter((o) => o.kind !== 'RoleBinding'))).toEqual([]);
  });

  test('a name the API server would refuse is refused at construction', () => {
    expect(() => new GmsaCredentialSpec(new Chart(new App(), 'c'), 's', { name: 'WebApp1', account: 'WebApp1', domain: DOMAIN })).toThrow(/name: "WebApp1" is not a DNS subdomain name/);
    expect(() => new GmsaCredentialSpec(new Chart(new App(), 'c'), 's', { name: undefined as unknown as string, account: 'WebApp1', domain: DOMAIN })).toThrow(/name: not given, and it is required/);
  });

  // The forms New-CredentialSpec prints and Windows reads: [MS-DTYP] 2.3.4.3 (GUID), 2.4.2.1/2.4.2.4 (SID
  // string, domain SIDs S-1-5-21-x-y-z); NetBIOS names of at most 15 characters (Microsoft Learn, "Naming
  // conventions in Active Directory for computers, domains, sites, and OUs"). The CRD takes any string
  // (charts/gmsa/crds/crds.yaml), so the API server would accept them and the container get no identity.
  test('domain fields of the wrong form are refused at construction, naming the field and the value; a missing domain is no TypeError', () => {
    const spec = (props: Partial<ConstructorParameters<typeof GmsaCredentialSpec>[2]>) => () => new GmsaCredentialSpec(new Chart(new App(), 'c'), 's', { name: 'webapp1', account: 'WebApp1', domain: DOMAIN, ...props });
    expect(spec({ domain: { ...DOMAIN, guid: '244818ae87ca4fcd92ece79e5252348a' } })).toThrow(/\[c\/s\] domain\.guid: "244818ae87ca4fcd92ece79e5252348a" is not a GUID/);
    expect(spec({ domain: { ...DOMAIN, sid: 'S-1-5-21-2126729477-2524075714-3094792973-1104' } })).toThrow(/domain\.sid: "S-1-5-21-2126729477-2524075714-3094792973-1104" is not a domain SID.*Fix: give the domain's SID without the account's RID: "S-1-5-21-2126729477-2524075714-3094792973"/);
    expect(spec({ domain: { ...DOMAIN, sid: 'contoso' } })).toThrow(/domain\.sid: "contoso" is not a domain SID/);
    expect(spec({ domain: { ...DOMAIN, netBiosName: 'CONTOSOCORPORATION' } })).toThrow(/domain\.netBiosName: "CONTOSOCORPORATION" is longer than 15 characters/);
    expect(spec({ domain: { ...DOMAIN, dnsName: 'contoso com' } })).toThrow(/domain\.dnsName: "contoso com" is not a DNS domain name/);
    expect(spec({ account: 'WebApp1$' })).toThrow(/account: "WebApp1\$" is not a gMSA account name.*Fix: write it without the trailing \$: "WebApp1"/);
    expect(spec({ domain: undefined as unknown as typeof DOMAIN })).toThrow(/domain: not given, and it is required\. Fix: give the DomainJoinConfig/);
    expect(spec({ hostAccountConfig: { pluginGuid: 'aws', pluginInput: '{}' } })).toThrow(/hostAccountConfig\.pluginGuid: "aws" is not a GUID/);
    // Braces and upper case are GUIDs too; a 15-character NetBIOS name fits.
    expect(spec({ domain: { ...DOMAIN, guid: '{244818AE-87CA-4FCD-92EC-E79E5252348A}', netBiosName: 'CONTOSO-EUROPE1' } })).not.toThrow();
  });

  // windows-gmsa v0.13.0 admission-webhook/kube_client.go isAuthorizedToUseCredSpec asks a LocalSubjectAccessReview
  // for serviceaccount.UserInfo(namespace, name, ""), whose groups are system:serviceaccounts and
  // system:serviceaccounts:<ns> only (vendor/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go,
  // MakeGroupNames): a binding to system:authenticated, which the authenticator adds to real requests,
  // does not match that review, so the rule is right to count it as no grant.
  test('a grant through system:authenticated does not satisfy the webhook\'s access review, and the rule says so; system:serviceaccounts:<ns> does', () => {
    const objects = synthObjects(gmsaApp().app);
    const binding = objects.find((o) => o.kind === 'RoleBinding')!;
    const withGroup = (group: string) => objects.map((o) => (o === binding ? { ...binding, subjects: [{ kind: 'Group', name: group, apiGroup: 'rbac.authorization.k8s.io' }] } : o));
    expect(validateManifests(withGroup('system:authenticated')).map((v) => v.rule)).toEqual(['gmsa']);
    expect(validateManifests(withGroup('system:serviceaccounts:shop'))).toEqual([]);
  });
});

describe('GmsaWebhook and GmsaCredentialSpec props', () => {
  test('namespace, name, image and replicas reach every object that names them', () => {
    const app = new App();
    new GmsaWebhook(new HybridChart(app, 'platform'), 'gmsa', { namespace: 'ad', name: 'gmsa', image: 'registry.example/gmsa-webhook:v0.13.0', replicas: 3 });
    const objects = synthObjects(app);
    const deployment = only(objects, 'Deployment');
    expect([deployment.metadata.namespace, deployment.metadata.name, deployment.spec.replicas, deployment.spec.template.spec.containers[0].image]).toEqual(['ad', 'gmsa', 3, 'registry.example/gmsa-webhook:v0.13.0']);
    expect(only(objects, 'Namespace').metadata.name).toBe('ad');
    expect(objects.filter((o) => o.kind === 'Certificate' && !o.spec.isCA)[0].spec.dnsNames).toEqual(['gmsa.ad.svc', 'gmsa.ad.svc.cluster.local']);
    expect(only(objects, 'ValidatingWebhookConfiguration').webhooks[0].namespaceSelector.matchExpressions[0].values).toEqual(['ad']);
    expect(only(objects, 'MutatingWebhookConfiguration').metadata.annotations['cert-manager.io/inject-ca-from']).toBe('ad/gmsa-ca');
    expect(() => new GmsaWebhook(new Chart(new App(), 'c'), 'g', { replicas: 0 })).toThrow(/replicas/);
  });

  test('dnsTreeName and portableCcgVersion are written when given', () => {
    const app = new App();
    new GmsaCredentialSpec(new Chart(app, 'c'), 's', {
      name: 'webapp3', account: 'WebApp3', domain: { ...DOMAIN, dnsTreeName: 'corp.contoso.com' },
      hostAccountConfig: { pluginGuid: '{859E1386-BDB4-49E8-85C7-3070B13920E1}', pluginInput: '{}', portableCcgVersion: '2' },
    });
    const spec = only(synthObjects(app), 'GMSACredentialSpec').credspec;
    expect(spec.DomainJoinConfig.DnsTreeName).toBe('corp.contoso.com');
    expect(spec.ActiveDirectoryConfig.HostAccountConfig).toMatchObject({ PortableCcgVersion: '2', PluginGUID: '{859E1386-BDB4-49E8-85C7-3070B13920E1}' });
  });
});
