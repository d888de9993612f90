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
describe('Windows pods pass Pod Security restricted where the image allows (issue 8.7)', () => {
  test('a non-admin runAsUserName keeps runAsNonRoot', () => {
    expect(podSecurity({ image: SERVERCORE, runAsUserName: 'ContainerUser' }).runAsNonRoot).toBe(true);
  });
  test('nanoserver images, whose default user is ContainerUser, keep it', () => {
    expect(podSecurity({ image: NANOSERVER }).runAsNonRoot).toBe(true);
  });
  test('servercore images run as ContainerAdministrator by default: no runAsNonRoot (the kubelet would refuse them)', () => {
    expect(podSecurity({ image: SERVERCORE })).not.toHaveProperty('runAsNonRoot');
    expect(podSecurity({ image: NANOSERVER, runAsUserName: 'ContainerAdministrator' })).not.toHaveProperty('runAsNonRoot');
  });
  test('HostProcess pods never (they need a privileged namespace anyway)', () => {
    expect(podSecurity({ image: NANOSERVER, hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' })).not.toHaveProperty('runAsNonRoot');
  });
});
