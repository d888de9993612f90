// The field ledger (docs/fields.yaml): reading it, the CRD fields it must cover, and docs/fields.md.
// `node scripts/field-ledger.js` writes docs/fields.md; `--check` exits 1 when the committed one is
// stale (test/fields-ledger.test.ts runs it). The CRDs are read from CRD_DIR, else ../shared/crds.
const { readFileSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { parse } = require('yaml');

const ROOT = join(__dirname, '..');
const LEDGER = join(ROOT, 'docs', 'fields.yaml');
const DOC = join(ROOT, 'docs', 'fields.md');
const CRD_DIR = resolve(process.env.CRD_DIR ?? join(ROOT, '..', 'shared', 'crds'));

/** The ledger as written: `{ kinds: [{ kind, crd, version, fields: [entry] }] }`. */
function loadLedger() {
  return parse(readFileSync(LEDGER, 'utf8'));
}

/** The spec schema of a ledger kind's CRD version. */
function specSchema(kind) {
  const crd = parse(readFileSync(join(CRD_DIR, kind.crd), 'utf8'));
  const version = crd.spec.versions.find((v) => v.name === kind.version);
  if (!version) throw new Error(`${kind.crd} has no version ${kind.version}`);
  return version.schema.openAPIV3Schema.properties.spec;
}

/**
 * Every field path under `schema`, `[]` marking list items and `{}` map values: `leaves` are the
 * fields one could set (a typed map of scalars and an untyped object count as one), `nodes` every
 * path, leaves included.
 */
function crdFields(schema, path = 'spec', out = { leaves: [], nodes: [] }) {
  out.nodes.push(path);
  if (schema.properties) {
    for (const [name, child] of Object.entries(schema.properties)) crdFields(child, `${path}.${name}`, out);
  } else if (schema.items && (schema.items.properties || schema.items.items)) {
    crdFields(schema.items, `${path}[]`, out);
  } else if (schema.items) {
    out.leaves.push(`${path}[]`);
    out.nodes.push(`${path}[]`);
  } else if (typeof schema.additionalProperties === 'object' && schema.additionalProperties.properties) {
    crdFields(schema.additionalProperties, `${path}{}`, out);
  } else {
    out.leaves.push(path);
  }
  return out;
}

/** The fields an entry names: its `field` or its `fields`. */
function entryFields(entry) {
  return entry.fields ?? [entry.field];
}

/** Whether `entry` covers the leaf `leaf`: names it, or is a subtree above it. */
function covers(entry, leaf) {
  return entryFields(entry).some((f) => f === leaf
    || (entry.subtree !== undefined && (leaf.startsWith(`${f}.`) || leaf.startsWith(`${f}[]`) || leaf.startsWith(`${f}{}`))));
}

/** The schema node at a ledger path, for its CRD default. */
function schemaAt(schema, path) {
  let node = schema;
  for (const segment of path.split('.').slice(1)) {
    const [, name, suffix] = /^(.*?)((?:\[\]|\{\})*)$/.exec(segment);
    node = node?.properties?.[name];
    for (const mark of suffix.match(/\[\]|\{\}/g) ?? []) node = mark === '[]' ? node?.items : node?.additionalProperties;
  }
  return node;
}

/** Every value at a ledger path in an object (`[]`: each list item, `{}`: each map value). */
function valuesAt(obj, path) {
  let found = [obj];
  for (const segment of path.split('.')) {
    const [, name, suffix] = /^(.*?)((?:\[\]|\{\})*)$/.exec(segment);
    found = found.map((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v[name] : undefined)).filter((v) => v !== undefined);
    for (const mark of suffix.match(/\[\]|\{\}/g) ?? []) {
      found = found.flatMap((v) => (mark === '[]' ? (Array.isArray(v) ? v : []) : (v && typeof v === 'object' ? Object.values(v) : [])));
    }
  }
  return found;
}

const GROUPS = {
  'cluster-api': 'Cluster API v1.14.0',
  k0smotron: 'k0smotron v2.1.0',
  'cluster-api-provider-aws': 'CAPA v2.11.1',
  karpenter: 'Karpenter v1.14.1',
  'cluster-api-provider-azure': 'CAPZ v1.26.0',
};

/** What writes a kind's objects in the ledger test: the default example, or the kind's `example`. */
const EXAMPLES = {
  karpenter: 'a `KarpenterWindowsNodePool` with its defaults',
  capz: 'the CAPZ example (`examples/capz/main.ts`)',
};

function cell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** docs/fields.md from the ledger, with each field's CRD default where it has one. */
function renderDoc(ledger) {
  const lines = [
    '# Field ledger',
    '',
    '<!-- Generated from docs/fields.yaml by `node scripts/field-ledger.js`: edit the YAML, not this file. -->',
    '',
    'Every field of the spec of every kind this library emits, as the pinned CRDs (`../shared/crds`)',
    'list it: **written** by this library (and by which construct), or **left to upstream**, with what',
    'the consuming code does when the field is absent and where that code is (repository@tag:path). A',
    'subtree entry covers every field beneath it, for a part upstream reads as one thing. The CRD',
    'default column is what the API server fills in on create. `test/fields-ledger.test.ts` fails on a',
    'CRD field the ledger does not list (so a CRD re-pin surfaces new fields), and checks that the',
    'fields marked written are written by the default example (`examples/k0smotron-aws/main.ts`), or',
    'by the example a kind names, and the others are not.',
    '',
  ];
  for (const kind of ledger.kinds) {
    const schema = specSchema(kind);
    const written = kind.fields.filter((e) => e.written && !e.when).reduce((n, e) => n + entryFields(e).length, 0);
    const example = kind.example === undefined ? 'the default example' : EXAMPLES[kind.example];
    lines.push(`## ${kind.kind}`, '', `${kind.version}, consumed by ${GROUPS[kind.crd.split('/')[0]]}; ${kind.fields.length} entries, ${written} fields written by ${example}.`, '');
    lines.push('| Field | Status | What | CRD default | Source |', '| --- | --- | --- | --- | --- |');
    for (const entry of kind.fields) {
      const names = entryFields(entry).map((f) => `\`${f}\``).join('<br>') + (entry.subtree ? ` and everything beneath (${entry.subtree})` : '');
      const status = entry.written ? (entry.when ? `written with \`${entry.when}\`` : 'written') : 'left to upstream';
      const what = entry.written ? (entry.when ? `${entry.written}. Without it: ${entry.upstream}` : entry.written) : entry.upstream;
      const defaults = entryFields(entry).map((f) => schemaAt(schema, f)?.default).filter((d) => d !== undefined).map((d) => `\`${JSON.stringify(d)}\``);
      lines.push(`| ${cell(names)} | ${status} | ${cell(what)} | ${cell(defaults.join(', '))} | ${cell(entry.source ?? '')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

module.exports = { CRD_DIR, covers, crdFields, entryFields, loadLedger, renderDoc, specSchema, valuesAt };

if (require.main === module) {
  const doc = renderDoc(loadLedger());
  if (process.argv.includes('--check')) {
    if (readFileSync(DOC, 'utf8') !== doc) {
      console.error('docs/fields.md is stale: run `node scripts/field-ledger.js`');
      process.exit(1);
    }
  } else {
    writeFileSync(DOC, doc);
  }
}
