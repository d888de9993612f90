import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { WindowsWorkload } from '../../src/workloads';
import { only, synthObjects } from '../support/synth';

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

// kubernetes-sigs/windows-gmsa v0.13.0 admission-webhook/kube_client.go, isAuthorizedToUseCredSpec:
// the webhook admits the pod only if a LocalSubjectAccessReview in its namespace lets its service
// account `use` gmsacredentialspecs (group windows.k8s.io) of that name.
describe('gMSA: the service account may use the credential spec (issue 8.8)', () => {
  test('a service account of the workload\'s own, a ClusterRole for the one spec, a RoleBinding in the namespace', () => {
    const app = new App();
    new WindowsWorkload(new Chart(app, 'apps', { namespace: 'shop' }), 'iis', { image: IIS, port: 80, gmsaCredentialSpecName: 'webapp1' });
    const objects = synthObjects(app);
    const sa = only(objects, 'ServiceAccount');
    const pod = only(objects, 'Deployment').spec.template.spec;
    expect(pod.serviceAccountName).toBe(sa.metadata.name);
    expect(pod.securityContext.windowsOptions.gmsaCredentialSpecName).toBe('webapp1');
    const role = only(objects, 'ClusterRole');
    expect(role.rules).toEqual([{ apiGroups: ['windows.k8s.io'], resources: ['gmsacredentialspecs'], verbs: ['use'], resourceNames: ['webapp1'] }]);
    const binding = only(objects, 'RoleBinding');
    expect(binding.metadata.namespace).toBe('shop');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: sa.metadata.name, namespace: 'shop' }]);
  });

  test('a service account given is the one bound', () => {
    const app = new App();
    const chart = new Chart(app, 'apps', { namespace: 'shop' });
    const serviceAccount = new kplus.ServiceAccount(chart, 'web', { metadata: { name: 'web' } });
    new WindowsWorkload(chart, 'iis', { image: IIS, gmsaCredentialSpecName: 'webapp1', serviceAccount });
    const objects = synthObjects(app);
    expect(only(objects, 'RoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'web', namespace: 'shop' }]);
    expect(only(objects, 'Deployment').spec.template.spec.serviceAccountName).toBe('web');
  });

  test('without a namespace the binding cannot name the service account: a clear error', () => {
    expect(() => new WindowsWorkload(new Chart(new App(), 'apps'), 'iis', { image: IIS, gmsaCredentialSpecName: 'webapp1' }))
      .toThrow(/\[apps\/iis\] gmsaCredentialSpecName webapp1 without a namespace.*Fix: give the workload `metadata.namespace`/);
  });

  test('no RBAC without gMSA', () => {
    const app = new App();
    new WindowsWorkload(new Chart(app, 'apps'), 'iis', { image: IIS });
    expect(synthObjects(app).filter((o) => ['ClusterRole', 'RoleBinding', 'ServiceAccount'].includes(o.kind))).toEqual([]);
  });
});
