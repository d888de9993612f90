import type { CelInput } from '@bufbuild/cel';
import { CRD_CEL_RULES, CrdCelRule } from '../../generated/crd-cel-rules';
import { describe, Json, ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

/**
 * The CRDs' `x-kubernetes-validations` (CEL) rules, evaluated on the final objects the way the API
 * server evaluates them on create (apiextensions-apiserver `pkg/apiserver/schema/cel`): each rule
 * at its schema node, `self` bound to every value found there, after the schema's defaults for the
 * node's own fields are filled in. The rules of the kinds this library emits are generated from the
 * pinned CRDs (`npm run import` → src/generated/crd-cel-rules.ts); `celRulesOf` reads any other
 * CRD schema the same way.
 *
 * Transition rules (those reading `oldSelf`) compare an update with the stored object, which a synth
 * does not have: they are not judged here, and the API server judges them on update. A rule that
 * cannot be compiled or evaluated (a Kubernetes CEL library function the engine lacks, say) is
 * reported as a violation, never passed over.
 */

type Cel = typeof import('@bufbuild/cel');
type Program = (bindings: { self: CelInput }) => unknown;
type Expr = ReturnType<Cel['parse']>['expr'];

let engine: Cel | undefined;
let env: ReturnType<Cel['celEnv']> | undefined;
/**
 * The CEL engine, loaded on first use: loading it costs more than the rest of a synth (its protobuf
 * runtime), and most syntheses never need it (see `whenAbsent`).
 */
function cel(): Cel {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  engine ??= require('@bufbuild/cel') as Cel;
  return engine;
}

/**
 * The API server's CEL environment as far as the CRDs need it: the standard library, cel-go's
 * strings extension (`split`, `lowerAscii`, `join`…) and Kubernetes' regex library (`find`,
 * `findAll`), both of which Kubernetes enables for CRD rules (kubernetes/kubernetes
 * staging/src/k8s.io/apiserver/pkg/cel/environment/base.go: `ext.Strings`, `library.Regex`;
 * pkg/cel/library/regex.go). Karpenter's rules call `split` (EC2NodeClass aliases) and `find`
 * (NodePool requirement keys).
 * @internal
 */
export function kubernetesEnv(): ReturnType<Cel['celEnv']> {
  if (!env) {
    const { celEnv, celList, celMethod, CelScalar, listType } = cel();
    const { STRING, INT } = CelScalar;
    const all = (text: string, pattern: string, limit: number) =>
      celList(limit === 0 ? [] : [...text.matchAll(new RegExp(pattern, 'g'))].map((m) => m[0]).slice(0, limit < 0 ? undefined : limit));
    env = celEnv({
      funcs: [
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        ...(require('@bufbuild/cel/ext') as typeof import('@bufbuild/cel/ext')).strings,
        // regex.go: the first match, or '' when there is none; every match, or the first `limit` (negative: all).
        celMethod('find', STRING, [STRING], STRING, function (pattern) { return new RegExp(pattern).exec(this)?.[0] ?? ''; }),
        celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern) { return all(this, pattern, -1); }),
        celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern, limit) { return all(this, pattern, Number(limit)); }),
      ],
    });
  }
  return env;
}

/** Each expression compiled once per process, on first use; a compile error is kept and reported. */
const programs = new Map<string, Program | Error>();

function programFor(expression: string): Program | Error {
  let program = programs.get(expression);
  if (!program) {
    try {
      const { parse, plan } = cel();
      const compiled = plan(kubernetesEnv(), parse(expression));
      program = (bindings) => compiled(bindings);
    } catch (e) {
      program = e as Error;
    }
    programs.set(expression, program);
  }
  return program;
}

/**
 * Rules plain code computes as the engine does, for the values it can judge (else undefined, and
 * the engine runs). Loading the engine costs more than the rest of a synth whose objects meet only
 * these rules (a CAPZ cluster: kubeadm's `{name, value}` argument lists). test/cluster/crd-cel.test.ts
 * checks each against the engine on generated values.
 * @internal
 */
export const NATIVE_RULES: Readonly<Record<string, (self: Json) => boolean | undefined>> = {
  // Names unique in a list of objects (cluster-api v1beta2 `Arg` and `EnvVar` lists). A missing or
  // non-string name (an error or a cross-type comparison in CEL) is left to the engine.
  'self.all(x, self.exists_one(y, x.name == y.name))': (self) => {
    if (!Array.isArray(self) || !self.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x) && typeof x.name === 'string')) return undefined;
    return new Set(self.map((x) => x.name)).size === self.length;
  },
};

/** The result of a compiled rule: `true`/`false`, or why it could not be evaluated. */
function evaluate(expression: string, self: CelInput): unknown {
  const program = programFor(expression);
  if (program instanceof Error) return new Error(`cannot compile: ${program.message}`);
  const result = program({ self });
  return cel().isCelError(result) ? new Error(`cannot evaluate: ${result.message}`) : result;
}

/** A JSON value as CEL sees it: objects become maps, integer fields (by `integers`) CEL ints. */
function toCel(value: unknown, integers: ReadonlySet<string>, at: string): CelInput {
  if (Array.isArray(value)) return value.map((v) => toCel(v, integers, `${at}[]`));
  if (value !== null && typeof value === 'object') {
    return cel().celMap(new Map(Object.entries(value).map(([k, v]) => [k, toCel(v, integers, at ? `${at}.${k}` : k)])));
  }
  if (typeof value === 'number' && Number.isInteger(value) && integers.has(at)) return BigInt(value);
  return value as CelInput;
}

/** Every value at a rule's path (`a.b`, `list[]` for each item, `map{}` for each value), with where it is. */
function valuesAt(obj: Json, path: string): Array<{ value: Json; field: string }> {
  let found: Array<{ value: Json; field: string }> = [{ value: obj, field: '' }];
  for (const segment of path ? path.split('.') : []) {
    const [, name, suffix] = /^(.*?)(\[\]|\{\})?$/.exec(segment)!;
    const next: typeof found = [];
    for (const { value, field } of found) {
      const child = value !== null && typeof value === 'object' && !Array.isArray(value) ? value[name] : undefined;
      const at = field ? `${field}.${name}` : name;
      if (child === undefined || child === null) continue;
      if (suffix === '[]') {
        if (Array.isArray(child)) child.forEach((item, i) => next.push({ value: item, field: `${at}[${i}]` }));
      } else if (suffix === '{}') {
        if (typeof child === 'object' && !Array.isArray(child)) for (const [k, v] of Object.entries(child)) next.push({ value: v, field: `${at}[${JSON.stringify(k)}]` });
      } else {
        next.push({ value: child, field: at });
      }
    }
    found = next;
  }
  return found.filter((f) => f.value !== undefined && f.value !== null);
}

/** One CEL rule violation: where, and the rule's message (or why it could not be judged). */
export interface CelViolation {
  /** Dotted field path of the value the rule rejected, with list indexes, e.g. `spec.template.spec`. */
  readonly field: string;
  /** The CRD's message for the rule, or why the rule could not be evaluated. */
  readonly message: string;
  /** The rule could not be evaluated (rather than evaluating to false). */
  readonly unevaluated: boolean;
  readonly rule: CrdCelRule;
}

/** Every violation of `rules` by `obj`. Transition rules are not judged (see the module comment). */
export function celViolations(obj: Json, rules: readonly CrdCelRule[]): CelViolation[] {
  const out: CelViolation[] = [];
  for (const rule of rules) {
    if (rule.transition) continue;
    for (const { value, field } of valuesAt(obj, rule.path)) {
      const isObject = typeof value === 'object' && !Array.isArray(value);
      // A rule that reads only some fields of `self`, none of which is set, has the result computed
      // for that case at import: the engine is loaded only for objects that set one of them.
      if (rule.reads && rule.whenAbsent !== undefined && isObject && !rule.reads.some((f) => value[f] !== undefined)) {
        if (!rule.whenAbsent) out.push({ field, message: rule.message ?? `failed CEL rule ${rule.rule}`, unevaluated: false, rule });
        continue;
      }
      const self = isObject && rule.defaults ? { ...rule.defaults, ...value } : value;
      const result = NATIVE_RULES[rule.rule]?.(self) ?? evaluate(rule.rule, toCel(self, new Set(rule.integers ?? []), ''));
      if (result instanceof Error) out.push({ field, message: `${result.message} (rule ${JSON.stringify(rule.rule)})`, unevaluated: true, rule });
      else if (result !== true) out.push({ field, message: messageOf(rule, self), unevaluated: false, rule });
    }
  }
  return out;
}

/** The rule's message: its `messageExpression` when that evaluates to a string, as the API server does. */
function messageOf(rule: CrdCelRule, self: Json): string {
  if (rule.messageExpression) {
    const text = evaluate(rule.messageExpression, toCel(self, new Set(rule.integers ?? []), ''));
    if (typeof text === 'string' && text.trim()) return text;
  }
  return rule.message ?? `failed CEL rule ${rule.rule}`;
}

/** A CRD schema node, as far as its CEL rules go. */
export interface CelSchemaNode {
  readonly type?: string;
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, CelSchemaNode>>;
  readonly additionalProperties?: boolean | CelSchemaNode;
  readonly items?: CelSchemaNode;
  readonly 'x-kubernetes-validations'?: ReadonlyArray<{ readonly rule: string; readonly message?: string; readonly messageExpression?: string }>;
}

/** Relative paths of the integer fields under `node`, in `valuesAt`'s notation ('' for the node itself). */
function integerPaths(node: CelSchemaNode | undefined, at = ''): string[] {
  if (!node) return [];
  const join = (name: string) => (at ? `${at}.${name}` : name);
  return [
    ...(node.type === 'integer' ? [at] : []),
    ...Object.entries(node.properties ?? {}).flatMap(([k, c]) => integerPaths(c, join(k))),
    ...integerPaths(node.items, `${at}[]`),
    // Map values sit under their key in `toCel`'s paths: only fixed properties are typed.
  ];
}

/** How an expression reads `self`: through these field selections only, or as a whole (undefined). */
function selfReads(expr: Expr | undefined): { fields: Set<string>; whole: boolean; oldSelf: boolean } {
  const acc = { fields: new Set<string>(), whole: false, oldSelf: false };
  const walk = (e: Expr | undefined): void => {
    const kind = e?.exprKind;
    switch (kind?.case) {
      case 'identExpr':
        if (kind.value.name === 'self') acc.whole = true;
        if (kind.value.name === 'oldSelf') acc.oldSelf = true;
        return;
      case 'selectExpr': {
        const operand = kind.value.operand;
        if (operand?.exprKind.case === 'identExpr' && operand.exprKind.value.name === 'self') acc.fields.add(kind.value.field);
        else walk(operand);
        return;
      }
      case 'callExpr':
        walk(kind.value.target);
        kind.value.args.forEach(walk);
        return;
      case 'listExpr':
        kind.value.elements.forEach(walk);
        return;
      case 'structExpr':
        kind.value.entries.forEach((entry) => {
          if (entry.keyKind.case === 'mapKey') walk(entry.keyKind.value);
          walk(entry.value);
        });
        return;
      case 'comprehensionExpr':
        [kind.value.iterRange, kind.value.accuInit, kind.value.loopCondition, kind.value.loopStep, kind.value.result].forEach(walk);
        return;
      default:
    }
  };
  walk(expr);
  return acc;
}

/**
 * Every CEL rule of a CRD version's schema, in the generated form: where it sits, the expression and
 * messages, whether it is a transition rule, what `self` needs to be typed and defaulted as, and,
 * for a rule on an object that reads only some of its fields, its result when none of them is set.
 * `npm run import` writes this for the emitted kinds; tests read other CRDs with it.
 */
export function celRulesOf(schema: CelSchemaNode | undefined, path = ''): CrdCelRule[] {
  if (!schema || typeof schema !== 'object') return [];
  const rules: CrdCelRule[] = (schema['x-kubernetes-validations'] ?? []).map((v) => celRule(schema, path, v));
  const join = (name: string) => (path ? `${path}.${name}` : name);
  for (const [name, child] of Object.entries(schema.properties ?? {})) rules.push(...celRulesOf(child, join(name)));
  // A list's items and a map's values sit at `<path>[]` / `<path>{}`; a node's own path ends the same way.
  if (schema.items) rules.push(...celRulesOf(schema.items, `${path}[]`));
  if (typeof schema.additionalProperties === 'object') rules.push(...celRulesOf(schema.additionalProperties, `${path}{}`));
  return rules;
}

function celRule(node: CelSchemaNode, path: string, v: { rule: string; message?: string; messageExpression?: string }): CrdCelRule {
  let reads: ReturnType<typeof selfReads> | undefined;
  try {
    reads = selfReads(cel().parse(v.rule).expr);
  } catch {
    reads = undefined; // Reported when an object reaches the rule.
  }
  const transition = reads?.oldSelf ?? /\boldSelf\b/.test(v.rule);
  const defaults = Object.fromEntries(Object.entries(node.properties ?? {})
    .filter(([, c]) => c.default !== undefined).map(([k, c]) => [k, c.default]));
  const integers = integerPaths(node);
  const rule: CrdCelRule = {
    path,
    rule: v.rule,
    ...(v.message !== undefined ? { message: v.message } : {}),
    ...(v.messageExpression !== undefined ? { messageExpression: v.messageExpression } : {}),
    transition,
    ...(integers.length ? { integers } : {}),
    ...(Object.keys(defaults).length ? { defaults } : {}),
  };
  if (transition || !reads || reads.whole || node.type !== 'object' || reads.fields.size === 0) return rule;
  // With none of the fields it reads set, `self` is, for this rule, only their defaults.
  const fields = [...reads.fields].sort();
  const absent = Object.fromEntries(fields.filter((f) => f in defaults).map((f) => [f, defaults[f]]));
  const result = evaluate(v.rule, toCel(absent, new Set(integers), ''));
  return typeof result === 'boolean' ? { ...rule, reads: fields, whenAbsent: result } : rule;
}

/** `group/version/Kind` of a manifest, the key of `CRD_CEL_RULES`. */
function keyOf(m: Json): string {
  return `${m.apiVersion}/${m.kind}`;
}

/**
 * The CRDs' CEL rules over the final objects of the kinds this library emits, so that a JSON patch
 * that breaks one fails the synth (with the object's construct path) instead of `kubectl apply`.
 */
export const CRD_CEL_RULE = rule<ManifestGraph>({
  name: 'crd-cel',
  // Each object on its own: constructs ask it about the objects they have just built, too.
  scope: 'object',
  description: 'The CRDs\' own CEL validation rules (x-kubernetes-validations) of every emitted kind hold on the final objects',
  source: 'kubernetes apiextensions-apiserver pkg/apiserver/schema/cel; the pinned CRDs (Cluster API v1.14, CAPA, k0smotron v2.1)',
  check: (graph) => graph.sources.flatMap((source): Finding[] => {
    const rules = CRD_CEL_RULES[keyOf(source.manifest)];
    if (!rules) return [];
    return celViolations(source.manifest, rules).map((v) => violation(source,
      v.unevaluated
        ? `${v.field || '(the object)'}: the ${source.manifest.kind} CRD's CEL rule could not be judged here, ${v.message}`
        : `${v.field || '(the object)'}: ${v.message} (the ${source.manifest.kind} CRD's rule ${JSON.stringify(v.rule.rule)}; the API server refuses ${describe(source)})`,
      v.unevaluated
        ? 'check the object with `kubectl apply --dry-run=server` and report the rule to this library'
        : 'change the fields the rule reads (or the JSON patch that set them) so that the rule holds',
      v.field));
  }),
});
