import { App, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { Manifest } from '../../src';
import { KarpenterWindowsNodePool } from '../../src/eks';
import { WorkerPool } from '../../src/k0s/worker-pool';
import { hybridCluster } from '../cluster/fixture';
import { remoteApp } from '../remote/fixture';
import { judge, ownObjects, referenced } from '../support/own-objects';

interface Row {
  /** The construct, from a valid build. */
  readonly construct: () => IConstruct;
  /** Breaks one of its objects as written; the rule that must then report it. */
  readonly broken: [rule: string, kind: string, (manifest: Manifest) => void];
}

const poolOf = (f: { cluster: IConstruct; linux?: IConstruct; windows?: IConstruct }, which: 'linux' | 'windows') => f[which]!;
const karpenter = () => new KarpenterWindowsNodePool(new Chart(new App(), 'karpenter'), 'windows', { clusterName: 'eks-test', role: 'eks-test-karpenter-windows', limits: { cpu: 64 } });

const ROWS: ReadonlyArray<[string, Row]> = [
  ['HybridCluster', { construct: () => hybridCluster().cluster, broken: ['control-plane', 'K0sControlPlane', (m) => { m.spec.replicas = 2; }] }],
  ['LinuxWorkerPool', { construct: () => poolOf(hybridCluster(), 'linux'), broken: ['machine-deployment', 'MachineDeployment', (m) => { m.spec.replicas = -1; }] }],
  ['WindowsWorkerPool', { construct: () => poolOf(hybridCluster(), 'windows'), broken: ['windows-pool', 'K0sWorkerConfigTemplate', (m) => { m.spec.template.spec.provisioner = { type: 'cloud-init' }; }] }],
  ['RemoteHybridCluster', { construct: () => remoteApp().cluster, broken: ['control-plane', 'K0sControlPlane', (m) => { m.spec.replicas = 2; }] }],
  ['RemoteLinuxWorkerPool', { construct: () => poolOf(remoteApp(), 'linux'), broken: ['machine-deployment', 'MachineDeployment', (m) => { m.spec.replicas = -1; }] }],
  ['RemoteWindowsWorkerPool', { construct: () => poolOf(remoteApp(), 'windows'), broken: ['remote-windows', 'RemoteMachineTemplate', (m) => { m.spec.template.spec.provisionJob = { sshCommand: 'ssh' }; }] }],
  ['KarpenterWindowsNodePool', { construct: karpenter, broken: ['karpenter-windows', 'NodePool', (m) => { m.spec.template.spec.taints = []; }] }],
];

/**
 * Issue 21 step 4: each construct that asks the rules at construction (`judgeOwnObjects`) writes
 * objects that stand on their own. Its own objects (not its pools', not the chart's) are fed to
 * the rules of object scope, the ones the constructs are judged by (the cluster rules and
 * `object-meta`), and none of them is reported. A pool's objects name their cluster: alone, they
 * are reported for that reference only; beside the cluster's own objects, for nothing. Each row
 * also breaks one of its objects, so that the test shows the rules see them.
 */
describe('each construct\'s own objects stand on their own before the rules', () => {
  test.each(ROWS)('%s', (_, row) => {
    const construct = row.construct();
    const own = ownObjects(construct);
    const paths = own.map((o) => o.node.path);
    const manifests = () => own.map((o) => o.toJson());
    expect(own.length).toBeGreaterThan(1);
    const pool = construct instanceof WorkerPool;
    // The objects a pool references: its cluster's own (the Cluster, its control plane for the version skew).
    const context = referenced(construct);
    expect(judge(manifests(), paths, context)).toEqual([]);
    // Alone, a pool's objects miss only the Cluster they name.
    const alone = judge(manifests(), paths);
    if (pool) {
      expect(alone.length).toBeGreaterThan(0);
      for (const v of alone) expect([v.field, v.message]).toEqual(['spec.clusterName', expect.stringMatching(/^spec\.clusterName "[a-z]+" names no Cluster among the objects\./)]);
    } else {
      expect(alone).toEqual([]);
    }

    const [rule, kind, breakIt] = row.broken;
    const broken = manifests();
    const target = broken.findIndex((m) => m.kind === kind);
    expect(target).toBeGreaterThanOrEqual(0);
    breakIt(broken[target]);
    expect(judge(broken, paths, context).filter((v) => v.path === paths[target]).map((v) => v.rule)).toContain(rule);
  });
});
