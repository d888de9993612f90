/**
 * The schema check itself: Kubernetes objects against the API's schema of one Kubernetes minor,
 * custom resources against their CRDs' structural schemas and CEL rules, with unknown fields
 * refused as `kubectl apply`'s strict field validation refuses them (the default since kubectl
 * v1.27: `--validate=strict`, kubernetes/kubernetes staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go
 * `GetValidationDirective`; the API server's `strict decoding error: unknown field`).
 *
 * The schemas use few keywords, so they are interpreted rather than compiled: ajv took 1.5 s to
 * compile a Deployment's schema (about 150 definitions under PodSpec), more than checking 4,000
 * Deployments takes this way. This module holds the generated schemas: `rule.ts` loads it on
 * first use only, so loading the package for a cdk8s app never does.
 */
import { CRD_CEL_RULES, CrdCelRule } from '../../generated/crd-cel-rules';
import { CRD_SCHEMAS } from '../../generated/crd-schemas';
import { K8S_OBJECT_META } from '../../generated/k8s-object-meta';
import { CelSchemaNode, celRulesOf, celViolations } from '../cluster/crd-cel';
import { SchemaError, SchemaProblem, problemOf } from './problems';
import { KUBERNETES_MINORS } from './versions';

export type { SchemaProblem } from './problems';

// Objects come from anywhere, so they are read loosely typed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** What the check found: the problems, or that no schema covers the object's kind (refused: a Kubernetes group's kind in a version the minor does not serve). */
export type SchemaResult =
  | { readonly checked: true; readonly problems: readonly SchemaProblem[] }
  | { readonly checked: false; readonly what: string; readonly fix: string; readonly refused: boolean };

/** One served version of a CRD, reduced to what validation reads. */
interface CrdVersion {
  readonly schema: Json;
  readonly deprecated?: boolean;
  /** Where the CEL rules come from: generated for the library's kinds, read from the schema for others. */
  readonly celRules: () => readonly CrdCelRule[];
}

/** A generated table of definitions (scripts/import-schemas.mjs): per minor, the variant of each definition. */
interface DefinitionTable {
  readonly versions: Record<string, Record<string, number>>;
  readonly definitions: Record<string, string[]>;
}

/** The core table: also the definition of each group/version/Kind a minor serves. */
interface CoreTable extends DefinitionTable {
  readonly source: string;
  readonly kinds: Record<string, Record<string, string>>;
}

let coreTable: CoreTable | undefined;
let metaTable: (DefinitionTable & { readonly objectMeta: string }) | undefined;
/** A pattern of a CRD (Go RE2 syntax, which JavaScript reads alike for what CRDs write); none when it does not compile. */
function regExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}

/** The pinned CRD versions parsed so far, with their CEL rules once read. */
const pinnedCrds = new Map<string, CrdVersion>();

/**
 * Kubernetes' JSON Schema made to answer as the API server does: int-or-string and quantities as
 * either type, and an object that lists its properties refusing any other, unless it preserves
 * unknown fields. (`null` is accepted wherever a value is, by `visit`: it decodes as the field left out.)
 * Shallow: the sub-schemas stay as written until `visit` first descends into them (`sub`), so that a
 * check prepares the parts of a schema its objects use only (a CRD's schema is thousands of nodes).
 */
function loosen(node: Json): Json {
  if (node === null || typeof node !== 'object' || node.prepared === true) return node;
  if (Array.isArray(node)) return node.map(loosen);
  if (typeof node.$ref === 'string') return shape({ $ref: node.$ref });
  const out: Json = {};
  for (const key in node) {
    const value = node[key];
    // Copies, so that preparing a sub-schema in place never writes into the caller's CRD.
    if (key === 'properties') out.properties = { ...value };
    else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') out[key] = [...value];
    else if (key === 'pattern') out.pattern = regExp(String(value));
    else if (key !== 'gvk' && key !== 'description' && key !== 'nullable') out[key] = value;
  }
  // intstr.IntOrString, resource.Quantity: a oneOf of plain types; a CRD's int-or-string.
  const alternatives = (node.oneOf ?? node.anyOf) as Json[] | undefined;
  if (alternatives?.every((a) => Object.keys(a).length === 1 && typeof a.type === 'string')) {
    delete out.oneOf;
    delete out.anyOf;
    out.type = alternatives.map((a) => a.type);
  }
  if (node['x-kubernetes-int-or-string']) {
    delete out.anyOf;
    out.type = ['integer', 'string'];
  }
  if (typeof out.type === 'string') out.type = [out.type];
  if (node.properties && node.additionalProperties === undefined && !node['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return shape(out);
}

/** The sub-schema `holder[key]`, prepared (`loosen`) on first use and kept in its place. */
function sub(holder: Json, key: string | number): Json {
  const node = holder[key];
  if (node === null || typeof node !== 'object' || node.prepared === true) return node;
  return (holder[key] = loosen(node));
}

/** The JSON types as bits, for `typeOk`. */
const TYPE_BITS: Readonly<Record<string, number>> = { string: 1, integer: 2, number: 4, boolean: 8, array: 16, object: 32 };
const ANY_TYPE = 63;

/** The bits of the types a node admits; any value for a type name JSON Schema does not have. */
function typeMask(types: readonly string[] | undefined): number | undefined {
  if (types === undefined) return undefined;
  let mask = 0;
  for (const type of types) mask |= TYPE_BITS[type] ?? ANY_TYPE;
  return mask;
}

/**
 * A schema node with every keyword `visit` reads, in one order, absent ones undefined: nodes of one
 * hidden class, so that reading a keyword is one monomorphic property load (half the time of
 * checking 4,000 Deployments went to keyword lookups on nodes of many shapes). `typeMask` is `type`
 * as bits; `target` is the definition `$ref` names, once `visit` has looked it up.
 */
function shape(n: Json): Json {
  return {
    prepared: true, $ref: n.$ref, target: undefined, type: n.type, typeMask: typeMask(n.type), enum: n.enum, maxLength: n.maxLength, minLength: n.minLength, pattern: n.pattern,
    maximum: n.maximum, minimum: n.minimum, exclusiveMaximum: n.exclusiveMaximum, exclusiveMinimum: n.exclusiveMinimum,
    maxItems: n.maxItems, minItems: n.minItems, items: n.items, required: n.required, maxProperties: n.maxProperties,
    minProperties: n.minProperties, properties: n.properties, additionalProperties: n.additionalProperties,
    allOf: n.allOf, anyOf: n.anyOf, oneOf: n.oneOf, not: n.not,
  };
}

function coreData(): CoreTable {
  // The core table is 0.6 MB of JSON: a run over custom resources alone never reads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  coreTable ??= JSON.parse((require('../../generated/k8s-schemas') as typeof import('../../generated/k8s-schemas')).K8S_SCHEMAS) as CoreTable;
  return coreTable;
}

/** A pinned CRD version, parsed on first use: each kind is a module of its own (src/generated/crd-schemas/). */
function pinnedCrd(gvk: string): CrdVersion | undefined {
  let crd = pinnedCrds.get(gvk);
  if (crd) return crd;
  const load = Object.hasOwn(CRD_SCHEMAS, gvk) ? CRD_SCHEMAS[gvk] : undefined;
  if (!load) return undefined;
  const { schema, deprecated } = JSON.parse(load()) as { schema: Json; deprecated?: boolean };
  let rules: readonly CrdCelRule[] | undefined;
  // The kinds whose CEL rules are generated are judged by the crd-cel rule already.
  crd = { schema, deprecated, celRules: () => (CRD_CEL_RULES[gvk] ? [] : (rules ??= celRulesOf(schema))) };
  pinnedCrds.set(gvk, crd);
  return crd;
}

/** The group of an apiVersion ('' for the core group's `v1`). */
function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** The `group/version/Kind` of an object (`v1/Pod` for the core group). */
function gvkOf(manifest: Json): string {
  return `${manifest.apiVersion}/${manifest.kind}`;
}

/** Whether a value is of a type of `mask` (`typeMask`): an integer is a number too. */
function typeOk(mask: number, value: unknown): boolean {
  switch (typeof value) {
    case 'string': return (mask & 1) !== 0;
    case 'number': return (mask & (Number.isInteger(value) ? 6 : 4)) !== 0;
    case 'boolean': return (mask & 8) !== 0;
    case 'object': return (mask & (Array.isArray(value) ? 16 : 32)) !== 0;
    default: return false;
  }
}

/** The length of a string as JSON Schema counts it, in code points, beside a limit: counted only when the UTF-16 length cannot tell. */
function longerThan(value: string, max: number): boolean {
  return value.length > max && [...value].length > max;
}
function shorterThan(value: string, min: number): boolean {
  // A code point is one or two UTF-16 units.
  return value.length < min || (value.length < 2 * min && [...value].length < min);
}

function fail(errors: SchemaError[], keyword: string, path: ReadonlyArray<string | number>, data: unknown, schema: Json, param?: unknown): void {
  errors.push({ keyword, path: [...path], data, schema, param });
}

/** Whether `value` passes a schema node (for anyOf, oneOf, not). */
function passes(schema: Json, value: unknown, path: ReadonlyArray<string | number>, defs: Definitions): boolean {
  const found: SchemaError[] = [];
  visit(schema, value, [...path], defs, found);
  return found.length === 0;
}

/**
 * Checks `value` against a (loosened) schema node, appending what fails to `errors`. `null` passes
 * anywhere: the API server decodes it as the field left out, and prunes it from custom resources.
 * Written without closures: it runs for every value of every object.
 */
function visit(schema: Json, value: unknown, path: Array<string | number>, defs: Definitions, errors: SchemaError[]): void {
  if (value === null || value === undefined || schema === true || schema === undefined) return;
  if (schema === false) return fail(errors, 'false', path, value, schema);
  if (schema.$ref !== undefined) return visit(schema.target ??= defs.get(schema.$ref), value, path, defs, errors);
  if (schema.typeMask !== undefined && !typeOk(schema.typeMask, value)) return fail(errors, 'type', path, value, schema);
  if (schema.enum !== undefined && !schema.enum.includes(value)) fail(errors, 'enum', path, value, schema);
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && longerThan(value, schema.maxLength)) fail(errors, 'maxLength', path, value, schema);
    if (schema.minLength !== undefined && shorterThan(value, schema.minLength)) fail(errors, 'minLength', path, value, schema);
    if (schema.pattern !== undefined && !schema.pattern.test(value)) fail(errors, 'pattern', path, value, schema);
  } else if (typeof value === 'number') {
    if (schema.maximum !== undefined && (schema.exclusiveMaximum === true ? value >= schema.maximum : value > schema.maximum)) fail(errors, 'maximum', path, value, schema);
    if (schema.minimum !== undefined && (schema.exclusiveMinimum === true ? value <= schema.minimum : value < schema.minimum)) fail(errors, 'minimum', path, value, schema);
  } else if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail(errors, 'maxItems', path, value, schema);
    if (schema.minItems !== undefined && value.length < schema.minItems) fail(errors, 'minItems', path, value, schema);
    if (schema.items !== undefined) {
      const items = sub(schema, 'items');
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        visit(items, value[i], path, defs, errors);
        path.pop();
      }
    }
  } else if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (schema.required !== undefined) for (const name of schema.required) if (object[name] === undefined) fail(errors, 'required', path, value, schema, name);
    if (schema.maxProperties !== undefined || schema.minProperties !== undefined) {
      const count = Object.keys(object).length;
      if (count > (schema.maxProperties ?? Infinity)) fail(errors, 'maxProperties', path, value, schema);
      if (count < (schema.minProperties ?? 0)) fail(errors, 'minProperties', path, value, schema);
    }
    const properties = schema.properties;
    for (const key in object) {
      const field = properties?.[key] !== undefined ? sub(properties, key) : sub(schema, 'additionalProperties');
      if (field === false) {
        fail(errors, 'additionalProperties', path, value, schema, key);
        continue;
      }
      if (field === undefined || field === true) continue;
      path.push(key);
      visit(field, object[key], path, defs, errors);
      path.pop();
    }
  }
  if (schema.allOf !== undefined) for (let i = 0; i < schema.allOf.length; i++) visit(sub(schema.allOf, i), value, path, defs, errors);
  if (schema.anyOf !== undefined && !schema.anyOf.some((_: Json, i: number) => passes(sub(schema.anyOf, i), value, path, defs))) fail(errors, 'anyOf', path, value, schema);
  if (schema.oneOf !== undefined && schema.oneOf.filter((_: Json, i: number) => passes(sub(schema.oneOf, i), value, path, defs)).length !== 1) fail(errors, 'oneOf', path, value, schema);
  if (schema.not !== undefined && passes(sub(schema, 'not'), value, path, defs)) fail(errors, 'not', path, value, schema);
}

/** A minor's definitions, each parsed and loosened on first use: a Deployment reads about 150 of them. */
class Definitions {
  private readonly loose = new Map<string, Json>();
  public constructor(private readonly index: Readonly<Record<string, number>>, private readonly texts: Readonly<Record<string, string[]>>) {}

  public get(name: string): Json {
    let definition = this.loose.get(name);
    if (definition === undefined) {
      const variant = this.index[name];
      // A reference the minor does not define accepts anything rather than failing the check.
      definition = variant === undefined ? true : loosen(JSON.parse(this.texts[name][variant]));
      this.loose.set(name, definition);
    }
    return definition;
  }
}

/** A user's CRD (apiextensions.k8s.io/v1 `CustomResourceDefinition`), as parsed from YAML. */
export type CustomResourceDefinition = Json;

/**
 * Checks objects against the schemas of one Kubernetes minor, the pinned CRDs of the kinds this
 * library knows (Cluster API, CAPA, CAPZ, k0smotron, Karpenter) and any CRDs given.
 */
export class SchemaValidator {
  /** The minor's core definitions and served kinds, read on the first core object. */
  private core: { readonly defs: Definitions; readonly kinds: ReadonlyMap<string, string>; readonly groups: ReadonlySet<string> } | undefined;
  /** ObjectMeta's definitions, which every custom resource's metadata is checked against. */
  private meta: { readonly defs: Definitions; readonly objectMeta: string } | undefined;
  private readonly userCrds = new Map<string, CrdVersion>();
  /** The loosened schema of each kind checked so far. */
  private readonly roots = new Map<string, Json>();

  public constructor(public readonly minor: string, crdObjects: readonly CustomResourceDefinition[] = []) {
    if (!KUBERNETES_MINORS.includes(minor)) throw new Error(`no Kubernetes schema for ${minor}`);
    for (const crd of crdObjects) this.addCrd(crd);
  }

  /** The minor's core definitions, the group/version/Kinds it serves, and their API groups (an object of one with no schema is a version the minor does not serve). */
  private coreOf() {
    if (!this.core) {
      const { versions, kinds, definitions } = coreData();
      const served = new Map(Object.entries(kinds[this.minor]));
      this.core = { defs: new Definitions(versions[this.minor], definitions), kinds: served, groups: new Set([...served.keys()].map((gvk) => groupOf(gvk.slice(0, gvk.lastIndexOf('/'))))) };
    }
    return this.core;
  }

  private metaOf() {
    if (!this.meta) {
      metaTable ??= JSON.parse(K8S_OBJECT_META) as DefinitionTable & { objectMeta: string };
      this.meta = { defs: new Definitions(metaTable.versions[this.minor], metaTable.definitions), objectMeta: metaTable.objectMeta };
    }
    return this.meta;
  }

  /** Adds the served versions of a CRD; the caller's CRDs win over the pinned ones of the same kind. */
  private addCrd(crd: Json): void {
    const spec = crd?.spec;
    if (!spec?.group || !spec?.names?.kind || !Array.isArray(spec.versions)) return;
    for (const version of spec.versions) {
      const schema = version?.schema?.openAPIV3Schema;
      if (!version?.served || !schema) continue;
      let rules: readonly CrdCelRule[] | undefined;
      this.userCrds.set(`${spec.group}/${version.name}/${spec.names.kind}`, { schema, deprecated: version.deprecated, celRules: () => (rules ??= celRulesOf(schema as CelSchemaNode)) });
    }
  }

  /** The CRD of a kind: the caller's, else a pinned one (no pinned CRD is of a Kubernetes group). */
  private crdOf(gvk: string): CrdVersion | undefined {
    return this.userCrds.get(gvk) ?? pinnedCrd(gvk);
  }

  /** The loosened schema of a kind, or undefined when none covers it. */
  private schemaOf(gvk: string, crd: CrdVersion | undefined): Json | undefined {
    let schema = this.roots.get(gvk);
    if (schema) return schema;
    if (!crd) {
      const core = this.coreOf().kinds.get(gvk);
      if (core === undefined) return undefined;
      schema = shape({ $ref: core });
    } else {
      schema = loosen(crd.schema);
      // The API server reads apiVersion, kind and metadata (an ObjectMeta) itself, whatever the CRD's schema says of them.
      schema.properties = { ...schema.properties, apiVersion: shape({ type: ['string'] }), kind: shape({ type: ['string'] }), metadata: shape({ $ref: this.metaOf().objectMeta }) };
    }
    this.roots.set(gvk, schema);
    return schema;
  }

  /**
   * Checks one object. A `v1 List` (or any list kind no schema covers) is checked item by item, its
   * items' fields named under `items[i]`, as kubectl applies each item (apimachinery
   * `unstructured.decodeToList`: an item without apiVersion and kind takes the list's).
   */
  public check(manifest: Json): SchemaResult {
    // Not an object of any kind: what reads such input (the command line, cdk8s) refuses it itself.
    if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest) || typeof manifest.apiVersion !== 'string' || typeof manifest.kind !== 'string') return { checked: true, problems: [] };
    const gvk = gvkOf(manifest);
    if (Array.isArray(manifest.items) && String(manifest.kind).endsWith('List') && !this.crdOf(gvk) && !this.coreOf().kinds.has(gvk)) {
      const problems: SchemaProblem[] = [];
      manifest.items.forEach((item: Json, i: number) => {
        const typed = item?.apiVersion === undefined && item?.kind === undefined ? { ...item, apiVersion: manifest.apiVersion, kind: String(manifest.kind).slice(0, -4) } : item;
        const result = this.check(typed);
        const at = (field?: string) => `items[${i}]${field ? `.${field}` : ''}`;
        if (result.checked) problems.push(...result.problems.map((p) => ({ ...p, field: at(p.field) })));
        else if (result.refused) problems.push({ field: at('apiVersion'), what: result.what, fix: result.fix });
      });
      return { checked: true, problems };
    }
    const crd = this.crdOf(gvk);
    const schema = this.schemaOf(gvk, crd);
    if (!schema) {
      if (this.coreOf().groups.has(groupOf(String(manifest.apiVersion)))) {
        const served = [...this.coreOf().kinds.keys()].filter((k) => k.endsWith(`/${manifest.kind}`)).map((k) => k.slice(0, -String(manifest.kind).length - 1));
        return {
          checked: false,
          refused: true,
          what: `Kubernetes ${this.minor} serves no ${manifest.kind} in ${manifest.apiVersion} (no matches for kind "${manifest.kind}" in version "${manifest.apiVersion}")`,
          fix: served.length > 0 ? `write apiVersion: ${served.join(' or ')}` : 'check the kind and apiVersion, or name the CRD that defines it with --crd',
        };
      }
      return { checked: false, refused: false, what: `no schema for ${manifest.kind} ${manifest.apiVersion}: not checked`, fix: 'name its CRD with --crd <file|dir> (or the config file\'s crds) to have it checked' };
    }
    const errors: SchemaError[] = [];
    visit(schema, manifest, [], crd ? this.metaOf().defs : this.coreOf().defs, errors);
    const problems = errors.map(problemOf);
    // The CEL rules read fields the schema vouches for: a value the schema refuses would only make them fail to evaluate.
    if (crd && problems.length === 0) {
      for (const v of celViolations(manifest, crd.celRules())) {
        problems.push({ ...(v.field ? { field: v.field } : {}), what: `${v.message} (the ${manifest.kind} CRD's rule ${JSON.stringify(v.rule.rule)})`, fix: 'change the fields the rule reads so that it holds' });
      }
    }
    return { checked: true, problems };
  }
}
