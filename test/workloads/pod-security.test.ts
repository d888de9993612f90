import { App, Chart } from 'cdk8s';
import { WindowsWorkload } from '../../src/workloads';
import { only, synthObjects } from '../support/synth';

const SERVERCORE = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const NANOSERVER = 'mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-ltsc2022';

function podSecurity(props: ConstructorParameters<typeof WindowsWorkload>[2]) {
  const app = new App();
  new WindowsWorkload(new Chart(app, 'apps', { namespace: 'apps' }), 'w', props);
  const kind = props.kind === undefined ? 'Deployment' : String(props.kind);
  return only(synthObjects(app), kind).spec.template.spec.securityContext ?? {};
}

// Pod Security "restricted" checks runAsNonRoot for Windows pods too: its Windows relaxations
// cover capabilities, seccomp and allowPrivilegeEscalation only (kubernetes v1.34
// staging/src/k8s.io/pod-security-admission/policy/check_runAsNonRoot.go,
// check_capabilities_restricted.go, check_seccompProfile_restricted.go).
describe('Windows pods pass Pod Security restricted where the user is known (issue 8.7, 17.12)', () => {
  test('a non-admin runAsUserName keeps runAsNonRoot', () => {
    expect(podSecurity({ image: SERVERCORE, runAsUserName: 'ContainerUser' }).runAsNonRoot).toBe(true);
  });
  // An image built on nanoserver may end in `USER ContainerAdministrator`; with runAsNonRoot the
  // kubelet then refuses to start it. The image's user is not known at synth, so it decides nothing.
  test('no runAsUserName: no runAsNonRoot, whatever the image (nanoserver-based included)', () => {
    expect(podSecurity({ image: NANOSERVER })).not.toHaveProperty('runAsNonRoot');
    expect(podSecurity({ image: SERVERCORE })).not.toHaveProperty('runAsNonRoot');
  });
  // kubernetes pkg/kubelet/kuberuntime/security_context_windows.go, verifyRunAsNonRoot: the
  // runAsUserName is compared to ContainerAdministrator with strings.EqualFold (since v1.25.0,
  // kubernetes#111009, CVE-2021-25749); Go folds ſ (U+017F) to s, and ı (U+0131) to nothing.
  test.each(['ContainerAdministrator', 'containeradministrator', 'CONTAINERADMINISTRATOR', 'ContainerAdminiſtrator', 'NT AUTHORITY\\SYSTEM', 'nt authority\\system'])(
    'an administrator (%s): no runAsNonRoot (the kubelet refuses its root, and LocalSystem is no non-root)',
    (user) => expect(podSecurity({ image: NANOSERVER, runAsUserName: user })).not.toHaveProperty('runAsNonRoot'),
  );
  test('a name that only looks like the root user under a looser comparison is another user', () => {
    expect(podSecurity({ image: NANOSERVER, runAsUserName: 'ContaınerAdministrator' }).runAsNonRoot).toBe(true);
  });
  test('HostProcess pods never (they need a privileged namespace anyway)', () => {
    expect(podSecurity({ image: NANOSERVER, hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service' })).not.toHaveProperty('runAsNonRoot');
  });
});
