import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { Testing } from 'cdktn';
import { EksLinuxNodeGroup, HybridEksStack } from '../../src/eks';
import { WindowsWorkload } from '../../src/workloads';
import { eksStack } from '../eks/fixture';
import { thrownMessage } from '../support/tf';

/**
 * Issue 24 point 16: values that are not what they seem get `[path] what. Fix: how.` where they
 * enter (src/core/values.ts: listOf, stringMap, wholeNumber and show, which never throws on a
 * BigInt), and JSON patches that cannot be applied name the patch and its path (cdk8s
 * lib/api-object.js applies `patches` with `JsonPatch.apply`, calling each one's `_toJson`).
 */
const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const linux = (props: object) => () => new EksLinuxNodeGroup(eksStack().cluster, 'l', { instanceTypes: ['t3.large'], ...props } as never);

describe('values that are not what they seem', () => {
  test.each([
    ['a string for a list', { instanceTypes: 't3.large' }, '[eks-test/Cluster/l] instanceTypes: "t3.large" is not a list. Fix: write ["t3.large"].'],
    ['undefined inside a list', { instanceTypes: ['t3.large', undefined] }, '[eks-test/Cluster/l] instanceTypes[1]: undefined is an empty item. Fix: remove the empty item.'],
    ['a string for subnetIds', { subnetIds: 'subnet-01234567' }, '[eks-test/Cluster/l] subnetIds: "subnet-01234567" is not a list. Fix: write ["subnet-01234567"].'],
    ['a __proto__ key', { labels: JSON.parse('{"__proto__": "x", "team": "web"}') }, '[eks-test/Cluster/l] labels: {"__proto__":"x","team":"web"} has the key "__proto__", which JavaScript reads as the object\'s prototype. Fix: rename the key "__proto__".'],
    ['a BigInt label', { labels: { replicas: BigInt(5) } }, '[eks-test/Cluster/l] labels: {"replicas":5n} has "replicas": 5n (a BigInt), not a string. Fix: write the value as a string, e.g. "5".'],
    ['a BigInt size', { minSize: BigInt(2) }, '[eks-test/Cluster/l] minSize: 2n (a BigInt) is not a number. Fix: give a whole number from 0 to 2147483647.'],
    ['a string size', { maxSize: '3' }, '[eks-test/Cluster/l] maxSize: "3" is not a number. Fix: give a whole number from 0 to 2147483647.'],
  ])('%s', (_name, props, message) => {
    expect(thrownMessage(linux(props))).toBe(message);
  });

  test('the stacks\' defaultTags and the cluster\'s lists', () => {
    expect(thrownMessage(() => new HybridEksStack(Testing.app(), 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34', defaultTags: 'team=web' as never })))
      .toBe('[eks] defaultTags: "team=web" is not a map of key to value. Fix: give an object such as { team: "web" }.');
    expect(thrownMessage(() => eksStack({ publicAccessCidrs: '203.0.113.0/24' as never }))).toBe('[eks-test/Cluster] publicAccessCidrs: "203.0.113.0/24" is not a list. Fix: write ["203.0.113.0/24"].');
    expect(thrownMessage(() => eksStack({ existingNetwork: { vpcId: 'vpc-01234567', publicSubnetIds: 'subnet-01234567' as never, privateSubnetIds: ['subnet-89abcdef'] } })))
      .toBe('[eks-test/ExistingNetwork] existingNetwork.publicSubnetIds: "subnet-01234567" is not a list. Fix: write ["subnet-01234567"].');
  });
});

describe('JSON patches that cannot be applied', () => {
  const synthWith = (patch: unknown) => {
    const app = new App();
    const w = new WindowsWorkload(new Chart(app, 'apps'), 'web', { image: IIS });
    ApiObject.of(w.workload).addJsonPatch(patch as JsonPatch);
    return thrownMessage(() => app.synth());
  };

  test('a plain RFC 6902 object is named, with the JsonPatch call to write', () => {
    expect(synthWith({ op: 'replace', path: '/spec/replicas', value: 3 }))
      .toMatch(/^\[apps\/web\/Default\/Resource] Deployment apps-web-\w+: JSON patch \[\d+] \{"op":"replace","path":"\/spec\/replicas","value":3} is a plain object, not a cdk8s JsonPatch\. Fix: write it with cdk8s's JsonPatch, e.g\. JsonPatch\.replace\("\/spec\/replicas", value\)\.$/);
  });

  test('a path that does not exist is named', () => {
    expect(synthWith(JsonPatch.add('/spec/template/spec/nope/deeper', 1)))
      .toMatch(/: JSON patch \[\d+] \(add \/spec\/template\/spec\/nope\/deeper\) names a path that does not exist in the object\. Fix: add \/spec\/template\/spec\/nope first/);
    expect(synthWith(JsonPatch.remove('/metadata/labels/missing'))).toMatch(/\(remove \/metadata\/labels\/missing\) names a path that does not exist in the object\. Fix: correct the path/);
    expect(synthWith(JsonPatch.add('/spec/replicas', 3))).toBe('');
  });
});
