import { App, Chart, Duration, Size } from 'cdk8s';
import fc from 'fast-check';
import { HybridCluster, HybridConfigError, LinuxWorkerPool, MachineImage, WindowsWorkerPool } from '../../src';
import { HyperVRuntimeClass, WindowsWorkload, withLogMonitor } from '../../src/workloads';

/**
 * Every numeric, list and map prop of the cdk8s side's public constructs, given bad values:
 * each is refused where it enters with a HybridConfigError that names the construct path and the
 * prop, before anything reaches cdk8s (issue 18.6, 18.7, 18.12).
 */

const AMI = MachineImage.id('ami-0123456789abcdef0');
const WIN_AMI = MachineImage.id('ami-0fedcba9876543210');

/** Bad numbers: NaN, infinities, negatives, fractions, and values past the prop's range. */
const badNumber = (max: number) => fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, -1, 0.5, max + 1),
  fc.double({ min: -1e9, max: -0.001, noNaN: true }),
  fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
);
/** Bad lists: a string (read character by character otherwise), or undefined and null items. */
const badList = <T>(item: T) => fc.oneof(fc.constantFrom<unknown>('a-string', 42, { a: 1 }), fc.constantFrom<unknown>([item, undefined], [null, item], [undefined]));
/**
 * Bad maps: the key that reaches the prototype, non-string values, arrays and strings. Keys named
 * like other Object.prototype members (`constructor`, `toString`) are own keys and valid labels:
 * test/properties/prototype-keys.test.ts accepts them (issue 24 point 17).
 */
const badMap = fc.oneof(
  fc.constantFrom<unknown>(JSON.parse('{"__proto__": "x"}'), { team: 1 }, ['a'], 'a=b', { team: null }),
);

type Build = (value: unknown) => void;
interface Case { readonly path: string; readonly prop: string; readonly bad: fc.Arbitrary<unknown>; readonly build: Build }

function cluster(scope: Chart, props: Record<string, unknown> = {}, cp: Record<string, unknown> = {}) {
  return new HybridCluster(scope, 'c', { region: 'eu-north-1', zones: ['eu-north-1a', 'eu-north-1b'], k0sVersion: 'v1.34.10+k0s.0', ...props, controlPlane: { instanceType: 't3.large', ami: AMI, ...cp } } as never);
}
const chart = () => new Chart(new App(), 'mgmt');
const pool = (props: Record<string, unknown>) => new LinuxWorkerPool(cluster(chart()), 'linux', { instanceType: 't3.large', ami: AMI, ...props } as never);
const winPool = (props: Record<string, unknown>) => new WindowsWorkerPool(cluster(chart()), 'win', { instanceType: 't3.xlarge', ami: WIN_AMI, ...props } as never);
const workload = (props: Record<string, unknown>) => new WindowsWorkload(new Chart(new App(), 'apps'), 'w', { image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', ...props } as never);
const rule = (r: Record<string, unknown>) => ({ description: 'ssh', fromPort: 22, cidrBlocks: ['203.0.113.0/24'], ...r });

const CASES: Case[] = [
  // HybridCluster
  { path: 'mgmt/c', prop: 'controlPlane.replicas', bad: badNumber(2 ** 31 - 1), build: (v) => cluster(chart(), {}, { replicas: v }) },
  { path: 'mgmt/c', prop: 'controlPlane.rootVolumeSizeGiB', bad: badNumber(16384), build: (v) => cluster(chart(), {}, { rootVolumeSizeGiB: v }) },
  { path: 'mgmt/c', prop: 'controlPlane.instanceTypeInfo', bad: fc.constantFrom<unknown>({}, { arch: 'x86' }, { arch: 'amd64', memoryGiB: NaN }, { arch: 'amd64', memoryGiB: -2 }, 'amd64'), build: (v) => cluster(chart(), {}, { instanceTypeInfo: v }) },
  { path: 'mgmt/c', prop: 'controlPlane.apiExtraArgs', bad: badMap, build: (v) => cluster(chart(), {}, { apiExtraArgs: v }) },
  { path: 'mgmt/c', prop: 'additionalTags', bad: badMap, build: (v) => cluster(chart(), { additionalTags: v }) },
  { path: 'mgmt/c', prop: 'nodeAgentPorts', bad: fc.oneof(badList(9182), fc.constant([9182, 9182])), build: (v) => cluster(chart(), { nodeAgentPorts: v }) },
  { path: 'mgmt/c', prop: 'nodeAgentPorts[0]', bad: badNumber(65535), build: (v) => cluster(chart(), { nodeAgentPorts: [v] }) },
  { path: 'mgmt/c', prop: 'apiServerLoadBalancer.allowedCidrs', bad: fc.oneof(badList('203.0.113.0/24'), fc.constant(['203.0.113.0/24', '203.0.113.0/24'])), build: (v) => cluster(chart(), { apiServerLoadBalancer: { allowedCidrs: v } }) },
  { path: 'mgmt/c', prop: 'apiServerLoadBalancer.additionalIngressRules', bad: badList(rule({})), build: (v) => cluster(chart(), { apiServerLoadBalancer: { additionalIngressRules: v } }) },
  { path: 'mgmt/c', prop: 'apiServerLoadBalancer.additionalIngressRules[0].fromPort', bad: badNumber(65535), build: (v) => cluster(chart(), { apiServerLoadBalancer: { additionalIngressRules: [rule({ fromPort: v })] } }) },
  { path: 'mgmt/c', prop: 'apiServerLoadBalancer.additionalIngressRules[0].toPort', bad: badNumber(65535), build: (v) => cluster(chart(), { apiServerLoadBalancer: { additionalIngressRules: [rule({ toPort: v })] } }) },
  { path: 'mgmt/c', prop: 'apiServerLoadBalancer.additionalIngressRules[0].cidrBlocks', bad: badList('203.0.113.0/24'), build: (v) => cluster(chart(), { apiServerLoadBalancer: { additionalIngressRules: [rule({ cidrBlocks: v })] } }) },
  { path: 'mgmt/c', prop: 'network.provider', bad: fc.constantFrom<unknown>('flannel', 'Calico', 1), build: (v) => cluster(chart(), { network: { provider: v } }) },
  // Pools
  { path: 'mgmt/c/linux', prop: 'replicas', bad: badNumber(2 ** 31 - 1), build: (v) => pool({ replicas: v }) },
  { path: 'mgmt/c/linux', prop: 'rootVolumeSizeGiB', bad: badNumber(16384), build: (v) => pool({ rootVolumeSizeGiB: v }) },
  { path: 'mgmt/c/linux', prop: 'labels', bad: badMap, build: (v) => pool({ labels: v }) },
  { path: 'mgmt/c/linux', prop: 'nodeReadyTimeout', bad: fc.constantFrom<unknown>(Duration.seconds(NaN), Duration.seconds(Infinity), Duration.millis(1500), 300), build: (v) => pool({ nodeReadyTimeout: v }) },
  { path: 'mgmt/c/linux', prop: 'instanceTypeInfo', bad: fc.constantFrom<unknown>({}, { arch: 'x86' }), build: (v) => pool({ instanceTypeInfo: v }) },
  { path: 'mgmt/c/win', prop: 'rootVolumeSizeGiB', bad: fc.oneof(badNumber(16384), fc.integer({ min: 8, max: 29 })), build: (v) => winPool({ rootVolumeSizeGiB: v }) },
  { path: 'mgmt/c/win', prop: 'windowsVersion', bad: fc.constantFrom<unknown>('2016', '2023', 2022), build: (v) => winPool({ windowsVersion: v }) },
  // Workloads
  { path: 'apps/w', prop: 'replicas', bad: badNumber(2 ** 31 - 1), build: (v) => workload({ replicas: v }) },
  { path: 'apps/w', prop: 'port', bad: badNumber(65535), build: (v) => workload({ port: v }) },
  { path: 'apps/w', prop: 'containers', bad: badList({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }), build: (v) => workload({ image: undefined, containers: v }) },
  { path: 'apps/w', prop: 'initContainers', bad: badList({ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }), build: (v) => workload({ initContainers: v }) },
  { path: 'apps/w', prop: 'volumes', bad: badList({}), build: (v) => workload({ volumes: v }) },
  { path: 'apps/w', prop: 'container side ports', bad: badList({ number: 80 }), build: (v) => workload({ containers: [{ name: 'side', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', ports: v }] }) },
  { path: 'apps/w', prop: 'container side port', bad: badNumber(65535), build: (v) => workload({ containers: [{ name: 'side', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', ports: [{ number: v }] }] }) },
  { path: 'apps/w/Default', prop: 'version', bad: fc.constantFrom<unknown>('ltsc2022', '2016'), build: (v) => workload({ version: v }) },
  { path: 'apps/h', prop: 'overhead.cpuMillis', bad: badNumber(2 ** 31 - 1), build: (v) => new HyperVRuntimeClass(new Chart(new App(), 'apps'), 'h', { overhead: { cpuMillis: v as number } }) },
  { path: 'apps/h', prop: 'overhead.memory', bad: fc.constantFrom<unknown>(Size.mebibytes(NaN), Size.mebibytes(0.5), Size.kibibytes(1), 512), build: (v) => new HyperVRuntimeClass(new Chart(new App(), 'apps'), 'h', { overhead: { memory: v as Size } }) },
  { path: 'withLogMonitor', prop: 'command', bad: badList('w3svc'), build: (v) => withLogMonitor(v as string[]) },
];

describe('bad values are refused where they enter, naming the construct path and the prop', () => {
  test.each(CASES.map((c) => [`${c.path} ${c.prop}`, c] as const))('%s', (_, c) => {
    fc.assert(fc.property(c.bad, (value) => {
      let error: unknown;
      try {
        c.build(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(HybridConfigError);
      const e = error as HybridConfigError;
      expect(e.path).toBe(c.path);
      expect(e.message.startsWith(`[${c.path}] ${c.prop}`)).toBe(true);
      expect(e.message).toMatch(/\. Fix: .+\.$/);
    }), { numRuns: 20 });
  });
});
