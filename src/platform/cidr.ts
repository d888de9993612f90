/**
 * IPv4 CIDR arithmetic for carving the cluster's subnets. Done in TypeScript rather than with
 * Terraform's `cidrsubnet` so that a layout that cannot work fails at synth time with a message,
 * instead of at `terraform apply` after half the network exists.
 */

/** AWS accepts VPC and subnet blocks between /16 and /28. */
export const AWS_LARGEST_PREFIX = 16;
export const AWS_SMALLEST_PREFIX = 28;

/** An IPv4 block: `network` is the first address as an unsigned 32-bit number. */
export interface Ipv4Cidr {
  readonly network: number;
  readonly prefix: number;
}

const CIDR_PATTERN = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** Parses `a.b.c.d/n`; throws with the reason and, for host bits, the block that was meant. */
export function parseCidr(text: string): Ipv4Cidr {
  const match = CIDR_PATTERN.exec(text);
  if (!match) throw new Error(`"${text}" is not an IPv4 CIDR block like 10.0.0.0/16`);
  const octets = match.slice(1, 5).map((o) => {
    if (o.length > 1 && o.startsWith('0')) throw new Error(`"${text}" has an octet with a leading zero (${o})`);
    return Number(o);
  });
  if (octets.some((o) => o > 255)) throw new Error(`"${text}" has an octet above 255`);
  const prefix = Number(match[5]);
  if (prefix > 32) throw new Error(`"${text}" has a prefix length above 32`);
  const address = octets.reduce((acc, o) => acc * 256 + o, 0);
  const network = address - (address % blockSize(prefix));
  if (network !== address) {
    throw new Error(`"${text}" has host bits set: did you mean ${formatCidr({ network, prefix })}?`);
  }
  return { network, prefix };
}

export function formatCidr(cidr: Ipv4Cidr): string {
  const octets = [24, 16, 8, 0].map((shift) => Math.floor(cidr.network / 2 ** shift) % 256);
  return `${octets.join('.')}/${cidr.prefix}`;
}

/** Number of addresses in a block of this prefix length. */
export function blockSize(prefix: number): number {
  return 2 ** (32 - prefix);
}

export function cidrContains(outer: Ipv4Cidr, inner: Ipv4Cidr): boolean {
  return inner.prefix >= outer.prefix && inner.network >= outer.network &&
    inner.network + blockSize(inner.prefix) <= outer.network + blockSize(outer.prefix);
}

export function cidrsOverlap(a: Ipv4Cidr, b: Ipv4Cidr): boolean {
  return a.network < b.network + blockSize(b.prefix) && b.network < a.network + blockSize(a.prefix);
}

/**
 * Allocates one aligned block per requested prefix length inside `parent`, largest first so that
 * every block starts on its own boundary without gaps; results come back in request order.
 * Throws when the blocks do not fit.
 */
export function carveBlocks(parent: Ipv4Cidr, prefixes: readonly number[]): Ipv4Cidr[] {
  const order = prefixes.map((prefix, index) => ({ prefix, index })).sort((a, b) => a.prefix - b.prefix || a.index - b.index);
  const result: Ipv4Cidr[] = new Array(prefixes.length);
  const end = parent.network + blockSize(parent.prefix);
  let cursor = parent.network;
  for (const { prefix, index } of order) {
    if (prefix < parent.prefix || cursor + blockSize(prefix) > end) {
      const needed = prefixes.reduce((sum, p) => sum + blockSize(p), 0);
      throw new Error(
        `${prefixes.length} subnets (/${[...new Set(prefixes)].join(', /')}) need ${needed} addresses; ` +
          `${formatCidr(parent)} has ${blockSize(parent.prefix)}`,
      );
    }
    result[index] = { network: cursor, prefix };
    cursor += blockSize(prefix);
  }
  return result;
}
