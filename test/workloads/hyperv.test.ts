import { App, Chart, Size } from 'cdk8s';
import { LABEL_HYPERV, WindowsPlatform, WindowsVersion, validateManifests } from '../../src';
import { HybridChart, HyperVRuntimeClass, WindowsWorkload } from '../../src/workloads';
import { hybridCluster } from '../cluster/fixture';
import { only, synthObjects } from '../support/synth';

const IIS_2022 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

describe('Hyper-V isolation, honestly (issue 8.4)', () => {
  test('the RuntimeClass accounts for the utility VM and schedules onto Hyper-V nodes only', () => {
    const app = new App();
    new HyperVRuntimeClass(new Chart(app, 'c'), 'hyperv');
    const rc = only(synthObjects(app), 'RuntimeClass');
    // hcsshim's default utility VM: MemorySizeInMB 1024 (microsoft/hcsshim internal/uvm/create.go, newDefaultOptions).
    expect(rc.overhead).toEqual({ podFixed: { cpu: '500m', memory: '1024Mi' } });
    expect(rc.scheduling.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows', [LABEL_HYPERV]: 'true' });
  });

  test('the overhead can be set', () => {
    const app = new App();
    new HyperVRuntimeClass(new Chart(app, 'c'), 'hyperv', { overhead: { cpuMillis: 250, memory: Size.mebibytes(768) } });
    expect(only(synthObjects(app), 'RuntimeClass').overhead).toEqual({ podFixed: { cpu: '250m', memory: '768Mi' } });
  });

  test('a Hyper-V workload states its node requirement in its own selection, as DaemonSets need', () => {
    const app = new App();
    const chart = new Chart(app, 'c');
    const hyperV = new HyperVRuntimeClass(chart, 'hyperv', { version: WindowsVersion.SERVER_2022 });
    new WindowsWorkload(chart, 'iis', { image: IIS_2022, hyperV });
    expect(only(synthObjects(app), 'Deployment').spec.template.spec.nodeSelector).toMatchObject({ [LABEL_HYPERV]: 'true' });
  });

  test('a Windows pool with hyperV labels its nodes for the RuntimeClass', () => {
    const args = (hyperV?: boolean) => synthObjects(hybridCluster({ windows: { hyperV } }).app)
      .find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('prod-win-'))!.spec.template.spec.args[0];
    const zone = 'topology.kubernetes.io/zone=eu-north-1a,topology.kubernetes.io/region=eu-north-1';
    expect(args(true)).toBe(`--labels=node.cluster.x-k8s.io/pool=win,${LABEL_HYPERV}=true,${zone}`);
    expect(args()).toBe(`--labels=node.cluster.x-k8s.io/pool=win,${zone}`);
  });
});

// EKS User Guide latest/ug/nodes/eks-optimized-windows-ami.adoc: the Windows AMI's components
// (containerd without a runhcs-wcow-hypervisor handler); EC2 Hyper-V needs metal instances. Issue 24 point 12.
describe('Hyper-V on EKS can never schedule, and is refused there', () => {
  test('a HybridChart for EKS refuses the RuntimeClass and the workload that uses it; the k0smotron platform takes them', () => {
    const build = (platform?: WindowsPlatform) => {
      const app = new App();
      const chart = new HybridChart(app, 'apps', { platform });
      const hyperV = new HyperVRuntimeClass(chart, 'hyperv', { version: WindowsVersion.SERVER_2022 });
      new WindowsWorkload(chart, 'iis', { image: IIS_2022, hyperV });
      return app;
    };
    let message = '';
    try {
      build(WindowsPlatform.EKS).synth();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/RuntimeClass windows-hyperv-ltsc2022 \(handler runhcs-wcow-hypervisor\) is for Hyper-V isolated pods, which no EKS node runs/);
    expect(message).toMatch(/spec\.template\.spec\.nodeSelector\.node\.cdk-hybrid-windows\.io\/hyperv: the pod asks for Hyper-V isolation/);
    expect(() => build(WindowsPlatform.K0SMOTRON_AWS).synth()).not.toThrow();
  });

  test('YAML from elsewhere: a pod naming a Hyper-V RuntimeClass, on EKS only', () => {
    const objects = [
      { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'hv' }, handler: 'runhcs-wcow-hypervisor' },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { runtimeClassName: 'hv', os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' }, tolerations: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], containers: [{ name: 'c', image: IIS_2022 }] } },
    ];
    const eks = validateManifests(objects, { platform: WindowsPlatform.EKS }).filter((v) => v.rule === 'eks-hyperv');
    expect(eks.map((v) => `${v.kind} ${v.field}`)).toEqual(['RuntimeClass handler', 'Pod spec.runtimeClassName']);
    expect(validateManifests(objects).filter((v) => v.rule === 'eks-hyperv')).toEqual([]);
  });
});
