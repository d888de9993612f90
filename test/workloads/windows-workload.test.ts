import { ApiObject, App, Chart, Cron, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_NODE_TAINT, WINDOWS_RELEASES, WindowsPlatform, WindowsVersion } from '../../src';
import { HyperVRuntimeClass, PodTemplatePolicy, WindowsPod, WindowsWorkload, WindowsWorkloadKind, podTemplateOf, validatePodSpec } from '../../src/workloads';
import { K8sObject, only, synthObjects } from '../support/synth';

const IIS_2022 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const IIS_2019 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';
const WINDOWS_TOLERATION = { key: WINDOWS_NODE_TAINT.key, operator: 'Equal', value: WINDOWS_NODE_TAINT.value, effect: WINDOWS_NODE_TAINT.effect };

function setup() {
  const app = new App();
  const chart = new Chart(app, 'test', { namespace: 'apps' });
  return { app, chart };
}

const podSpec = (obj: K8sObject) => podTemplateOf(obj)!.spec;

describe('WindowsWorkload', () => {
  test('the IIS example gives a Deployment the API server accepts, on Windows Server 2022 nodes', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'iis', { image: IIS_2022, port: 80, replicas: 2 });
    const deployment = only(synthObjects(app), 'Deployment');
    const spec = deployment.spec.template.spec;

    expect(deployment.spec.replicas).toBe(2);
    expect(spec.os).toEqual({ name: 'windows' });
    // The release comes from the image's ltsc2022 tag.
    expect(spec.nodeSelector).toEqual({ [LABEL_OS]: 'windows', [LABEL_WINDOWS_BUILD]: WINDOWS_RELEASES[WindowsVersion.SERVER_2022].build });
    expect(spec.tolerations).toEqual([WINDOWS_TOLERATION]);
    expect(spec.runtimeClassName).toBeUndefined();
    expect(validatePodSpec(spec)).toEqual([]);

    const main = spec.containers[0];
    expect(main.securityContext).toEqual({});
    expect(spec.securityContext).toEqual({});
    expect(main.resources.requests).toEqual({ cpu: '500m', memory: '512Mi' });
    // Five minutes for a slow Windows start instead of cdk8s-plus's 30 seconds.
    expect(main.startupProbe).toEqual({ tcpSocket: { port: 80 }, periodSeconds: 10, failureThreshold: 30 });
  });

  test.each([WindowsWorkloadKind.DEPLOYMENT, WindowsWorkloadKind.STATEFUL_SET])('replicas default to 1 as documented (%s), not cdk8s-plus\'s 2 for a Deployment', (kind) => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'iis', { kind, image: IIS_2022, port: 80, replicas: undefined });
    expect(synthObjects(app).find((o) => o.kind === kind)!.spec.replicas).toBe(1);
  });

  test('explicit probes and requests win over the Windows defaults; a limit alone becomes the request', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'w', {
      image: IIS_2022,
      port: 80,
      main: {
        startup: kplus.Probe.fromHttpGet('/healthz', { failureThreshold: 5 }),
        resources: { cpu: { limit: kplus.Cpu.millis(200) }, memory: { request: Size.mebibytes(300) } },
      },
    });
    const main = only(synthObjects(app), 'Deployment').spec.template.spec.containers[0];
    expect(main.startupProbe).toMatchObject({ httpGet: { path: '/healthz' }, failureThreshold: 5 });
    expect(main.resources).toEqual({ limits: { cpu: '200m' }, requests: { cpu: '200m', memory: '300Mi' } });
  });

  test('an init container with a port, which cdk8s-plus gives its 3-try default probe, gets the patient one too; so does a sidecar', () => {
    const { app, chart } = setup();
    const nano = 'mcr.microsoft.com/windows/nanoserver:ltsc2022';
    new WindowsWorkload(chart, 'w', {
      image: IIS_2022,
      port: 80,
      initContainers: [{ image: nano, name: 'init', portNumber: 9000 }, { image: nano, name: 'side', portNumber: 9001, restartPolicy: kplus.ContainerRestartPolicy.ALWAYS }],
    });
    const spec = podSpec(only(synthObjects(app), 'Deployment'));
    expect(spec.initContainers.map((c: { startupProbe: unknown }) => c.startupProbe)).toEqual([9000, 9001].map((port) => ({ tcpSocket: { port }, periodSeconds: 10, failureThreshold: 30 })));
  });

  test.each([
    [WindowsWorkloadKind.STATEFUL_SET, 'StatefulSet'],
    [WindowsWorkloadKind.DAEMON_SET, 'DaemonSet'],
    [WindowsWorkloadKind.JOB, 'Job'],
    [WindowsWorkloadKind.CRON_JOB, 'CronJob'],
  ])('kind %s gets the same Windows pod template', (kind, k8sKind) => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'w', { kind, image: IIS_2019, port: 80, schedule: kind === WindowsWorkloadKind.CRON_JOB ? Cron.daily() : undefined });
    const spec = podSpec(only(synthObjects(app), k8sKind));
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.nodeSelector).toEqual({ [LABEL_OS]: 'windows', [LABEL_WINDOWS_BUILD]: '10.0.17763' });
    expect(spec.tolerations).toEqual([WINDOWS_TOLERATION]);
    expect(validatePodSpec(spec)).toEqual([]);
  });

  test('the CronJob pod template sits under spec.jobTemplate.spec.template', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'w', { kind: WindowsWorkloadKind.CRON_JOB, image: IIS_2022, schedule: Cron.daily() });
    expect(only(synthObjects(app), 'CronJob').spec.jobTemplate.spec.template.spec.os).toEqual({ name: 'windows' });
  });

  test('an unpinned multi-arch image gets OS selection but no windows-build', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'w', { image: 'mcr.microsoft.com/dotnet/framework/aspnet:4.8' });
    expect(only(synthObjects(app), 'Deployment').spec.template.spec.nodeSelector).toEqual({ [LABEL_OS]: 'windows' });
  });

  test('kind-specific props on the wrong kind are validation errors; a CronJob without schedule throws', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'ds', { kind: WindowsWorkloadKind.DAEMON_SET, image: IIS_2022, replicas: 3 });
    expect(() => synthObjects(app)).toThrow(/\[test\/ds\] replicas \(3\) has no meaning for a DaemonSet/);
    expect(() => new WindowsWorkload(chart, 'cj', { kind: WindowsWorkloadKind.CRON_JOB, image: IIS_2022 })).toThrow(/a CronJob without a schedule\. Fix: give `schedule`/);
    expect(() => new WindowsWorkload(chart, 'none', {})).toThrow(/needs a container/);
    expect(() => new WindowsWorkload(chart, 'ss', { kind: WindowsWorkloadKind.STATEFUL_SET, image: IIS_2022 })).toThrow(/a StatefulSet without a port: its headless Service is built from its container ports\. Fix: give `port`/);
  });

  test('exposeViaService selects the Windows pods', () => {
    const { app, chart } = setup();
    const iis = new WindowsWorkload(chart, 'iis', { image: IIS_2022, port: 80 });
    iis.exposeViaService({ ports: [{ port: 8080, targetPort: 80 }] });
    const objects = synthObjects(app);
    const service = only(objects, 'Service');
    expect(service.spec.selector).toEqual(only(objects, 'Deployment').spec.selector.matchLabels);
    expect(service.spec.ports).toEqual([{ port: 8080, targetPort: 80 }]);
  });
});

describe('image and host compatibility', () => {
  test('process isolation needs the exact release: the error names the path, the tag found and the tag to use', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'iis', { image: IIS_2019, version: WindowsVersion.SERVER_2022 });
    expect(() => synthObjects(app)).toThrow(/\[test\/iis\/Default\/Windows\] container main: image .*ltsc2019 is built for ltsc2019, which a Windows Server 2022 host .* cannot run\. Fix: use ltsc2022/);
  });

  test('Hyper-V does not run an older image on a newer host: containerd refuses it at pull', () => {
    const { app, chart } = setup();
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv', { version: WindowsVersion.SERVER_2022 });
    new WindowsWorkload(chart, 'iis', { image: IIS_2019, hyperV });
    expect(() => synthObjects(app)).toThrow(/ltsc2019, which a Windows Server 2022 host .* cannot run \(Hyper-V isolation does not help/);
  });

  test('a Hyper-V workload schedules by its RuntimeClass\'s host release', () => {
    const { app, chart } = setup();
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv', { version: WindowsVersion.SERVER_2022 });
    new WindowsWorkload(chart, 'iis', { image: IIS_2022, hyperV });
    const objects = synthObjects(app);
    const spec = only(objects, 'Deployment').spec.template.spec;
    expect(spec.runtimeClassName).toBe('windows-hyperv-ltsc2022');
    expect(spec.nodeSelector[LABEL_WINDOWS_BUILD]).toBe('10.0.20348');
    expect(only(objects, 'RuntimeClass')).toMatchObject({
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'windows-hyperv-ltsc2022' },
      handler: 'runhcs-wcow-hypervisor',
      scheduling: {
        nodeSelector: { [LABEL_OS]: 'windows', [LABEL_WINDOWS_BUILD]: '10.0.20348' },
        tolerations: [WINDOWS_TOLERATION],
      },
    });
  });

  test('Hyper-V cannot run a newer image on an older host', () => {
    const { app, chart } = setup();
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv', { version: WindowsVersion.SERVER_2019 });
    new WindowsWorkload(chart, 'iis', { image: IIS_2022, hyperV });
    expect(() => synthObjects(app)).toThrow(/ltsc2022, which a Windows Server 2019 host .* cannot run.*use ltsc2019/);
  });

  test('a version that contradicts the RuntimeClass is an error', () => {
    const { app, chart } = setup();
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv', { version: WindowsVersion.SERVER_2019 });
    new WindowsWorkload(chart, 'iis', { image: IIS_2019, hyperV, version: WindowsVersion.SERVER_2025 });
    expect(() => synthObjects(app)).toThrow(/version 2025 contradicts RuntimeClass windows-hyperv-ltsc2019/);
  });

  test('an image for an unsupported LTSC release is an error even without a version', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'old', { image: 'mcr.microsoft.com/windows/servercore:ltsc2016' });
    expect(() => synthObjects(app)).toThrow(/names ltsc2016, a release Kubernetes does not support/);
  });
});

describe('HostProcess, gMSA and users', () => {
  test('HostProcess pods run on the host network with a service account user', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'agent', { kind: WindowsWorkloadKind.DAEMON_SET, image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0', hostProcess: true });
    const spec = only(synthObjects(app), 'DaemonSet').spec.template.spec;
    expect(spec.hostNetwork).toBe(true);
    expect(spec.securityContext.windowsOptions).toEqual({ hostProcess: true, runAsUserName: 'NT AUTHORITY\\Local service' });
    expect(spec.nodeSelector).toEqual({ [LABEL_OS]: 'windows' });
    expect(validatePodSpec(spec)).toEqual([]);
  });

  test('HostProcess with Hyper-V is an error', () => {
    const { app, chart } = setup();
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv');
    new WindowsWorkload(chart, 'agent', { image: IIS_2022, hostProcess: true, hyperV });
    expect(() => synthObjects(app)).toThrow(/cannot use Hyper-V isolation \(RuntimeClass windows-hyperv\)/);
  });

  test('gMSA and runAsUserName go to the pod windowsOptions', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'app', { image: IIS_2022, gmsaCredentialSpecName: 'webapp1', runAsUserName: 'ContainerUser' });
    expect(only(synthObjects(app), 'Deployment').spec.template.spec.securityContext)
      .toEqual({ runAsNonRoot: true, windowsOptions: { gmsaCredentialSpecName: 'webapp1', runAsUserName: 'ContainerUser' } });
  });

  test('an invalid runAsUserName or gMSA name is reported with the manifest path, as the API server would', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'app', { image: IIS_2022, gmsaCredentialSpecName: 'Web_App', runAsUserName: 'a\\b\\c' });
    expect(() => synthObjects(app)).toThrow(/test\/app\/Default\/Resource \(Deployment .*\) spec\.template\.spec\.securityContext\.windowsOptions\.gmsaCredentialSpecName: Invalid value: "Web_App"/);
    expect(() => synthObjects(app)).toThrow(/spec\.template\.spec\.securityContext\.windowsOptions\.runAsUserName: .*more than one backslash/);
  });
});

describe('Windows runtime rules', () => {
  test('hostPort is an error that points to a Service', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'w', { image: IIS_2022, main: { ports: [{ number: 80, hostPort: 8080 }] } });
    expect(() => synthObjects(app)).toThrow(/\[test\/PodTemplatePolicy\] test\/w\/Default\/Resource \(Deployment [^)]+\) spec\.template\.spec\.containers\[0\]\.ports\[0\]\.hostPort: Windows does not support hostPort \(8080\); expose the pod through a Service/);
  });

  test('a memory-backed emptyDir is an error', () => {
    const { app, chart } = setup();
    const scratch = kplus.Volume.fromEmptyDir(chart, 'scratch', 'scratch', { medium: kplus.EmptyDirMedium.MEMORY });
    new WindowsWorkload(chart, 'w', { image: IIS_2022, volumes: [scratch] });
    expect(() => synthObjects(app)).toThrow(/spec\.template\.spec\.volumes\[0\]\.emptyDir\.medium: Windows cannot back an emptyDir with memory/);
  });

  test('a disk-backed emptyDir is fine', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'w', { image: IIS_2022, volumes: [kplus.Volume.fromEmptyDir(chart, 'scratch', 'scratch')] });
    expect(() => synthObjects(app)).not.toThrow();
  });

  test('mount propagation is an error', () => {
    const { app, chart } = setup();
    const w = new WindowsWorkload(chart, 'w', { image: IIS_2022 });
    w.workload.containers[0].mount('C:\\data', kplus.Volume.fromEmptyDir(chart, 'data', 'data'), { propagation: kplus.MountPropagation.HOST_TO_CONTAINER });
    expect(() => synthObjects(app)).toThrow(/containers\[0\]\.volumeMounts\[0\]\.mountPropagation: Windows does not support mount propagation \(HostToContainer\)/);
  });

  test('containers added through WindowsWorkload get the Windows treatment', () => {
    const { app, chart } = setup();
    const w = new WindowsWorkload(chart, 'w', { image: IIS_2022 });
    w.addContainer({ name: 'sidecar', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' });
    w.addInitContainer({ name: 'init', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' });
    const spec = only(synthObjects(app), 'Deployment').spec.template.spec;
    expect(spec.containers[1].securityContext).toEqual({});
    expect(spec.initContainers[0].resources.requests).toEqual({ cpu: '500m', memory: '512Mi' });
    expect(validatePodSpec(spec)).toEqual([]);
  });

  test('a container added behind the construct\'s back is reported with the fix', () => {
    const { app, chart } = setup();
    const w = new WindowsWorkload(chart, 'w', { image: IIS_2022 });
    w.workload.addContainer({ name: 'late', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' });
    expect(() => synthObjects(app)).toThrow(/\[test\/w\/Default\/Windows\] containers late were added to test\/w\/Default after it was made Windows-safe .*\. Fix: add them with WindowsPod\.of\(workload\)\.addContainer\(\)/);
    expect(() => synthObjects(app)).toThrow(/spec\.template\.spec\.containers\[1\]\.securityContext\.privileged: Forbidden: cannot be set for a windows pod/);
  });
});

describe('WindowsPod on hand-made cdk8s-plus workloads', () => {
  test('makes any cdk8s-plus workload Windows-safe, bare Pods included', () => {
    const { app, chart } = setup();
    const pod = new kplus.Pod(chart, 'pod', { containers: [{ image: IIS_2022 }] });
    new WindowsPod(pod, { version: WindowsVersion.SERVER_2022 });
    const spec = only(synthObjects(app), 'Pod').spec;
    expect(spec.os).toEqual({ name: 'windows' });
    expect(spec.tolerations).toEqual([WINDOWS_TOLERATION]);
    expect(validatePodSpec(spec)).toEqual([]);
    expect(WindowsPod.of(pod)?.version).toBe(WindowsVersion.SERVER_2022);
  });

  test('a Windows pod made by hand with only an os patch is checked by the chart policy once the chart has Windows workloads', () => {
    const { app, chart } = setup();
    new WindowsWorkload(chart, 'iis', { image: IIS_2022 });
    const manual = new kplus.Deployment(chart, 'manual', { containers: [{ image: IIS_2022 }] });
    ApiObject.of(manual).addJsonPatch(JsonPatch.add('/spec/template/spec/os', { name: 'windows' }));
    // The platform's Windows taint is required only when the platform is known.
    expect((() => { try { synthObjects(app); return ''; } catch (e) { return (e as Error).message; } })()).not.toMatch(/must tolerate/);
    PodTemplatePolicy.of(chart).checkFor(WindowsPlatform.K0SMOTRON_AWS);
    const error = (() => { try { synthObjects(app); return ''; } catch (e) { return (e as Error).message; } })();
    expect(error).toMatch(/test\/manual\/Resource \(Deployment [^)]+\) spec\.template\.spec\.securityContext\.fsGroupChangePolicy: Forbidden: cannot be set for a windows pod/);
    expect(error).toMatch(/spec\.template\.spec\.containers\[0\]\.securityContext\.readOnlyRootFilesystem: Forbidden/);
    expect(error).toMatch(/test\/manual\/Resource .* spec\.template\.spec\.tolerations: must tolerate the Windows node taint os=windows:NoSchedule/);
    expect(error).toMatch(/test\/manual\/Resource .* spec\.template\.spec\.nodeSelector\.kubernetes\.io\/os: must be "windows"/);
    expect(error).not.toMatch(/test\/iis/);
  });

  test('a field the user set explicitly (runAsUser) is reported, not silently dropped', () => {
    const { app, chart } = setup();
    const d = new kplus.Deployment(chart, 'd', { containers: [{ image: IIS_2022, securityContext: { user: 1000 } }] });
    new WindowsPod(d);
    expect(() => synthObjects(app)).toThrow(/spec\.template\.spec\.containers\[0\]\.securityContext\.runAsUser: Forbidden: cannot be set for a windows pod/);
  });

  test('runAsNonRoot with ContainerAdministrator is refused by the kubelet and reported', () => {
    const { app, chart } = setup();
    const d = new kplus.Deployment(chart, 'd', { containers: [{ image: IIS_2022 }] });
    new WindowsPod(d, { runAsUserName: 'ContainerAdministrator' });
    ApiObject.of(d).addJsonPatch(JsonPatch.add('/spec/template/spec/securityContext/runAsNonRoot', true));
    expect(() => synthObjects(app)).toThrow(/containers\[0\]\.securityContext\.runAsNonRoot: is true while the container runs as ContainerAdministrator/);
  });

  // kubernetes pkg/kubelet/kuberuntime/security_context_windows.go, verifyRunAsNonRoot compares
  // with strings.EqualFold (since v1.25.0, kubernetes#111009).
  test('so is any spelling the kubelet folds to ContainerAdministrator', () => {
    const { app, chart } = setup();
    const d = new kplus.Deployment(chart, 'd', { containers: [{ image: IIS_2022 }] });
    new WindowsPod(d, { runAsUserName: 'containerADMINISTRATOR' });
    ApiObject.of(d).addJsonPatch(JsonPatch.add('/spec/template/spec/securityContext/runAsNonRoot', true));
    expect(() => synthObjects(app)).toThrow(/runAsNonRoot: is true while the container runs as containerADMINISTRATOR, which the kubelet treats as ContainerAdministrator/);
  });
});
