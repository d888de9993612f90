import { parseYamlStream } from '../../src/cli/kubectl-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldSegments, locateByParser, locateField } from '../../src/cli/locate';

/** The value of `v` in a one-key document, as the CLI reads it. */
function scalar(text: string): unknown {
  const { documents, errors } = parseYamlStream(`v: ${text}\n`);
  expect(errors).toEqual([]);
  return (documents[0].value as { v: unknown }).v;
}

describe('YAML as kubectl reads it (sigs.k8s.io/yaml: kubernetes-sigs/yaml goyaml.v2/resolve.go)', () => {
  test.each([
    // resolveMapList: YAML 1.1 booleans in three spellings, and nulls.
    ['yes', true], ['Yes', true], ['YES', true], ['y', true], ['Y', true], ['on', true], ['On', true], ['ON', true], ['true', true],
    ['no', false], ['N', false], ['off', false], ['OFF', false], ['False', false],
    ['~', null], ['null', null], ['', null], ['yEs', 'yEs'], ['"yes"', 'yes'],
    // strconv.ParseInt(plain, 0, 64) after underscores are dropped: a leading 0 is octal.
    ['0644', 420], ['010', 8], ['0x1F', 31], ['0o17', 15], ['0b101', 5], ['-0b11', -3], ['1_000', 1000], ['-12', -12], ['+7', 7], ['0', 0],
    // 08 is no octal: yamlStyleFloat takes it as a float, 8.
    ['08', 8], ['1.5', 1.5], ['.5', 0.5], ['1e3', 1000], ['-.inf', -Infinity],
    // No base-60 numbers; a timestamp stays the text written.
    ['190:20:30', '190:20:30'], ['2024-01-02', '2024-01-02'], ['0x', '0x'], ['1.2.3', '1.2.3'],
  ])('%s', (text, value) => {
    expect(scalar(text)).toEqual(value);
  });

  // go-yaml v2.4 (go.yaml.in/yaml/v2, which sigs.k8s.io/yaml v1.6 wraps) resolve.go `resolvableTag`:
  // a scalar of any other tag is its text; decode.go `scalar`: !!binary is decoded, a timestamp kept
  // as written; `mapping` and `sequence` ignore their tag.
  test.each([
    ['!foo bar', 'bar'], ['!foo 123', '123'], ['!foo', ''], ['!!timestamp 2001-12-14', '2001-12-14'], ['!<tag:example.com,2000:x> q', 'q'],
    ['!!binary aGVsbG8=', 'hello'], ['!!str 12', '12'], ['!!int "12"', 12], ['!foo {a: yes}', { a: true }], ['!foo [on, 1]', [true, 1]],
  ])('tag: %s', (text, value) => {
    expect(scalar(text)).toEqual(value);
  });

  test('a !!binary scalar that is not base64 is an error, as for kubectl', () => {
    expect(parseYamlStream('a: !!binary aGVsbG8\n').errors).toEqual([expect.objectContaining({ line: 1 })]);
  });

  test('keys resolve too (on: and y: are the key "true"), later keys replace earlier ones, merge keys merge', () => {
    const { documents } = parseYamlStream('on: 1\na: 1\na: 2\nbase: &b {x: 1}\nm: {<<: *b, y: 2, z: 3}\n');
    expect(documents[0].value).toEqual({ true: 1, a: 2, base: { x: 1 }, m: { x: 1, true: 2, z: 3 } });
  });

  test('documents split on --- lines keep their first line, column and Helm template; errors their stream line', () => {
    const { documents, errors } = parseYamlStream('# c\n---\n# Source: web/templates/a.yaml\nkind: A\n--- # b\n{kind: B}\n---\n---\n  kind: C\n  x: [\n');
    expect(documents.map((d) => [d.value, d.line, d.column, d.template])).toEqual([
      [null, 1, 1, undefined], [{ kind: 'A' }, 4, 1, 'web/templates/a.yaml'], [{ kind: 'B' }, 6, 1, undefined], [null, 7, 1, undefined],
    ]);
    expect(errors).toEqual([{ line: 11, column: 1, message: expect.stringContaining('unexpected end of the stream') }]);
  });

  test('content after --- on its line is refused as kubectl refuses it (apimachinery pkg/util/yaml/decoder.go), a comment is not', () => {
    for (const text of ['kind: A\n--- {kind: B}\n', 'kind: A\n---kind: B\n', 'kind: A\n--- |\n  x\n']) {
      const { documents, errors } = parseYamlStream(text);
      expect(documents).toEqual([]);
      expect(errors).toEqual([{ line: 2, column: 1, message: expect.stringMatching(/^invalid Yaml document separator: .+kubectl refuses content after ---/) }]);
    }
    expect(parseYamlStream('kind: A\n---   # next\nkind: B\n').documents.map((d) => [d.value, d.line])).toEqual([[{ kind: 'A' }, 1], [{ kind: 'B' }, 3]]);
  });

  test('a directive belongs to the document after it', () => {
    expect(parseYamlStream('%YAML 1.1\n---\nkind: A\n').documents.map((d) => [d.value, d.line])).toEqual([[{ kind: 'A' }, 3]]);
  });

  test('a field path with dotted keys is split by the object, and located at its key', () => {
    const text = '---\nspec:\n  nodeSelector:\n    kubernetes.io/os: windows\n  ports:\n    - {port: 1}\n    - port: 2\n';
    const [document] = parseYamlStream(text).documents;
    const segments = fieldSegments(document.value, 'spec.nodeSelector.kubernetes.io/os');
    expect(segments).toEqual(['spec', 'nodeSelector', 'kubernetes.io/os']);
    expect(locateField(document, segments)).toEqual({ line: 4, column: 5 });
    expect(locateField(document, fieldSegments(document.value, 'spec.ports[1].port'))).toEqual({ line: 7, column: 7 });
    // An absent field: where the deepest part of its path is.
    expect(locateField(document, fieldSegments(document.value, 'spec.tolerations'))).toEqual({ line: 2, column: 1 });
  });

  test('js-yaml\'s events locate every field where yaml\'s parser does, in block and flow style', () => {
    let fields = 0;
    for (const file of ['fixtures/helm-web.yaml', 'fixtures/valid.yaml', 'inputs/list.yaml', 'inputs/kubectl-scalars.yaml', 'eks-affinity.yaml', 'inputs/eks.tf.json']) {
      for (const document of parseYamlStream(readFileSync(join(__dirname, file), 'utf8')).documents) {
        const paths: Array<Array<string | number>> = [];
        const walk = (v: unknown, path: Array<string | number>) => {
          if (path.length > 0) paths.push(path);
          if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
          else if (v !== null && typeof v === 'object') Object.entries(v).forEach(([k, x]) => walk(x, [...path, k]));
        };
        walk(document.value, []);
        for (const path of paths) expect([path.join('.'), locateField(document, path)]).toEqual([path.join('.'), locateByParser(document, path)]);
        fields += paths.length;
      }
    }
    expect(fields).toBeGreaterThan(150);
  });
});
