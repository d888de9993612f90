import { ApiObject, JsonPatch } from 'cdk8s';
import { validateManifests } from '../../src';
import { K8sObject, synthObjects } from '../support/synth';
import { constructionError, FixtureOptions, hybridCluster } from './fixture';

/** The fixture's objects as written, without the app's validations. */
function objects(options: FixtureOptions = {}): K8sObject[] {
  return hybridCluster(options).app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => o.toJson());
}

function find(list: K8sObject[], kind: string, prefix = ''): K8sObject {
  return list.find((o) => o.kind === kind && o.metadata.name.startsWith(prefix))!;
}

const byRule = (list: K8sObject[], rule: string) => validateManifests(list).filter((v) => v.rule === rule).map((v) => v.message);

describe('k0smotron v2.1.0 webhooks, transcribed (issue 18.10)', () => {
  // k0smotron v2.1.0 api/controlplane/v1beta2/k0s_controlplane_webhook.go and
  // api/bootstrap/v1beta2/k0s_types.go (K0sWorkerConfigSpec.Validate).
  test('denyIncompatibleK0sVersions: k0s 1.31.1 on the control plane', () => {
    const list = objects({ windows: null });
    find(list, 'K0sControlPlane').spec.version = 'v1.31.1+k0s.0';
    expect(byRule(list, 'k0smotron-webhooks')).toEqual([expect.stringMatching(/k0s v1\.31\.1\+k0s\.0 is refused by k0smotron's K0sControlPlane webhook .* Fix: use v1\.31\.2\+k0s\.0 or newer\./)]);
    find(list, 'K0sControlPlane').spec.version = 'v1.31.2+k0s.0';
    expect(byRule(list, 'k0smotron-webhooks')).toEqual([]);
  });

  test('denyRecreateOnSingleClusters: Recreate with --single', () => {
    const list = objects();
    const kcp = find(list, 'K0sControlPlane');
    expect(kcp.spec.updateStrategy).toBe('Recreate');
    kcp.spec.k0sConfigSpec.args = ['--single'];
    expect(byRule(list, 'k0smotron-webhooks')).toEqual([expect.stringMatching(/updateStrategy Recreate with the controller argument --single/)]);
    kcp.spec.updateStrategy = 'InPlace';
    expect(byRule(list, 'k0smotron-webhooks')).toEqual([]);
  });

  test('validateVersion: a worker version with -k0s.', () => {
    const list = objects();
    find(list, 'K0sWorkerConfigTemplate', 'prod-linux-').spec.template.spec.version = 'v1.34.2-k0s.0';
    expect(byRule(list, 'k0smotron-webhooks')).toEqual([expect.stringMatching(/version v1\.34\.2-k0s\.0 has a "-k0s\." suffix.*Fix: write it with "\+k0s\.", e\.g\. v1\.34\.2\+k0s\.0/)]);
  });

  test('validateWindows: a Windows worker config without a version', () => {
    const list = objects();
    delete find(list, 'K0sWorkerConfigTemplate', 'prod-win-').spec.template.spec.version;
    expect(byRule(list, 'k0smotron-webhooks')).toEqual([expect.stringMatching(/the Windows worker version undefined is not a k0s version/)]);
  });

  test('validateFiles: conflicting, empty and repeated files', () => {
    const list = objects();
    find(list, 'K0sWorkerConfigTemplate', 'prod-linux-').spec.template.spec.files = [
      { path: '/etc/a', content: 'x', contentFrom: { secretRef: { name: 's', key: 'k' } } },
      { path: '/etc/a' },
      { path: '/etc/b', contentFrom: { secretRef: { name: '', key: 'k' }, configMapRef: { name: 'c', key: 'k' } } },
    ];
    expect(byRule(list, 'k0smotron-webhooks').map((m) => m.split(',')[0])).toEqual([
      'files[0] has both content and contentFrom',
      'files[1] has neither content nor contentFrom',
      'files[1].path "/etc/a" is written by an earlier file too',
      'files[2].contentFrom names both a Secret and a ConfigMap',
      'files[2].contentFrom.secretRef has no name',
    ]);
  });
});

describe('AWS tags as CAPA validates them (issue 18.8)', () => {
  // cluster-api-provider-aws v2.11.1 api/v1beta2/tags.go, Tags.Validate, called by
  // webhooks/awscluster_webhook.go and webhooks/awsmachinetemplate_webhook.go.
  test.each<[string, Record<string, string>, RegExp]>([
    ['the reserved aws: prefix', { 'aws:team': 'a' }, /starts with "aws:"/],
    ['a key over 128 characters', { ['k'.repeat(129)]: 'a' }, /longer than 128 characters/],
    ['a value over 256 characters', { team: 'v'.repeat(257) }, /value longer than 256 characters/],
    ['a character CAPA refuses', { team: 'a&b' }, /characters other than letters, digits, spaces/],
    ['an empty key', { '': 'a' }, /a tag key is empty/],
    ['51 tags', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'v'])), /51 tags, more than the 50/],
  ])('%s is refused at construction, naming the prop', (_, tags, message) => {
    const e = constructionError({ cluster: { additionalTags: tags } });
    expect(e.path).toBe('mgmt/prod');
    expect(e.message).toMatch(/additionalTags: AWSCluster prod: additionalTags: /);
    expect(e.message).toMatch(message);
    expect(e.rule).toBe('aws-tags');
  });

  test('valid tags pass, spaces and _ . : / = + - @ included', () => {
    expect(() => synthObjects(hybridCluster({ cluster: { additionalTags: { 'team/owner': 'a b_c.d:e=f+g-h@i', Name: 'x' } } }).app)).not.toThrow();
  });

  test('a machine template patched with a refused tag is reported at synth', () => {
    const fixture = hybridCluster();
    ApiObject.of(fixture.linux!.machineTemplate).addJsonPatch(JsonPatch.add('/spec/template/spec/additionalTags', { 'aws:x': 'y' }));
    expect(() => synthObjects(fixture.app)).toThrow(/AWSMachineTemplate prod-linux-[0-9a-f]+: additionalTags: tag key "aws:x" starts with "aws:"/);
  });

  test('a change of cluster-wide tags renames no machine template: CAPA re-tags running machines from the AWSCluster', () => {
    // cluster-api-provider-aws v2.11.1 pkg/cloud/scope/machine.go (AdditionalTags merges the
    // AWSCluster's), controllers/awsmachine_controller.go (ensureTags, ensureStorageTags).
    const names = (tags?: Record<string, string>) => objects({ cluster: { additionalTags: tags } })
      .filter((o) => o.kind === 'AWSMachineTemplate').map((o) => o.metadata.name).sort();
    expect(names({ team: 'a' })).toEqual(names({ team: 'b' }));
    expect(names({ team: 'a' })).toEqual(names());
    const list = objects({ cluster: { additionalTags: { team: 'a' } } });
    expect(find(list, 'AWSCluster').spec.additionalTags).toEqual({ team: 'a' });
    expect(list.filter((o) => o.kind === 'AWSMachineTemplate').map((o) => o.spec.template.spec.additionalTags)).toEqual([undefined, undefined, undefined]);
  });
});

describe('a MachineHealthCheck for the control plane is accepted (issue 18.15)', () => {
  // k0smotron v2.1.0 internal/controller/controlplane/util.go (controlPlaneCommonLabelsForCluster)
  // labels control-plane machines cluster.x-k8s.io/control-plane: "true"; CAPI v1.14's
  // MachineControlPlaneLabel is that key (api/core/v1beta2/machine_types.go).
  const mhc = (selector: object) => ({
    apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineHealthCheck', metadata: { name: 'prod-cp' },
    spec: { clusterName: 'prod', selector, checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }] } },
  });
  const rules = (selector: object) => validateManifests([...objects(), mhc(selector)]).filter((v) => v.name === 'prod-cp').map((v) => v.message);

  test.each<[string, object]>([
    ['"true"', { matchLabels: { 'cluster.x-k8s.io/control-plane': 'true' } }],
    ['Exists', { matchExpressions: [{ key: 'cluster.x-k8s.io/control-plane', operator: 'Exists' }] }],
  ])('selected by %s', (_, selector) => expect(rules(selector)).toEqual([]));

  test('"" selects none of k0smotron\'s machines, and the message says which value they carry', () => {
    expect(rules({ matchLabels: { 'cluster.x-k8s.io/control-plane': '' } })).toEqual([expect.stringMatching(/k0smotron labels its control-plane machines cluster\.x-k8s\.io\/control-plane: "true", not ""/)]);
  });

  test('a cluster-name selector other than clusterName is refused, as CAPI\'s webhook does', () => {
    expect(rules({ matchLabels: { 'cluster.x-k8s.io/cluster-name': 'other', 'cluster.x-k8s.io/control-plane': 'true' } }))
      .toEqual([expect.stringMatching(/CAPI's webhook refuses a cluster selector other than clusterName/)]);
  });
});

describe('found again in issue 18.14 (cluster side)', () => {
  test('an unknown network provider is refused at construction and on the final object', () => {
    const e = constructionError({ windows: null, cluster: { network: { provider: 'flannel' as never } } });
    // The control-plane rule refuses it at construction, naming the prop (no second check where the prop enters).
    expect(e.message).toMatch(/^\[mgmt\/prod\] network\.provider: K0sControlPlane prod: k0s network provider "flannel" is none of k0s's \(calico, kuberouter, custom\).*Fix: use NetworkProvider\.CALICO/);
    expect(e.rule).toBe('control-plane');
    const list = objects({ windows: null });
    find(list, 'K0sControlPlane').spec.k0sConfigSpec.k0s.spec.network.provider = 'flannel';
    // k0s v1.34.4+k0s.0 pkg/apis/k0s/v1beta1/network.go, Network.Validate.
    expect(byRule(list, 'control-plane')).toEqual([expect.stringMatching(/k0s network provider "flannel" is none of k0s's/)]);
  });

  test('a Windows root volume below the base image\'s 30 GiB snapshot', () => {
    // cluster-api-provider-aws v2.11.1 api/v1beta2/types.go Volume.Size: "must be greater than the image snapshot size".
    const e = constructionError({ windows: { rootVolumeSizeGiB: 20 } });
    expect(e.message).toMatch(/^\[mgmt\/prod\/win\] rootVolumeSizeGiB: AWSMachineTemplate prod-win-[0-9a-f]{8}: rootVolume\.size 20 is below 30 GiB, the Windows base image's snapshot\. Fix: give 30 to 16384 GiB\.$/);
    expect(() => hybridCluster({ windows: { rootVolumeSizeGiB: 30 } })).not.toThrow();
  });

  test('a patched cluster name is named in the messages of the objects that lost it', () => {
    const list = objects();
    find(list, 'Cluster').metadata.name = 'renamed';
    expect(validateManifests(list).filter((v) => v.kind === 'MachineDeployment').map((v) => v.message))
      .toContain('spec.clusterName "prod" names no Cluster among the objects (there: "renamed"). Fix: use the name of the Cluster this pool belongs to.');
  });

  test('a patched provisioner of a Windows pool is reported as such', () => {
    const list = objects();
    find(list, 'K0sWorkerConfigTemplate', 'prod-win-').spec.template.spec.provisioner = { platform: 'linux', type: 'cloud-config' };
    expect(byRule(list, 'windows-pool')).toEqual([expect.stringMatching(/provisioner is \{"platform":"linux","type":"cloud-config"\}; Windows workers on AWS need/)]);
  });
});
