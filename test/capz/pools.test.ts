import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adviseManifests, validateManifests } from '../../src';
import { parseYamlStream } from '../../src/cli/kubectl-yaml';
import { K8sObject } from '../support/synth';

// The rules' view of pools over kubeadm objects: CAPZ v1.26.0's own Windows flavor, rendered
// (test/fixtures/capz/README.md), and the same objects broken one field at a time.
const FIXTURES = join(__dirname, '..', 'fixtures', 'capz');
const BIN = join(__dirname, '..', '..', 'lib', 'src', 'cli', 'main.js');
const read = (file: string): K8sObject[] => parseYamlStream(readFileSync(join(FIXTURES, file), 'utf8')).documents.map((d) => d.value as K8sObject);
const flavor = () => read('cluster-template-windows.yaml');
const find = (list: K8sObject[], kind: string, name: string): K8sObject => list.find((o) => o.kind === kind && o.metadata.name === name)!;
const found = (list: K8sObject[], rule?: string) => validateManifests(list).filter((v) => rule === undefined || v.rule === rule).map((v) => `${v.rule} ${v.kind}/${v.name}: ${v.what}`);

describe('a Windows kubeadm pool the rules cannot judge is reported, never passed in silence', () => {
  test('CAPZ\'s Windows MachineDeployment alone in a file: `validate` exits 1 with findings that name it', () => {
    const r = spawnSync(process.execPath, [BIN, 'validate', join(FIXTURES, 'machine-deployment-windows.yaml')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/MachineDeployment capz-win-md-win: spec\.clusterName "capz-win" names no Cluster among the objects.*\[machine-deployment\]/);
  });

  test('a Windows kubeadm pool on machines no rule reads: `validate` exits 1 with a finding that names it', () => {
    const text = readFileSync(join(FIXTURES, 'cluster-template-windows.yaml'), 'utf8').replace(/kind: AzureMachineTemplate\n(\s+)name: capz-win-md-win/, 'kind: ExampleMachineTemplate\n$1name: capz-win-md-win')
      .replace(/kind: AzureMachineTemplate\nmetadata:\n {2}annotations:\n {4}runtime: containerd\n {2}name: capz-win-md-win/, 'kind: ExampleMachineTemplate\nmetadata:\n  annotations:\n    runtime: containerd\n  name: capz-win-md-win');
    const r = spawnSync(process.execPath, [BIN, 'validate', '-'], { encoding: 'utf8', input: text });
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/MachineDeployment default\/capz-win-md-win: the pool runs Windows \(osDisk\.osType "Windows" in ExampleMachineTemplate default\/capz-win-md-win\), and no rule judges a KubeadmConfigTemplate pool on ExampleMachineTemplate.*\[unjudged-pool\]$/)]);
  });

  test('each sign of Windows makes an unjudgeable pool an error; without one it is advice', () => {
    const md = () => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'md' },
      spec: { clusterName: 'c', template: { metadata: { labels: {} as Record<string, string> }, spec: { clusterName: 'c', version: 'v1.34.4', bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: 'md' } }, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'ExampleMachineTemplate', name: 'md' } } } },
    } as K8sObject);
    const config = (nodeRegistration: object) => ({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', metadata: { name: 'md' }, spec: { template: { spec: { joinConfiguration: { nodeRegistration } } } } });
    const machine = (spec: object) => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'ExampleMachineTemplate', metadata: { name: 'md' }, spec: { template: { spec } } });
    const labelled = md();
    labelled.spec.template.metadata.labels['kubernetes.io/os'] = 'windows';
    const annotated = md();
    annotated.metadata.annotations = { 'capacity.cluster-autoscaler.kubernetes.io/labels': 'kubernetes.io/os=windows,a=b' };
    const cases: Array<[string, K8sObject[]]> = [
      ['named-pipe CRI socket', [md(), config({ criSocket: 'npipe:////./pipe/containerd-containerd' }), machine({})]],
      ['node labels', [md(), config({ kubeletExtraArgs: [{ name: 'node-labels', value: 'kubernetes.io/os=windows' }] }), machine({})]],
      ['osType', [md(), config({}), machine({ osDisk: { osType: 'Windows' } })]],
      ['CAPV os', [md(), config({}), machine({ os: 'Windows' })]],
      ['template labels', [labelled, config({}), machine({})]],
      ['autoscaler labels', [annotated, config({}), machine({})]],
    ];
    for (const [, objects] of cases) expect(found(objects, 'unjudged-pool')).toEqual([expect.stringContaining('unjudged-pool MachineDeployment/md: the pool runs Windows')]);
    const linux = [md(), config({ criSocket: 'unix:///run/containerd/containerd.sock', kubeletExtraArgs: [{ name: 'node-labels', value: 'kubernetes.io/os=windowsish' }] }), machine({ osDisk: { osType: 'Linux' } })];
    expect(found(linux, 'unjudged-pool')).toEqual([]);
    expect(adviseManifests(linux).filter((v) => v.rule === 'unjudged-pool').map((v) => v.what)).toEqual(['no rule judges a KubeadmConfigTemplate pool on ExampleMachineTemplate: only the MachineDeployment\'s own fields are checked']);
  });

  test('CAPZ\'s whole Windows flavor is judged: no finding, and no pool left unjudged', () => {
    expect(found(flavor())).toEqual([]);
    expect(adviseManifests(flavor()).filter((v) => v.rule === 'unjudged-pool')).toEqual([]);
  });
});

describe('the pool rules read kubeadm objects', () => {
  test('version-skew compares Kubernetes minors, whatever the version form', () => {
    const at = (version: string) => { const l = flavor(); find(l, 'MachineDeployment', 'capz-win-md-0').spec.template.spec.version = version; return found(l, 'version-skew'); };
    expect(at('v1.35.0')).toEqual(['version-skew MachineDeployment/capz-win-md-0: pool Kubernetes v1.35.0 is newer than the control plane\'s v1.34.4; CAPI\'s MachineSet preflight check (KubernetesVersionSkew) holds its machines forever, and a kubelet may not be newer than its API server']);
    expect(at('v1.30.9')).toEqual([expect.stringContaining('pool Kubernetes v1.30.9 is more than 3 minors older than the control plane\'s v1.34.4')]);
    expect(at('v1.31.0')).toEqual([]);
    // A k0s version beside a kubeadm control plane is read by its Kubernetes minor too.
    expect(at('v1.35.1+k0s.0')).toEqual([expect.stringContaining('pool k0s v1.35.1+k0s.0 is newer than the control plane\'s v1.34.4')]);
  });

  test('machine-deployment: CAPI\'s version form, and a selector CAPI defaults', () => {
    const l = flavor();
    find(l, 'MachineDeployment', 'capz-win-md-0').spec.template.spec.version = '1.34';
    expect(found(l, 'machine-deployment')).toEqual(['machine-deployment MachineDeployment/capz-win-md-0: version "1.34" is not a semantic version, and CAPI\'s webhook refuses it']);
    // An empty selector is CAPI's to default (the flavor's `matchLabels: null`); a written one must match.
    find(l, 'MachineDeployment', 'capz-win-md-0').spec.template.spec.version = 'v1.34.4';
    find(l, 'MachineDeployment', 'capz-win-md-0').spec.selector = { matchLabels: { pool: 'linux' } };
    expect(found(l, 'machine-deployment')).toEqual([expect.stringContaining('spec.selector {"pool":"linux"} does not match')]);
    find(l, 'MachineDeployment', 'capz-win-md-0').spec.template.metadata = { labels: { pool: 'linux' } };
    expect(found(l, 'machine-deployment')).toEqual([]);
    find(l, 'KubeadmConfigTemplate', 'capz-win-md-0').metadata.name = 'other';
    expect(found(l, 'machine-deployment')).toEqual(['machine-deployment MachineDeployment/capz-win-md-0: bootstrap.configRef names KubeadmConfigTemplate "capz-win-md-0", which is not among the objects']);
  });

  test('control-plane judges a KubeadmControlPlane as CAPI\'s webhook does', () => {
    const with_ = (change: (kcp: K8sObject) => void) => { const l = flavor(); change(find(l, 'KubeadmControlPlane', 'capz-win-control-plane')); return found(l, 'control-plane'); };
    expect(with_(() => undefined)).toEqual([]);
    expect(with_((k) => { k.spec.replicas = 2; })).toEqual([expect.stringContaining('control plane replicas 2 is not an odd number >= 1, which CAPI\'s webhook refuses while etcd is stacked')]);
    expect(with_((k) => { k.spec.replicas = 2; k.spec.kubeadmConfigSpec.clusterConfiguration.etcd = { external: { endpoints: ['https://etcd:2379'] } }; })).toEqual([]);
    expect(with_((k) => { k.spec.version = 'latest'; })).toEqual([expect.stringContaining('version "latest" is not a semantic version')]);
    expect(with_((k) => {
      k.apiVersion = 'controlplane.cluster.x-k8s.io/v1beta2';
      k.spec.machineTemplate = { spec: { infrastructureRef: { kind: 'AzureMachineTemplate', name: 'capz-win-control-plane' } } };
    })).toEqual(['control-plane KubeadmControlPlane/capz-win-control-plane: spec.machineTemplate.spec.infrastructureRef has no apiGroup, which CAPI\'s webhook refuses']);
  });

  test('cluster-references: a KubeadmControlPlane named and not written', () => {
    const l = flavor().filter((o) => o.kind !== 'KubeadmControlPlane');
    expect(found(l, 'cluster-references')).toEqual(['cluster-references Cluster/capz-win: spec.controlPlaneRef names KubeadmControlPlane "capz-win-control-plane", which is not among the objects']);
    expect(found(flavor(), 'cluster-references')).toEqual([]);
  });
});
