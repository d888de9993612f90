import { crdViolations, describeWithCrds } from './support/crd-schemas';

// The strict validator itself must reject what the API server rejects, or every conformance test is hollow.
describeWithCrds('strict CRD validation', () => {
  const cluster = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c' },
    spec: { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'K0sControlPlane', name: 'c' } },
  };

  test('accepts a valid v1beta2 Cluster', () => {
    expect(crdViolations(cluster)).toEqual([]);
  });

  test('rejects an unknown field, like kubectl apply with strict field validation', () => {
    const bad = { ...cluster, spec: { controlPlaneRef: { ...cluster.spec.controlPlaneRef, apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2' } } };
    expect(crdViolations(bad)).toEqual([expect.stringContaining('(apiVersion)')]);
  });

  test('rejects deprecated and unknown API versions', () => {
    expect(crdViolations({ ...cluster, apiVersion: 'cluster.x-k8s.io/v1beta1', spec: {} })).toEqual(
      expect.arrayContaining([expect.stringContaining('deprecated')]));
    expect(crdViolations({ ...cluster, apiVersion: 'cluster.x-k8s.io/v1alpha9' })).toEqual([
      expect.stringContaining('no CRD serves')]);
  });

  test('v1beta1 K0sWorkerConfigTemplate has no provisioner', () => {
    const tpl = {
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
      kind: 'K0sWorkerConfigTemplate',
      metadata: { name: 'w' },
      spec: { template: { spec: { version: 'v1.34.2+k0s.0', provisioner: { platform: 'windows', type: 'powershell-xml' } } } },
    };
    expect(crdViolations(tpl)).toEqual(expect.arrayContaining([expect.stringContaining('(provisioner)')]));
    expect(crdViolations({ ...tpl, apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2' })).toEqual([]);
  });
});
