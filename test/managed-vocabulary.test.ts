import { Testing } from 'cdktn';
import { WindowsVersion } from '../src';
import { AksLinuxNodePool, AksWindowsNodePool, HybridAksStack } from '../src/aks';
import { EksLinuxNodeGroup, EksWindowsNodeGroup, HybridEksStack } from '../src/eks';
import { GkeLinuxNodePool, GkeWindowsNodePool, HybridGkeStack } from '../src/gke';
import { thrownMessage } from './support/tf';

/**
 * Issue 31.6: one vocabulary across the managed clouds (src/terraform/managed-node-pool.ts). Each
 * former name is a deprecated alias of its new word: given alone it writes the same Terraform,
 * byte for byte, as the new word; given with it, it is refused naming both.
 */
const EXISTING = { vpcId: 'vpc-0123456789abcdef0', publicSubnetIds: ['subnet-0bbb0000000000001', 'subnet-0bbb0000000000002'], privateSubnetIds: ['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002'] };

type Build = (props: Record<string, unknown>) => string;

/** The stack's Terraform JSON as `cdktn synth` writes it, with a pool built from `props`. */
const eks = (windows: boolean): Build => (props) => {
  const stack = new HybridEksStack(Testing.app(), 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34', existingNetwork: EXISTING });
  if (windows) new EksLinuxNodeGroup(stack.cluster, 'base', { machineTypes: ['t3.large'], minNodes: 2 });
  new (windows ? EksWindowsNodeGroup : EksLinuxNodeGroup)(stack.cluster, 'pool', props as never);
  return Testing.synth(stack, true);
};
const aks = (windows: boolean): Build => (props) => {
  const stack = new HybridAksStack(Testing.app(), 'aks', { location: 'westeurope', clusterName: 'aks', kubernetesVersion: '1.34' });
  new (windows ? AksWindowsNodePool : AksLinuxNodePool)(stack.cluster, 'pool', props as never);
  return Testing.synth(stack, true);
};
const gke = (windows: boolean): Build => (props) => {
  const stack = new HybridGkeStack(Testing.app(), 'gke', { project: 'my-project', region: 'europe-north1', clusterName: 'gke' });
  if (windows) new GkeLinuxNodePool(stack.cluster, 'base', { machineType: 'e2-standard-4' });
  new (windows ? GkeWindowsNodePool : GkeLinuxNodePool)(stack.cluster, 'pool', props as never);
  return Testing.synth(stack, true);
};

/** Each alias, the props that use it, and the same props in the new words (values not the defaults, so that a dropped alias shows). */
const ALIASES: ReadonlyArray<readonly [string, string, Build, Record<string, unknown>, Record<string, unknown>]> = [
  ['EKS Linux', 'instanceTypes', eks(false), { instanceTypes: ['m6i.large'] }, { machineTypes: ['m6i.large'] }],
  ['EKS Linux', 'minSize', eks(false), { machineTypes: ['m6i.large'], minSize: 2, maxNodes: 4 }, { machineTypes: ['m6i.large'], minNodes: 2, maxNodes: 4 }],
  ['EKS Linux', 'desiredSize', eks(false), { machineTypes: ['m6i.large'], desiredSize: 3, maxNodes: 4 }, { machineTypes: ['m6i.large'], desiredNodes: 3, maxNodes: 4 }],
  ['EKS Linux', 'maxSize', eks(false), { machineTypes: ['m6i.large'], maxSize: 5 }, { machineTypes: ['m6i.large'], maxNodes: 5 }],
  ['EKS Linux', 'manageDesiredSize', eks(false), { machineTypes: ['m6i.large'], maxNodes: 5, manageDesiredSize: true }, { machineTypes: ['m6i.large'], maxNodes: 5, manageDesiredNodes: true }],
  ['EKS Windows', 'nodeGroupName', eks(true), { machineTypes: ['m6i.xlarge'], nodeGroupName: 'iis' }, { machineTypes: ['m6i.xlarge'], poolName: 'iis' }],
  ['AKS Linux', 'vmSize', aks(false), { vmSize: 'Standard_D8ds_v5' }, { machineType: 'Standard_D8ds_v5' }],
  ['AKS Linux', 'minCount', aks(false), { machineType: 'Standard_D4ds_v5', minCount: 2 }, { machineType: 'Standard_D4ds_v5', minNodes: 2 }],
  ['AKS Linux', 'maxCount', aks(false), { machineType: 'Standard_D4ds_v5', maxCount: 7 }, { machineType: 'Standard_D4ds_v5', maxNodes: 7 }],
  ['AKS Windows', 'name', aks(true), { machineType: 'Standard_D4ds_v5', name: 'iis' }, { machineType: 'Standard_D4ds_v5', poolName: 'iis' }],
  ['GKE Linux', 'diskSizeGb', gke(false), { machineType: 'e2-standard-4', diskSizeGb: 200 }, { machineType: 'e2-standard-4', diskSizeGiB: 200 }],
  ['GKE Windows', 'nodePoolName', gke(true), { machineType: 'n2-standard-4', nodePoolName: 'iis' }, { machineType: 'n2-standard-4', poolName: 'iis' }],
];

describe.each(ALIASES.map(([cloud, alias, build, old, now]) => [`${cloud} ${alias}`, alias, build, old, now] as const))('%s', (_, alias, build, old, now) => {
  test('writes the same Terraform as its new word, byte for byte; without either, the JSON differs (the prop is not ignored)', () => {
    const written = build(old);
    expect(written).toBe(build(now));
    const word = Object.keys(now).find((k) => !(k in old))!;
    const withoutIt = Object.fromEntries(Object.entries(now).filter(([k]) => k !== word));
    // The machine type is required: nothing to compare with.
    if (!word.startsWith('machineType')) expect(build(withoutIt)).not.toBe(written);
  });

  test('given with its new word, both are refused by name', () => {
    const word = Object.keys(now).find((k) => !(k in old))!;
    expect(thrownMessage(() => build({ ...now, [alias]: old[alias] }))).toMatch(new RegExp(`\\] both ${alias} and ${word} are set\\. Fix: give ${word} only \\(${alias} is its deprecated name\\)\\.$`));
  });
});

test('the System pool of AKS takes its former names too, and a refusal names the prop as written', () => {
  const stack = (systemPool: Record<string, unknown>) => new HybridAksStack(Testing.app(), 'aks', { location: 'westeurope', clusterName: 'aks', kubernetesVersion: '1.34', systemPool: systemPool as never });
  expect(Testing.synth(stack({ vmSize: 'Standard_D8ds_v5', minCount: 3, maxCount: 6 }), true)).toBe(Testing.synth(stack({ machineType: 'Standard_D8ds_v5', minNodes: 3, maxNodes: 6 }), true));
  expect(thrownMessage(() => stack({ minCount: 3, minNodes: 3 }))).toMatch(/\] both systemPool\.minCount and systemPool\.minNodes are set\. Fix: give systemPool\.minNodes only/);
  expect(thrownMessage(() => stack({ minCount: 0 }))).toMatch(/^\[aks\/Cluster\] systemPool\.minCount: /);
  expect(thrownMessage(() => stack({ minNodes: 0 }))).toMatch(/^\[aks\/Cluster\] systemPool\.minNodes: /);
});

test('a refusal at construction names the prop in the words the user wrote', () => {
  const linux = (props: Record<string, unknown>) => () => eks(false)(props);
  expect(thrownMessage(linux({ machineTypes: ['m6i.large'], minNodes: 3, maxNodes: 2 }))).toMatch(/^\[eks\/Cluster\/pool\] minNodes, desiredNodes and maxNodes: /);
  expect(thrownMessage(linux({ instanceTypes: ['m6i.large'], minSize: 3, maxSize: 2 }))).toMatch(/^\[eks\/Cluster\/pool\] minSize, desiredSize and maxSize: /);
  expect(thrownMessage(() => aks(true)({ machineType: 'Standard_D4ds_v5', poolName: 'windows' }))).toMatch(/^\[aks\/Cluster\/pool\] poolName: /);
  expect(thrownMessage(() => aks(true)({ vmSize: 'Standard_D4ds_v5', name: 'windows' }))).toMatch(/^\[aks\/Cluster\/pool\] name: /);
});

test('a required prop is missing only when neither name is given', () => {
  expect(thrownMessage(() => eks(false)({ minNodes: 1 }))).toMatch(/^\[eks\/Cluster\/pool\] machineTypes: not given, and it is required\. Fix: give machineTypes/);
  expect(thrownMessage(() => aks(false)({}))).toMatch(/^\[aks\/Cluster\/pool\] machineType: not given, and it is required\. Fix: give machineType/);
  expect(thrownMessage(() => aks(false)({ vmSize: 'Standard_D4ds_v5' }))).toBe('');
});

test('the windows release: one parse for the three clouds, Windows Server 2022 unless given', () => {
  const json = (build: Build, props: Record<string, unknown>) => build(props);
  expect(json(aks(true), { machineType: 'Standard_D4ds_v5', poolName: 'win' })).toBe(json(aks(true), { machineType: 'Standard_D4ds_v5', poolName: 'win', windowsVersion: WindowsVersion.SERVER_2022 }));
  expect(json(gke(true), { machineType: 'n2-standard-4' })).toBe(json(gke(true), { machineType: 'n2-standard-4', windowsVersion: WindowsVersion.SERVER_2022 }));
  expect(json(eks(true), { machineTypes: ['m6i.xlarge'] })).toBe(json(eks(true), { machineTypes: ['m6i.xlarge'], windowsVersion: WindowsVersion.SERVER_2022 }));
});

test('the three stacks refuse network beside existingNetwork in one wording', () => {
  const both = 'both network and existingNetwork are set. Fix: give network (to create one) or existingNetwork (to use yours), not both.';
  expect(thrownMessage(() => new HybridEksStack(Testing.app(), 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34', existingNetwork: EXISTING, network: {} }))).toBe(`[eks] ${both}`);
  expect(thrownMessage(() => new HybridAksStack(Testing.app(), 'aks', { location: 'westeurope', clusterName: 'aks', kubernetesVersion: '1.34', network: {}, existingNetwork: { resourceGroupName: 'rg', subnetId: '/subscriptions/0/subnets/s' } }))).toBe(`[aks] ${both}`);
  expect(thrownMessage(() => new HybridGkeStack(Testing.app(), 'gke', { project: 'my-project', region: 'europe-north1', clusterName: 'gke', network: {}, existingNetwork: { network: 'n', subnetwork: 's', podsRangeName: 'p', servicesRangeName: 's' } }))).toBe(`[gke] ${both}`);
});
