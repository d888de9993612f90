import * as fc from 'fast-check';
import { WindowsEdition, WindowsVersion } from '../../src';
import { EksIpFamily, EksLinuxNodeGroup, EksNodeRole, EksWindowsNodeGroup, NodeAccessEntryType } from '../../src/eks';
import { offShape } from '../support/message-shape';
import { eksStack, synthError } from './fixture';

/** Node-group props and cluster settings, with what makes them broken computed independently of the code. */
const scenario = fc.record({
  kubernetesMinor: fc.constantFrom(33, 34, 35),
  ipFamily: fc.constantFrom(EksIpFamily.IPV4, EksIpFamily.IPV6),
  linuxMinSize: fc.option(fc.constantFrom(0, 1, 2), { nil: undefined }), // undefined: no Linux group
  windowsVersion: fc.constantFrom(...Object.values(WindowsVersion)),
  edition: fc.constantFrom(...Object.values(WindowsEdition)),
  windowsType: fc.constantFrom('m6i.xlarge', 't3.large', 'c6i.large', 'm7g.large', 't3.medium', 'c6g.xlarge', 't3.small'),
  sharedRole: fc.boolean(),
  // An access entry the user gives the shared role before the groups exist.
  roleEntry: fc.constantFrom(undefined, NodeAccessEntryType.EC2_LINUX, NodeAccessEntryType.EC2_WINDOWS),
  // The hashicorp/aws constraint; undefined keeps the bindings' pin (6.66.0 with @cdktn/provider-aws 25;
  // 6.25.0 is what cdktf's @cdktf/provider-aws 21 writes).
  provider: fc.constantFrom(undefined, '6.25.0', '~> 6.25.0', '>= 6.33.0', '~> 6.0'),
});

// Expected facts, written from the platform rules rather than read from the code under test.
const PROVIDERS_BEFORE_2025_TYPES = new Set<string | undefined>(['6.25.0', '~> 6.25.0']); // hashicorp/aws of 2025-12, EKS API change of 2026-02-11
const GRAVITON = new Set(['m7g.large', 'c6g.xlarge']);
const UNDER_8_GIB = new Set(['t3.medium', 't3.small', 'c6i.large']); // c6i.large: 2 vCPU × 2 GiB

describe('property: the checks refuse every broken node-group combination and accept every working one', () => {
  test('over cluster version, IP family, provider version, Linux group size, Windows release/edition/instance type and role sharing', () => {
    const seen = { refused: 0, accepted: 0 };
    fc.assert(
      fc.property(scenario, (s) => {
        const stack = eksStack({ kubernetesVersion: `1.${s.kubernetesMinor}`, ipFamily: s.ipFamily });
        if (s.provider !== undefined) stack.addOverride('terraform.required_providers.aws.version', s.provider);
        const role = s.sharedRole ? new EksNodeRole(stack, 'Shared', { partition: 'aws' }) : undefined;
        if (role && s.roleEntry) stack.cluster.addNodeAccessEntry('Entry', role, s.roleEntry);
        if (s.linuxMinSize !== undefined) {
          new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: s.linuxMinSize, maxSize: 3, nodeRole: role });
        }
        const windows = () => new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: [s.windowsType], windowsVersion: s.windowsVersion, edition: s.edition, nodeRole: role });
        // A role has one access entry per cluster, of a type that cannot change, and Windows nodes
        // need EC2_WINDOWS while EKS gives a Linux group's role EC2_LINUX.
        if (role && s.linuxMinSize !== undefined) {
          expect(windows).toThrow('serves Linux node groups (linux) and Windows node groups (windows)');
          seen.refused++;
          return;
        }
        // The rules of object scope judge the group when it is built; those over the whole stack at synth.
        const atConstruction = {
          release: s.windowsVersion === WindowsVersion.SERVER_2025 && s.kubernetesMinor < 35,
          graviton: GRAVITON.has(s.windowsType),
          memory: UNDER_8_GIB.has(s.windowsType),
        };
        const atSynth = {
          coreDns: s.linuxMinSize === undefined || s.linuxMinSize < 1,
          ipv6: s.ipFamily === EksIpFamily.IPV6,
          provider: s.windowsVersion === WindowsVersion.SERVER_2025 && PROVIDERS_BEFORE_2025_TYPES.has(s.provider),
        };
        if (role && s.roleEntry === NodeAccessEntryType.EC2_LINUX) {
          // The group's own resources are judged first, then its role's entry is asked for.
          expect(windows).toThrow(Object.values(atConstruction).some(Boolean) ? /^\[eks-test\/Cluster\/windows] (windowsVersion|instanceTypes): / : 'already has an EC2_LINUX access entry');
          seen.refused++;
          return;
        }
        let message: string;
        try {
          windows();
          message = synthError(stack);
        } catch (e) {
          message = (e as Error).message;
        }
        expect(offShape(message)).toEqual([]);
        const refusedEarly = Object.values(atConstruction).some(Boolean);
        expect(message.includes('needs Kubernetes 1.35 or newer')).toBe(atConstruction.release);
        expect(message.includes('is arm64 (AWS Graviton)')).toBe(atConstruction.graviton);
        expect(message.includes('Windows workers need at least 8 GiB')).toBe(atConstruction.memory);
        expect(message.includes('need a Linux node for CoreDNS')).toBe(!refusedEarly && atSynth.coreDns);
        expect(message.includes('support IPv4 only')).toBe(!refusedEarly && atSynth.ipv6);
        expect(message.includes('is unknown to hashicorp/aws')).toBe(!refusedEarly && atSynth.provider);
        const anyBroken = refusedEarly || Object.values(atSynth).some(Boolean);
        expect(message === '').toBe(!anyBroken);
        seen[anyBroken ? 'refused' : 'accepted']++;
      }),
      { numRuns: 150, seed: 10 },
    );
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.accepted).toBeGreaterThan(0);
  });
});
