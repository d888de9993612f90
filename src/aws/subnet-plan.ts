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

/** The parts of the network props that decide the address layout. */
export interface SubnetPlanInput {
  readonly vpcCidr: string;
  readonly zoneCount: number;
  readonly publicSubnetPrefixLength?: number;
  readonly privateSubnetPrefixLength?: number;
  readonly publicSubnetCidrs?: readonly string[];
  readonly privateSubnetCidrs?: readonly string[];
}

/** One public and one private block per availability zone, in zone order. */
export interface SubnetPlan {
  readonly vpcCidr: string;
  readonly publicSubnetCidrs: string[];
  readonly privateSubnetCidrs: string[];
}

/**
 * Private (node) subnets default to 1/8 of the VPC and public (load balancer, NAT) subnets to
 * 1/32: nodes need the addresses, and up to six zones still fit. Never smaller than AWS allows.
 */
export function defaultPrefixLengths(vpcPrefix: number): { public: number; private: number } {
  return {
    private: Math.min(vpcPrefix + 3, AWS_SMALLEST_PREFIX),
    public: Math.min(vpcPrefix + 5, AWS_SMALLEST_PREFIX),
  };
}

/**
 * Decides every subnet's CIDR block, or throws an error that names the offending prop (as
 * `network.<prop>`), its value and what to change.
 */
export function planSubnets(input: SubnetPlanInput): SubnetPlan {
  const { zoneCount } = input;
  if (!Number.isInteger(zoneCount) || zoneCount < 1) {
    throw new Error(
      `network.availabilityZoneCount is ${zoneCount}: a cluster needs subnets in at least one availability zone (two or more for high availability); set it to 2 or more`,
    );
  }
  const vpc = parse('vpcCidr', input.vpcCidr);
  if (vpc.prefix < AWS_LARGEST_PREFIX || vpc.prefix > AWS_SMALLEST_PREFIX) {
    throw new Error(
      `network.vpcCidr "${input.vpcCidr}" is a /${vpc.prefix}: AWS VPCs must be between /${AWS_LARGEST_PREFIX} and /${AWS_SMALLEST_PREFIX}; use e.g. 10.0.0.0/16`,
    );
  }

  const explicit = input.publicSubnetCidrs !== undefined || input.privateSubnetCidrs !== undefined;
  if (explicit) {
    if (input.publicSubnetCidrs === undefined || input.privateSubnetCidrs === undefined) {
      throw new Error('network.publicSubnetCidrs and network.privateSubnetCidrs go together: give both lists, or neither to have them carved');
    }
    if (input.publicSubnetPrefixLength !== undefined || input.privateSubnetPrefixLength !== undefined) {
      throw new Error('network.*SubnetPrefixLength only applies to carved subnets: drop it, or drop network.*SubnetCidrs');
    }
    const publicBlocks = explicitBlocks('publicSubnetCidrs', input.publicSubnetCidrs, vpc, zoneCount);
    const privateBlocks = explicitBlocks('privateSubnetCidrs', input.privateSubnetCidrs, vpc, zoneCount);
    const all = [
      ...publicBlocks.map((b, i) => ({ b, name: `publicSubnetCidrs[${i}]` })),
      ...privateBlocks.map((b, i) => ({ b, name: `privateSubnetCidrs[${i}]` })),
    ];
    for (let i = 0; i < all.length; i++) {
      for (let j = i + 1; j < all.length; j++) {
        if (cidrsOverlap(all[i].b, all[j].b)) {
          throw new Error(
            `network.${all[i].name} (${formatCidr(all[i].b)}) overlaps network.${all[j].name} (${formatCidr(all[j].b)}): subnets must not share addresses`,
          );
        }
      }
    }
    return { vpcCidr: formatCidr(vpc), publicSubnetCidrs: publicBlocks.map(formatCidr), privateSubnetCidrs: privateBlocks.map(formatCidr) };
  }

  const minimum = zoneCount * 2 * blockSize(AWS_SMALLEST_PREFIX);
  if (blockSize(vpc.prefix) < minimum) {
    throw new Error(
      `network.vpcCidr "${input.vpcCidr}" is too small for ${zoneCount} zone(s): one public and one private /${AWS_SMALLEST_PREFIX} per zone need ${minimum} addresses; use a larger VPC or fewer zones`,
    );
  }
  const defaults = defaultPrefixLengths(vpc.prefix);
  const publicPrefix = prefixLength('publicSubnetPrefixLength', input.publicSubnetPrefixLength ?? defaults.public, vpc);
  const privatePrefix = prefixLength('privateSubnetPrefixLength', input.privateSubnetPrefixLength ?? defaults.private, vpc);
  let blocks: Ipv4Cidr[];
  try {
    blocks = carveBlocks(vpc, [...Array(zoneCount).fill(privatePrefix), ...Array(zoneCount).fill(publicPrefix)]);
  } catch (e) {
    throw new Error(
      `network.vpcCidr "${input.vpcCidr}" is too small for ${zoneCount} zone(s) of /${privatePrefix} private and /${publicPrefix} public subnets: ` +
        `${(e as Error).message}. Use a larger VPC, fewer zones or longer network.*SubnetPrefixLength`,
    );
  }
  return {
    vpcCidr: formatCidr(vpc),
    privateSubnetCidrs: blocks.slice(0, zoneCount).map(formatCidr),
    publicSubnetCidrs: blocks.slice(zoneCount).map(formatCidr),
  };
}

function parse(prop: string, text: string): Ipv4Cidr {
  try {
    return parseCidr(text);
  } catch (e) {
    throw new Error(`network.${prop}: ${(e as Error).message}`);
  }
}

function prefixLength(prop: string, value: number, vpc: Ipv4Cidr): number {
  if (!Number.isInteger(value) || value <= vpc.prefix || value > AWS_SMALLEST_PREFIX) {
    throw new Error(
      `network.${prop} is ${value}: with a /${vpc.prefix} VPC it must be a whole number from ${vpc.prefix + 1} to ${AWS_SMALLEST_PREFIX} (AWS's smallest subnet)`,
    );
  }
  return value;
}

function explicitBlocks(prop: string, cidrs: readonly string[], vpc: Ipv4Cidr, zoneCount: number): Ipv4Cidr[] {
  if (cidrs.length !== zoneCount) {
    throw new Error(`network.${prop} has ${cidrs.length} block(s) for ${zoneCount} availability zone(s): give exactly one per zone`);
  }
  return cidrs.map((text, i) => {
    const block = parse(`${prop}[${i}]`, text);
    if (!cidrContains(vpc, block)) {
      throw new Error(`network.${prop}[${i}] "${text}" is not inside the VPC ${formatCidr(vpc)}: pick a block within it`);
    }
    if (block.prefix > AWS_SMALLEST_PREFIX) {
      throw new Error(`network.${prop}[${i}] "${text}" is smaller than AWS's smallest subnet (/${AWS_SMALLEST_PREFIX}): use /${AWS_SMALLEST_PREFIX} or larger`);
    }
    return block;
  });
}
