import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { App, Chart } from 'cdk8s';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { buildCapzCluster } from '../examples/capz/main';
import { buildCluster } from '../examples/k0smotron-aws/main';
import { buildRemoteCluster } from '../examples/remote/main';
import { WindowsAppChart } from '../examples/windows-app/main';
import { ClusterInfra, HybridCluster, HybridClusterProps, LinuxWorkerPool } from '../src';
import { describeWithCrds } from './support/crd-schemas';
import { KarpenterWindowsNodePool, KarpenterWindowsNodePoolProps } from '../src/eks';
import { CapzCloudProviderInstall, CapzCluster, CapzClusterProps, CapzIdentityType, CapzLinuxWorkerPool, CapzWindowsWorkerPool, CapzWindowsWorkerPoolProps, WindowsKubeletService } from '../src/capz';
import { DEPLOYED, writeJson } from './support/infra-outputs';
import { K8sObject, synthObjects } from './support/synth';

interface Entry {
  readonly field?: string;
  readonly fields?: string[];
  readonly subtree?: string;
  readonly written?: string;
  readonly when?: string;
  readonly upstream?: string;
  readonly source?: string;
}
interface Kind { readonly kind: string; readonly crd: string; readonly version: string; readonly example?: string; readonly fields: Entry[] }

const ROOT = join(__dirname, '..');
// The ledger's reader is a plain script, so that `node scripts/field-ledger.js` needs no build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ledgerModule = require('../scripts/field-ledger.js') as {
  loadLedger(): { kinds: Kind[] };
  specSchema(kind: Kind): object;
  crdFields(schema: object): { leaves: string[]; nodes: string[] };
  entryFields(entry: Entry): string[];
  covers(entry: Entry, leaf: string): boolean;
  valuesAt(obj: unknown, path: string): unknown[];
};
const { covers, crdFields, entryFields, loadLedger, specSchema, valuesAt } = ledgerModule;

/** The objects an app synthesizes. */
function objects(build: (app: App) => void): K8sObject[] {
  const app = new App();
  build(app);
  return synthObjects(app);
}

/** A cluster like the default example's, with some props changed. */
function variant(props: Partial<HybridClusterProps>): (app: App) => void {
  return (app) => {
    const chart = new Chart(app, 'k0smotron-aws', { namespace: 'default', disableResourceNameHashes: true });
    const cluster = new HybridCluster(chart, 'aws-test', {
      region: 'eu-north-1', zones: ['eu-north-1a', 'eu-north-1b'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { replicas: 3, instanceType: 't3.large' }, ...props,
    });
    new LinuxWorkerPool(cluster, 'linux', { replicas: 2, instanceType: 't3.large' });
  };
}

/** A Karpenter Windows pool with its defaults, and some props set. */
function karpenter(props: Partial<KarpenterWindowsNodePoolProps> = {}): (app: App) => void {
  return (app) => new KarpenterWindowsNodePool(new Chart(app, 'karpenter'), 'windows', { clusterName: 'eks-test', role: 'eks-test-karpenter-windows', limits: { cpu: 64 }, ...props });
}

const GUID = '00000000-0000-0000-0000-000000000000';
/** A CAPZ cluster like the CAPZ example's (examples/capz), with some cluster and Windows pool props changed. */
function capz(cluster: Partial<CapzClusterProps>, windows: Partial<CapzWindowsWorkerPoolProps> = {}): (app: App) => void {
  return (app) => {
    const c = new CapzCluster(new Chart(app, 'capz', { namespace: 'default', disableResourceNameHashes: true }), 'azwin', {
      kubernetesVersion: 'v1.34.4', location: 'westeurope', subscriptionId: GUID, cloudProvider: CapzCloudProviderInstall.HELM_INSTALL,
      identity: { type: CapzIdentityType.WORKLOAD_IDENTITY, clientId: GUID, tenantId: GUID }, ...cluster,
    });
    new CapzLinuxWorkerPool(c, 'linux', { vmSize: 'Standard_D4s_v3' });
    new CapzWindowsWorkerPool(c, 'win', { vmSize: 'Standard_D4s_v3', kubeletService: WindowsKubeletService.NSSM, ...windows });
  };
}

/** The example a ledger kind's `example` names, for kinds the default example does not emit. */
const EXAMPLES: Record<string, (app: App) => void> = {
  karpenter: karpenter(),
  capz: (app) => { buildCapzCluster(app); },
};

/** The props a ledger entry's `when` names, each set on an otherwise default cluster (or the kind's example). */
const VARIANTS: Record<string, (app: App) => void> = {
  patchWindow: karpenter({ patchWindow: { weekday: 6, hour: 22, hours: 6 } }),
  userData: karpenter({ userData: 'Write-Host hi' }),
  clusterDns: karpenter({ clusterDns: '172.20.0.10' }),
  rolloutAfter: (app) => {
    const chart = new Chart(app, 'k0smotron-aws', { namespace: 'default', disableResourceNameHashes: true });
    const cluster = new HybridCluster(chart, 'aws-test', { region: 'eu-north-1', zones: ['eu-north-1a', 'eu-north-1b'], k0sVersion: 'v1.34.10+k0s.0', controlPlane: { replicas: 3, instanceType: 't3.large' } });
    new LinuxWorkerPool(cluster, 'linux', { replicas: 2, instanceType: 't3.large', rolloutAfter: new Date('2026-12-01T02:00:00Z') });
  },
  additionalTags: variant({ additionalTags: { team: 'platform' } }),
  infra: (app) => buildCluster(app, ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(DEPLOYED)))),
  enableWorker: variant({ controlPlane: { replicas: 3, instanceType: 't3.large', enableWorker: true } }),
  'sshAuthorizedKeys': capz({}, { sshAuthorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA admin'] }),
  'image': capz({}, { image: { computeGallery: { gallery: 'g', name: 'capi-win-2022-containerd', version: '1.34.4' } } }),
  'identity.clientSecret': capz({ identity: { type: CapzIdentityType.SERVICE_PRINCIPAL, clientId: GUID, tenantId: GUID, clientSecret: { name: 'sp', namespace: 'default' } } }),
};

describeWithCrds('the field ledger (docs/fields.yaml)', () => {
  const ledger = loadLedger();
  const kinds = new Map(ledger.kinds.map((k) => [k.kind, k]));
  // Every example's objects (between them every construct that emits a CRD's kind: the typed
  // objects of src/ are Cluster, AWSCluster, MachineHealthCheck, RemoteCluster,
  // RemoteMachineTemplate and the pools' and control plane's) (issue 24 point 3). A kind's
  // fields are judged against the first example that emits it: the AWS example (the default), then
  // the remote one; a pinned kind no example emits must be in the ledger all the same.
  const examples: Array<[string, K8sObject[]]> = [
    ['k0smotron-aws', objects((app) => buildCluster(app))],
    ['remote', objects((app) => { buildRemoteCluster(app); })],
    ['windows-app', objects((app) => { new WindowsAppChart(app, 'windows-app'); })],
    ['karpenter', objects(EXAMPLES.karpenter)],
    ['capz', objects(EXAMPLES.capz)],
  ];
  const objectsOf = (kind: string) => examples.find(([, objs]) => objs.some((o) => o.kind === kind))?.[1] ?? [];
  const written = (objs: K8sObject[], kind: string, field: string) =>
    objs.filter((o) => o.kind === kind).some((o) => valuesAt(o, field).length > 0);

  test('covers every pinned kind any example or construct emits', () => {
    const pinned = new Set<string>();
    const dir = process.env.CRD_DIR ?? join(ROOT, '..', 'shared', 'crds');
    for (const group of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      for (const file of readdirSync(join(dir, group.name)).filter((f) => f.endsWith('.yaml'))) {
        const kind = parse(readFileSync(join(dir, group.name, file), 'utf8'))?.spec?.names?.kind;
        if (typeof kind === 'string') pinned.add(kind);
      }
    }
    const emitted = new Set(examples.flatMap(([, objs]) => objs.map((o) => o.kind)));
    expect(['RemoteCluster', 'RemoteMachineTemplate', 'PooledRemoteMachine'].every((k) => emitted.has(k))).toBe(true);
    expect([...emitted].filter((k) => pinned.has(k) && !kinds.has(k))).toEqual([]);
  });

  describe.each([...kinds.values()])('$kind', (kind) => {
    const { leaves, nodes } = crdFields(specSchema(kind));

    test('lists every field of the pinned CRD exactly once (a re-pin that adds one fails here)', () => {
      const unlisted = leaves.filter((leaf) => !kind.fields.some((e) => covers(e, leaf)));
      const twice = leaves.filter((leaf) => kind.fields.filter((e) => covers(e, leaf)).length > 1);
      expect({ unlisted, twice }).toEqual({ unlisted: [], twice: [] });
    });

    test('names only fields of the CRD, leaves unless the entry is a subtree', () => {
      const unknown = kind.fields.flatMap((e) => entryFields(e).filter((f) => !(e.subtree !== undefined ? nodes : leaves).includes(f)));
      expect(unknown).toEqual([]);
    });

    test('each entry is written (by a source file that exists) or left to upstream with a pinned citation', () => {
      for (const entry of kind.fields) {
        const where = entryFields(entry).join(', ');
        if (entry.written) {
          const file = /^'?(src\/\S+\.ts)/.exec(entry.written)?.[1];
          expect({ where, file: file && existsSync(join(ROOT, file)) }).toEqual({ where, file: true });
        }
        if (!entry.written || entry.when) {
          expect({ where, upstream: typeof entry.upstream, source: entry.source })
            .toEqual({ where, upstream: 'string', source: expect.stringMatching(/^(kubernetes-sigs\/cluster-api-provider-aws@(v2\.11\.1|2cf09d78547d32975570a4b9ba5496bdfe26abeb)|kubernetes-sigs\/cluster-api@v1\.14\.0|k0sproject\/k0smotron@v2\.1\.0|aws\/karpenter-provider-aws@v1\.14\.1|kubernetes-sigs\/karpenter@v1\.14\.1|kubernetes-sigs\/cluster-api-provider-azure@v1\.26\.0):\S+\.go \(\w[\w., ]*\)$/) });
        }
      }
    });

    test('the fields marked written are written by the default example, the others are not', () => {
      const wrong = kind.fields.flatMap((e) => entryFields(e).filter((f) => written(objectsOf(kind.kind), kind.kind, f) !== Boolean(e.written && !e.when)));
      expect(wrong).toEqual([]);
    });

    test('a field written with a prop is written when that prop is set', () => {
      for (const entry of kind.fields.filter((e) => e.when)) {
        const variant = VARIANTS[entry.when!];
        expect({ when: entry.when, known: variant !== undefined }).toEqual({ when: entry.when, known: true });
        const objs = objects(variant);
        expect(entryFields(entry).filter((f) => !written(objs, kind.kind, f))).toEqual([]);
      }
    });
  });

  test('docs/fields.md is generated from it and up to date (`node scripts/field-ledger.js`)', () => {
    expect(() => execFileSync('node', [join(ROOT, 'scripts', 'field-ledger.js'), '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
