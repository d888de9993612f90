import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

/** Every ```ts block that is a whole program (it imports what it uses), with where it stands. */
function examples(): Array<{ where: string; code: string }> {
  return DOCS.flatMap((doc) => [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)]
    .map((m, i) => ({ where: `${doc} block ${i + 1}`, code: m[1] }))
    .filter((e) => /^import /m.test(e.code)));
}

/**
 * The compiler options of a project made by `cdk8s init typescript-app` (cdk8s-cli's own template,
 * read from the installed cdk8s-cli), with the package's entry points resolved to the declarations
 * `tsc -b` emitted, as an installed package resolves them.
 */
function cdk8sInitOptions(): ts.CompilerOptions {
  const template = join(ROOT, 'node_modules', 'cdk8s-cli', 'templates', 'typescript-app', 'tsconfig.json');
  const { config } = ts.parseConfigFileTextToJson(template, readFileSync(template, 'utf8'));
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
  const entry = (path: string) => [join(ROOT, 'lib', 'src', path)];
  return {
    ...options,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    baseUrl: ROOT,
    paths: {
      'cdk-hybrid-windows': entry('index.d.ts'),
      'cdk-hybrid-windows/aws': entry('aws/index.d.ts'),
      'cdk-hybrid-windows/workloads': entry('workloads/index.d.ts'),
      'cdk-hybrid-windows/eks': entry('eks/index.d.ts'),
    },
  };
}

describe('README and docs examples compile in a project made by cdk8s init', () => {
  test('each whole-program ```ts block type-checks, imports included', () => {
    const found = examples();
    expect(found.length).toBeGreaterThanOrEqual(7);
    // Inside the checkout (lib/ is ignored), so that the examples' imports resolve to node_modules.
    mkdirSync(join(ROOT, 'lib'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'lib', 'doc-examples-'));
    const files = found.map((e, i) => {
      const file = join(dir, `example${i}.ts`);
      // Each block is its own module, as a file of its own in a user's project.
      writeFileSync(file, `${e.code}\nexport {};\n`);
      return { file, where: e.where };
    });
    const program = ts.createProgram(files.map((f) => f.file), cdk8sInitOptions());
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = files.find((f) => f.file === d.file?.fileName)?.where ?? d.file?.fileName ?? 'options';
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `${where}, line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
