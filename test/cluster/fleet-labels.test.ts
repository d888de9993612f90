import { App, JsonPatch } from 'cdk8s';
import { Manifest, validateManifests, WindowsVersion, WindowsWorkerPool } from '../../src';
import { FLEET_LABELS, fleetLabels, labelKeyProblem, labelValueProblem } from '../../src/platform/labels';
import { buildCluster } from '../../examples/k0smotron-aws/main';
import { buildRemoteCluster } from '../../examples/remote/main';
import { K8sObject, only, synthObjects } from '../support/synth';
import { hybridCluster, WINDOWS_AMI } from './fixture';
import { remoteApp } from '../remote/fixture';

const BUILD: Record<string, string> = { ltsc2019: '10.0.17763', ltsc2022: '10.0.20348' };

/**
 * The fleet labels a Cluster should carry, recomputed from the objects alone: a pool is Windows
 * when its K0sWorkerConfigTemplate's provisioner platform is windows, and its build is the one its
 * machine template's release names (the pools' own label is what the rule reads; this checks it too).
 */
function expectedFromPools(objects: K8sObject[], cluster: K8sObject): Record<string, string> {
  const builds = objects.filter((o) => o.kind === 'MachineDeployment' && o.spec.clusterName === cluster.metadata.name)
    .filter((md) => only(objects, 'K0sWorkerConfigTemplate', md.spec.template.spec.bootstrap.configRef.name).spec.template.spec.provisioner?.platform === 'windows')
    .map((md) => md.metadata.labels[FLEET_LABELS.poolBuild]);
  return fleetLabels(builds);
}
const fleetOf = (cluster: K8sObject) => Object.fromEntries(Object.entries(cluster.metadata.labels ?? {}).filter(([k]) => k.includes('windows.cdk-hybrid-windows.io')));

describe('fleet labels on every CAPI Cluster (issue 27.5)', () => {
  test('a cluster with Windows Server 2019 and 2022 pools says so, one key per build, all valid labels', () => {
    const { app, cluster } = hybridCluster();
    new WindowsWorkerPool(cluster, 'win2019', { replicas: 1, instanceType: 't3.xlarge', ami: WINDOWS_AMI, windowsVersion: WindowsVersion.SERVER_2019 });
    const objects = synthObjects(app);
    const labels = fleetOf(only(objects, 'Cluster'));
    expect(labels).toEqual({
      'windows.cdk-hybrid-windows.io/workers': 'true',
      'windows.cdk-hybrid-windows.io/builds': `${BUILD.ltsc2019}_${BUILD.ltsc2022}`,
      [`build.windows.cdk-hybrid-windows.io/${BUILD.ltsc2019}`]: 'true',
      [`build.windows.cdk-hybrid-windows.io/${BUILD.ltsc2022}`]: 'true',
    });
    for (const [k, v] of Object.entries(labels)) expect([k, labelKeyProblem(k), labelValueProblem(k, v)]).toEqual([k, undefined, undefined]);
    expect(labels).toEqual(expectedFromPools(objects, only(objects, 'Cluster')));
  });

  test('a Linux-only cluster says it has no Windows workers; the remote cluster carries them too', () => {
    expect(fleetOf(only(synthObjects(hybridCluster({ windows: null }).app), 'Cluster'))).toEqual({ 'windows.cdk-hybrid-windows.io/workers': 'false' });
    const remote = synthObjects(remoteApp().app);
    expect(fleetOf(only(remote, 'Cluster'))).toEqual({ 'windows.cdk-hybrid-windows.io/workers': 'true', 'windows.cdk-hybrid-windows.io/builds': BUILD.ltsc2022, [`build.windows.cdk-hybrid-windows.io/${BUILD.ltsc2022}`]: 'true' });
  });

  test('fleet labels match the pools in every example', () => {
    const examples: Array<[string, K8sObject[]]> = [];
    const aws = new App();
    buildCluster(aws);
    examples.push(['k0smotron-aws', synthObjects(aws)]);
    const remote = new App();
    buildRemoteCluster(remote);
    examples.push(['remote', synthObjects(remote)]);
    for (const [name, objects] of examples) {
      const clusters = objects.filter((o) => o.kind === 'Cluster');
      expect([name, clusters.length > 0]).toEqual([name, true]);
      for (const c of clusters) expect([name, fleetOf(c)]).toEqual([name, expectedFromPools(objects, c)]);
    }
  });

  test('a label patched away from the pools fails synth, naming the labels to set', () => {
    const { app, cluster } = hybridCluster();
    cluster.cluster.addJsonPatch(JsonPatch.replace(`/metadata/labels/${FLEET_LABELS.builds.replace('/', '~1')}`, BUILD.ltsc2019));
    expect(() => app.synthYaml()).toThrow(/fleet labels windows\.cdk-hybrid-windows\.io\/builds="10\.0\.17763" do not match the cluster's pools \(Windows: prod-win-a \(10\.0\.20348\), prod-win-b \(10\.0\.20348\)\).*Fix: set the fleet labels to windows\.cdk-hybrid-windows\.io\/workers: "true", windows\.cdk-hybrid-windows\.io\/builds: "10\.0\.20348"/s);
  });

  test('YAML whose Clusters carry no fleet labels is not judged; one that claims Windows without a Windows pool is', () => {
    const objects = synthObjects(hybridCluster({ windows: null }).app) as Manifest[];
    const bare = objects.map((o) => (o.kind === 'Cluster' ? { ...o, metadata: { ...o.metadata, labels: undefined } } : o));
    expect(validateManifests(bare).filter((v) => v.rule === 'fleet-labels')).toEqual([]);
    const claiming = objects.map((o) => (o.kind === 'Cluster' ? { ...o, metadata: { ...o.metadata, labels: fleetLabels([BUILD.ltsc2022]) } } : o));
    expect(validateManifests(claiming).filter((v) => v.rule === 'fleet-labels').map((v) => v.message)).toEqual([expect.stringMatching(/no Windows pool\).*Fix: set the fleet labels to windows\.cdk-hybrid-windows\.io\/workers: "false"/)]);
  });
});
