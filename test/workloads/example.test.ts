import { App } from 'cdk8s';
import { LABEL_OS, podTemplateOf, targetsWindows, validatePodSpec } from '../../src';
import { WindowsAppChart } from '../../examples/windows-app/main';
import { only, synthObjects } from '../support/synth';

describe('examples/windows-app', () => {
  const app = new App();
  new WindowsAppChart(app, 'windows-app');
  const objects = synthObjects(app);
  const withPods = objects.filter((o) => podTemplateOf(o));

  test('holds the IIS Deployment and Service, the Linux frontend and the windows_exporter DaemonSet', () => {
    expect(withPods.map((o) => o.kind).sort()).toEqual(['DaemonSet', 'Deployment', 'Deployment']);
    expect(only(objects, 'Service', 'iis').spec.ports).toEqual([{ port: 80 }]);
    expect(only(objects, 'DaemonSet').spec.template.spec.securityContext.windowsOptions).toEqual({ hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' });
  });

  test('every pod template passes the API server\'s OS-specific validation', () => {
    for (const o of withPods) expect({ name: o.metadata.name, violations: validatePodSpec(podTemplateOf(o)!.spec) }).toEqual({ name: o.metadata.name, violations: [] });
  });

  test('every pod that is not a Windows pod is pinned to Linux', () => {
    const linux = withPods.filter((o) => !targetsWindows(podTemplateOf(o)!.spec));
    expect(linux.map((o) => o.metadata.name)).toEqual([expect.stringContaining('frontend')]);
    for (const o of linux) {
      expect(podTemplateOf(o)!.spec).toMatchObject({ os: { name: 'linux' }, nodeSelector: { [LABEL_OS]: 'linux' } });
    }
  });

  test('Windows pods are complete: os, node selector and toleration', () => {
    for (const o of withPods.filter((p) => targetsWindows(podTemplateOf(p)!.spec))) {
      const spec = podTemplateOf(o)!.spec;
      expect(spec.os).toEqual({ name: 'windows' });
      expect(spec.nodeSelector[LABEL_OS]).toBe('windows');
      expect(spec.tolerations).toContainEqual({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
    }
  });
});
