import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { AWS_INFRASTRUCTURE, REMOTE_INFRASTRUCTURE } from '../src/platform/infrastructures';

/**
 * The layers of docs/architecture.md, bottom first: a file may import its own layer and those
 * below, never one above. `rules` judges objects and may read the `ClusterInfra` value
 * (`infra/`), never a construct; `platform` holds facts and imports nothing above it.
 */
const ROOT = resolve(__dirname, '..');
const LAYERS: ReadonlyArray<readonly string[]> = [
  ['generated', 'core'],
  ['platform'],
  ['infra'],
  ['rules', 'terraform'],
  ['capi'],
  ['k0s'],
  ['cluster', 'workloads', 'aws', 'eks', 'aks', 'gke', 'remote', 'capz'],
  ['index.ts', 'rule-sets.ts', 'cli'],
];
const CONSTRUCT_FOLDERS = [...LAYERS[4], ...LAYERS[5], ...LAYERS[6]];

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? tsFiles(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The files of src/ a file imports (relative specifiers only), type-only imports included. */
function imports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.[^'"]*)\1/gm)].map((m) => {
    const target = resolve(dirname(file), m[2]);
    return existsSync(`${target}.ts`) ? `${target}.ts` : join(target, 'index.ts');
  });
}

function layerOf(file: string): number {
  const top = relative(join(ROOT, 'src'), file).split('/')[0];
  const layer = LAYERS.findIndex((l) => l.includes(top));
  if (layer < 0) throw new Error(`${relative(ROOT, file)}: src/${top} is in no layer of this test (add it, and to docs/architecture.md)`);
  return layer;
}

/** Every circle a depth-first walk meets, each as the files along it, first file repeated last. */
function circles(deps: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, stack: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      found.push([...stack.slice(stack.indexOf(file)), file]);
      return;
    }
    state.set(file, 'open');
    for (const t of deps.get(file) ?? []) visit(t, [...stack, file]);
    state.set(file, 'done');
  };
  deps.forEach((_, f) => visit(f, []));
  return found;
}

const files = tsFiles(join(ROOT, 'src'));
const graph = new Map(files.map((f) => [f, imports(f)]));

describe('the layers of src/', () => {
  test('reads the tree', () => {
    expect(files).toContain(join(ROOT, 'src', 'rules', 'cluster', 'cluster-rules.ts'));
    expect(graph.get(join(ROOT, 'src', 'cluster', 'hybrid-cluster.ts'))).toContain(join(ROOT, 'src', 'core', 'errors.ts'));
  });

  test('no import runs from a lower layer to a higher one', () => {
    const upward = [...graph].flatMap(([file, targets]) => targets
      .filter((t) => layerOf(t) > layerOf(file))
      .map((t) => `${relative(ROOT, file)} -> ${relative(ROOT, t)}`));
    expect(upward).toEqual([]);
  });

  test('src/rules, src/platform and src/core import no construct folder (src/capi and src/k0s, the construct cores, count as ones)', () => {
    const below = files.filter((f) => /\/src\/(rules|platform|core)\//.test(f));
    const offenders = below.flatMap((f) => graph.get(f)!.filter((t) => CONSTRUCT_FOLDERS.some((c) => t.startsWith(join(ROOT, 'src', c) + '/'))).map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`));
    expect(below.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });

  test('src/rules, src/platform, src/core and the Terraform rules load no cdktf: the cluster-only package root must not', () => {
    const below = files.filter((f) => /\/src\/(rules|platform|core|terraform)\//.test(f) && !/\/src\/terraform\/(providers\/|cdktn\.ts)/.test(f));
    const terraform = below.filter((f) => /(?:\bfrom\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(cdktf|cdktn|@cdktf\/[^'"]*|@cdktn\/[^'"]*)\1/m.test(readFileSync(f, 'utf8')));
    expect(below.some((f) => f.endsWith(join('terraform', 'index.ts')))).toBe(true);
    expect(terraform.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('no cloud folder but src/eks imports src/aws: AKS and GKE users load no AWS code', () => {
    const clouds = files.filter((f) => /\/src\/(aks|gke)\//.test(f));
    const offenders = clouds.flatMap((f) => graph.get(f)!.filter((t) => /\/src\/(aws|eks)\//.test(t) || t.endsWith(join('providers', 'aws.ts'))).map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`));
    expect(clouds.filter((f) => f.includes(join('src', 'aks') + '/')).length).toBeGreaterThan(3);
    expect(clouds.filter((f) => f.includes(join('src', 'gke') + '/')).length).toBeGreaterThan(3);
    expect(offenders).toEqual([]);
  });

  test('no rule file is over 400 lines, and no rule file outside the engine names an infrastructure kind: infrastructures declare themselves', () => {
    const ruleFiles = files.filter((f) => /\/src\/(rules\/(?!engine\/)|terraform\/rules\/)/.test(f));
    expect(ruleFiles.length).toBeGreaterThan(10);
    const long = ruleFiles.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
    const kinds = [AWS_INFRASTRUCTURE, REMOTE_INFRASTRUCTURE].flatMap((i) => [i.clusterKind, i.machineTemplateKind, ...(i.placement.by === 'hosts' ? [i.placement.hostKind] : [])]);
    expect(kinds).toContain('RemoteMachineTemplate');
    const naming = ruleFiles.flatMap((f) => kinds.filter((k) => new RegExp(`['"\`]${k}['"\`]`).test(readFileSync(f, 'utf8'))).map((k) => `${relative(ROOT, f)}: '${k}'`));
    expect(naming).toEqual([]);
  });

  test('inside src/rules, the engine is the bottom and the runners the top: engine < families < the registry (index.ts, sets.ts) < run', () => {
    const rules = join(ROOT, 'src', 'rules');
    // The floor of a file of src/rules: its folder, or the registry files at the root.
    const floorOf = (file: string): number => {
      const top = relative(rules, file).split('/')[0];
      if (top === 'engine') return 0;
      if (top === 'run') return 3;
      return top.endsWith('.ts') ? 2 : 1;
    };
    const inside = files.filter((f) => f.startsWith(rules + '/'));
    expect(inside.filter((f) => floorOf(f) === 0).map((f) => relative(rules, f))).toEqual(expect.arrayContaining(['engine/graph.ts', 'engine/rule.ts']));
    expect(inside.filter((f) => floorOf(f) === 3).map((f) => relative(rules, f))).toEqual(expect.arrayContaining(['run/judge.ts', 'run/plugin.ts']));
    const upward = inside.flatMap((f) => graph.get(f)!.filter((t) => t.startsWith(rules + '/') && floorOf(t) > floorOf(f)).map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`));
    expect(upward).toEqual([]);
  });

  test('no circle of files', () => {
    expect(circles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' -> '))).toEqual([]);
  });

  test('the circle finder finds a circle', () => {
    // So that an always-empty result cannot pass unnoticed.
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
  });
});
