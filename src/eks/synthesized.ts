import type { IConstruct } from 'constructs';
import { TerraformStack } from '../terraform';

/** A synthesized Terraform block, loosely typed: the checks read what escape hatches may have changed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Block = Record<string, any>;

/** The part of a stack's Terraform JSON the checks read. */
export interface SynthesizedStack {
  readonly resource: Readonly<Record<string, Readonly<Record<string, Block>>>>;
  /** The `terraform` block: `required_providers`, the backend. */
  readonly terraform: Block;
}

/** A resource as the checks find it in the JSON: its type and logical id. */
export interface ResourceAddress {
  readonly terraformResourceType: string;
  readonly friendlyUniqueId: string;
}

const cache = new WeakMap<TerraformStack, SynthesizedStack>();

/**
 * The stack's final Terraform JSON (after `addOverride`, `overrideLogicalId` and every other
 * escape hatch), as `cdktf synth` writes it. `fresh` renders it anew: the cluster's validation
 * does, and cdktf runs it before those of its node groups (`TerraformStack.runAllValidations`
 * walks the tree parent first), which then share that rendering instead of making their own.
 */
export function synthesizedStack(scope: IConstruct, fresh = false): SynthesizedStack {
  const stack = TerraformStack.of(scope);
  let found = fresh ? undefined : cache.get(stack);
  if (found === undefined) {
    const tf = stack.toTerraform() as Partial<SynthesizedStack>;
    found = { resource: tf.resource ?? {}, terraform: tf.terraform ?? {} };
    cache.set(stack, found);
    queueMicrotask(() => cache.delete(stack));
  }
  return found;
}

/** Every synthesized block of one resource type. */
export function blocksOf(tf: SynthesizedStack, type: string): Block[] {
  return Object.values(tf.resource[type] ?? {});
}

/** The synthesized block of one resource, by its logical id; undefined if it was removed. */
export function blockOf(tf: SynthesizedStack, resource: ResourceAddress): Block | undefined {
  return tf.resource[resource.terraformResourceType]?.[resource.friendlyUniqueId];
}

/** The Terraform expression `${<type>.<logical id>.<attribute>}` other blocks use to refer to a resource. */
export function reference(resource: ResourceAddress, attribute: string): string {
  return `\${${resource.terraformResourceType}.${resource.friendlyUniqueId}.${attribute}}`;
}
