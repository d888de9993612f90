import {
  AWS_LARGEST_PREFIX,
  AWS_SMALLEST_PREFIX,
  Ipv4Cidr,
  blockSize,
  carveBlocks,
  cidrContains,
  cidrsOverlap,
  formatCidr,
  parseCidr,
} from '../platform/cidr';
import { fail } from '../core/errors';

/**
 * The parts of the network props that decide the address layout.
 * @internal
 */
export interface SubnetPlanInput {
  /** The VPC block, e.g. `10.0.0.0/16`. */
  readonly vpcCidr: string;
  /** Availability zones: one public and one private block each. */
  readonly zoneCount: number;
  /**
   * Prefix length of the carved public blocks.
   * @default - the VPC's prefix + 5, at most 28
   */
  readonly publicSubnetPrefixLength?: number;
  /**
   * Prefix length of the carved private blocks.
   * @default - the VPC's prefix + 3, at most 28
   */
  readonly privateSubnetPrefixLength?: number;
  /**
   * Explicit public blocks, one per zone (together with `privateSubnetCidrs`).
   * @default - carved
   */
  readonly publicSubnetCidrs?: readonly string[];
  /**
   * Explicit private blocks, one per zone (together with `publicSubnetCidrs`).
   * @default - carved
   */
  readonly privateSubnetCidrs?: readonly string[];
}

/** One public and one private block per availability zone, in zone order. */
export interface SubnetPlan {
  /** The VPC block, normalized. */
  readonly vpcCidr: string;
  /** Public blocks, one per zone. */
  readonly publicSubnetCidrs: string[];
  /** Private blocks, one per zone. */
  readonly privateSubnetCidrs: string[];
}

/**
 * Private (node) subnets default to 1/8 of the VPC and public (load balancer, NAT) subnets to
 * 1/32: nodes need the addresses, and up to six zones still fit. Never smaller than AWS allows.
 * @internal
 */
export function defaultPrefixLengths(vpcPrefix: number): { public: number; private: number } {
  return {
    private: Math.min(vpcPrefix + 3, AWS_SMALLEST_PREFIX),
    public: Math.min(vpcPrefix + 5, AWS_SMALLEST_PREFIX),
  };
}

/**
 * Decides every subnet's CIDR block, or throws a `HybridConfigError` for `path` (the construct
 * that took the props) naming the offending prop (as `network.<prop>`), its value and the fix.
 * @internal
 */
export function planSubnets(input: SubnetPlanInput, path = 'network'): SubnetPlan {
  const refuse: Refuse = (what, fix) => fail(path, what, fix);
  const { zoneCount } = input;
  if (!Number.isInteger(zoneCount) || zoneCount < 1) {
    refuse(`network.availabilityZoneCount is ${zoneCount}: a cluster needs subnets in at least one availability zone (two or more for high availability)`, 'set it to 2 or more');
  }
  const vpc = parse('vpcCidr', input.vpcCidr, refuse);
  if (vpc.prefix < AWS_LARGEST_PREFIX || vpc.prefix > AWS_SMALLEST_PREFIX) {
    refuse(`network.vpcCidr "${input.vpcCidr}" is a /${vpc.prefix}: AWS VPCs must be between /${AWS_LARGEST_PREFIX} and /${AWS_SMALLEST_PREFIX}`, 'use e.g. 10.0.0.0/16');
  }

  const explicit = input.publicSubnetCidrs !== undefined || input.privateSubnetCidrs !== undefined;
  if (explicit) {
    if (input.publicSubnetCidrs === undefined || input.privateSubnetCidrs === undefined) {
      refuse('network.publicSubnetCidrs and network.privateSubnetCidrs go together', 'give both lists, or neither to have them carved');
    }
    if (input.publicSubnetPrefixLength !== undefined || input.privateSubnetPrefixLength !== undefined) {
      refuse('network.*SubnetPrefixLength only applies to carved subnets', 'drop it, or drop network.*SubnetCidrs');
    }
    const publicBlocks = explicitBlocks('publicSubnetCidrs', input.publicSubnetCidrs, vpc, zoneCount, refuse);
    const privateBlocks = explicitBlocks('privateSubnetCidrs', input.privateSubnetCidrs, vpc, zoneCount, refuse);
    const all = [
      ...publicBlocks.map((b, i) => ({ b, name: `publicSubnetCidrs[${i}]` })),
      ...privateBlocks.map((b, i) => ({ b, name: `privateSubnetCidrs[${i}]` })),
    ];
    for (let i = 0; i < all.length; i++) {
      for (let j = i + 1; j < all.length; j++) {
        if (cidrsOverlap(all[i].b, all[j].b)) {
          refuse(`network.${all[i].name} (${formatCidr(all[i].b)}) overlaps network.${all[j].name} (${formatCidr(all[j].b)})`, 'give subnets that share no addresses');
        }
      }
    }
    return { vpcCidr: formatCidr(vpc), publicSubnetCidrs: publicBlocks.map(formatCidr), privateSubnetCidrs: privateBlocks.map(formatCidr) };
  }

  const minimum = zoneCount * 2 * blockSize(AWS_SMALLEST_PREFIX);
  if (blockSize(vpc.prefix) < minimum) {
    refuse(`network.vpcCidr "${input.vpcCidr}" is too small for ${zoneCount} zone(s): one public and one private /${AWS_SMALLEST_PREFIX} per zone need ${minimum} addresses`, 'use a larger VPC or fewer zones');
  }
  const defaults = defaultPrefixLengths(vpc.prefix);
  const publicPrefix = prefixLength('publicSubnetPrefixLength', input.publicSubnetPrefixLength ?? defaults.public, vpc, refuse);
  const privatePrefix = prefixLength('privateSubnetPrefixLength', input.privateSubnetPrefixLength ?? defaults.private, vpc, refuse);
  let blocks: Ipv4Cidr[];
  try {
    blocks = carveBlocks(vpc, [...Array(zoneCount).fill(privatePrefix), ...Array(zoneCount).fill(publicPrefix)]);
  } catch (e) {
    refuse(`network.vpcCidr "${input.vpcCidr}" is too small for ${zoneCount} zone(s) of /${privatePrefix} private and /${publicPrefix} public subnets: ${(e as Error).message}`,
      'use a larger VPC, fewer zones or longer network.*SubnetPrefixLength');
  }
  return {
    vpcCidr: formatCidr(vpc),
    privateSubnetCidrs: blocks.slice(0, zoneCount).map(formatCidr),
    publicSubnetCidrs: blocks.slice(zoneCount).map(formatCidr),
  };
}

type Refuse = (what: string, fix: string) => never;

function parse(prop: string, text: string, refuse: Refuse): Ipv4Cidr {
  try {
    return parseCidr(text);
  } catch (e) {
    return refuse(`network.${prop}: ${(e as Error).message}`, 'give an IPv4 CIDR block such as 10.0.0.0/16');
  }
}

function prefixLength(prop: string, value: number, vpc: Ipv4Cidr, refuse: Refuse): number {
  if (!Number.isInteger(value) || value <= vpc.prefix || value > AWS_SMALLEST_PREFIX) {
    refuse(`network.${prop} is ${value}: with a /${vpc.prefix} VPC it must be a whole number from ${vpc.prefix + 1} to ${AWS_SMALLEST_PREFIX} (AWS's smallest subnet)`, 'choose a prefix length in that range');
  }
  return value;
}

function explicitBlocks(prop: string, cidrs: readonly string[], vpc: Ipv4Cidr, zoneCount: number, refuse: Refuse): Ipv4Cidr[] {
  if (cidrs.length !== zoneCount) {
    refuse(`network.${prop} has ${cidrs.length} block(s) for ${zoneCount} availability zone(s)`, 'give exactly one per zone');
  }
  return cidrs.map((text, i) => {
    const block = parse(`${prop}[${i}]`, text, refuse);
    if (!cidrContains(vpc, block)) refuse(`network.${prop}[${i}] "${text}" is not inside the VPC ${formatCidr(vpc)}`, 'pick a block within it');
    if (block.prefix > AWS_SMALLEST_PREFIX) {
      refuse(`network.${prop}[${i}] "${text}" is smaller than AWS's smallest subnet (/${AWS_SMALLEST_PREFIX})`, `use /${AWS_SMALLEST_PREFIX} or larger`);
    }
    return block;
  });
}
