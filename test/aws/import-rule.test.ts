import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
// Built from parts so that this file's own test data does not trip the scan below.
const PROVIDER = ['@cdktn', 'provider-aws'].join('/');
const AZURERM = ['@cdktn', 'provider-azurerm'].join('/');

/**
 * A bare import of a provider package (or its index), under either flavour's name, loads all of
 * its resource modules (2,400 for AWS; azurerm's package is 267 MB): seconds and hundreds of MB
 * per synth. Single resources (`.../lib/vpc`) are fine.
 */
const BARE_PROVIDER_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])@cdkt[nf]\/provider-(?:aws|azurerm)(?:\/lib)?(?:\/index(?:\.js)?)?\1/m;

/** A Terraform CDK package of either flavour: the core or a prebuilt provider. */
const TERRAFORM_PACKAGE = /^(cdkt[nf]|@cdkt[nf]\/)/;

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Module specifiers a TypeScript file imports, re-exports or requires. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm)) found.push(m[2]);
  return found;
}

describe('the provider import matcher', () => {
  test.each([
    `import { Vpc } from '${PROVIDER}';`,
    `import * as aws from "${PROVIDER}";`,
    `export * from '${PROVIDER}';`,
    `const aws = require("${PROVIDER}");`,
    `const aws = require( '${PROVIDER}/lib' );`,
    `import '${PROVIDER}/lib/index';`,
    `const aws = await import('${PROVIDER}');`,
    `import * as aws from '${PROVIDER.replace('cdktn', 'cdktf')}';`,
    `import { KubernetesCluster } from '${AZURERM}';`,
    `export * from "${AZURERM}/lib";`,
  ])('catches %s', (line) => {
    expect(line).toMatch(BARE_PROVIDER_IMPORT);
  });

  test.each([
    `import { Vpc } from '${PROVIDER}/lib/vpc';`,
    `const { Subnet } = require("${PROVIDER}/lib/subnet");`,
    `import { AwsProvider } from '${PROVIDER}/lib/provider';`,
    `export { KubernetesCluster } from '${AZURERM}/lib/kubernetes-cluster';`,
    `// see ${PROVIDER} for the full list`,
  ])('lets %s through', (line) => {
    expect(line).not.toMatch(BARE_PROVIDER_IMPORT);
  });
});

describe('import rules over the source tree', () => {
  const files = ['src', 'examples', 'bench', 'test'].flatMap((d) => tsFiles(join(ROOT, d)));

  test('finds the files it checks', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files).toContain(join(ROOT, 'src', 'aws', 'hybrid-cluster-infra.ts'));
    expect(files).toContain(join(ROOT, 'src', 'eks', 'eks-cluster.ts'));
  });

  test('every Terraform CDK import in src/ goes through a facade in src/terraform/providers/, so the flavour is decided in one place', () => {
    const src = files.filter((f) => f.startsWith(join(ROOT, 'src')));
    const importers = src.filter((f) => specifiers(readFileSync(f, 'utf8')).some((s) => TERRAFORM_PACKAGE.test(s))).map((f) => relative(ROOT, f));
    expect(importers).toEqual(['src/terraform/cdktn.ts', 'src/terraform/providers/aws.ts', 'src/terraform/providers/azurerm.ts']);
    // ...and each facade's provider imports are single resources of its own CDK Terrain package.
    for (const [facade, pkg, least] of [['aws.ts', PROVIDER, 20], ['azurerm.ts', AZURERM, 5]] as const) {
      const imported = specifiers(readFileSync(join(ROOT, 'src', 'terraform', 'providers', facade), 'utf8')).filter((s) => s.startsWith('@cdktn/provider-'));
      expect(imported.length).toBeGreaterThan(least);
      expect(imported.filter((s) => !new RegExp(`^${pkg}/lib/[a-z0-9-]+$`).test(s))).toEqual([]);
    }
  });

  test('the AKS entry point reaches no AWS module or provider, and the EKS and AWS ones no azurerm: each cloud installs its own provider only', () => {
    const aks = reachedPackages(join(ROOT, 'src', 'aks', 'index.ts'));
    expect(aks.packages.some((p) => p.includes(`-> ${AZURERM}/lib/kubernetes-cluster`))).toBe(true);
    expect([...aks.files.filter((f) => /^src\/(aws|eks)\//.test(f)), ...aks.packages.filter((p) => p.includes('provider-aws'))]).toEqual([]);
    for (const entry of ['aws', 'eks']) expect(reachedPackages(join(ROOT, 'src', entry, 'index.ts')).packages.filter((p) => p.includes('provider-azurerm'))).toEqual([]);
  });

  test(`no file imports ${PROVIDER} or ${AZURERM} whole`, () => {
    const offenders = files.filter((f) => BARE_PROVIDER_IMPORT.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });

  /** Every package the entry point reaches through relative imports, with the file that imports it. */
  function reachedPackages(entry: string): { files: string[]; packages: string[] } {
    const seen = new Set<string>();
    const packages: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          visit(existsSync(`${target}.ts`) ? `${target}.ts` : join(target, 'index.ts'));
        } else {
          packages.push(`${relative(ROOT, file)} -> ${spec}`);
        }
      }
    };
    visit(entry);
    return { files: [...seen].map((f) => relative(ROOT, f)), packages };
  }

  test('the package root, which cdk8s-only users load, reaches no Terraform CDK module (AWS lives in cdk-hybrid-windows/aws)', () => {
    const { files: reached, packages } = reachedPackages(join(ROOT, 'src', 'index.ts'));
    expect(reached).toEqual(expect.arrayContaining(['src/infra/cluster-infra.ts', 'src/cluster/hybrid-cluster.ts']));
    expect(reached.filter((f) => f === 'src/terraform/cdktn.ts' || f.startsWith('src/terraform/providers/'))).toEqual([]);
    expect(packages.filter((p) => TERRAFORM_PACKAGE.test(p.split(' -> ')[1]))).toEqual([]);
  });

  test('the package root loads no cdk8s-plus: cluster-only users need none (workload constructs live in cdk-hybrid-windows/workloads)', () => {
    const { files: reached, packages } = reachedPackages(join(ROOT, 'src', 'index.ts'));
    expect(reached).toEqual(expect.arrayContaining(['src/rules/pods/validate-pod-spec.ts', 'src/workloads/hybrid-chart.ts']));
    expect(packages.filter((p) => p.includes('-> cdk8s-plus'))).toEqual([]);
    // The workload entry loads it through one module, src/workloads/cdk8s-plus.ts.
    const plus = reachedPackages(join(ROOT, 'src', 'workloads', 'index.ts')).packages.filter((p) => p.includes('-> cdk8s-plus'));
    expect(plus.length).toBeGreaterThan(0);
    expect(plus.filter((p) => !p.startsWith('src/workloads/cdk8s-plus.ts ->') && !/^src\/workloads\/[\w-]+\.ts -> cdk8s-plus-33$/.test(p))).toEqual([]);
  });
});
