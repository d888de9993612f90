import { App, Chart } from 'cdk8s';
import { Testing } from 'cdktn';
import { HybridCluster, LinuxWorkerPool, MachineImage, validateManifests } from '../../src';
import { EksLinuxNodeGroup } from '../../src/eks';
import { WindowsWorkload } from '../../src/workloads';
import { eksStack } from '../eks/fixture';
import { synthObjects } from '../support/synth';

/**
 * Issue 24 point 17: label keys that happen to be names of Object.prototype members are own keys
 * of a literal or of parsed JSON, and valid Kubernetes label keys (k8s.io/apimachinery
 * pkg/util/validation/validation.go IsQualifiedName): they pass, and reach what is written. Only
 * `__proto__` is refused (src/core/values.ts stringMap).
 */
const KEYS = { toString: 'b', hasOwnProperty: 'c', valueOf: 'd', prototype: 'e', isPrototypeOf: 'f' };
const AMI = MachineImage.id('ami-0123456789abcdef0');

describe('labels named like Object.prototype members', () => {
  test('a k0smotron pool writes them into --labels', () => {
    const app = new App();
    const cluster = new HybridCluster(new Chart(app, 'mgmt'), 'c', { region: 'eu-north-1', zones: ['eu-north-1a'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 't3.large', ami: AMI } });
    new LinuxWorkerPool(cluster, 'linux', { instanceType: 't3.large', ami: AMI, labels: KEYS });
    const args = synthObjects(app).find((o) => o.kind === 'K0sWorkerConfigTemplate')!.spec.template.spec.args[0];
    for (const [k, v] of Object.entries(KEYS)) expect(args).toContain(`${k}=${v}`);
  });

  test('an EKS node group writes them into labels', () => {
    const stack = eksStack();
    new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], labels: { ...KEYS } });
    const json = JSON.parse(Testing.synth(stack, true));
    expect(Object.values(json.resource.aws_eks_node_group as Record<string, { labels: object }>)[0].labels).toEqual(KEYS);
  });

  // cdk8s lib/resolve.js treats a value as a map only when `value.constructor == Object`: a key
  // `constructor` cannot be written by cdk8s, so the props refuse it by name; YAML from elsewhere
  // (validateManifests) takes it.
  test('constructor: refused by name where a prop enters, accepted in YAML', () => {
    const app = new App();
    expect(() => new WindowsWorkload(new Chart(app, 'apps'), 'web', { image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', metadata: { labels: { constructor: 'a' } } }))
      .toThrow('[apps/web] metadata.labels: {"constructor":"a"} has the key "constructor", which cdk8s cannot write');
    const stack = eksStack();
    expect(() => new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], labels: { constructor: 'a' } }))
      .toThrow('[eks-test/Cluster/linux] labels: {"constructor":"a"} has the key "constructor", which cdk8s cannot write (its resolver reads a map\'s `constructor` to tell it from a class instance). Fix: rename the key "constructor".');
  });

  test('a workload and validateManifests take them', () => {
    const app = new App();
    new WindowsWorkload(new Chart(app, 'apps'), 'web', { image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', metadata: { labels: { ...KEYS } } });
    const objects = synthObjects(app);
    expect(objects.find((o) => o.kind === 'Deployment')!.metadata.labels).toMatchObject(KEYS);
    expect(validateManifests(objects)).toEqual([]);
    expect(validateManifests([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'constructor', labels: JSON.parse('{"toString": "x", "constructor": "y"}') } }])).toEqual([]);
  });
});
