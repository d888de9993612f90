import { App, Chart } from 'cdk8s';
import { Manifest, validateManifests } from '../../src';
import { WindowsWorkload } from '../../src/workloads';

/**
 * Issue 24 point 15: the API server's OS-independent validation of the objects we write, cited:
 * k8s.io/apimachinery v0.34.0 pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor,
 * ValidateAnnotations, TotalAnnotationSizeLimitB = 256 * (1 << 10)), generic.go (NameIsDNSSubdomain,
 * NameIsDNSLabel, NameIsDNS1035Label), pkg/util/validation/validation.go (IsDNS1123Subdomain,
 * IsQualifiedName, IsValidLabelValue); kubernetes v1.34 pkg/apis/core/validation/validation.go
 * (container names are DNS-1123 labels, unique in the pod; images without surrounding whitespace).
 */
const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const meta = (m: Manifest) => validateManifests([m]).filter((v) => v.rule === 'object-meta').map((v) => `${v.field}: ${v.what}`);
const configMap = (metadata: object): Manifest => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: {} });

describe('object metadata the API server refuses', () => {
  test.each([
    [{ name: 'Web_App' }, 'metadata.name: ConfigMap name "Web_App" must be lower-case letters, digits, "-" and "."'],
    [{ name: 'a'.repeat(254) }, 'metadata.name: ConfigMap name "' + 'a'.repeat(254) + '" is 254 characters long; the limit is 253'],
    [{ name: 'web', namespace: 'Team.A' }, 'metadata.namespace: namespace "Team.A" must be lower-case letters, digits and "-"'],
    [{ name: 'web', labels: { 'app kubernetes': 'x' } }, 'metadata.labels: label key "app kubernetes" has a name that is not alphanumeric'],
    [{ name: 'web', labels: { tier: 'web,zone=eu' } }, 'metadata.labels: label tier="web,zone=eu" has a value that is not alphanumeric'],
    [{ name: 'web', labels: { tier: 'x'.repeat(64) } }, 'has a value of 64 characters; the limit is 63'],
    [{ name: 'web', annotations: { 'example.com/a/b': 'x' } }, 'metadata.annotations: annotation key "example.com/a/b" has more than one "/"'],
    [{ name: 'web', annotations: { big: 'x'.repeat(256 * 1024) } }, 'metadata.annotations: the annotations take 262147 bytes, and the API server takes at most 262144'],
    [{ generateName: 'Web-' }, 'metadata.generateName: ConfigMap generateName "Web-" must be lower-case'],
  ])('metadata case %# is refused', (metadata, what) => {
    expect(meta(configMap(metadata))).toEqual([expect.stringContaining(what)]);
  });

  test.each([
    [{ name: 'web.example-1', namespace: 'team-a', labels: { 'app.kubernetes.io/name': 'web', empty: '' }, annotations: { 'Example.COM/Key': 'v', big: 'x'.repeat(200 * 1024) } }],
    [{ generateName: 'web-' }],
  ])('metadata case %# passes', (metadata) => {
    expect(meta(configMap(metadata))).toEqual([]);
  });

  test('kinds with other name rules: Service is a DNS-1035 label, RBAC names are path segments', () => {
    expect(meta({ apiVersion: 'v1', kind: 'Service', metadata: { name: '1web' }, spec: {} })).toEqual([expect.stringContaining('metadata.name: Service name "1web" must be lower-case letters, digits and "-", starting with a letter')]);
    expect(meta({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:windows:Reader' }, rules: [] })).toEqual([]);
    expect(meta({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'a/b' }, rules: [] })).toEqual(['metadata.name: Role name "a/b" may not contain "/" or "%"']);
  });

  test('pod templates: their labels, container names and images', () => {
    const deployment: Manifest = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', version: 'v1 beta' } },
          spec: { containers: [{ name: 'Web', image: IIS }, { name: 'side', image: ` ${IIS}` }, { name: 'side', image: IIS }] },
        },
      },
    };
    expect(meta(deployment)).toEqual([
      'spec.template.metadata.labels: label version="v1 beta" has a value that is not alphanumeric with "-", "_" or "." inside',
      'spec.template.spec.containers[0].name: container name "Web" must be lower-case letters, digits and "-", starting and ending with a letter or digit (a DNS-1123 label)',
      `spec.template.spec.containers[1].image: image " ${IIS}" has leading or trailing whitespace, which the API server refuses`,
      'spec.template.spec.containers[2].name: container name "side" is also the name of spec.containers[1], and container names are unique in a pod',
    ]);
    const violation = validateManifests([deployment]).find((v) => v.rule === 'object-meta')!;
    expect(violation.message).toMatch(/\. Fix: change spec\.template\.metadata\.labels to what the API server takes/);
  });

  test('a construct\'s objects are judged at synth, with the construct path', () => {
    const app = new App();
    const chart = new Chart(app, 'apps');
    new WindowsWorkload(chart, 'web', { image: IIS, metadata: { labels: { tier: 'front end' } } });
    expect(() => app.synth()).toThrow(/tier="front end" has a value that is not alphanumeric/);
  });
});
