import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { WindowsPod, WindowsWorkload } from '../../src/workloads';
import { synthObjects } from '../support/synth';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

function build(props: ConstructorParameters<typeof WindowsWorkload>[2]) {
  const app = new App();
  new WindowsWorkload(new Chart(app, 'apps'), 'iis', props);
  return app;
}

describe('Windows-refused security settings are reported, never dropped (issue 8.9)', () => {
  // kubernetes v1.34 pkg/apis/core/validation/validation.go, validateWindows: these fields cannot
  // be set on a pod with spec.os.name: windows; the construct removes only cdk8s-plus's defaults.
  test.each([
    ['privileged', { privileged: true }, /securityContext.privileged: true, which the API server refuses on Windows pods\. Fix: for host access use a HostProcess container/],
    ['allowPrivilegeEscalation', { allowPrivilegeEscalation: false }, /securityContext.allowPrivilegeEscalation: false.*Fix: Windows has no privilege escalation/],
    ['readOnlyRootFilesystem', { readOnlyRootFilesystem: true }, /securityContext.readOnlyRootFilesystem: true.*Fix: Windows containers cannot mount their root read-only/],
    ['ensureNonRoot', { ensureNonRoot: true }, /securityContext.ensureNonRoot: true, and on Windows the kubelet judges runAsNonRoot by the user name.*Fix: drop it and give the pod a non-admin runAsUserName/],
  ])('%s', (_, securityContext, message) => {
    expect(() => build({ image: IIS, port: 80, main: { securityContext } })).toThrow(message);
  });

  test('the message names the construct path', () => {
    expect(() => build({ image: IIS, main: { securityContext: { privileged: true } } })).toThrow(/^\[apps\/iis\] container/);
  });

  test('containers added later are checked too', () => {
    const app = new App();
    const w = new WindowsWorkload(new Chart(app, 'apps'), 'iis', { image: IIS, port: 80 });
    expect(() => w.addContainer({ image: IIS, securityContext: { readOnlyRootFilesystem: true } })).toThrow(/readOnlyRootFilesystem/);
  });

  test('without them the pod passes, with cdk8s-plus\'s defaults removed', () => {
    const pod = synthObjects(build({ image: IIS, port: 80 })).find((o) => o.kind === 'Deployment')!.spec.template.spec;
    expect(pod.containers[0].securityContext ?? {}).not.toHaveProperty('privileged');
    expect(pod.containers[0].securityContext ?? {}).not.toHaveProperty('readOnlyRootFilesystem');
  });
});

describe('WindowsPod on an existing workload reports the refused settings the user set, as WindowsWorkload does (issue 17.11)', () => {
  // cdk8s-plus-28 lib/container.js (ContainerSecurityContext) and lib/pod.js (PodSecurityContext)
  // resolve their defaults at construction: privileged false, allowPrivilegeEscalation false,
  // readOnlyRootFilesystem true, ensureNonRoot true, fsGroupChangePolicy Always. Any other value
  // was the user's; the API server refuses it on a Windows pod (kubernetes v1.34
  // pkg/apis/core/validation/validation.go, validateWindows) and WindowsPod would have removed it.
  function attach(securityContext: kplus.ContainerSecurityContextProps, pod: kplus.PodSecurityContextProps = {}, init = false) {
    const app = new App();
    const chart = new Chart(app, 'apps');
    const containers = [{ name: 'web', image: IIS, securityContext }];
    const d = new kplus.Deployment(chart, 'web', init ? { containers: [{ image: IIS }], initContainers: containers, securityContext: pod } : { containers, securityContext: pod });
    new WindowsPod(d);
    return app;
  }

  test.each([
    ['privileged', { privileged: true }, /^\[apps\/web\] container web sets securityContext\.privileged: true, which the API server refuses on Windows pods\. Fix: for host access use a HostProcess container/],
    ['allowPrivilegeEscalation', { allowPrivilegeEscalation: true }, /securityContext\.allowPrivilegeEscalation: true, which the API server refuses/],
    ['readOnlyRootFilesystem', { readOnlyRootFilesystem: false }, /securityContext\.readOnlyRootFilesystem: false, which the API server refuses/],
    ['ensureNonRoot', { ensureNonRoot: false }, /securityContext\.ensureNonRoot: false, and on Windows the kubelet judges runAsNonRoot by the user name/],
  ])('%s', (_, securityContext, message) => {
    expect(() => attach(securityContext)).toThrow(message);
    expect(() => attach(securityContext, {}, true)).toThrow(message);
  });

  test('a pod fsGroupChangePolicy the user chose', () => {
    expect(() => attach({}, { fsGroupChangePolicy: kplus.FsGroupChangePolicy.ON_ROOT_MISMATCH }))
      .toThrow(/^\[apps\/web\] the pod sets securityContext\.fsGroupChangePolicy: OnRootMismatch, which the API server refuses on Windows pods/);
  });

  test('cdk8s-plus\'s defaults alone are removed, and a pod runAsNonRoot: false (valid on Windows) is kept', () => {
    const spec = synthObjects(attach({}, { ensureNonRoot: false })).find((o) => o.kind === 'Deployment')!.spec.template.spec;
    expect(spec.containers[0].securityContext ?? {}).toEqual({});
    expect(spec.securityContext).toEqual({ runAsNonRoot: false });
  });
});

describe('WindowsWorkload numbers and strings (issue 8, done means)', () => {
  test.each([
    [{ image: IIS, replicas: -1 }, /\[apps\/iis\] replicas: -1 is below 0\. Fix: give a whole number from 0 to 2147483647/],
    [{ image: IIS, replicas: 1.5 }, /replicas: 1\.5/],
    [{ image: IIS, port: 0 }, /\[apps\/iis\] port: 0 is below 1\. Fix: give a whole number from 1 to 65535/],
    [{ image: IIS, port: 70000 }, /port: 70000/],
    [{ image: ' ' }, /image: " ".*Fix: give an image reference/],
  ])('%j is refused', (props, message) => {
    expect(() => build(props)).toThrow(message);
  });

  test('valid numbers are accepted', () => {
    expect(() => synthObjects(build({ image: IIS, replicas: 0, port: 65535 }))).not.toThrow();
  });
});

describe('WindowsPod on an existing workload gives its containers the Windows startup probe (issue 8.9)', () => {
  test('cdk8s-plus\'s 3-try default becomes 30 tries 10 s apart, as WindowsWorkload gives', () => {
    const app = new App();
    const chart = new Chart(app, 'apps');
    const d = new kplus.Deployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80 }] });
    new WindowsPod(d);
    const probe = synthObjects(app).find((o) => o.kind === 'Deployment')!.spec.template.spec.containers[0].startupProbe;
    expect(probe).toEqual({ tcpSocket: { port: 80 }, periodSeconds: 10, failureThreshold: 30 });
  });

  test('a probe the user set is kept', () => {
    const app = new App();
    const chart = new Chart(app, 'apps');
    const d = new kplus.Deployment(chart, 'web', { containers: [{ image: IIS, portNumber: 80, startup: kplus.Probe.fromTcpSocket({ port: 80, failureThreshold: 5 }) }] });
    new WindowsPod(d);
    const probe = synthObjects(app).find((o) => o.kind === 'Deployment')!.spec.template.spec.containers[0].startupProbe;
    expect(probe).toEqual({ tcpSocket: { port: 80 }, failureThreshold: 5 });
  });
});
