import * as fc from 'fast-check';
import type { parseYamlStream as ParseYamlStream } from '../../src/cli/kubectl-yaml';

/**
 * parseYamlStream reads a stream in one pass when that pass reads what kubectl reads, a pass per
 * `---` chunk (apimachinery's YAMLReader splits first). Checked against the pass per chunk, forced by
 * a js-yaml whose one-pass read (the one with a listener) fails.
 */
function loaded(onePass: boolean): { parse: typeof ParseYamlStream; passes: () => number } {
  let passes = 0;
  let parse: typeof ParseYamlStream | undefined;
  jest.isolateModules(() => {
    jest.doMock('js-yaml', () => {
      const real = jest.requireActual<typeof import('js-yaml')>('js-yaml');
      return {
        ...real,
        loadAll: (...args: Parameters<typeof real.loadAll>) => {
          const options = args[2] as { listener?: unknown } | undefined;
          if (options?.listener) {
            if (!onePass) throw new Error('one pass disabled');
            passes++;
          }
          return real.loadAll(...args);
        },
      };
    });
    parse = (jest.requireActual('../../src/cli/kubectl-yaml') as typeof import('../../src/cli/kubectl-yaml')).parseYamlStream;
  });
  return { parse: parse!, passes: () => passes };
}

const whole = loaded(true);
const perChunk = loaded(false);

const FRAGMENTS = [
  'kind: A\nx: 1\n', '{kind: B, y: [1, 2]}\n', '  kind: C\n  z: yes\n', '# a comment\n', '# Source: chart/templates/a.yaml\n',
  '', '\n', '...\n', '%YAML 1.1\n', 'a: &x {k: 1}\nb: *x\n', 'c: *x\n', 'q: "one\n  two"\n', 'l: |\n  text\n  ---\n',
  'bad: [\n', 'k: v\n  broken: 1\n', 'p: "a\n---\n  b"\n', 'f: [1,\n---\n  2]\n', '- 1\n- 2\n', 'scalar\n', '"quoted\n', 'r: 1\n...\ns: 2\n',
];

describe('parseYamlStream in one pass', () => {
  test('reads every stream as a pass per chunk does: values, lines, columns, templates, texts, errors', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ marker: fc.constantFrom('', '---\n', '--- # c\n', '---\n\n'), body: fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 3 }) }), { maxLength: 6 }),
      (docs) => {
        const text = docs.map((d) => d.marker + d.body.join('')).join('');
        expect(whole.parse(text)).toEqual(perChunk.parse(text));
      },
    ), { numRuns: 10000 });
  });

  test('takes the one pass for a plain stream of documents', () => {
    const before = whole.passes();
    const text = Array.from({ length: 20 }, (_, i) => `---\n# Source: app/templates/d${i}.yaml\nkind: D\nmetadata: {name: d${i}}\n`).join('');
    const { documents, errors } = whole.parse(text);
    expect(whole.passes()).toBe(before + 1);
    expect(errors).toEqual([]);
    expect(documents.map((d) => [d.line, d.template])).toEqual(Array.from({ length: 20 }, (_, i) => [4 * i + 3, `app/templates/d${i}.yaml`]));
    expect(documents).toEqual(perChunk.parse(text).documents);
  });
});
