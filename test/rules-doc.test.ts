import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as lib from '../src';
import { registry, rule } from '../src/rules/engine/rule';

// The generator is a plain script, so that `node scripts/rules-doc.js` needs no test tooling.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const doc = require('../scripts/rules-doc.js') as {
  render(families: unknown): string;
  families(l: unknown): Array<{ registry: string; set: string; rules: readonly lib.ManifestRule[] | readonly lib.TerraformRule[] }>;
};

const families = doc.families(lib);
const all = families.flatMap((f) => [...f.rules]);

describe('the rule registries', () => {
  test('refuse two rules of one name', () => {
    const a = rule<lib.ManifestGraph>({ name: 'same', scope: 'graph', description: 'a', source: 's', check: () => [] });
    const b = rule<lib.ManifestGraph>({ name: 'same', scope: 'object', description: 'b', source: 's', check: () => [] });
    expect(() => registry([a], [b])).toThrow('two rules are named "same"');
    expect(registry([a])).toEqual([a]);
  });

  test('every rule has a name of its own across every registry, a scope, a one-line description and its upstream source', () => {
    const names = all.map((r) => r.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    for (const r of all) {
      expect([r.name, r.scope]).toEqual([r.name, expect.stringMatching(/^(object|graph)$/)]);
      expect([r.name, r.description]).toEqual([r.name, expect.stringMatching(/^[^\n]{20,}$/)]);
      expect([r.name, r.source]).toEqual([r.name, expect.stringMatching(/^[^\n]{10,}$/)]);
    }
    // The hand-off to the AWS stack is a registered rule, judged at construction too.
    expect(lib.CLUSTER_RULES.find((r) => r.name === 'hand-off')?.scope).toBe('object');
  });

  test('the engine names each violation after the rule that reported it', () => {
    const r = rule<lib.ManifestGraph>({
      name: 'named-by-engine', scope: 'graph', description: 'd', source: 's',
      check: (graph) => graph.sources.map((s) => ({ kind: String(s.manifest.kind), name: 'x', what: 'w', fix: 'f', message: 'w. Fix: f.' })),
    });
    expect(lib.validateManifests([{ kind: 'ConfigMap', metadata: { name: 'x' } }], { rules: [r] })).toEqual([expect.objectContaining({ rule: 'named-by-engine', kind: 'ConfigMap' })]);
  });

  test('docs/rules.md lists every registered rule, generated from the registries (`node scripts/rules-doc.js`)', () => {
    const committed = readFileSync(join(__dirname, '..', 'docs', 'rules.md'), 'utf8');
    expect(committed).toBe(doc.render(families));
    for (const r of all) expect(committed).toContain(`| \`${r.name}\` |`);
  });
});
