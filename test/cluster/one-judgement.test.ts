import { ApiObject, Duration, JsonPatch } from 'cdk8s';
import { validateManifests } from '../../src';
import { constructionError, FixtureOptions, hybridCluster } from './fixture';

type Fixture = ReturnType<typeof hybridCluster>;

/**
 * Each judgement has one home: a bad prop refused at construction and the same value patched into
 * the written object of a valid cluster are reported by the same rule, with the same fix.
 */
const CASES: ReadonlyArray<[string, FixtureOptions, (f: Fixture) => [ApiObject, JsonPatch]]> = [
  ['an even number of controllers', { cluster: { controlPlane: { instanceType: 't3.large', replicas: 2 } } }, (f) => [f.cluster.controlPlane, JsonPatch.replace('/spec/replicas', 2)]],
  ['a malformed k0s version', { cluster: { k0sVersion: 'latest' } }, (f) => [f.cluster.controlPlane, JsonPatch.replace('/spec/version', 'latest')]],
  ['a zone as region', { cluster: { region: 'eu-north-1a' } }, (f) => [f.cluster.awsCluster, JsonPatch.replace('/spec/region', 'eu-north-1a')]],
  ['a service range larger than /12', { cluster: { network: { serviceCidr: '10.0.0.0/11' } } }, (f) => [f.cluster.cluster, JsonPatch.replace('/spec/clusterNetwork/services/cidrBlocks/0', '10.0.0.0/11')]],
  ['a NodePort source with host bits set', { cluster: { nodePortCidrs: ['10.0.0.1/16'] } }, (f) => [f.cluster.awsCluster, JsonPatch.replace('/spec/network/nodePortIngressRuleCidrBlocks/0', '10.0.0.1/16')]],
  ['negative replicas', { linux: { replicas: -1 } }, (f) => [f.linux!.machineDeployments[0], JsonPatch.replace('/spec/replicas', -1)]],
  ['a node-role label', { linux: { labels: { 'node-role.kubernetes.io/worker': 'x' } } },
    (f) => [f.linux!.workerConfigTemplates[0], JsonPatch.replace('/spec/template/spec/args/0', '--labels=node.cluster.x-k8s.io/pool=linux,node-role.kubernetes.io/worker=x')]],
  ['a Graviton Windows pool', { windows: { instanceType: 'm7g.large' } }, (f) => [f.windows!.machineTemplate, JsonPatch.replace('/spec/template/spec/instanceType', 'm7g.large')]],
  ['a health check that replaces a machine after 30 s', { windows: { nodeReadyTimeout: Duration.seconds(30) } },
    (f) => [f.windows!.machineHealthCheck!, JsonPatch.replace('/spec/checks/unhealthyNodeConditions/0/timeoutSeconds', 30)]],
];

/** The chart's objects as written, without cdk8s's validation (which would throw at the first rule). */
function written(f: Fixture) {
  return f.chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map((o) => o.toJson());
}

describe('one judgement, one home: the constructor and synth report the same rule', () => {
  test.each(CASES)('%s', (_, options, patch) => {
    const refused = constructionError(options);
    expect(refused.rule).toBeDefined();

    const fixture = hybridCluster();
    const [obj, op] = patch(fixture);
    obj.addJsonPatch(op);
    const violations = validateManifests(written(fixture)).filter((v) => v.rule === refused.rule && v.kind === obj.kind);
    expect(violations.map((v) => `${v.fix}.`)).toContain(`${refused.fix}.`);
  });

  test('the valid fixture is accepted at construction and at synth', () => {
    expect(validateManifests(written(hybridCluster()))).toEqual([]);
  });
});
