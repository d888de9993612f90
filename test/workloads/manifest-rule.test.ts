import { Manifest, validateManifests } from '../../src';

/** The pod-template rule makes the same OS decision on YAML from elsewhere as PodTemplatePolicy does in an app. */
describe('the pod-template manifest rule', () => {
  const daemonSet = (spec: object): Manifest => ({
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
    spec: { template: { spec: { containers: [{ name: 'agent', image: 'fluent/fluent-bit:3.2' }], ...spec } } },
  });
  const messages = (m: Manifest) => validateManifests([m]).map((v) => `${v.rule}: ${v.message}`);

  test('a Linux DaemonSet that tolerates every taint and selects no OS lands on Windows nodes', () => {
    expect(messages(daemonSet({ tolerations: [{ operator: 'Exists' }] }))).toEqual([
      'pod-template: spec.template.spec.nodeSelector: tolerates the Windows node taint os=windows:NoSchedule but selects no OS, so it can land on a Windows node and crash-loop; add nodeSelector kubernetes.io/os: linux or use HybridChart. Fix: set spec.template.spec.nodeSelector.kubernetes.io/os: linux (or windows, for a Windows pod), or remove the toleration from spec.template.spec.tolerations.',
    ]);
    expect(messages(daemonSet({ tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/os': 'linux' } }))).toEqual([]);
    expect(messages(daemonSet({}))).toEqual([]); // the taint keeps it off Windows nodes
  });

  test('constraints that leave no OS', () => {
    expect(messages(daemonSet({ os: { name: 'linux' }, nodeSelector: { 'kubernetes.io/os': 'windows' } }))).toEqual([
      'pod-template: spec.template.spec: cannot be classified: spec.os.name=linux, nodeSelector kubernetes.io/os=windows leave no OS a node could have; make them agree. Fix: make spec.template.spec.os.name, spec.template.spec.nodeSelector.kubernetes.io/os, the required node affinity on it and the RuntimeClass\'s scheduling name one OS.',
    ]);
  });
});
