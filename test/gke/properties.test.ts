import * as fc from 'fast-check';
import { WindowsVersion } from '../../src';
import { GkeLinuxNodePool, GkeWindowsNodePool } from '../../src/gke';
import { offShape } from '../support/message-shape';
import { gkeStack, synthError } from './fixture';

/** Pool props and cluster settings, with what makes them broken computed independently of the code. */
const scenario = fc.record({
  kubernetesVersion: fc.constantFrom(undefined, '1.22', '1.23', '1.33'),
  linuxMin: fc.option(fc.constantFrom(0, 1, 2), { nil: undefined }), // undefined: no Linux pool
  linuxTainted: fc.boolean(),
  windowsVersion: fc.constantFrom(WindowsVersion.SERVER_2019, WindowsVersion.SERVER_2022),
  windowsType: fc.constantFrom('n2-standard-4', 'e2-standard-2', 'c3-standard-4', 't2a-standard-4', 'c4a-standard-4', 'e2-medium', 'e2-small', 'n4-standard-4', 'c4d-standard-4'),
  diskType: fc.constantFrom(undefined, 'pd-balanced', 'pd-ssd', 'hyperdisk-balanced'),
});

// Expected facts, written from GKE's and Compute Engine's documents (Hyperdisk: the PD CSI driver's
// machine-pd-compatibility table) rather than read from the code under test.
const ARM = new Set(['t2a-standard-4', 'c4a-standard-4']);
const SHARED_CORE = new Set(['e2-medium', 'e2-small']);
const HYPERDISK_ONLY = new Set(['c4d-standard-4']);

describe('property: the GKE checks refuse every broken pool combination and accept every working one', () => {
  test('over the cluster version, the Linux pool, and the Windows release, machine type and disk type', () => {
    const seen = { refused: 0, accepted: 0 };
    fc.assert(
      fc.property(scenario, (s) => {
        const stack = gkeStack({ kubernetesVersion: s.kubernetesVersion });
        if (s.linuxMin !== undefined) {
          const linux = new GkeLinuxNodePool(stack.cluster, 'linux', { machineType: 'e2-standard-4', minNodesPerZone: s.linuxMin, maxNodesPerZone: 3 });
          if (s.linuxTainted) linux.parts.nodePool.addOverride('node_config.taint', [{ key: 'dedicated', value: 'infra', effect: 'NO_SCHEDULE' }]);
        }
        const atConstruction = {
          arm: ARM.has(s.windowsType),
          sharedCore: SHARED_CORE.has(s.windowsType),
          disk: HYPERDISK_ONLY.has(s.windowsType) && s.diskType !== undefined && s.diskType.startsWith('pd-'),
        };
        const atSynth = {
          system: s.linuxMin === undefined || s.linuxMin < 1 || s.linuxTainted,
          version: s.kubernetesVersion === '1.22',
        };
        let message: string;
        try {
          new GkeWindowsNodePool(stack.cluster, 'windows', { machineType: s.windowsType, windowsVersion: s.windowsVersion, diskType: s.diskType });
          message = synthError(stack);
        } catch (e) {
          message = (e as Error).message;
        }
        expect(offShape(message)).toEqual([]);
        const refusedEarly = Object.values(atConstruction).some(Boolean);
        expect(message.includes('is Arm')).toBe(atConstruction.arm);
        expect(message.includes('is shared-core')).toBe(atConstruction.sharedCore);
        expect(message.includes('its series takes Hyperdisk only')).toBe(atConstruction.disk);
        expect(message.includes('need a Linux node for kube-dns')).toBe(!refusedEarly && atSynth.system);
        expect(message.includes('need GKE 1.23 or newer')).toBe(!refusedEarly && atSynth.version);
        const broken = refusedEarly || Object.values(atSynth).some(Boolean);
        expect(message === '').toBe(!broken);
        seen[broken ? 'refused' : 'accepted']++;
      }),
      { numRuns: 60, seed: 25 },
    );
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.accepted).toBeGreaterThan(0);
  });
});
