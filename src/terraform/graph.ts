import { calendarDay } from '../platform/calendar';
import type { Json } from '../rules/engine/graph';
import { Finding, Rule, whatAndFix } from '../rules/engine/rule';

/**
 * A stack's Terraform JSON as `cdktf synth` writes it (`cdk.tf.json`) or `TerraformStack.toTerraform()`
 * returns it: `resource.<type>.<logical id>`, `data.<type>.<logical id>`, `provider.<name>[]`, the
 * `terraform` block, and cdktf's `//` metadata (each block's construct path, the stack's name).
 * Read loosely: a rule never assumes a field is present.
 */
export interface TerraformJson {
  /** Resources: `resource.<type>.<logical id>`, each block's arguments and cdktf's `//` metadata. */
  readonly resource?: Readonly<Record<string, Readonly<Record<string, Json>>>>;
  /** Data sources: `data.<type>.<logical id>`. */
  readonly data?: Readonly<Record<string, Readonly<Record<string, Json>>>>;
  /** Provider configurations: `provider.<name>`, a list (one per alias). */
  readonly provider?: Readonly<Record<string, readonly Json[]>>;
  /** The `terraform` block: `required_providers`, the backend. */
  readonly terraform?: Json;
  readonly [key: string]: Json;
}

/** One resource or data source as written, with its address and what cdktf knows of it. */
export interface TerraformBlock {
  /** `resource`, `data`, or `provider` (a provider configuration). */
  readonly mode: 'resource' | 'data' | 'provider';
  /** The resource type, e.g. `aws_eks_node_group`; for a provider configuration, the provider's name (`aws`). */
  readonly type: string;
  /** The logical id (the block's key under its type); for a provider configuration, its alias or `default`. */
  readonly id: string;
  /** The block's arguments as written (after overrides). */
  readonly body: Json;
  /** The stack it is in: the stack's name from cdktf's metadata, else its index among the stacks given. */
  readonly stack: string;
  /**
   * Construct path of the block, from cdktf's `//` metadata.
   * @default - messages name the block's address
   */
  readonly path?: string;
}

/** A rule over one or more stacks' Terraform JSON (`rule()` in the engine defines this library's). */
export type TerraformRule = Rule<TerraformGraph>;

/** A Terraform reference `${<type>.<id>.<attribute...>}` or `${data.<type>.<id>.<attribute...>}`, the whole string. */
const REFERENCE = /^\$\{(data\.)?([a-zA-Z0-9_-]+)\.([a-zA-Z0-9_-]+)((?:\.[a-zA-Z0-9_-]+|\[\d+\])*)\}$/;

/** True for a string Terraform evaluates at plan or apply time (`${...}`): its value is unknown here. */
export function isExpression(value: unknown): boolean {
  return typeof value === 'string' && value.includes('${');
}

/** The value when it is an array, else none: hand-edited JSON may hold anything anywhere. */
export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value : [];
}

/** A nested block as cdktf writes it: an object, or a list of one object (`scaling_config`, `vpc_config`). */
export function single(value: unknown): Json {
  const v = Array.isArray(value) ? value[0] : value;
  return v !== null && typeof v === 'object' ? v : {};
}

/**
 * The blocks of one or more stacks, indexed by type and by address, and the references between
 * them resolved (within a stack, as Terraform resolves them).
 */
export class TerraformGraph {
  /** Every block, in the order of the stacks and the JSON. */
  public readonly blocks: readonly TerraformBlock[];
  /** Each stack's JSON, by the name its blocks carry. */
  public readonly stacks: ReadonlyMap<string, TerraformJson>;
  private readonly byType = new Map<string, TerraformBlock[]>();
  private readonly byAddress = new Map<string, TerraformBlock>();

  /** The day (`YYYY-MM-DD`, UTC) the rules read dated facts on: the EKS and AKS release calendars. */
  public readonly day: string;

  public constructor(stacks: readonly TerraformJson[], day: string = calendarDay()) {
    this.day = day;
    const blocks: TerraformBlock[] = [];
    const named = new Map<string, TerraformJson>();
    stacks.forEach((json, index) => {
      const stack = String(json?.['//']?.metadata?.stackName ?? index);
      named.set(stack, json);
      for (const mode of ['resource', 'data'] as const) {
        for (const [type, byId] of Object.entries(json?.[mode] ?? {})) {
          for (const [id, body] of Object.entries(byId ?? {})) {
            const path = body?.['//']?.metadata?.path;
            const block: TerraformBlock = { mode, type, id, body: body ?? {}, stack, path: typeof path === 'string' ? path : undefined };
            blocks.push(block);
            const key = mode === 'data' ? `data.${type}` : type;
            this.byType.set(key, [...(this.byType.get(key) ?? []), block]);
            this.byAddress.set(`${stack}|${key}.${id}`, block);
          }
        }
      }
      for (const [name, configs] of Object.entries(json?.provider ?? {})) {
        for (const body of list(configs)) {
          const path = body?.['//']?.metadata?.path;
          const block: TerraformBlock = { mode: 'provider', type: name, id: typeof body?.alias === 'string' ? body.alias : 'default', body: body ?? {}, stack, path: typeof path === 'string' ? path : undefined };
          blocks.push(block);
          this.byType.set(`provider.${name}`, [...(this.byType.get(`provider.${name}`) ?? []), block]);
        }
      }
    });
    this.blocks = blocks;
    this.stacks = named;
  }

  /** Every resource of a type (`data.<type>` for data sources, `provider.<name>` for provider configurations). */
  public ofType(type: string): TerraformBlock[] {
    return this.byType.get(type) ?? [];
  }

  /**
   * The block a whole-string reference such as `${aws_subnet.a.id}` names in `from`'s stack, or
   * undefined. A cross-stack reference (cdktf writes `${data.terraform_remote_state.<input>.outputs.<output>}`
   * and, in the producing stack, an output whose value is the reference) is followed to the
   * block in the producing stack when that stack is in the graph; otherwise it is the
   * `terraform_remote_state` block, whose outputs are known at plan time only.
   */
  public resolve(from: TerraformBlock | string, reference: unknown): TerraformBlock | undefined {
    const m = typeof reference === 'string' ? REFERENCE.exec(reference) : null;
    if (!m) return undefined;
    const stack = typeof from === 'string' ? from : from.stack;
    const target = this.byAddress.get(`${stack}|${m[1] ? 'data.' : ''}${m[2]}.${m[3]}`);
    const output = /^\.outputs\.([a-zA-Z0-9_-]+)$/.exec(m[4] ?? '')?.[1];
    if (target?.mode !== 'data' || target.type !== 'terraform_remote_state' || output === undefined) return target;
    for (const [name, json] of this.stacks) {
      const value = name === stack ? undefined : json?.output?.[output]?.value;
      if (typeof value === 'string' && REFERENCE.test(value)) return this.resolve(name, value) ?? target;
    }
    return target;
  }

  /** The attribute a whole-string reference reads (`id` of `${aws_subnet.a.id}`), or undefined. */
  public static attributeOf(reference: unknown): string | undefined {
    const m = typeof reference === 'string' ? REFERENCE.exec(reference) : null;
    return m?.[4] ? m[4].replace(/^\./, '') : undefined;
  }

  /** The reference `${<type>.<id>.<attribute>}` to a block, as other blocks write it. */
  public static reference(block: TerraformBlock, attribute: string): string {
    return `\${${block.mode === 'data' ? 'data.' : ''}${block.type}.${block.id}.${attribute}}`;
  }

  /** The `terraform` block of a block's stack (`required_providers`, the backend). */
  public terraformOf(block: TerraformBlock | string): Json {
    return this.stacks.get(typeof block === 'string' ? block : block.stack)?.terraform ?? {};
  }

  /**
   * The configuration of provider `name` that a block uses: the one of the alias in its
   * `provider` argument (`aws.west`), else the one without an alias.
   */
  public providerOf(block: TerraformBlock, name: string): TerraformBlock | undefined {
    const alias = typeof block.body.provider === 'string' && block.body.provider.startsWith(`${name}.`) ? block.body.provider.slice(name.length + 1) : 'default';
    return this.ofType(`provider.${name}`).find((p) => p.stack === block.stack && p.id === alias);
  }
}

/** `<type>.<id>` (`data.<type>.<id>`, `provider.<name>[.<alias>]`), as Terraform names the block. */
export function address(block: TerraformBlock): string {
  if (block.mode === 'provider') return `provider.${block.type}${block.id === 'default' ? '' : `.${block.id}`}`;
  return `${block.mode === 'data' ? 'data.' : ''}${block.type}.${block.id}`;
}

/**
 * Each block whose key an earlier block of `blocks` already has, with that earlier block: the
 * names a cloud takes once per scope (`keyOf` gives undefined for a block that cannot be judged).
 */
export function repeatedKeys(blocks: readonly TerraformBlock[], keyOf: (block: TerraformBlock) => string | undefined): Array<[TerraformBlock, TerraformBlock]> {
  const first = new Map<string, TerraformBlock>();
  const out: Array<[TerraformBlock, TerraformBlock]> = [];
  for (const block of blocks) {
    const key = keyOf(block);
    if (key === undefined) continue;
    const earlier = first.get(key);
    if (earlier) out.push([block, earlier]);
    else first.set(key, block);
  }
  return out;
}

/**
 * A violation of `rule` by `block`, in the one error shape: `kind` is the resource type
 * (`data.<type>` for a data source, `provider` for a provider configuration) and `name` the
 * logical id (the provider's name and alias), so that `<kind>.<name>` is the block's address.
 */
export function blockViolation(block: TerraformBlock, what: string, fix: string, field?: string): Finding {
  const [kind, name] = block.mode === 'provider' ? ['provider', address(block).slice('provider.'.length)]
    : [block.mode === 'data' ? `data.${block.type}` : block.type, block.id];
  return { kind, name, path: block.path, ...whatAndFix(what, fix), field };
}
