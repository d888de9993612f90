import { celEnv, celMap, isCelError, parse, plan } from '@bufbuild/cel';
import type { CelInput } from '@bufbuild/cel';

/**
 * The CRDs' `x-kubernetes-validations` (CEL) rules, evaluated the way the API server evaluates
 * them on create: each rule at its schema node, with `self` bound to every value at that node.
 * Transition rules (those reading `oldSelf`) only run on update and are skipped. A rule that
 * cannot be evaluated (a Kubernetes CEL library function @bufbuild/cel lacks, say) is reported as a
 * problem, never passed over.
 */

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  'x-kubernetes-validations'?: Array<{ rule: string; message?: string; messageExpression?: string }>;
  [key: string]: unknown;
}

type Program = (bindings: { self: CelInput }) => unknown;
const programs = new Map<string, Program | Error>();

function programFor(rule: string): Program | Error {
  let program = programs.get(rule);
  if (!program) {
    try {
      const compiled = plan(celEnv(), parse(rule));
      program = (bindings) => compiled(bindings);
    } catch (e) {
      program = e as Error;
    }
    programs.set(rule, program);
  }
  return program;
}

/**
 * A JSON value as CEL sees it under its schema: objects become maps, and numbers of `integer`
 * fields become CEL ints (JSON numbers are doubles otherwise).
 */
function toCel(value: unknown, schema: SchemaNode | undefined): CelInput {
  if (Array.isArray(value)) return value.map((v) => toCel(v, schema?.items));
  if (value !== null && typeof value === 'object') {
    return celMap(new Map(Object.entries(value).map(([k, v]) => [k, toCel(v, childSchema(schema, k))])));
  }
  if (typeof value === 'number' && schema?.type === 'integer' && Number.isInteger(value)) return BigInt(value);
  return value as CelInput;
}

function childSchema(schema: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (schema?.properties?.[key]) return schema.properties[key];
  return typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/** Every CEL rule violation of `value` under `schema`, as `<path>: <message>` lines. */
export function celViolations(value: unknown, schema: SchemaNode | undefined, path = ''): string[] {
  if (!schema || value === undefined || value === null) return [];
  const problems: string[] = [];
  for (const { rule, message } of schema['x-kubernetes-validations'] ?? []) {
    if (/\boldSelf\b/.test(rule)) continue;
    const program = programFor(rule);
    if (program instanceof Error) {
      problems.push(`${path || '/'}: cannot compile CEL rule ${JSON.stringify(rule)}: ${program.message}`);
      continue;
    }
    const result = program({ self: toCel(value, schema) });
    if (isCelError(result)) problems.push(`${path || '/'}: cannot evaluate CEL rule ${JSON.stringify(rule)}: ${result.message}`);
    else if (result !== true) problems.push(`${path || '/'}: ${message ?? `failed CEL rule ${rule}`}`);
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => problems.push(...celViolations(item, schema.items, `${path}/${i}`)));
  } else if (typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      problems.push(...celViolations(child, childSchema(schema, key), `${path}/${key}`));
    }
  }
  return problems;
}

/** How many CEL rules a schema holds, transition rules included: proof that there are some to run. */
export function celRuleCount(schema: SchemaNode | undefined): number {
  if (!schema || typeof schema !== 'object') return 0;
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...(schema.items ? [schema.items] : []),
  ];
  return (schema['x-kubernetes-validations'] ?? []).length + children.reduce((n, c) => n + celRuleCount(c), 0);
}
