import { App, Chart } from 'cdk8s';
import * as lib from '../../src';
import { BUILT_IN_INFRASTRUCTURES, K0smotronInfrastructure, validateManifests, ValidateManifestsOptions } from '../../src';
import { K8sObject, synthObjects } from '../support/synth';
import { FAKE, fakeKit } from '../support/third-infrastructure';

/**
 * A third k0smotron infrastructure (test/support/third-infrastructure.ts), built from its
 * declaration alone: no rule names it; the rules judge its Windows pool from its declaration.
 */
const { FakeCluster, fakeApp } = fakeKit(lib);

/** The rule findings on the objects as written, as `rule Kind: what`, with the infrastructures given (the built-in ones and the fake one by default). */
function findings(objects: K8sObject[], options: ValidateManifestsOptions = { infrastructures: [...BUILT_IN_INFRASTRUCTURES, FAKE] }): string[] {
  return validateManifests(objects, options).map((v) => `${v.rule} ${v.kind}: ${v.what}`);
}

/** The fake app's objects with its Windows worker config patched. */
function patchedObjects(objects: K8sObject[], patch: (spec: Record<string, unknown>) => void): K8sObject[] {
  const config = objects.find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('edge-win'))!;
  patch(config.spec.template.spec);
  return objects;
}

function patchedWindowsConfig(patch: (spec: Record<string, unknown>) => void): string[] {
  return findings(patchedObjects(synthObjects(fakeApp()), patch));
}

/** A Windows worker config whose provisioner is AWS's and whose bootstrap opens no kubelet port. */
function broken(spec: Record<string, unknown>): void {
  spec.provisioner = { platform: 'windows', type: 'powershell-xml' };
  delete spec.preK0sCommands;
}

describe('a third k0smotron infrastructure, from its declaration alone', () => {
  test('its cluster and pools synthesize and pass every rule, with the provisioner and firewall rule it declares', () => {
    const objects = synthObjects(fakeApp());
    expect(findings(objects)).toEqual([]);
    const config = objects.find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('edge-win'))!;
    expect(config.spec.template.spec.provisioner).toEqual({ platform: 'windows', type: 'powershell' });
    expect(config.spec.template.spec.preK0sCommands).toEqual([expect.stringContaining('10250')]);
    expect(objects.find((o) => o.kind === 'Cluster')!.spec.infrastructureRef).toEqual({ apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'FakeCluster', name: 'edge' });
  });

  test('a Windows pool with another infrastructure\'s provisioner is refused, naming the one it declares', () => {
    expect(patchedWindowsConfig((spec) => (spec.provisioner = { platform: 'windows', type: 'powershell-xml' }))).toEqual([
      expect.stringMatching(/^windows-pool K0sWorkerConfigTemplate: .*Windows workers on the fake cloud need \{"platform":"windows","type":"powershell"\}: the fake cloud runs user data as a PowerShell script$/),
    ]);
  });

  test('a Windows pool whose bootstrap does not open the kubelet port is refused (its infrastructure says the bootstrap opens it)', () => {
    expect(patchedWindowsConfig((spec) => delete spec.preK0sCommands)).toEqual([
      expect.stringMatching(/^windows-pool K0sWorkerConfigTemplate: preK0sCommands open no inbound TCP 10250 in the Windows firewall/),
    ]);
  });

  test('a cluster whose only pool is Windows has no Linux worker for CoreDNS', () => {
    // The cluster's validation at synth reports it (a graph rule: it needs every pool of the cluster).
    expect(() => synthObjects(fakeApp(false))).toThrow(/\[fake\/edge\] Cluster edge: Windows pools \(edge-win\) need a Linux worker for CoreDNS/);
  });

  test('a pool\'s machine template of the infrastructure is followed: one that is not written is reported', () => {
    const objects = synthObjects(fakeApp()).filter((o) => !(o.kind === 'FakeMachineTemplate' && o.metadata.name.startsWith('edge-win-')));
    expect(findings(objects)).toEqual([expect.stringMatching(/^machine-deployment MachineDeployment: infrastructureRef names FakeMachineTemplate "edge-win-[0-9a-f]{8}", which is not among the objects$/)]);
  });

  test('the engine refuses two declarations for one kind in one run, whatever was built before', () => {
    const impostor: K0smotronInfrastructure = { ...FAKE, name: 'an impostor' };
    const message = 'FakeMachineTemplate is the kind of two infrastructures, "the fake cloud" and "an impostor": give each its own kinds, or pass one of them';
    // Alone in its app, the impostor's cluster is judged by its own declaration.
    const alone = new App();
    new FakeCluster(new Chart(alone, 'c'), 'i', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} }, impostor);
    expect(() => synthObjects(alone)).not.toThrow();
    // Beside a cluster of the other declaration, the run cannot tell their objects apart.
    const both = fakeApp();
    new FakeCluster(new Chart(both, 'c'), 'i', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} }, impostor);
    expect(() => both.synthYaml()).toThrow(message);
    expect(() => findings([], { infrastructures: [FAKE, impostor] })).toThrow(message);
    // An equal copy of a declaration (a module loaded twice) is the same declaration.
    expect(findings([], { infrastructures: [FAKE, { ...FAKE }] })).toEqual([]);
  });

  test('the same YAML gets the same answer before and after a construct of the infrastructure is built in the process', () => {
    // Built on a copy of the library loaded apart, so that this file's own library has built nothing yet.
    let objects: K8sObject[] = [];
    jest.isolateModules(() => {
      objects = patchedObjects(synthObjects(fakeKit(jest.requireActual('../../src')).fakeApp()), broken);
    });
    const expected = [
      expect.stringMatching(/^windows-pool K0sWorkerConfigTemplate: .*Windows workers on the fake cloud need \{"platform":"windows","type":"powershell"\}/),
      expect.stringMatching(/^windows-pool K0sWorkerConfigTemplate: preK0sCommands open no inbound TCP 10250 in the Windows firewall/),
    ];
    const before = { told: findings(objects), untold: findings(objects, {}) };
    expect(before.told).toEqual(expected);
    // Not told of the fake cloud, the rules cannot judge its machines as its own.
    expect(before.untold.filter((f) => f.startsWith('windows-pool'))).toEqual([]);
    new FakeCluster(new Chart(new App(), 'c'), 'x', { k0sVersion: 'v1.34.4+k0s.0', controlPlane: {} });
    expect({ told: findings(objects), untold: findings(objects, {}) }).toEqual(before);
  });
});
