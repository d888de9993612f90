import { App, Chart, Cron } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import fc from 'fast-check';
import { LABEL_OS, WindowsVersion } from '../../src';
import { HyperVRuntimeClass, WindowsWorkload, WindowsWorkloadKind, podTemplateOf, tolerates, validatePodSpec } from '../../src/workloads';
import { offShape } from '../support/message-shape';
import { synthObjects } from '../support/synth';

const images = [
  'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019',
  'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
  'mcr.microsoft.com/windows/servercore:ltsc2025',
  'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2022',
  'mcr.microsoft.com/windows/nanoserver:ltsc2022@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  'mcr.microsoft.com/windows/servercore:ltsc2016',
  'registry.example.com:5000/team/app:1.2.3',
  'mcr.microsoft.com/dotnet/framework/aspnet:4.8',
];
const versions = Object.values(WindowsVersion);
/** Mostly valid values, sometimes a wrong one: both outcomes get exercised. */
const mostly = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: invalid, weight: 1 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

const userNames = mostly(
  fc.constantFrom('ContainerUser', 'NT AUTHORITY\\SYSTEM', 'CONTOSO\\svc', 'corp.example.com\\svc-web'),
  fc.oneof(fc.constantFrom('a\\b\\c', '', 'bad@user', ' . ', 'x'.repeat(105)), fc.string({ maxLength: 20 })),
);
const gmsaNames = mostly(fc.constantFrom('webapp1', 'a.b-c'), fc.oneof(fc.constantFrom('Web_App', ''), fc.string({ maxLength: 10 })));

const workloadProps = fc.record({
  kind: fc.constantFrom(...Object.values(WindowsWorkloadKind)),
  image: fc.constantFrom(...images),
  port: mostly(fc.integer({ min: 1, max: 65535 }), fc.constant(undefined)),
  replicas: mostly(fc.constant(undefined), fc.integer({ min: 0, max: 5 })),
  // Mostly a schedule exactly when the kind needs one.
  scheduleFitsKind: mostly(fc.constant(true), fc.constant(false)),
  version: maybe(fc.constantFrom(...versions)),
  hyperV: fc.option(maybe(fc.constantFrom(...versions)), { nil: null, freq: 2 }),
  hostProcess: fc.option(fc.boolean(), { nil: undefined, freq: 2 }),
  runAsUserName: maybe(userNames),
  gmsaCredentialSpecName: maybe(gmsaNames),
  hostPort: mostly(fc.constant(undefined), fc.integer({ min: 1, max: 65535 })),
  memoryEmptyDir: mostly(fc.constant(false), fc.constant(true)),
});

/** Fields WindowsPod always sets or removes; an error about them would be the construct's fault. */
const OWN_FIELDS = /spec\.os\.name|nodeSelector|tolerations|cannot be set for a windows pod|resources\.requests/;

describe('WindowsWorkload properties', () => {
  test('any props give a Windows pod the API server accepts and that lands on Windows nodes, or an explained error', () => {
    const outcomes = { synthesized: 0, rejected: 0 };
    fc.assert(fc.property(workloadProps, (p) => {
      outcomes[synthesize(p)]++;
    }), { numRuns: 300 });
    // Both branches are exercised, so neither half of the property is vacuous.
    expect(outcomes.synthesized).toBeGreaterThan(30);
    expect(outcomes.rejected).toBeGreaterThan(30);
  });
});

type Props = typeof workloadProps extends fc.Arbitrary<infer T> ? T : never;

/** Builds one workload from generated props and checks whichever way it goes. */
function synthesize(p: Props): 'synthesized' | 'rejected' {
  const app = new App();
  const chart = new Chart(app, 'prop', { namespace: 'apps' });
  try {
    const hyperV = p.hyperV === null ? undefined : new HyperVRuntimeClass(chart, 'hyperv', { version: p.hyperV });
    const volumes = p.memoryEmptyDir ? [kplus.Volume.fromEmptyDir(chart, 'mem', 'mem', { medium: kplus.EmptyDirMedium.MEMORY })] : [];
    new WindowsWorkload(chart, 'w', {
      kind: p.kind,
      image: p.image,
      port: p.port,
      replicas: p.replicas,
      schedule: (p.kind === WindowsWorkloadKind.CRON_JOB) === p.scheduleFitsKind ? Cron.daily() : undefined,
      version: p.version,
      hyperV,
      hostProcess: p.hostProcess,
      runAsUserName: p.runAsUserName,
      gmsaCredentialSpecName: p.gmsaCredentialSpecName,
      volumes,
      containers: p.hostPort !== undefined ? [{ name: 'side', image: p.image, ports: [{ number: 8080, hostPort: p.hostPort }] }] : [],
    });
    const objects = synthObjects(app);
    const spec = podTemplateOf(objects.find((o) => o.kind === p.kind))!.spec;
    expect(validatePodSpec(spec)).toEqual([]);
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.nodeSelector[LABEL_OS]).toBe('windows');
    expect(tolerates(spec.tolerations)).toBe(true);
    // What must fail did fail.
    expect(p.hostPort).toBeUndefined();
    expect(p.memoryEmptyDir).toBe(false);
    return 'synthesized';
  } catch (e) {
    // Explained errors only: validation failures or a HybridConfigError, each line "[path] what. Fix: how.".
    if (!(e instanceof Error) || offShape(e.message).length > 0) throw e;
    // What the construct itself is responsible for is never among the reasons.
    expect(e.message).not.toMatch(OWN_FIELDS);
    return 'rejected';
  }
}
