// Generates the schemas `cdk-hybrid-windows validate` and the synth-time schema check judge objects
// against (src/rules/schema/), reduced to what validation needs.
//
// - src/generated/k8s-schemas.ts: the Kubernetes API's definitions for each supported minor, read from
//   the official JavaScript client, @kubernetes/client-node, which kubernetes-client/javascript generates
//   from each Kubernetes release's OpenAPI document (each model's `attributeTypeMap`: field names, types
//   and formats; its declarations: the required fields; its API classes: which group/version/Kinds the
//   release serves, as the bodies of the `create` calls on a collection). One release of the client per
//   minor, installed as the devDependencies `kubernetes-client-node-1.<minor>` (npm aliases, pinned in
//   package-lock.json); each model's header names the OpenAPI document it was generated from, and the
//   import refuses a package whose header names another minor. No client release was generated from
//   1.31 or 1.35: those minors get the union of their neighbours (1.30 and 1.32, 1.34 and 1.36), which
//   accepts every field and kind either neighbour knows.
//   The client keeps neither the `+enum` values nor the quantity type (it types a quantity as a string),
//   so both come from the `kubernetes-models` package, generated from the OpenAPI v3 documents: each
//   string field its declarations type as a union of literals, and each field typed as a Quantity. A
//   definition identical across minors is stored once.
//   K8S_PACKAGES names another node_modules folder to read the packages from.
// - src/generated/k8s-object-meta.ts: ObjectMeta and what it refers to, apart, for custom resources.
// - src/generated/crd-schemas.ts and crd-schemas/: every served version of every pinned CRD in
//   ../shared/crds (CRD_DIR overrides), descriptions stripped, one module per kind.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

const root = join(import.meta.dirname, '..');
const outDir = join(root, 'src', 'generated');
const crdDir = resolve(process.env.CRD_DIR ?? join(root, '..', 'shared', 'crds'));
const packages = resolve(process.env.K8S_PACKAGES ?? join(root, 'node_modules'));
/** The Kubernetes minors the library supports (the EKS calendar's, src/platform/eks.ts), oldest first. */
const MINORS = [29, 30, 31, 32, 33, 34, 35];
/** The minors a client release was generated from (the devDependencies `kubernetes-client-node-1.<minor>`); 1.36 bounds 1.35. */
const CLIENTS = [29, 30, 32, 33, 34, 36];

/** The reduced schema of one client type expression (`Array<V1EnvVar>`, `{ [key: string]: string; }`, `number` with format `int32`). */
function typeSchema(type, format) {
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return { type: 'array', items: typeSchema(array[1], '') };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return { type: 'object', additionalProperties: typeSchema(map[1], '') };
  switch (type) {
    case 'string': return { type: 'string' };
    // A time (RFC 3339) is a string in JSON.
    case 'Date': return { type: 'string' };
    case 'boolean': return { type: 'boolean' };
    case 'number': return { type: format === 'int32' || format === 'int64' ? 'integer' : 'number' };
    case 'IntOrString': return { 'x-kubernetes-int-or-string': true };
    // RawExtension, JSON and the like: any value.
    case 'any': case 'object': return {};
    default:
      if (!/^[A-Za-z0-9]+$/.test(type)) throw new Error(`import-schemas: client type ${type} not understood`);
      return { $ref: type };
  }
}

/**
 * One client release's definitions by class name, and group/version/Kind -> class. Only the models
 * generated from Kubernetes `header` count: the generator leaves the files of models a later release
 * dropped (a 1.36 client still has 84 models of 1.30.1), and a served kind is one whose model counts.
 */
function readClient(minor, header = minor) {
  const dir = join(packages, `kubernetes-client-node-1.${minor}`);
  const gen = join(dir, 'dist', 'gen');
  const modelDir = existsSync(join(gen, 'models')) ? join(gen, 'models') : join(gen, 'model');
  const apiDir = existsSync(join(gen, 'apis')) ? join(gen, 'apis') : join(gen, 'api');
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const definitions = {};
  for (const file of readdirSync(modelDir).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(modelDir, file), 'utf8');
    if (/OpenAPI (?:document|spec version): (?:release-|v)(\d+\.\d+)/.exec(text)?.[1] !== `1.${header}`) continue;
    const m = /(\w+)\.attributeTypeMap = (\[[\s\S]*?\n\]);/.exec(text);
    if (!m) continue;
    const declarations = readFileSync(join(modelDir, file.replace(/\.js$/, '.d.ts')), 'utf8');
    const required = new Set([...declarations.matchAll(/^ {4}'([^']+)': /gm)].map((r) => r[1]));
    const properties = {};
    const requiredNames = [];
    for (const a of JSON.parse(m[2])) {
      properties[a.baseName] = typeSchema(a.type, a.format ?? '');
      if (required.has(a.name)) requiredNames.push(a.baseName);
    }
    definitions[m[1]] = { type: 'object', properties, ...(requiredNames.length > 0 ? { required: requiredNames.sort() } : {}) };
  }
  // What a release serves: the body of each `create` on a collection (`/apis/apps/v1/namespaces/{namespace}/deployments`).
  const kinds = {};
  for (const file of readdirSync(apiDir).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(apiDir, file), 'utf8');
    let path;
    for (const m of text.matchAll(/localVarPath = (?:this\.basePath \+ )?'([^']+)'|(?<![a-z])serialize\(body, "(\w+)"/g)) {
      if (m[1] !== undefined) path = m[1];
      else if (path !== undefined) {
        const collection = /^\/api\/(v1)(?:\/namespaces\/\{namespace\})?\/([a-z]+)$|^\/apis\/([^/]+\/[^/]+)(?:\/namespaces\/\{namespace\})?\/([a-z]+)$/.exec(path);
        const definition = definitions[m[2]];
        path = undefined;
        if (!collection || !definition?.properties.kind) continue;
        const kind = /^(?:[A-Z][a-z]+)?V\d+(?:(?:alpha|beta)\d+)?([A-Z]\w*)$/.exec(m[2])?.[1];
        // The object a collection creates (deployments: Deployment), not the DeleteOptions a deletecollection takes.
        if (kind && (collection[2] ?? collection[4]).startsWith(kind.toLowerCase().replace(/y$/, ''))) kinds[`${collection[1] ?? collection[3]}/${kind}`] = m[2];
      }
    }
  }
  if (header === minor && (Object.keys(definitions).length < 400 || !kinds['apps/v1/Deployment'])) throw new Error(`import-schemas: ${dir} is not a client generated from Kubernetes 1.${minor}`);
  return { version, definitions, kinds };
}

/** The union of two releases' definitions and kinds: every field and kind either knows; required only where both require it. */
function union(older, newer) {
  const definitions = { ...older.definitions };
  for (const [name, d] of Object.entries(newer.definitions)) {
    const o = older.definitions[name];
    if (!o) definitions[name] = d;
    else {
      const required = (d.required ?? []).filter((r) => (o.required ?? []).includes(r));
      definitions[name] = { type: 'object', properties: { ...o.properties, ...d.properties }, ...(required.length > 0 ? { required } : {}) };
    }
  }
  return { version: [...new Set([...older.version.split(' and '), ...newer.version.split(' and ')])].join(' and '), definitions, kinds: { ...older.kinds, ...newer.kinds } };
}

/**
 * The fields a client types as integers (int32, int64), as `Class.field` paths: the 0.x clients (1.29,
 * 1.30) keep no formats and type every number alike, and a field's type never changes across releases.
 */
function integerPaths(definitions, into = new Set()) {
  const walk = (node, path) => {
    if (node.type === 'integer') into.add(path);
    for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, `${path}.${k}`);
    if (node.items) walk(node.items, `${path}[]`);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${path}{}`);
  };
  for (const [name, d] of Object.entries(definitions)) walk(d, name);
  return into;
}

/** Types as integers the numbers of `definitions` that `integers` names. */
function applyIntegers(definitions, integers) {
  const walk = (node, path) => {
    if (node.type === 'number' && integers.has(path)) node.type = 'integer';
    for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, `${path}.${k}`);
    if (node.items) walk(node.items, `${path}[]`);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${path}{}`);
  };
  for (const [name, d] of Object.entries(definitions)) walk(d, name);
}

/** kubernetes-models' name (`IoK8sApiCoreV1Event`) -> the client's class names it may go by (`V1Event`, `CoreV1Event`). */
function clientNames(modelName) {
  const m = /^IoK8s(?:Api|Apimachinery|Apiextensions|Kube)?\w*?([A-Z][a-z]+)?(V\d+(?:(?:alpha|beta)\d+)?)([A-Z]\w*)$/.exec(modelName);
  return m ? [`${m[1] ?? ''}${m[2]}${m[3]}`, `${m[2]}${m[3]}`] : [];
}

/** kubernetes-models' declarations: definition -> property -> its enum values, or 'quantity'. */
function modelFacts(dir) {
  const facts = new Map();
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.d.ts')) {
        const text = readFileSync(path, 'utf8');
        const alias = /export type \{ (\w+) as I(IoK8s\w+),/.exec(text);
        if (!alias) continue;
        const body = new RegExp(`export interface ${alias[1]}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(text)?.[1] ?? '';
        const props = {};
        for (const m of body.matchAll(/^ {4}"([^"]+)"\??: ((?:\{[^}]*\})|[^;]+);$/gm)) {
          if (/^(?:"[^"]*"(?: \| )?)+$/.test(m[2])) props[m[1]] = [...m[2].matchAll(/"([^"]*)"/g)].map((v) => v[1]);
          else if (m[2].includes('IIoK8sApimachineryPkgApiResourceQuantity')) props[m[1]] = 'quantity';
        }
        if (Object.keys(props).length > 0) facts.set(alias[2], props);
      }
    }
  };
  walk(dir);
  return facts;
}

/** Puts kubernetes-models' enums and quantities on the client's definitions; counts what it changed. */
function overlay(definitions, facts, counts) {
  for (const [modelName, props] of facts) {
    const name = clientNames(modelName).find((n) => definitions[n]);
    if (!name) continue;
    for (const [prop, fact] of Object.entries(props)) {
      const target = definitions[name].properties[prop];
      if (fact === 'quantity') {
        // A quantity is written as a string or a number (apimachinery resource.Quantity UnmarshalJSON).
        const node = target?.type === 'object' ? target.additionalProperties : target;
        if (node?.type === 'string') {
          node.type = ['string', 'number'];
          counts.quantities++;
        }
      } else if (target?.type === 'string' && !target.enum) {
        // The API server defaults an optional enum field left empty ("" reads as unset: imagePullPolicy, protocol, type).
        target.enum = definitions[name].required?.includes(prop) || fact.includes('') ? fact : [...fact, ''];
        counts.enums++;
      }
    }
  }
}

function writeKubernetes(data, note) {
  writeFileSync(join(outDir, 'k8s-schemas.ts'), `// Generated by \`npm run import\` (scripts/import-schemas.mjs): do not edit.
// ${data.source}${note}.

/** JSON: {source, objectMeta, versions: {"1.<minor>": {definition: variant}}, kinds: {"1.<minor>": {"group/version/Kind": definition}}, definitions: {definition: [reduced schema as JSON text...]}}. */
export const K8S_SCHEMAS = ${JSON.stringify(JSON.stringify(data))};
`);
}

/**
 * ObjectMeta and the definitions it refers to, apart: a custom resource's metadata is checked as an
 * ObjectMeta, and a run over custom resources alone then never loads the whole core table.
 */
function writeObjectMeta(data) {
  const versions = {};
  const definitions = {};
  for (const [minor, index] of Object.entries(data.versions)) {
    versions[minor] = {};
    const pending = [data.objectMeta];
    while (pending.length > 0) {
      const name = pending.pop();
      if (name in versions[minor] || index[name] === undefined) continue;
      const text = data.definitions[name][index[name]];
      definitions[name] ??= [];
      let i = definitions[name].indexOf(text);
      if (i === -1) i = definitions[name].push(text) - 1;
      versions[minor][name] = i;
      pending.push(...[...text.matchAll(/"\$ref":"(\w+)"/g)].map((m) => m[1]));
    }
  }
  writeFileSync(join(outDir, 'k8s-object-meta.ts'), `// Generated by \`npm run import\` (scripts/import-schemas.mjs): do not edit.
// ObjectMeta and what it refers to, from src/generated/k8s-schemas.ts, for the metadata of custom resources.

/** JSON: {objectMeta, versions: {"1.<minor>": {definition: variant}}, definitions: {definition: [reduced schema as JSON text...]}}. */
export const K8S_OBJECT_META = ${JSON.stringify(JSON.stringify({ objectMeta: data.objectMeta, versions, definitions }))};
`);
}

function importKubernetes() {
  const modelsDir = join(packages, 'kubernetes-models');
  if (!existsSync(join(packages, `kubernetes-client-node-1.${CLIENTS[0]}`)) || !existsSync(modelsDir)) {
    console.log(`import-schemas: the client packages are not in ${packages}, src/generated/k8s-schemas.ts kept as it is`);
    return;
  }
  const models = JSON.parse(readFileSync(join(modelsDir, 'package.json'), 'utf8'));
  const facts = modelFacts(modelsDir);
  const clients = new Map(CLIENTS.map((minor) => [minor, readClient(minor)]));
  const integers = new Set();
  for (const client of clients.values()) integerPaths(client.definitions, integers);
  for (const client of clients.values()) applyIntegers(client.definitions, integers);
  /** name -> distinct reduced variants (as JSON text); version -> name -> variant index. */
  const variants = {};
  const versions = {};
  const kinds = {};
  const counts = { enums: 0, quantities: 0 };
  const sources = [];
  for (const minor of MINORS) {
    // A minor no client was generated from: its neighbours, and the models of that minor a newer client left behind (1.35's Workload API in 1.36's).
    const client = clients.get(minor) ?? union(union(clients.get(minor - 1), clients.get(minor + 1)), readClient(minor + 1, minor));
    sources.push(`1.${minor}: ${client.version}`);
    const definitions = structuredClone(client.definitions);
    overlay(definitions, facts, counts);
    const index = {};
    for (const name of Object.keys(definitions).sort()) {
      const text = JSON.stringify(definitions[name]);
      variants[name] ??= [];
      let i = variants[name].indexOf(text);
      if (i === -1) i = variants[name].push(text) - 1;
      index[name] = i;
    }
    versions[`1.${minor}`] = index;
    kinds[`1.${minor}`] = Object.fromEntries(Object.entries(client.kinds).sort());
  }
  // Each definition stays JSON text until a check reads it: a Deployment reads about 150 of them.
  const data = { source: `@kubernetes/client-node (${sources.join('; ')}); enums and quantities from kubernetes-models ${models.version}`, objectMeta: 'V1ObjectMeta', versions, kinds, definitions: variants };
  writeKubernetes(data, ` (${counts.enums} enum fields, ${counts.quantities} quantity fields over all minors)`);
  writeObjectMeta(data);
  console.log(`import-schemas: ${Object.keys(variants).length} definitions, ${Object.values(variants).reduce((n, v) => n + v.length, 0)} variants, ${counts.enums} enum fields, ${counts.quantities} quantity fields`);
}

/** Removes `description` from a schema and every sub-schema (not from property names). */
function stripDescriptions(schema) {
  if (Array.isArray(schema)) return schema.forEach(stripDescriptions);
  if (schema === null || typeof schema !== 'object') return;
  delete schema.description;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') Object.values(value).forEach(stripDescriptions);
    else if (key !== 'default' && key !== 'example' && key !== 'enum') stripDescriptions(value);
  }
}

function importCrds() {
  if (!existsSync(crdDir)) {
    console.log(`import-schemas: ${crdDir} not found, src/generated/crd-schemas.ts kept as it is`);
    return;
  }
  const crds = {};
  for (const folder of readdirSync(crdDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const file of readdirSync(join(crdDir, folder)).filter((f) => f.endsWith('.yaml')).sort()) {
      for (const doc of parseAllDocuments(readFileSync(join(crdDir, folder, file), 'utf8'))) {
        const crd = doc.toJS();
        if (crd?.kind !== 'CustomResourceDefinition') continue;
        for (const version of crd.spec.versions.filter((v) => v.served)) {
          const schema = version.schema.openAPIV3Schema;
          stripDescriptions(schema);
          crds[`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`] = {
            scope: crd.spec.scope,
            ...(version.deprecated ? { deprecated: true } : {}),
            ...(version.storage ? {} : { notStorage: true }),
            schema,
          };
        }
      }
    }
  }
  // One module per kind, loaded when an object of that kind is checked: the whole table is 1.4 MB, and
  // an app uses a few kinds (the k0smotron example 7 of 64).
  const dir = join(outDir, 'crd-schemas');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const loaders = [];
  for (const [gvk, entry] of Object.entries(crds)) {
    const file = gvk.replaceAll('/', '_');
    writeFileSync(join(dir, `${file}.ts`), `// Generated by \`npm run import\` (scripts/import-schemas.mjs) from the pinned CRDs: do not edit.

/** JSON: {scope, deprecated?, notStorage?, schema} of ${gvk}. */
export const CRD_SCHEMA = ${JSON.stringify(JSON.stringify(entry))};
`);
    loaders.push(`  ${JSON.stringify(gvk)}: () => require(${JSON.stringify(`./crd-schemas/${file}`)}).CRD_SCHEMA,`);
  }
  writeFileSync(join(outDir, 'crd-schemas.ts'), `// Generated by \`npm run import\` (scripts/import-schemas.mjs) from the pinned CRDs: do not edit.
/* eslint-disable @typescript-eslint/no-require-imports */

/** Every served version of every pinned CRD: "group/version/Kind" -> its JSON text of {scope, deprecated?, notStorage?, schema}, loaded on first call. */
export const CRD_SCHEMAS: Readonly<Record<string, () => string>> = {
${loaders.join('\n')}
};
`);
  console.log(`import-schemas: ${Object.keys(crds).length} CRD versions`);
}

importKubernetes();
importCrds();
