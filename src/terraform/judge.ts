import type { IConstruct } from 'constructs';
import { HybridValidationError } from '../core/errors';
import type { ManifestViolation } from '../rules/engine/graph';
import { PropsOfFields, refusal } from '../rules/engine/refusal';
import { TERRAFORM_RULES, TerraformJson, formatTerraformViolation, validateTerraform } from './index';
import { DefaultTokenResolver, StringConcat, TerraformDataSource, TerraformElement, TerraformProvider, TerraformResource, TerraformStack, Tokenization } from './cdktn';

/**
 * How the AWS and EKS constructs ask the Terraform rules (`src/terraform/rules`) to judge what
 * they write, twice:
 *
 * - `judgeOwnResources`, right after a construct has built its resources: the rules of object
 *   scope over those resources and the ones they refer to, every violation thrown as one
 *   `HybridConfigError` naming the prop behind the field;
 * - `judgeStackAtSynth`, one validation per stack: every rule over the stack's final JSON (after
 *   `addOverride` and every other escape hatch), read once per validation.
 */

const RESOLVER = new DefaultTokenResolver(new StringConcat());
const JUDGED = Symbol.for('cdk-hybrid-windows.terraform-rules');
/** Stacks whose validation is collecting the other validations' messages. */
const COLLECTING = new WeakSet<TerraformStack>();
/** Each stack's JSON as its own validation last rendered it, for the rules across stacks of the same synth. */
const RENDERED = new WeakMap<TerraformStack, TerraformJson>();

/**
 * cdktf writes a construct path into every block's `//` metadata but not into provider
 * configurations; this adds it (by alias), so that messages about a provider name its construct.
 */
function withProviderPaths(stack: TerraformStack, json: TerraformJson): TerraformJson {
  for (const provider of stack.allProviders()) {
    const config = (json.provider?.[provider.terraformResourceType] ?? []).find((c) => c?.alias === provider.alias);
    if (config && typeof config === 'object') config['//'] = { metadata: { path: provider.node.path } };
  }
  return json;
}

/** The stack's JSON as `cdktf synth` writes it. */
function renderStack(stack: TerraformStack): TerraformJson {
  const json = withProviderPaths(stack, stack.toTerraform() as TerraformJson);
  RENDERED.set(stack, json);
  // Kept for the other stacks' validations of this synth (no user code runs between them), then dropped.
  queueMicrotask(() => RENDERED.delete(stack));
  return json;
}

function isJudged(c: IConstruct): boolean {
  return (c as unknown as Record<symbol, unknown>)[JUDGED] === true;
}

/**
 * Adds, once per stack, the validation that applies every Terraform rule to the stack's final
 * JSON (beside the other judged stacks of the app, for the rules across stacks). With violations
 * it throws a `HybridValidationError` listing them and every other validation message of the
 * stack, rather than returning them: cdktf would end its message with an invitation to skip
 * validations, which would leave the problems to `terraform plan` or to nodes that never join.
 */
export function judgeStackAtSynth(scope: IConstruct): void {
  const stack = TerraformStack.of(scope);
  if (isJudged(stack)) return;
  Object.defineProperty(stack, JUDGED, { value: true });
  stack.node.addValidation({
    validate: () => {
      if (COLLECTING.has(stack)) return [];
      const others = stack.node.root.node.findAll().filter((c) => isJudged(c) && c !== stack) as TerraformStack[];
      const json = renderStack(stack);
      const inStack = (v: ManifestViolation) => v.path === undefined ? others.length === 0 : v.path === stack.node.path || v.path.startsWith(`${stack.node.path}/`);
      const violations = validateTerraform([json, ...others.map((s) => RENDERED.get(s) ?? renderStack(s))]).filter(inStack);
      if (violations.length === 0) return [];
      COLLECTING.add(stack);
      try {
        const messages = stack.node.findAll().flatMap((c) => c.node.validate().map((m) => `[${c.node.path}] ${m}`));
        throw new HybridValidationError([...violations.map(formatTerraformViolation), ...messages]);
      } finally {
        COLLECTING.delete(stack);
      }
    },
  });
}

/**
 * The address a resource or data source would have (`<type>.<id>`, `data.<type>.<id>`), by the
 * logical id the stack would give it: `friendlyUniqueId` would fix an element's id for good.
 */
function addressOf(stack: TerraformStack, c: IConstruct): string | undefined {
  if (TerraformResource.isTerraformResource(c)) return `${c.terraformResourceType}.${stack.getLogicalId(c)}`;
  if (TerraformDataSource.isTerraformDataSource(c)) return `data.${c.terraformResourceType}.${stack.getLogicalId(c)}`;
  return undefined;
}

/** Resolved JSON of some elements of `stack`, merged into `into` as the stack's JSON would hold them. */
function renderElements(stack: TerraformStack, elements: Iterable<TerraformElement>, into?: TerraformJson): TerraformJson {
  const json = into ?? { '//': { metadata: { stackName: stack.node.id } }, resource: {}, data: {}, provider: {} };
  const resource = json.resource as Record<string, object>;
  const data = json.data as Record<string, object>;
  const provider = json.provider as Record<string, unknown[]>;
  for (const e of elements) {
    const fragment = Tokenization.resolve(e.toTerraform(), { scope: stack, preparing: false, resolver: RESOLVER }) as TerraformJson;
    for (const [target, from] of [[resource, fragment.resource], [data, fragment.data]] as const) {
      for (const [type, blocks] of Object.entries(from ?? {})) target[type] = { ...target[type], ...blocks };
    }
    for (const [name, configs] of Object.entries(fragment.provider ?? {})) provider[name] = [...(provider[name] ?? []), ...configs];
  }
  return withProviderPaths(stack, json);
}

// A reference inside a resolved string: `${aws_eks_cluster.Cluster_1A2B3C4D.name}`, `${data.aws_partition.P.partition}`.
const REFERENCE = /\$\{(data\.)?([a-zA-Z0-9_-]+)\.([a-zA-Z0-9_-]+)/g;

/**
 * Judges the resources a construct has just built (`own`) with the Terraform rules of object
 * scope, beside the blocks they refer to and the stack's provider configurations, and throws every
 * violation of an `own` resource as one `HybridConfigError` naming the construct path, the prop
 * behind the field (`props`: `<resource type> <field>` to prop), the resource and the fix. The
 * same rules judge the stack's final JSON at synth (`judgeStackAtSynth`).
 */
export function judgeOwnResources(construct: IConstruct, own: readonly TerraformElement[], props: PropsOfFields): void {
  const stack = TerraformStack.of(construct);
  const mine = new Set(own.map((e) => e.node.path));
  const json = renderElements(stack, own);
  const references = [...JSON.stringify(json).matchAll(REFERENCE)];
  const referenced = new Set(references.map((m) => `${m[1] ?? ''}${m[2]}.${m[3]}`));
  const types = new Set(references.map((m) => m[2]));
  // The type first: a logical id costs a hash.
  const context = stack.node.findAll().filter((c): c is TerraformElement => !mine.has(c.node.path)
    && (TerraformProvider.isTerraformProvider(c) || (types.has((c as Partial<TerraformResource>).terraformResourceType ?? '') && referenced.has(addressOf(stack, c) ?? ''))));
  renderElements(stack, context, json);
  const violations = validateTerraform(json, { rules: TERRAFORM_RULES.filter((r) => r.scope === 'object') })
    .filter((v) => v.path !== undefined && mine.has(v.path));
  const error = refusal(construct.node.path, violations, props, (v) => `${v.kind}.${v.name}`);
  if (error) throw error;
}
