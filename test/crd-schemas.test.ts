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
      spec: { template: { spec: { version: 'v1.34.10+k0s.0', provisioner: { platform: 'windows', type: 'powershell-xml' } } } },
    };
    expect(crdViolations(tpl)).toEqual(expect.arrayContaining([expect.stringContaining('(provisioner)')]));
    expect(crdViolations({ ...tpl, apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2' })).toEqual([]);
  });
  test('k0smotron RemoteMachine kinds are checked too: a PooledRemoteMachine needs its sshKeyRef, a RemoteMachineTemplate its pool', () => {
    const pooled = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'PooledRemoteMachine', metadata: { name: 'p' }, spec: { pool: 'p', machine: { address: '10.0.0.1' } } };
    expect(crdViolations(pooled)).toEqual([expect.stringContaining("must have required property 'sshKeyRef'")]);
    expect(crdViolations({ ...pooled, spec: { pool: 'p', machine: { address: '10.0.0.1', sshKeyRef: { name: 'k' } } } })).toEqual([]);
    const template = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'RemoteMachineTemplate', metadata: { name: 't' }, spec: { template: { spec: {} } } };
    expect(crdViolations(template)).toEqual([expect.stringContaining("must have required property 'pool'")]);
  });
});

// The CRDs' CEL rules (x-kubernetes-validations) run beside the schema, as the API server runs them.
describeWithCrds('CEL validation rules', () => {
  const template = (spec: object) => ({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSMachineTemplate',
    metadata: { name: 't' },
    spec: { template: { spec: { instanceType: 't3.large', ...spec } } },
  });

  test('a rule on an object node: capacityReservationId with a Spot market is refused', () => {
    expect(crdViolations(template({ capacityReservationId: 'cr-0123456789abcdef0', marketType: 'Spot' })))
      .toEqual(['AWSMachineTemplate/t: spec.template.spec: capacityReservationId may not be set when marketType is Spot']);
    expect(crdViolations(template({ capacityReservationId: 'cr-0123456789abcdef0', marketType: 'OnDemand' }))).toEqual([]);
  });

  test('a rule on list items: a MachineHealthCheck may not watch the Ready machine condition', () => {
    const mhc = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineHealthCheck',
      metadata: { name: 'm' },
      spec: {
        clusterName: 'c',
        selector: { matchLabels: { a: 'b' } },
        checks: { unhealthyMachineConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }] },
      },
    };
    expect(crdViolations(mhc)).toEqual([expect.stringContaining('spec.checks.unhealthyMachineConditions[0].type: type must not be one of: Ready')]);
  });

  test('a rule on a string: an AWSCluster carrier gateway id', () => {
    const aws = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'AWSCluster', metadata: { name: 'a' }, spec: { network: { vpc: { carrierGatewayId: 'igw-1' } } } };
    expect(crdViolations(aws)).toEqual(["AWSCluster/a: spec.network.vpc.carrierGatewayId: Carrier Gateway ID must start with 'cagw-'"]);
  });
});
