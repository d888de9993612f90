import { Testing, TerraformStack } from 'cdktn';

/** Synthesized Terraform JSON, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TfJson = { resource?: Record<string, Record<string, any>>; data?: Record<string, Record<string, any>>; output?: Record<string, any>; provider?: Record<string, any[]>; [k: string]: any };

/**
 * Synthesizes one stack with construct validations on (plain `Testing.synth` skips them, unlike
 * `cdktf synth`), without metadata, and parses it.
 */
export function synthTf(stack: TerraformStack): TfJson {
  return JSON.parse(Testing.synth(stack, true));
}

/** Every resource (or data source) of a type, in logical-id order; [] when there are none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function all(tf: TfJson, type: string, kind: 'resource' | 'data' = 'resource'): any[] {
  return Object.values(tf[kind]?.[type] ?? {});
}

/** The Terraform reference `${<type>.<logicalId>.<attribute>}` of the one block whose property matches. */
export function refTo(tf: TfJson, type: string, match: (block: Record<string, unknown>) => boolean, attribute = 'id'): string {
  const found = Object.entries(tf.resource?.[type] ?? {}).filter(([, block]) => match(block));
  if (found.length !== 1) throw new Error(`expected one ${type} matching, found ${found.length}`);
  return `\${${type}.${found[0][0]}.${attribute}}`;
}

/** The Terraform reference `${data.<type>.<logicalId>.<attribute>}` of the only data source of a type. */
export function dataRef(tf: TfJson, type: string, attribute: string): string {
  const ids = Object.keys(tf.data?.[type] ?? {});
  if (ids.length !== 1) throw new Error(`expected one data.${type}, found ${ids.length}`);
  return `\${data.${type}.${ids[0]}.${attribute}}`;
}

/** The message `build` throws (at construction or at a synth it runs), or '' when it throws nothing. */
export function thrownMessage(build: () => unknown): string {
  try {
    build();
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}
