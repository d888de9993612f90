import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { celRulesOf, celViolations } from '../../src/rules/cluster/crd-cel';
import type { CrdCelRule } from '../../src/generated/crd-cel-rules';

/** Where the pinned upstream CRDs live: `CRD_DIR`, else `../shared/crds` beside the checkout. */
export const CRD_DIR = resolve(process.env.CRD_DIR ?? join(__dirname, '..', '..', '..', 'shared', 'crds'));
export const CRDS_AVAILABLE = existsSync(CRD_DIR);

/** `describe` when the CRDs are present, otherwise a loudly skipped block. */
export function describeWithCrds(name: string, fn: () => void): void {
  if (CRDS_AVAILABLE) {
    describe(name, fn);
  } else {
    // eslint-disable-next-line no-console
    console.warn(`SKIPPED: "${name}" needs the CRD schemas, and ${CRD_DIR} does not exist (set CRD_DIR).`);
    // Not `describe.skip(name, fn)`: jest still runs a skipped block's body to collect its tests,
    // and a body that reads the CRDs then fails the suite instead of skipping it.
    describe.skip(name, () => test.skip(`needs the CRD schemas in ${CRD_DIR}`, () => undefined));
  }
}

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  [key: string]: unknown;
}

/**
 * Makes a structural schema strict the way the API server's field validation is: an object
 * that lists its properties rejects any other, unless it preserves unknown fields.
 */
function strictify(node: SchemaNode | undefined, isRoot = false): void {
  if (!node || typeof node !== 'object') return;
  if (node.properties) {
    for (const child of Object.values(node.properties)) strictify(child);
    if (node.additionalProperties === undefined && !node['x-kubernetes-preserve-unknown-fields']) {
      node.additionalProperties = false;
    }
  }
  if (isRoot && node.properties) {
    // apiVersion, kind and metadata are checked by the API server itself.
    node.properties.metadata = { type: 'object' };
  }
  if (typeof node.additionalProperties === 'object') strictify(node.additionalProperties);
  strictify(node.items);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) node[key]?.forEach((n) => strictify(n));
}

interface CrdVersion {
  readonly schema: SchemaNode;
  /** The version's CEL rules, read as `npm run import` reads them (`celRulesOf`). */
  readonly celRules: readonly CrdCelRule[];
  readonly deprecated: boolean;
  readonly served: boolean;
  readonly storage: boolean;
}

let registry: Map<string, CrdVersion> | undefined;
const validators = new Map<string, ValidateFunction>();
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

/** `group/version/kind` -> schema and version flags, for every CRD file under CRD_DIR. */
function crdRegistry(): Map<string, CrdVersion> {
  if (registry) return registry;
  registry = new Map();
  for (const folder of readdirSync(CRD_DIR, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(CRD_DIR, folder.name)).filter((f) => f.endsWith('.yaml'))) {
      for (const doc of parseAllDocuments(readFileSync(join(CRD_DIR, folder.name, file), 'utf8'))) {
        const crd = doc.toJS();
        if (crd?.kind !== 'CustomResourceDefinition') continue;
        for (const version of crd.spec.versions) {
          let celRules: CrdCelRule[] | undefined;
          registry.set(`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`, {
            schema: version.schema.openAPIV3Schema,
            // Read on first use: most versions are never validated against.
            get celRules() {
              celRules ??= celRulesOf(version.schema.openAPIV3Schema);
              return celRules;
            },
            deprecated: Boolean(version.deprecated),
            served: Boolean(version.served),
            storage: Boolean(version.storage),
          });
        }
      }
    }
  }
  return registry;
}

/** Compiled once per kind, on first use: compiling all of them costs seconds. */
function validatorFor(key: string, info: CrdVersion): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    const schema = structuredClone(info.schema);
    strictify(schema, true);
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

/** Problems the API server would report for one object, or [] when it is accepted and current. */
export function crdViolations(obj: { apiVersion?: string; kind?: string; metadata?: { name?: string }; [k: string]: unknown }): string[] {
  const key = `${obj.apiVersion}/${obj.kind}`;
  const name = `${obj.kind}/${obj.metadata?.name}`;
  const info = crdRegistry().get(key);
  if (!info) return [`${name}: no CRD serves ${key}`];
  const problems: string[] = [];
  if (!info.served) problems.push(`${name}: ${obj.apiVersion} is not served`);
  if (info.deprecated) problems.push(`${name}: ${obj.apiVersion} is deprecated`);
  if (!info.storage) problems.push(`${name}: ${obj.apiVersion} is not the storage version`);
  const validate = validatorFor(key, info);
  // The CEL rules run as in every synth (src/rules/crd-cel.ts), transition rules not judged.
  problems.push(...celViolations(obj, info.celRules).map((v) => `${name}: ${v.field || '/'}: ${v.message}`));
  if (!validate(obj)) {
    for (const e of validate.errors ?? []) {
      const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
      problems.push(`${name}: ${e.instancePath || '/'} ${e.message}${extra}`);
    }
  }
  return problems;
}
