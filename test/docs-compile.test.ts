import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as cdk8s from 'cdk8s';
import * as cdktn from 'cdktn';
import * as ts from 'typescript';
import { exampleProblems } from './support/example-checks';
import { DEPLOYED, writeJson } from './support/infra-outputs';
import { synthObjects } from './support/synth';

const ROOT = join(__dirname, '..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

interface Example { readonly where: string; readonly file: string; readonly code: string }

/**
 * Every ```ts block that is a whole program (it imports what it uses), named by document and
 * block number (counting every ```ts block of the document), as a virtual file of its own.
 * Fragments (no import) are prose illustrations and are not compiled.
 */
function examples(): Example[] {
  return DOCS.flatMap((doc) => [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/^```(?:ts|typescript)[^\S\n]*\n([\s\S]*?)^```/gm)]
    .map((m, i) => ({ where: `${doc} block ${i + 1}`, code: m[1] }))
    .filter((e) => /^import /m.test(e.code))
    // Virtual files beside package.json, so their imports resolve to this checkout's node_modules.
    .map((e, i) => ({ ...e, file: join(ROOT, `__doc_example_${doc.replace(/\W/g, '_')}_${i}.ts`) })));
}

/**
 * `cdk-hybrid-windows` and each subpath that package.json `exports` declares, mapped to its
 * TypeScript source (`./lib/src/aws/index.d.ts` → `src/aws/index.ts`): the examples see the
 * current code without a build, and an entry point added or moved in package.json is followed.
 */
function entryPoints(): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { types?: string }> };
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'string' ? target : target.types;
    if (types === undefined || !types.endsWith('.d.ts')) continue; // e.g. ./package.json
    const source = types.replace(/^\.\/lib\//, '').replace(/\.d\.ts$/, '.ts');
    if (!existsSync(join(ROOT, source))) throw new Error(`package.json exports "${subpath}" → ${types}, but its source ${source} does not exist`);
    paths[subpath === '.' ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, '')}`] = [source];
  }
  return paths;
}

/**
 * The compiler options of a project made by `cdk8s init typescript-app` (cdk8s-cli's own template,
 * read from the installed cdk8s-cli: strict, noUnusedLocals, noUnusedParameters), with the
 * package's entry points resolved through `paths`.
 */
function cdk8sInitOptions(): ts.CompilerOptions {
  const template = join(ROOT, 'node_modules', 'cdk8s-cli', 'templates', 'typescript-app', 'tsconfig.json');
  const { config, error } = ts.parseConfigFileTextToJson(template, readFileSync(template, 'utf8'));
  if (error) throw new Error(`cannot read ${template}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
  return {
    ...options,
    noEmit: true,
    // Our sources are checked by `tsc -b` under our own options; here only the examples are judged.
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    baseUrl: ROOT,
    paths: entryPoints(),
  };
}

describe('README and docs examples compile in a project made by cdk8s init', () => {
  test('each whole-program ```ts block type-checks, imports included', () => {
    const found = examples();
    expect(found.length).toBeGreaterThanOrEqual(7);
    const options = cdk8sInitOptions();
    const host = ts.createCompilerHost(options);
    // Each block is its own module, as a file of its own in a user's project.
    const virtual = new Map(found.map((e) => [e.file, `${e.code}\nexport {};\n`]));
    const readFile = host.readFile.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = ((exists) => (f: string) => virtual.has(f) || exists(f))(host.fileExists.bind(host));
    host.readFile = (f) => virtual.get(f) ?? readFile(f);
    host.getSourceFile = (f, lang, ...rest) => virtual.has(f) ? ts.createSourceFile(f, virtual.get(f)!, lang, true) : getSourceFile(f, lang, ...rest);
    const program = ts.createProgram([...virtual.keys()], options, host);

    const where = new Map(found.map((e) => [e.file, e.where]));
    const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
    for (const e of found) {
      const sf = program.getSourceFile(e.file)!;
      diagnostics.push(...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf));
    }
    const problems = diagnostics.map((d) => {
      const file = d.file ? where.get(d.file.fileName) ?? relative(ROOT, d.file.fileName) : 'compiler options';
      const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const at = pos ? `, line ${pos.line + 1} of the block` : '';
      return `${file}${at}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 60_000);
});

/**
 * Runs a whole-program block as a user's project would, with the package's entry points resolved to
 * this checkout's sources, and returns the apps it created and those it synthesized itself (its
 * `App`s are recorded through subclasses handed to its `import { App } from 'cdk8s' | 'cdktn'`): a
 * block that builds an app and never calls `synth()` writes nothing when pasted into a project.
 */
function run(example: Example): { k8s: cdk8s.App[]; tf: cdktn.App[]; synthesized: Set<object> } {
  const k8s: cdk8s.App[] = [];
  const tf: cdktn.App[] = [];
  const synthesized = new Set<object>();
  const modules: Record<string, unknown> = {
    cdk8s: {
      ...cdk8s,
      App: class extends cdk8s.App {
        constructor(props?: cdk8s.AppProps) { super(props); k8s.push(this); }
        override synth(): void { synthesized.add(this); super.synth(); }
      },
    },
    cdktn: {
      ...cdktn,
      App: class extends cdktn.App {
        constructor(props?: cdktn.AppConfig) { super(props); tf.push(this); }
        override synth(): void { synthesized.add(this); super.synth(); }
      },
    },
  };
  const sources = entryPoints();
  // The block's own `require`: a module id is resolved at run time, as Node would for the user.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (id: string): unknown => modules[id] ?? (sources[id] ? require(join(ROOT, sources[id][0])) : require(id));
  const js = ts.transpileModule(example.code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const module = { exports: {} };
  new Function('require', 'module', 'exports', js)(load, module, module.exports);
  return { k8s, tf, synthesized };
}

/**
 * Each block, run: its own `app.synth()` (construct validations included) must pass, and every
 * cdk8s app it builds must pass the checks the examples pass (`exampleProblems`: the rules over the
 * YAML, the CRDs, writable paths under a read-only root). Terraform apps are synthesized with their
 * validations, as `cdktn synth` does and the Terraform examples' tests do.
 */
describe('README and docs examples synthesize and pass the examples\' checks', () => {
  const saved = { ...process.env };
  beforeAll(() => {
    const out = mkdtempSync(join(tmpdir(), 'doc-examples-'));
    process.env.CDK8S_OUTDIR = join(out, 'dist');
    process.env.CDKTF_OUTDIR = join(out, 'cdktf.out');
    // docs/aws.md reads the AWS stack's outputs file, as the user's deploy writes it.
    process.env.HYBRID_INFRA_OUTPUTS = writeJson(JSON.stringify(DEPLOYED));
  });
  afterAll(() => { process.env = saved; });

  test.each(examples().map((e) => [e.where, e] as const))('%s', (_, example) => {
    const { k8s, tf, synthesized } = run(example);
    expect(k8s.length + tf.length).toBeGreaterThan(0);
    // Pasted as main.ts, the block writes what it builds: it calls synth() on every app it makes.
    expect([...k8s, ...tf].filter((app) => !synthesized.has(app)).map((app) => (app instanceof cdk8s.App ? 'a cdk8s App' : 'a cdktn App'))).toEqual([]);
    for (const app of k8s) expect(exampleProblems(synthObjects(app))).toEqual([]);
    for (const app of tf) app.synth();
  }, 60_000);
});

describe('README: the paths as a picture, and the Terraform CLI of a cdktn init project (issue 36.6)', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  test('one Mermaid flowchart, each edge between nodes it declares', () => {
    const blocks = DOCS.flatMap((doc) => [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/^```mermaid\n([\s\S]*?)^```/gm)].map((m) => m[1]));
    expect(blocks).toHaveLength(1);
    const [chart] = blocks;
    expect(chart).toMatch(/^flowchart (LR|TD|TB)\n/);
    // A node is declared with its label (`id["…"]`, `id{{"…"}}`), at the start of a line or where an edge leads.
    const declared = new Set([...chart.matchAll(/(?:^\s*(?:subgraph\s+)?|-->\s*)(\w+)\s*(?:\[|\{\{|\(|\{)"/gm)].map((m) => m[1]));
    const edges = [...chart.matchAll(/^\s*(\w+)\s*--.*?-->\s*(\w+)/gm)].map((m) => [m[1], m[2]]);
    expect(edges.length).toBeGreaterThan(5);
    expect(edges.flat().filter((n) => !declared.has(n))).toEqual([]);
    // Labels in quotes, no HTML but line breaks: Mermaid renders them on GitHub and npm as written.
    expect(chart.replace(/<br\/>/g, '')).not.toMatch(/<[a-z]/i);
  });

  test('the install lines say how to run synth where cdktn init installed no cdktn command', () => {
    const install = /## Using it in your project\n\n```sh\n([\s\S]*?)```/.exec(readme)![1];
    expect(install).toMatch(/^npx cdktn-cli synth$/m);
    expect(install).toMatch(/^npx cdktn-cli deploy /m);
  });
});
