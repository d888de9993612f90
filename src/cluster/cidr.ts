/** An IPv4 CIDR block as a closed range of addresses. */
export interface Ipv4Range {
  readonly first: number;
  readonly last: number;
}

/** Parses `a.b.c.d/n`; undefined unless it is a valid IPv4 CIDR whose address is the network's. */
export function parseIpv4Cidr(cidr: string): Ipv4Range | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix > 32) return undefined;
  const address = octets.reduce((acc, o) => acc * 256 + o, 0);
  const size = 2 ** (32 - prefix);
  if (address % size !== 0) return undefined;
  return { first: address, last: address + size - 1 };
}

export function rangesOverlap(a: Ipv4Range, b: Ipv4Range): boolean {
  return a.first <= b.last && b.first <= a.last;
}
