import { App } from 'cdk8s';
import { WindowsVersion } from '../../src';
import { AksWindowsNodePool } from '../../src/aks';
import { EksWindowsNodeGroup } from '../../src/eks';
import { GkeWindowsNodePool } from '../../src/gke';
import { WindowsFluentBit } from '../../src/workloads';
import { HybridChart } from '../../src/workloads';
import { aksStack } from '../aks/fixture';
import { eksStack } from '../eks/fixture';
import { gkeStack } from '../gke/fixture';
import { thrownMessage } from '../support/tf';

/**
 * Every Windows pool of a managed cloud reads `windowsVersion` through the one value parser the
 * k0smotron pools use (`oneOf`): an unknown release gets the same `[path] what. Fix: how.` line
 * naming the prop and the values, wherever it is given.
 */
const bad = '2016' as WindowsVersion;
test.each([
  ['AKS', 'aks-test/Cluster/win', () => new AksWindowsNodePool(aksStack().cluster, 'win', { vmSize: 'Standard_D4ds_v5', windowsVersion: bad })],
  ['EKS', 'eks-test/Cluster/win', () => new EksWindowsNodeGroup(eksStack().cluster, 'win', { instanceTypes: ['m6i.large'], windowsVersion: bad })],
  ['GKE', 'gke-test/Cluster/win', () => new GkeWindowsNodePool(gkeStack().cluster, 'win', { machineType: 'n2-standard-4', windowsVersion: bad })],
])('%s: windowsVersion "2016" is refused naming the prop and the releases', (_, path, build) => {
  expect(thrownMessage(build)).toMatch(new RegExp(`^\\[${path}\\] windowsVersion: "2016" is not a WindowsVersion\\. Fix: use one of WindowsVersion\\.SERVER_2019, WindowsVersion\\.SERVER_2022, WindowsVersion\\.SERVER_2025\\.$`));
});

test('WindowsFluentBit reads versions as a list: a string is refused, not read character by character', () => {
  const chart = new HybridChart(new App(), 'logs');
  const message = thrownMessage(() => new WindowsFluentBit(chart, 'fb', { namespace: 'logging', versions: '2022' as unknown as WindowsVersion[] }));
  expect(message).toMatch(/^\[logs\/fb\] versions: "2022" is not a list\. Fix: write \["2022"\]\.$/);
});
