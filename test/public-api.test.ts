import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The public surface is what a user's compiler sees: the declarations `tsc -b` emits for each entry
 * point of package.json `exports`, with `@internal` names stripped (`stripInternal`). Every name
 * there, and every member a user can reach on it, carries TSDoc; the emitted declarations
 * type-check on their own, so no public signature names a stripped helper; and the API reference
 * built from the same TSDoc names every export.
 */
const ROOT = join(__dirname, '..');
const LIB = join(ROOT, 'lib', 'src');

/** `./aws` → `lib/src/aws/index.d.ts`, for every subpath of package.json `exports` that has types. */
function entryPoints(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  return Object.fromEntries(Object.entries(pkg.exports)
    .map(([subpath, target]) => [subpath, typeof target === 'string' ? undefined : target.types] as const)
    .filter((e): e is readonly [string, string] => e[1]?.endsWith('.d.ts') === true)
    .map(([subpath, types]) => [subpath, join(ROOT, types)]));
}

const ours = (file: string): boolean => file.startsWith(LIB + sep);
const where = (node: ts.Node): string => {
  const sf = node.getSourceFile();
  return `${relative(ROOT, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
};

/** Whether a symbol has doc text: its own, or that of the statement that exports it (`export * as x from`). */
function documented(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  if (ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== '') return true;
  return (symbol.declarations ?? []).some((d) => {
    const holder = ts.isNamespaceExport(d) ? d.parent : ts.isExportSpecifier(d) ? d.parent.parent : d;
    return ts.getJSDocCommentsAndTags(holder).some((c) => ts.isJSDoc(c) && ts.getTextOfJSDocComment(c.comment)?.trim());
  });
}

function isPrivate(d: ts.Declaration): boolean {
  const flags = ts.getCombinedModifierFlags(d);
  return (flags & ts.ModifierFlags.Private) !== 0 || (ts.isPropertyDeclaration(d) && ts.isPrivateIdentifier(d.name));
}

/** The members a user reaches on an exported class, interface, object type or enum that this package declares. */
function publicMembers(symbol: ts.Symbol, checker: ts.TypeChecker): ts.Symbol[] {
  const members: ts.Symbol[] = [];
  if (symbol.flags & ts.SymbolFlags.Enum) members.push(...checker.getExportsOfModule(symbol));
  if (symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
    members.push(...checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)));
  }
  if (symbol.flags & ts.SymbolFlags.Class) {
    // Static members live on the constructor's type.
    members.push(...checker.getPropertiesOfType(checker.getTypeOfSymbol(symbol)).filter((m) => m.name !== 'prototype'));
  }
  return members.filter((m) => {
    const decls = m.declarations ?? [];
    return decls.length > 0 && decls.every((d) => ours(d.getSourceFile().fileName)) && !decls.some(isPrivate);
  });
}

/** `name` or `Class.member` of every declaration in src/ (generated bindings aside) tagged `@internal`. */
function internalNames(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : internalNames(path);
    if (!e.name.endsWith('.ts')) return [];
    const sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
    const internal = (n: ts.Node): boolean => ts.getJSDocTags(n).some((t) => t.tagName.text === 'internal');
    const nameOf = (n: ts.Node): string | undefined => {
      if (ts.isVariableStatement(n)) return n.declarationList.declarations.map((d) => d.name.getText(sf)).join(',');
      const name = (n as { name?: ts.Node }).name;
      return name ? name.getText(sf) : undefined;
    };
    return sf.statements.flatMap((st) => {
      const top = nameOf(st);
      if (top === undefined) return [];
      const members = ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st)
        ? (st.members as ts.NodeArray<ts.Node>).filter(internal).map((m) => `${top}.${nameOf(m)}`)
        : [];
      return internal(st) ? [top, ...members] : members;
    });
  });
}

interface Surface {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  /** Per entry point, its exported names with the symbol each one stands for and the export itself (`export * as x` holds the doc). */
  readonly exports: Record<string, Array<{ name: string; symbol: ts.Symbol; alias: ts.Symbol }>>;
}

function surface(): Surface {
  const entries = entryPoints();
  const program = ts.createProgram(Object.values(entries), {
    noEmit: true,
    strict: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    // The point is to check our .d.ts files; only they are asked for diagnostics below.
    skipLibCheck: false,
  });
  const checker = program.getTypeChecker();
  const exports = Object.fromEntries(Object.entries(entries).map(([subpath, file]) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    return [subpath, checker.getExportsOfModule(module).map((alias) => ({
      name: alias.name,
      symbol: alias.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(alias) : alias,
      alias,
    }))];
  }));
  return { program, checker, exports };
}

// The declarations exist once `tsc -b` ran (`npm test` runs it first).
(existsSync(join(LIB, 'index.d.ts')) ? describe : describe.skip)('the public API (issue 14.6)', () => {
  const { program, checker, exports } = existsSync(join(LIB, 'index.d.ts')) ? surface() : ({} as Surface);

  test('every entry point exports something, and its declarations compile on their own (no stripped name is referenced)', () => {
    for (const [subpath, names] of Object.entries(exports)) expect([subpath, names.length > 0]).toEqual([subpath, true]);
    const problems = program.getSourceFiles().filter((sf) => ours(sf.fileName))
      .flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)])
      .map((d) => `${d.file ? `${relative(ROOT, d.file.fileName)}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });

  test('every `export *` of an entry point reaches its declarations (stripInternal drops a statement whose comment says @internal)', () => {
    for (const types of Object.values(entryPoints())) {
      const source = join(ROOT, 'src', relative(LIB, types).replace(/\.d\.ts$/, '.ts'));
      const stars = (text: string) => text.split('\n').filter((line) => line.startsWith('export * from'));
      expect([relative(ROOT, types), stars(readFileSync(types, 'utf8'))]).toEqual([relative(ROOT, types), stars(readFileSync(source, 'utf8'))]);
    }
  });

  test('no `@internal` declaration of src/ is in the published declarations (stripInternal is on)', () => {
    const internal = internalNames();
    expect(internal).toEqual(expect.arrayContaining(['podTemplateOf', 'vocabularySpec']));
    const published = new Set(Object.values(exports).flat().flatMap(({ name, symbol }) => [
      name,
      ...publicMembers(symbol, checker).map((m) => `${name}.${m.name}`),
    ]));
    expect(internal.filter((name) => published.has(name))).toEqual([]);
  });

  test('every exported name has TSDoc', () => {
    const missing = Object.entries(exports).flatMap(([subpath, names]) => names
      .filter(({ symbol, alias }) => !documented(symbol, checker) && !documented(alias, checker))
      .map(({ name, symbol }) => `${subpath} ${name} (${symbol.declarations?.[0] ? where(symbol.declarations[0]) : '?'})`));
    expect(missing).toEqual([]);
  });

  test('every public member of an exported class, interface, type or enum has TSDoc', () => {
    const seen = new Set<ts.Declaration>();
    const missing = Object.values(exports).flat().flatMap(({ name, symbol }) => publicMembers(symbol, checker)
      .filter((m) => !seen.has(m.declarations![0]) && (seen.add(m.declarations![0]), true))
      .filter((m) => !documented(m, checker))
      .map((m) => `${name}.${m.name} (${where(m.declarations![0])})`));
    expect(missing.sort()).toEqual([]);
  });

  // aws-cdk's design guidelines: every optional prop documents its default (`@default`).
  test('every optional member of an exported *Props or *Options interface says its @default', () => {
    const seen = new Set<ts.Declaration>();
    const missing = Object.values(exports).flat()
      .filter(({ name, symbol }) => /(Props|Options)$/.test(name) && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))
      .flatMap(({ name, symbol }) => publicMembers(symbol, checker)
        .filter((m) => m.flags & ts.SymbolFlags.Optional)
        .filter((m) => !seen.has(m.declarations![0]) && (seen.add(m.declarations![0]), true))
        .filter((m) => !m.getJsDocTags(checker).some((t) => t.name === 'default'))
        .map((m) => `${name}.${m.name} (${where(m.declarations![0])})`));
    expect(missing.sort()).toEqual([]);
  });

  // The generated bindings (`capi`, `capa`, ...) mirror the pinned CRDs field for field; the reference
  // names them in the root module's doc instead of listing thousands of generated types.
  const isGeneratedModule = (symbol: ts.Symbol): boolean => (symbol.declarations ?? [])
    .some((d) => ts.isSourceFile(d) && d.fileName.startsWith(join(LIB, 'generated') + sep));

  // The reference is generated, not committed (`npm run docs:api`, run by `prepack`, so the npm
  // package ships docs/api): here it must build with typedoc's validation as errors (no broken
  // `{@link}`, no public signature naming a type the entry points do not export) and give every
  // entry point a page that names each of its exports.
  test('the API reference (typedoc, docs/api) builds without warnings and names every export of every entry point', () => {
    const out = mkdtempSync(join(tmpdir(), 'api-'));
    const typedoc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--out', out, '--logLevel', 'Warn'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect({ status: typedoc.status, output: `${typedoc.stdout}${typedoc.stderr}`.trim() }).toEqual({ status: 0, output: '' });
    const pkgName = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;
    const missing = Object.entries(exports).flatMap(([subpath, names]) => {
      const page = join(out, `${pkgName}${subpath === '.' ? '' : subpath.slice(1)}.md`);
      if (!existsSync(page)) return [`${subpath}: no page ${relative(out, page)}`];
      // `### \`abstract\` WorkerPool`, `### validateManifests()`, `### WINDOWS\_NODE\_TAINT`, a deprecated `### ~~WorkerPlatform~~`
      const headings = new Set([...readFileSync(page, 'utf8').matchAll(/^### (?:`abstract` )?(?:~~)?(.+?)(?:~~)?(?:\(\))?$/gm)].map((m) => m[1].replace(/\\/g, '')));
      return names.filter(({ name, symbol }) => !headings.has(name) && !isGeneratedModule(symbol)).map(({ name }) => `${subpath}: ${name}`);
    });
    expect(missing).toEqual([]);
    // Every in-page link lands: on an anchor the page writes (<a id>), or on a heading as GitHub
    // and npm slug it (lower case, punctuation dropped, spaces to dashes, -1, -2 for repeats).
    const broken = readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.md')).flatMap((f) => {
      const text = readFileSync(join(out, f), 'utf8');
      const ids = new Set([...text.matchAll(/<a id="([^"]+)"/g)].map((m) => m[1]));
      const seen = new Map<string, number>();
      for (const [, heading] of text.matchAll(/^#+ (.*)$/gm)) {
        const slug = heading.replace(/<[^>]+>/g, '').trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
        const n = seen.get(slug) ?? 0;
        ids.add(n === 0 ? slug : `${slug}-${n}`);
        seen.set(slug, n + 1);
      }
      return [...text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]).filter((id) => !ids.has(id)).map((id) => `${f}#${id}`);
    });
    expect([...new Set(broken)]).toEqual([]);
  }, 300_000);
});
