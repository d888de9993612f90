import { validatePodSpec } from '../../src';

const container = (extra: object = {}) => ({ name: 'c', image: 'img', ...extra });
const windowsPod = (extra: object = {}) => ({ os: { name: 'windows' }, containers: [container()], ...extra });
const linuxPod = (extra: object = {}) => ({ os: { name: 'linux' }, containers: [container()], ...extra });
const paths = (spec: object) => validatePodSpec(spec).map((v) => v.path);

describe('validatePodSpec: spec.os', () => {
  test('accepts linux, windows and no os at all', () => {
    expect(validatePodSpec(windowsPod())).toEqual([]);
    expect(validatePodSpec(linuxPod())).toEqual([]);
    expect(validatePodSpec({ containers: [container()] })).toEqual([]);
  });

  test('rejects an unsupported os name at spec.os, like field.NotSupported on the os path', () => {
    expect(validatePodSpec({ os: { name: 'Windows' }, containers: [container()] })).toEqual([
      { path: 'spec.os', message: expect.stringContaining('Unsupported value: "Windows"') },
    ]);
  });

  test('requires spec.os.name when os is given', () => {
    expect(validatePodSpec({ os: {}, containers: [container()] })).toEqual([
      { path: 'spec.os.name', message: expect.stringContaining('Required value') },
    ]);
  });

  test('an invalid os skips the OS-specific rules, as the API server does', () => {
    expect(paths({ os: { name: 'plan9' }, securityContext: { fsGroup: 1 }, containers: [container()] })).toEqual(['spec.os']);
  });

  test('rejects a non-object spec', () => {
    expect(paths(null as unknown as object)).toEqual(['spec']);
  });
});

describe('validatePodSpec: pod securityContext on Windows', () => {
  const forbidden: Array<[string, unknown]> = [
    ['seLinuxOptions', { level: 's0' }],
    ['seccompProfile', { type: 'RuntimeDefault' }],
    ['appArmorProfile', { type: 'RuntimeDefault' }],
    ['fsGroup', 0],
    ['fsGroupChangePolicy', 'Always'],
    ['runAsUser', 0],
    ['runAsGroup', 0],
    ['supplementalGroups', []],
    ['supplementalGroupsPolicy', 'Merge'],
    ['seLinuxChangePolicy', 'MountOption'],
  ];

  test.each(forbidden)('forbids securityContext.%s (even zero or empty)', (field, value) => {
    expect(validatePodSpec(windowsPod({ securityContext: { [field]: value } }))).toEqual([
      { path: `spec.securityContext.${field}`, message: 'Forbidden: cannot be set for a windows pod' },
    ]);
  });

  test.each(forbidden)('allows securityContext.%s on a Linux pod', (field, value) => {
    expect(validatePodSpec(linuxPod({ securityContext: { [field]: value } }))).toEqual([]);
  });

  test('forbids a non-empty sysctls list but accepts an empty one', () => {
    expect(paths(windowsPod({ securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '0' }] } }))).toEqual(['spec.securityContext.sysctls']);
    expect(validatePodSpec(windowsPod({ securityContext: { sysctls: [] } }))).toEqual([]);
  });

  test('accepts runAsNonRoot and windowsOptions, which Windows honours', () => {
    expect(validatePodSpec(windowsPod({ securityContext: { runAsNonRoot: true, windowsOptions: { runAsUserName: 'ContainerUser' } } }))).toEqual([]);
  });
});

describe('validatePodSpec: host namespaces on Windows', () => {
  test('hostPID and hostIPC are forbidden when true, fine when false', () => {
    expect(paths(windowsPod({ hostPID: true, hostIPC: true }))).toEqual(['spec.hostPID', 'spec.hostIPC']);
    expect(validatePodSpec(windowsPod({ hostPID: false, hostIPC: false }))).toEqual([]);
  });

  test('hostUsers and shareProcessNamespace are forbidden when set at all, even to false', () => {
    expect(paths(windowsPod({ hostUsers: false }))).toEqual(['spec.hostUsers']);
    expect(paths(windowsPod({ hostUsers: true }))).toEqual(['spec.hostUsers']);
    expect(paths(windowsPod({ shareProcessNamespace: false }))).toEqual(['spec.shareProcessNamespace']);
  });

  test('all allowed on Linux, but not host namespaces beside hostUsers: false', () => {
    expect(validatePodSpec(linuxPod({ hostPID: true, hostIPC: true, shareProcessNamespace: true }))).toEqual([]);
    expect(validatePodSpec(linuxPod({ hostUsers: false, shareProcessNamespace: true }))).toEqual([]);
    // validation.go v1.34 validateHostUsers: "spec.hostNetwork: Forbidden: when `hostUsers` is false" (and hostPID, hostIPC).
    expect(validatePodSpec(linuxPod({ hostUsers: false, hostPID: true, hostIPC: true, hostNetwork: true }))).toEqual([
      { path: 'spec.hostNetwork', message: 'Forbidden: when `hostUsers` is false' },
      { path: 'spec.hostPID', message: 'Forbidden: when `hostUsers` is false' },
      { path: 'spec.hostIPC', message: 'Forbidden: when `hostUsers` is false' },
    ]);
  });
});

// Generic pod rules a Windows or hybrid pod meets too: kubernetes v1.34
// pkg/apis/core/validation/validation.go (validateSeccompProfileField, validateAppArmorProfileField,
// ValidateSecurityContext, validateSysctls, validateHostUsers, validateHostNetwork, validateWindows).
describe('validatePodSpec: generic rules with the API server\'s paths (issue 8.5)', () => {
  test('pod-level resources are refused on Windows pods, accepted on Linux ones', () => {
    const resources = { requests: { cpu: '1' } };
    expect(paths(windowsPod({ resources }))).toEqual(['spec.resources']);
    expect(validatePodSpec(linuxPod({ resources }))).toEqual([]);
  });

  test('seccomp: localhostProfile exactly with type Localhost', () => {
    expect(validatePodSpec(linuxPod({ securityContext: { seccompProfile: { type: 'Localhost' } } })))
      .toEqual([{ path: 'spec.securityContext.seccompProfile.localhostProfile', message: 'Required value: must be set when seccomp type is Localhost' }]);
    expect(paths(linuxPod({ securityContext: { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'p.json' } } })))
      .toEqual(['spec.securityContext.seccompProfile.localhostProfile']);
    expect(validatePodSpec(linuxPod({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } } }))).toEqual([]);
  });

  test('AppArmor: a known type', () => {
    expect(paths(linuxPod({ containers: [{ name: 'c', image: 'i', securityContext: { appArmorProfile: { type: 'Enforce' } } }] })))
      .toEqual(['spec.containers[0].securityContext.appArmorProfile.type']);
    expect(validatePodSpec(linuxPod({ containers: [{ name: 'c', image: 'i', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }] }))).toEqual([]);
  });

  test('privileged with allowPrivilegeEscalation: false', () => {
    expect(validatePodSpec(linuxPod({ containers: [{ name: 'c', image: 'i', securityContext: { privileged: true, allowPrivilegeEscalation: false } }] })))
      .toEqual([{ path: 'spec.containers[0].securityContext', message: 'Invalid value: cannot set `allowPrivilegeEscalation` to false and `privileged` to true' }]);
  });

  test('IPC sysctls with hostIPC, network sysctls with hostNetwork', () => {
    const sysctls = [{ name: 'kernel.shmmax', value: '1' }, { name: 'net.core.somaxconn', value: '1024' }];
    expect(paths(linuxPod({ hostIPC: true, securityContext: { sysctls } }))).toEqual(['spec.securityContext.sysctls[0].name']);
    expect(paths(linuxPod({ hostNetwork: true, securityContext: { sysctls } }))).toEqual(['spec.securityContext.sysctls[1].name']);
    expect(validatePodSpec(linuxPod({ securityContext: { sysctls } }))).toEqual([]);
  });

  test('hostPort must equal containerPort on host-network pods, reported on hostPort as the API server does', () => {
    // kubernetes pkg/apis/core/validation/validation.go, validatePodHostNetworkDeps:
    // field.Invalid(...Child("hostPort"), port.HostPort, "must match `containerPort` when `hostNetwork` is true").
    const ports = (hostPort: number) => ({ hostNetwork: true, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 9182, hostPort }] }] });
    expect(validatePodSpec(linuxPod(ports(9183))))
      .toEqual([{ path: 'spec.containers[0].ports[0].hostPort', message: 'Invalid value: 9183: must match `containerPort` when `hostNetwork` is true' }]);
    expect(validatePodSpec(linuxPod(ports(9182)))).toEqual([]);
    // hostPort 0 is unset: allowed in a template (defaulted when the pod is made) and defaulted on a Pod.
    expect(validatePodSpec(linuxPod(ports(0)))).toEqual([]);
    // Unset hostPort is defaulted to containerPort on host-network pods (pkg/apis/core/v1/defaults.go).
    expect(validatePodSpec(linuxPod({ hostNetwork: true, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 9182 }] }] }))).toEqual([]);
  });

  test('hostPort on host-network pods is compared for spec.containers only, as the API server does', () => {
    // kubernetes v1.34 pkg/apis/core/validation/validation.go ValidatePodSecurityContext:
    // validateHostNetwork(securityContext.HostNetwork, spec.Containers, specPath.Child("containers")).
    const sidecar = { name: 's', image: 'i', restartPolicy: 'Always', ports: [{ containerPort: 9182, hostPort: 9183 }] };
    expect(validatePodSpec(linuxPod({ hostNetwork: true, initContainers: [sidecar] }))).toEqual([]);
  });
});

describe('validatePodSpec: container securityContext on Windows', () => {
  const forbidden: Array<[string, unknown]> = [
    ['seLinuxOptions', { level: 's0' }],
    ['seccompProfile', { type: 'RuntimeDefault' }],
    ['appArmorProfile', { type: 'RuntimeDefault' }],
    ['capabilities', { drop: ['ALL'] }],
    ['readOnlyRootFilesystem', false],
    ['privileged', false],
    ['allowPrivilegeEscalation', false],
    ['procMount', 'Default'],
    ['runAsUser', 1000],
    ['runAsGroup', 1000],
  ];

  test.each(forbidden)('forbids containers[].securityContext.%s (false counts as set)', (field, value) => {
    expect(validatePodSpec(windowsPod({ containers: [container(), container({ securityContext: { [field]: value } })] }))).toEqual([
      { path: `spec.containers[1].securityContext.${field}`, message: 'Forbidden: cannot be set for a windows pod' },
    ]);
  });

  test('checks init and ephemeral containers, init first, like VisitContainersWithPath', () => {
    const sc = { securityContext: { privileged: false } };
    expect(paths(windowsPod({
      ephemeralContainers: [container(sc)],
      containers: [container(sc)],
      initContainers: [container(sc)],
    }))).toEqual([
      'spec.initContainers[0].securityContext.privileged',
      'spec.containers[0].securityContext.privileged',
      'spec.ephemeralContainers[0].securityContext.privileged',
    ]);
  });

  test('cdk8s-plus defaults are all rejected on Windows', () => {
    const spec = windowsPod({
      securityContext: { fsGroupChangePolicy: 'Always', runAsNonRoot: true },
      containers: [container({ securityContext: { privileged: false, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true } })],
    });
    expect(paths(spec).sort()).toEqual([
      'spec.containers[0].securityContext.allowPrivilegeEscalation',
      'spec.containers[0].securityContext.privileged',
      'spec.containers[0].securityContext.readOnlyRootFilesystem',
      'spec.securityContext.fsGroupChangePolicy',
    ]);
  });
});

describe('validatePodSpec: windowsOptions on Linux', () => {
  test('forbidden at pod and container level', () => {
    expect(validatePodSpec(linuxPod({
      securityContext: { windowsOptions: {} },
      containers: [container({ securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } })],
    }))).toEqual([
      { path: 'spec.securityContext.windowsOptions', message: 'Forbidden: windows options cannot be set for a linux pod' },
      { path: 'spec.containers[0].securityContext.windowsOptions', message: 'Forbidden: windows options cannot be set for a linux pod' },
    ]);
  });

  test('allowed when the pod names no os', () => {
    expect(validatePodSpec({ containers: [container({ securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } })] })).toEqual([]);
  });
});

describe('validatePodSpec: HostProcess', () => {
  const hp = { windowsOptions: { hostProcess: true } };

  test('a pod-level hostProcess pod on the host network is valid', () => {
    expect(validatePodSpec(windowsPod({ hostNetwork: true, securityContext: hp, initContainers: [container()] }))).toEqual([]);
  });

  test('requires hostNetwork: true', () => {
    expect(validatePodSpec(windowsPod({ securityContext: hp }))).toEqual([
      { path: 'spec.hostNetwork', message: expect.stringContaining('hostNetwork must be true if pod contains any hostProcess containers') },
    ]);
    expect(paths(windowsPod({ hostNetwork: false, securityContext: hp }))).toEqual(['spec.hostNetwork']);
  });

  test('all or nothing across init, regular and ephemeral containers', () => {
    expect(validatePodSpec(windowsPod({
      hostNetwork: true,
      initContainers: [container({ securityContext: hp })],
      containers: [container({ securityContext: hp })],
      ephemeralContainers: [container()],
    }))).toEqual([
      { path: 'spec', message: expect.stringContaining('all containers must be HostProcess containers') },
    ]);
    expect(validatePodSpec(windowsPod({ hostNetwork: true, containers: [container({ securityContext: hp }), container({ securityContext: hp })] }))).toEqual([]);
  });

  test('pod and container values must agree when both are set', () => {
    expect(validatePodSpec(windowsPod({
      hostNetwork: true,
      securityContext: hp,
      // The second container inherits hostProcess: true from the pod, the first opts out.
      containers: [container({ securityContext: { windowsOptions: { hostProcess: false } } }), container()],
    }))).toEqual([
      { path: 'spec.containers[0].securityContext.windowsOptions.hostProcess', message: expect.stringContaining('pod hostProcess value must be identical if both are specified, was true') },
      { path: 'spec', message: expect.stringContaining('all containers must be HostProcess containers') },
    ]);
  });

  test('hostProcess false everywhere is an ordinary pod', () => {
    expect(validatePodSpec(windowsPod({ securityContext: { windowsOptions: { hostProcess: false } } }))).toEqual([]);
  });
});

describe('validatePodSpec: runAsUserName', () => {
  /** A valid DNS domain of exactly `length` characters (labels of at most 63). */
  const dnsDomain = (length: number) => {
    const labels: string[] = [];
    let left = length;
    while (left > 0) {
      const n = Math.min(63, left === 64 ? 62 : left);
      labels.push('a'.repeat(n));
      left -= n + 1;
    }
    return labels.join('.');
  };
  const withUser = (runAsUserName: string) => windowsPod({ securityContext: { windowsOptions: { runAsUserName } } });
  const messages = (runAsUserName: string) => validatePodSpec(withUser(runAsUserName)).map((v) => v.message);
  const path = 'spec.securityContext.windowsOptions.runAsUserName';

  test.each([
    'ContainerUser', 'NT AUTHORITY\\SYSTEM', 'NT AUTHORITY\\Local service', 'CONTOSO\\svc-web',
    'corp.example.com\\svc', `${dnsDomain(255)}\\u`, `${'u'.repeat(104)}`, 'NET_BIOS_DOM15X\\u',
  ])('accepts %s', (name) => {
    expect(validatePodSpec(withUser(name))).toEqual([]);
  });

  test('reports at the windowsOptions path, for containers too', () => {
    expect(paths(withUser(''))).toEqual([path]);
    expect(paths(windowsPod({ containers: [container({ securityContext: { windowsOptions: { runAsUserName: '' } } })] })))
      .toEqual(['spec.containers[0].securityContext.windowsOptions.runAsUserName']);
  });

  test('empty, control characters and more than one backslash', () => {
    expect(messages('')).toEqual([expect.stringContaining('cannot be an empty string')]);
    expect(messages('user\tname')).toEqual([expect.stringContaining('cannot contain control characters')]);
    expect(messages('a\\b\\c')).toEqual([expect.stringContaining('more than one backslash')]);
  });

  test('user at most 104 characters', () => {
    expect(messages('u'.repeat(105))).toEqual([expect.stringContaining('must not be longer than 104 characters')]);
    expect(messages(`DOMAIN\\${'u'.repeat(105)}`)).toEqual([expect.stringContaining('must not be longer than 104 characters')]);
  });

  test('domain under 256 characters', () => {
    expect(messages(`${dnsDomain(256)}\\u`)).toEqual([expect.stringContaining('Domain length must be under 256 characters')]);
  });

  test('NetBIOS domain at most 15 characters when it is not a DNS name', () => {
    expect(messages('NET_BIOS_DOM15XY\\u')).toEqual([expect.stringContaining("doesn't match the NetBios nor the DNS format")]);
    // 16 characters that form a DNS label are fine as a DNS domain.
    expect(messages('ABCDEFGHIJKLMNOP\\u')).toEqual([]);
  });

  test('domain may not start with a dot nor contain NetBIOS-forbidden characters', () => {
    expect(messages('.dom\\u')).toEqual([expect.stringContaining("doesn't match")]);
    expect(messages('do:m\\u')).toEqual([expect.stringContaining("doesn't match")]);
    expect(messages('\\u')).toEqual([expect.stringContaining("doesn't match")]);
  });

  test('user may not be empty, only dots or spaces, nor contain forbidden characters', () => {
    expect(messages('DOMAIN\\')).toEqual([expect.stringContaining('User cannot be empty')]);
    expect(messages('. .')).toEqual([expect.stringContaining('only periods or spaces')]);
    for (const ch of ['"', '/', ':', ';', '|', '=', ',', '+', '*', '?', '<', '>', '@', '[', ']']) {
      expect(messages(`us${ch}er`)).toEqual([expect.stringContaining('cannot contain the following characters')]);
    }
  });
});

describe('validatePodSpec: gMSA', () => {
  const withOptions = (windowsOptions: object) => windowsPod({ securityContext: { windowsOptions } });

  test('gmsaCredentialSpecName must be a DNS subdomain', () => {
    expect(validatePodSpec(withOptions({ gmsaCredentialSpecName: 'webapp1.gmsa-specs' }))).toEqual([]);
    expect(validatePodSpec(withOptions({ gmsaCredentialSpecName: 'WebApp_1' }))).toEqual([
      { path: 'spec.securityContext.windowsOptions.gmsaCredentialSpecName', message: expect.stringContaining('RFC 1123 subdomain') },
    ]);
    expect(paths(withOptions({ gmsaCredentialSpecName: 'a'.repeat(254) }))).toEqual(['spec.securityContext.windowsOptions.gmsaCredentialSpecName']);
  });

  test('gmsaCredentialSpec is at most 64 KiB and not empty', () => {
    expect(validatePodSpec(withOptions({ gmsaCredentialSpec: 'x'.repeat(64 * 1024) }))).toEqual([]);
    expect(validatePodSpec(withOptions({ gmsaCredentialSpec: 'x'.repeat(64 * 1024 + 1) }))).toEqual([
      { path: 'spec.securityContext.windowsOptions.gmsaCredentialSpec', message: expect.stringContaining('size must be under 64 KiB') },
    ]);
    expect(validatePodSpec(withOptions({ gmsaCredentialSpec: '' }))).toEqual([
      { path: 'spec.securityContext.windowsOptions.gmsaCredentialSpec', message: expect.stringContaining('cannot be an empty string') },
    ]);
  });

  test('container-level gMSA options are checked too', () => {
    expect(paths(windowsPod({ containers: [container({ securityContext: { windowsOptions: { gmsaCredentialSpecName: 'Bad!' } } })] })))
      .toEqual(['spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpecName']);
  });
});
