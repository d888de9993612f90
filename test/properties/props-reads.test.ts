import { ApiObject } from 'cdk8s';
import { TerraformElement } from 'cdktn';
import { Construct } from 'constructs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PropsSpec } from '../../src/core/props-spec';
import { SUBJECTS } from '../support/props-spec';

/**
 * Issue 35, "no construct reads a prop except through its spec": every exported construct class
 * of every entry point (package.json `exports`) either declares its props (a spec named like the
 * class, exported beside it) and is a subject of the generated tests (test/support/props-spec.ts
 * SUBJECTS), whose props object records every read; or it is listed below, with why.
 */

/** Exported constructs that take no props of their own, and why. */
const WITHOUT_PROPS: Readonly<Record<string, string>> = {
  CapiCluster: 'an abstract base: each cluster construct parses its props and hands the base what it built',
  WorkerPool: 'an abstract base of the k0smotron pools, which parse their props',
  K0sCluster: 'an abstract base of the k0smotron clusters, which parse their props',
  MachineDeploymentPool: 'an abstract base: each pool parses its props and hands the base its parts',
  PodTemplatePolicy: 'made by PodTemplatePolicy.of(chart) (a private constructor): no props',
  ManagedNodePool: 'an abstract base of the managed clouds\' pools: each pool hands it its spec, which it parses',
  EksNodeGroupBase: 'an abstract base: EksLinuxNodeGroup and EksWindowsNodeGroup declare their props',
  AksNodePoolBase: 'an abstract base: AksLinuxNodePool and AksWindowsNodePool declare their props',
  GkeNodePoolBase: 'an abstract base: GkeLinuxNodePool and GkeWindowsNodePool declare their props',
};

const ROOT = join(__dirname, '..', '..');

/** Every entry point's module, from package.json `exports` (`./lib/src/eks/index.js` → src/eks). */
function entryPoints(): Array<{ readonly entry: string; readonly module: Record<string, unknown> }> {
  const exports = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, string | { default: string }>;
  return Object.entries(exports).filter(([, target]) => typeof target === 'object').map(([entry, target]) => {
    const source = (target as { default: string }).default.replace(/^\.\/lib\//, '').replace(/\/index\.js$|\.js$/, '');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return { entry, module: require(join(ROOT, source)) as Record<string, unknown> };
  });
}

/**
 * The construct classes of the library's own: bindings of a provider's resources or of a CRD
 * (a `TerraformElement` or an `ApiObject`) take the schema's props and are not ours to declare.
 */
function ownConstructs(module: Record<string, unknown>): string[] {
  return Object.entries(module).filter(([, value]) => {
    const prototype: unknown = typeof value === 'function' ? value.prototype : undefined;
    return prototype instanceof Construct && !(prototype instanceof TerraformElement) && !(prototype instanceof ApiObject);
  }).map(([name]) => name);
}

/** The props specs an entry point exports (the `@internal` consts beside each construct). */
function specsOf(module: Record<string, unknown>): Array<PropsSpec<unknown>> {
  return Object.values(module).filter((v): v is PropsSpec<unknown> => v !== null && typeof v === 'object' && typeof (v as PropsSpec<unknown>).parse === 'function' && typeof (v as PropsSpec<unknown>).entries === 'object');
}

describe('every exported construct reads its props through its spec, or takes none (issue 35)', () => {
  const modules = entryPoints();
  const constructs = new Map<string, string>();
  for (const { entry, module } of modules) for (const name of ownConstructs(module)) if (!constructs.has(name)) constructs.set(name, entry);
  const specNames = new Set(modules.flatMap(({ module }) => specsOf(module).map((s) => s.name)));
  const subjects = new Set(SUBJECTS.map((s) => s.name));

  test('the entry points export the constructs the list was written against (the enumeration works)', () => {
    expect(constructs.get('WindowsWorkload')).toBe('./workloads');
    expect(constructs.get('HybridCluster')).toBe('.');
    expect(constructs.has('ContainerCluster')).toBe(false);
    expect(constructs.size).toBeGreaterThan(40);
  });

  test.each([...constructs].map(([name, entry]) => [name, entry] as const))('%s (%s)', (name) => {
    // Converted: a subject of the generated tests (which build it with its spec's props), and not listed as taking no props.
    const converted = subjects.has(name);
    const listed = Number(WITHOUT_PROPS[name] !== undefined);
    // A spec named like the construct and no subject: its props are declared but never tested.
    const specWithoutSubject = !converted && specNames.has(name);
    expect({ name, listed, specWithoutSubject }).toEqual({ name, listed: converted ? 0 : 1, specWithoutSubject: false });
  });

  test('the list names only exported constructs', () => {
    expect(Object.keys(WITHOUT_PROPS).filter((name) => !constructs.has(name))).toEqual([]);
  });
});

describe.each(SUBJECTS.filter((s) => !s.partOfProps).map((s) => [s.name, s] as const))('%s', (_, subject) => {
  test('reads each declared prop once, through its spec, and nothing else', () => {
    const reads: string[] = [];
    const props = new Proxy({ ...subject.base }, {
      get: (target, key, receiver) => {
        reads.push(String(key));
        return Reflect.get(target, key, receiver);
      },
    });
    subject.build(subject.fixture(), 'r', props);
    const declared = [...Object.keys(subject.spec.entries), ...subject.alsoReads ?? []].sort();
    expect([...reads].sort()).toEqual(declared);
  });
});

test('the recorder sees a read after the parse, as a construct that read a prop again would make', () => {
  const reads: string[] = [];
  const props = new Proxy({ image: 'x' }, { get: (t, k, r) => (reads.push(String(k)), Reflect.get(t, k, r)) });
  const subject = SUBJECTS.find((s) => s.name === 'WindowsExporter')!;
  subject.spec.parse('e', props);
  void (props as { image?: string }).image;
  expect(reads.filter((k) => k === 'image')).toHaveLength(2);
});
