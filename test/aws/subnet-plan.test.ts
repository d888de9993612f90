import fc from 'fast-check';
import { carveBlocks, cidrContains, cidrsOverlap, formatCidr, parseCidr } from '../../src/platform/cidr';
import { planSubnets } from '../../src/aws/subnet-plan';

describe('parseCidr', () => {
  test.each([
    ['10.0.0.0/16', 10 * 2 ** 24, 16],
    ['192.168.4.0/22', 192 * 2 ** 24 + 168 * 2 ** 16 + 4 * 2 ** 8, 22],
    ['0.0.0.0/0', 0, 0],
  ])('%s', (text, network, prefix) => {
    expect(parseCidr(text)).toEqual({ network, prefix });
    expect(formatCidr(parseCidr(text))).toBe(text);
  });

  test.each([
    ['10.0.0/16', 'is not an IPv4 CIDR block like 10.0.0.0/16'],
    ['10.0.0.0', 'is not an IPv4 CIDR block'],
    ['10.0.256.0/24', 'has an octet above 255'],
    ['10.0.0.0/33', 'has a prefix length above 32'],
    ['10.00.0.0/16', 'leading zero'],
    ['10.0.0.1/16', 'has host bits set: did you mean 10.0.0.0/16?'],
  ])('rejects %s', (text, message) => {
    expect(() => parseCidr(text)).toThrow(message);
  });
});

describe('planSubnets', () => {
  test('defaults: /19 private and /21 public per zone in a /16, private first', () => {
    expect(planSubnets({ vpcCidr: '10.0.0.0/16', zoneCount: 3 })).toEqual({
      vpcCidr: '10.0.0.0/16',
      privateSubnetCidrs: ['10.0.0.0/19', '10.0.32.0/19', '10.0.64.0/19'],
      publicSubnetCidrs: ['10.0.96.0/21', '10.0.104.0/21', '10.0.112.0/21'],
    });
  });

  test('public blocks larger than private ones are still aligned', () => {
    expect(planSubnets({ vpcCidr: '10.1.0.0/20', zoneCount: 2, publicSubnetPrefixLength: 22, privateSubnetPrefixLength: 24 })).toEqual({
      vpcCidr: '10.1.0.0/20',
      publicSubnetCidrs: ['10.1.0.0/22', '10.1.4.0/22'],
      privateSubnetCidrs: ['10.1.8.0/24', '10.1.9.0/24'],
    });
  });

  test('explicit blocks are kept as given', () => {
    const plan = planSubnets({
      vpcCidr: '10.0.0.0/16',
      zoneCount: 2,
      publicSubnetCidrs: ['10.0.0.0/24', '10.0.1.0/24'],
      privateSubnetCidrs: ['10.0.128.0/18', '10.0.192.0/18'],
    });
    expect(plan.publicSubnetCidrs).toEqual(['10.0.0.0/24', '10.0.1.0/24']);
    expect(plan.privateSubnetCidrs).toEqual(['10.0.128.0/18', '10.0.192.0/18']);
  });

  test.each([
    [{ vpcCidr: '10.0.0.0/16', zoneCount: 0 }, 'network.availabilityZoneCount is 0: a cluster needs subnets in at least one availability zone'],
    [{ vpcCidr: '10.0.0.0/16', zoneCount: 1.5 }, 'network.availabilityZoneCount is 1.5'],
    [{ vpcCidr: 'ten/16', zoneCount: 2 }, 'network.vpcCidr: "ten/16" is not an IPv4 CIDR block'],
    [{ vpcCidr: '10.0.0.1/16', zoneCount: 2 }, 'network.vpcCidr: "10.0.0.1/16" has host bits set: did you mean 10.0.0.0/16?'],
    [{ vpcCidr: '10.0.0.0/8', zoneCount: 2 }, 'network.vpcCidr "10.0.0.0/8" is a /8: AWS VPCs must be between /16 and /28'],
    [{ vpcCidr: '10.0.0.0/28', zoneCount: 2 }, 'network.vpcCidr "10.0.0.0/28" is too small for 2 zone(s): one public and one private /28 per zone need 64 addresses'],
    [{ vpcCidr: '10.0.0.0/16', zoneCount: 7 }, 'network.vpcCidr "10.0.0.0/16" is too small for 7 zone(s) of /19 private and /21 public subnets'],
    [{ vpcCidr: '10.0.0.0/16', zoneCount: 2, publicSubnetPrefixLength: 29 }, 'network.publicSubnetPrefixLength is 29: with a /16 VPC it must be a whole number from 17 to 28'],
    [{ vpcCidr: '10.0.0.0/16', zoneCount: 2, privateSubnetPrefixLength: 16 }, 'network.privateSubnetPrefixLength is 16'],
    [{ vpcCidr: '10.0.0.0/16', zoneCount: 2, publicSubnetCidrs: ['10.0.0.0/24', '10.0.1.0/24'] }, 'go together'],
    [
      { vpcCidr: '10.0.0.0/16', zoneCount: 2, publicSubnetCidrs: ['10.0.0.0/24'], privateSubnetCidrs: ['10.0.8.0/24', '10.0.9.0/24'] },
      'network.publicSubnetCidrs has 1 block(s) for 2 availability zone(s). Fix: give exactly one per zone',
    ],
    [
      { vpcCidr: '10.0.0.0/16', zoneCount: 2, publicSubnetCidrs: ['10.0.0.0/24', '10.1.0.0/24'], privateSubnetCidrs: ['10.0.8.0/24', '10.0.9.0/24'] },
      'network.publicSubnetCidrs[1] "10.1.0.0/24" is not inside the VPC 10.0.0.0/16',
    ],
    [
      { vpcCidr: '10.0.0.0/16', zoneCount: 2, publicSubnetCidrs: ['10.0.0.0/24', '10.0.1.0/24'], privateSubnetCidrs: ['10.0.0.0/20', '10.0.16.0/20'] },
      'network.publicSubnetCidrs[0] (10.0.0.0/24) overlaps network.privateSubnetCidrs[0] (10.0.0.0/20)',
    ],
    [
      { vpcCidr: '10.0.0.0/16', zoneCount: 2, publicSubnetCidrs: ['10.0.0.0/29', '10.0.1.0/24'], privateSubnetCidrs: ['10.0.8.0/24', '10.0.9.0/24'] },
      'network.publicSubnetCidrs[0] "10.0.0.0/29" is smaller than AWS\'s smallest subnet (/28)',
    ],
  ])('%j is rejected', (input, message) => {
    expect(() => planSubnets(input)).toThrow(message);
  });

  test('property: any VPC and zone count yields either an explained error or disjoint subnets inside the VPC', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const address = fc.tuple(octet, octet, octet, octet, fc.integer({ min: 14, max: 29 }));
    // Mostly well-formed networks (host bits cleared), sometimes raw addresses with host bits.
    const network = address.map(([a, b, c, d, p]) => formatCidr({ network: ((a * 2 ** 24 + b * 2 ** 16 + c * 2 ** 8 + d) >>> (32 - p)) * 2 ** (32 - p), prefix: p }));
    const raw = address.map(([a, b, c, d, p]) => `${a}.${b}.${c}.${d}/${p}`);
    let planned = 0;
    const input = fc.record({
      vpcCidr: fc.oneof({ arbitrary: network, weight: 4 }, { arbitrary: raw, weight: 1 }),
      zoneCount: fc.integer({ min: 0, max: 8 }),
      publicSubnetPrefixLength: fc.option(fc.integer({ min: 15, max: 29 }), { nil: undefined, freq: 2 }),
      privateSubnetPrefixLength: fc.option(fc.integer({ min: 15, max: 29 }), { nil: undefined, freq: 2 }),
    });
    fc.assert(
      fc.property(input, (props) => {
        let plan;
        try {
          plan = planSubnets(props);
        } catch (e) {
          // Every refusal names the prop at fault and says what to do.
          expect((e as Error).message).toMatch(/^\[network\] network\.\w+.*\. Fix: .{5,}/);
          return;
        }
        planned++;
        const vpc = parseCidr(plan.vpcCidr);
        const subnets = [...plan.publicSubnetCidrs, ...plan.privateSubnetCidrs].map(parseCidr);
        expect(plan.publicSubnetCidrs).toHaveLength(props.zoneCount);
        expect(plan.privateSubnetCidrs).toHaveLength(props.zoneCount);
        for (const [i, s] of subnets.entries()) {
          expect(cidrContains(vpc, s)).toBe(true);
          expect(s.prefix).toBeLessThanOrEqual(28);
          for (const t of subnets.slice(i + 1)) expect(cidrsOverlap(s, t)).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
    // The generator must reach the success path often enough for the property to mean something.
    expect(planned).toBeGreaterThan(60);
  });
});

describe('carveBlocks', () => {
  test('returns blocks in request order and refuses when full', () => {
    const parent = parseCidr('10.0.0.0/24');
    expect(carveBlocks(parent, [26, 25, 26]).map(formatCidr)).toEqual(['10.0.0.128/26', '10.0.0.0/25', '10.0.0.192/26']);
    expect(() => carveBlocks(parent, [25, 25, 26])).toThrow('3 subnets (/25, /26) need 320 addresses; 10.0.0.0/24 has 256');
  });
});
