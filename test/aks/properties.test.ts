import * as fc from 'fast-check';
import { WindowsVersion, validateTerraform } from '../../src';
import { AksLinuxNodePool, AksNetworkPolicy, AksSupportPlan, AksWindowsNodePool } from '../../src/aks';
import { offShape } from '../support/message-shape';
import { synthTf } from '../support/tf';
import { aksStack, synthError } from './fixture';

/** AKS stack and pool props, with what makes them broken computed independently of the code. */
const scenario = fc.record({
  kubernetesMinor: fc.integer({ min: 28, max: 39 }),
  windowsVersion: fc.constantFrom(...Object.values(WindowsVersion)),
  nameLength: fc.integer({ min: 1, max: 9 }),
  // Calico, the one engine that runs beside Windows pools, drawn twice as often as the others together.
  networkPolicy: fc.constantFrom(...[1, 2, 3, 4].map(() => AksNetworkPolicy.CALICO), AksNetworkPolicy.AZURE, AksNetworkPolicy.CILIUM),
  longTermSupport: fc.boolean(),
  linuxPool: fc.boolean(),
  // The azurerm constraint; undefined keeps the bindings' pin (4.73.0).
  provider: fc.constantFrom(undefined, '~> 4.73', '> 5.2.0'),
});

// Expected facts, written from the AKS documents and azurerm's source (src/platform/aks.ts cites
// them), not read from the code under test: the last and first minor each Windows SKU runs on, and
// AKS's release calendar on the pinned day, 2026-11-01: 1.34 is the oldest minor in community
// support (1.33's ended in July 2026), 1.31 the oldest in long-term support (1.30's ended in July 2026).
const LAST: Record<WindowsVersion, number> = { [WindowsVersion.SERVER_2019]: 32, [WindowsVersion.SERVER_2022]: 36, [WindowsVersion.SERVER_2025]: Infinity };
const FIRST: Record<WindowsVersion, number> = { [WindowsVersion.SERVER_2019]: 0, [WindowsVersion.SERVER_2022]: 0, [WindowsVersion.SERVER_2025]: 32 };

describe('property: the AKS checks refuse every broken combination and accept every working one', () => {
  test('over the Kubernetes version and long-term support, the Windows release, the pool name\'s length, the network policy, a Linux user pool and the provider constraint', () => {
    const seen = { refused: 0, accepted: 0 };
    fc.assert(
      fc.property(scenario, (s) => {
        // Azure NPM: no more on Windows nodes from 2026-09-30 (azure-aks-docs includes/azure-network-policy-manager-windows-retirement.md), before the pinned day.
        const broken = s.kubernetesMinor < (s.longTermSupport ? 31 : 34) || s.nameLength > 6 || s.networkPolicy === AksNetworkPolicy.CILIUM || s.networkPolicy === AksNetworkPolicy.AZURE
          || s.kubernetesMinor > LAST[s.windowsVersion] || s.kubernetesMinor < FIRST[s.windowsVersion]
          || (s.windowsVersion === WindowsVersion.SERVER_2025 && s.provider !== '> 5.2.0');
        let message: string;
        let stack;
        try {
          stack = aksStack({ kubernetesVersion: `1.${s.kubernetesMinor}`, networkPolicy: s.networkPolicy, supportPlan: s.longTermSupport ? AksSupportPlan.AKS_LONG_TERM_SUPPORT : undefined });
          if (s.provider !== undefined) stack.addOverride('terraform.required_providers.azurerm.version', s.provider);
          if (s.linuxPool) new AksLinuxNodePool(stack.cluster, 'linux', { vmSize: 'Standard_D4ds_v5' });
          new AksWindowsNodePool(stack.cluster, 'win', { vmSize: 'Standard_D4ds_v5', windowsVersion: s.windowsVersion, name: `w${'1'.repeat(s.nameLength - 1)}` });
          message = synthError(stack);
        } catch (e) {
          message = (e as Error).message;
        }
        expect([s, message === '' ? 'accepted' : 'refused']).toEqual([s, broken ? 'refused' : 'accepted']);
        if (broken) {
          seen.refused++;
          expect(offShape(message)).toEqual([]);
        } else {
          seen.accepted++;
          expect(validateTerraform(synthTf(stack!))).toEqual([]);
        }
      }),
      { numRuns: 60, seed: 22 },
    );
    expect(seen.refused).toBeGreaterThan(5);
    expect(seen.accepted).toBeGreaterThan(5);
  });
});
