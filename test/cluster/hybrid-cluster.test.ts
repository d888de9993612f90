import { ApiObject, JsonPatch } from 'cdk8s';
import { ClusterInfra, LoadBalancerScheme, WINDOWS_NODE_TAINT, WindowsEdition, WindowsVersion } from '../../src';
import { K8sObject, only, synthObjects } from '../support/synth';
import { hybridCluster } from './fixture';

describe('HybridCluster objects', () => {
  const objects = synthObjects(hybridCluster().app);
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);

  test('emits every kind in its v1beta2 storage version, one set per pool', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind}`).sort()).toEqual([
      // Per pool and zone (two zones): a K0sWorkerConfigTemplate and a MachineDeployment.
      ...Array(4).fill('bootstrap.cluster.x-k8s.io/v1beta2 K0sWorkerConfigTemplate'),
      'cluster.x-k8s.io/v1beta2 Cluster',
      ...Array(4).fill('cluster.x-k8s.io/v1beta2 MachineDeployment'),
      'cluster.x-k8s.io/v1beta2 MachineHealthCheck',
      'cluster.x-k8s.io/v1beta2 MachineHealthCheck',
      'controlplane.cluster.x-k8s.io/v1beta2 K0sControlPlane',
      'infrastructure.cluster.x-k8s.io/v1beta2 AWSCluster',
      'infrastructure.cluster.x-k8s.io/v1beta2 AWSMachineTemplate',
      'infrastructure.cluster.x-k8s.io/v1beta2 AWSMachineTemplate',
      'infrastructure.cluster.x-k8s.io/v1beta2 AWSMachineTemplate',
    ]);
  });

  test('Cluster references use apiGroup; K0sControlPlane machine template uses apiVersion', () => {
    const cluster = only(objects, 'Cluster');
    expect(cluster.spec.controlPlaneRef).toEqual({ apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'K0sControlPlane', name: 'prod' });
    expect(cluster.spec.infrastructureRef).toEqual({ apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'AWSCluster', name: 'prod' });
    const kcp = only(objects, 'K0sControlPlane');
    const cpTemplate = byKind('AWSMachineTemplate').find((t) => t.metadata.name.startsWith('prod-cp-'))!;
    expect(kcp.spec.machineTemplate.infrastructureRef).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'AWSMachineTemplate', name: cpTemplate.metadata.name,
    });
  });

  test('every reference resolves to an object in the output', () => {
    const names = new Set(objects.map((o) => `${o.kind}/${o.metadata.name}`));
    for (const md of byKind('MachineDeployment')) {
      expect(names).toContain(`K0sWorkerConfigTemplate/${md.spec.template.spec.bootstrap.configRef.name}`);
      expect(names).toContain(`AWSMachineTemplate/${md.spec.template.spec.infrastructureRef.name}`);
      expect(md.spec.template.spec.bootstrap.configRef.apiGroup).toBe('bootstrap.cluster.x-k8s.io');
    }
  });

  test('control plane: Linux, Calico in VXLAN mode, no anonymous auth, no worker by default', () => {
    const kcp = only(objects, 'K0sControlPlane').spec;
    expect(kcp.replicas).toBe(3);
    expect(kcp.version).toBe('v1.34.10+k0s.0');
    expect(kcp.k0sConfigSpec.provisioner).toBeUndefined();
    expect(kcp.k0sConfigSpec.args).toBeUndefined();
    expect(kcp.k0sConfigSpec.k0s.spec.network).toMatchObject({
      provider: 'calico', calico: { mode: 'vxlan', vxlanPort: 4789, vxlanVNI: 4096 },
    });
    expect(JSON.stringify(kcp)).not.toContain('anonymous-auth');
  });

  test('load balancer: NLB with 8132 and 9443 listeners, k0s ports only from the cluster', () => {
    const aws = only(objects, 'AWSCluster').spec;
    const lb = aws.controlPlaneLoadBalancer;
    expect(lb.loadBalancerType).toBe('nlb');
    expect(lb.additionalListeners.map((l: { port: number }) => l.port)).toEqual([8132, 9443]);
    for (const port of [8132, 9443]) {
      const lbRule = lb.ingressRules.find((r: K8sObject) => r.fromPort === port);
      expect(lbRule).toMatchObject({ protocol: 'tcp', toPort: port, natGatewaysIPsSource: true });
      expect(lbRule.cidrBlocks).toBeUndefined();
      const cpRule = aws.network.additionalControlPlaneIngressRules.find((r: K8sObject) => r.fromPort === port);
      expect(cpRule).toMatchObject({ protocol: 'tcp', toPort: port, sourceSecurityGroupRoles: ['controlplane', 'node'] });
      expect(cpRule.cidrBlocks).toBeUndefined();
    }
    expect(aws.network.cni.cniIngressRules).toEqual([expect.objectContaining({ protocol: 'udp', fromPort: 4789, toPort: 4789 })]);
  });

  test('an internal load balancer admits k0s ports from the cluster security groups', () => {
    const { app } = hybridCluster({ cluster: { apiServerLoadBalancer: { scheme: LoadBalancerScheme.INTERNAL, allowedCidrs: ['10.0.0.0/8'] } } });
    const lb = only(synthObjects(app), 'AWSCluster').spec.controlPlaneLoadBalancer;
    expect(lb.scheme).toBe('internal');
    expect(lb.ingressRules[0]).toMatchObject({ fromPort: 6443, cidrBlocks: ['10.0.0.0/8'] });
    expect(lb.ingressRules.filter((r: K8sObject) => r.sourceSecurityGroupRoles).map((r: K8sObject) => r.fromPort)).toEqual([8132, 9443]);
  });

  test('machines: encrypted root volumes and IMDSv2 everywhere', () => {
    for (const t of byKind('AWSMachineTemplate')) {
      const spec = t.spec.template.spec;
      expect(spec.rootVolume.encrypted).toBe(true);
      expect(spec.instanceMetadataOptions.httpTokens).toBe('required');
    }
  });

  test('Windows pool: powershell-xml, C:\\k0s, taint and labels through k0s args, plain user data', () => {
    const kwct = byKind('K0sWorkerConfigTemplate').find((t) => t.metadata.name.startsWith('prod-win-'))!.spec.template.spec;
    expect(kwct.provisioner).toEqual({ platform: 'windows', type: 'powershell-xml' });
    expect(kwct.version).toBe('v1.34.10+k0s.0');
    expect(kwct.k0sInstallDir).toBe('C:\\k0s');
    expect(kwct.args).toEqual([
      '--labels=node.cluster.x-k8s.io/pool=win,topology.kubernetes.io/zone=eu-north-1a,topology.kubernetes.io/region=eu-north-1',
      `--taints=${WINDOWS_NODE_TAINT.key}=${WINDOWS_NODE_TAINT.value}:${WINDOWS_NODE_TAINT.effect}`,
    ]);
    const machine = byKind('AWSMachineTemplate').find((t) => t.metadata.name.startsWith('prod-win-'))!.spec.template.spec;
    expect(machine).toMatchObject({ cloudInit: { insecureSkipSecretsManager: true }, uncompressedUserData: true, instanceType: 't3.xlarge' });
    // CAPI's own Machine names (<MachineDeployment>-<hash>-<random>) carry cluster and pool.
    expect(only(objects, 'MachineDeployment', 'prod-win-a').spec.machineNaming).toBeUndefined();
  });

  test('Linux pool: cloud-config, no taint, gzipped user data without the Secrets Manager boothook', () => {
    const kwct = byKind('K0sWorkerConfigTemplate').find((t) => t.metadata.name.startsWith('prod-linux-'))!.spec.template.spec;
    expect(kwct.provisioner).toEqual({ platform: 'linux', type: 'cloud-config' });
    expect(kwct.args).toEqual(['--labels=node.cluster.x-k8s.io/pool=linux,topology.kubernetes.io/zone=eu-north-1a,topology.kubernetes.io/region=eu-north-1']);
    expect(kwct.preK0sCommands).toBeUndefined();
    const machine = byKind('AWSMachineTemplate').find((t) => t.metadata.name.startsWith('prod-linux-'))!.spec.template.spec;
    expect(machine.cloudInit).toEqual({ insecureSkipSecretsManager: true });
    expect(machine.uncompressedUserData).toBe(false);
  });

  test('a MachineHealthCheck per pool selects the machines of all its zones and no others; each MachineDeployment only its own', () => {
    const mds = byKind('MachineDeployment');
    const selects = (selector: K8sObject, labels: Record<string, string>) => Object.entries(selector.matchLabels).every(([k, v]) => labels[k] === v);
    for (const pool of ['linux', 'win']) {
      const mhc = only(objects, 'MachineHealthCheck', `prod-${pool}`);
      expect(mds.filter((md) => selects(mhc.spec.selector, md.spec.template.metadata.labels)).map((md) => md.metadata.name)).toEqual([`prod-${pool}-a`, `prod-${pool}-b`]);
    }
    for (const md of mds) {
      expect(md.spec.template.metadata.labels).toEqual(md.spec.selector.matchLabels);
      // CAPI's MachineDeployment label, as its webhook sets it on an empty selector: zones never share machines.
      expect(mds.filter((other) => selects(md.spec.selector, other.spec.template.metadata.labels))).toEqual([md]);
    }
    expect(only(objects, 'MachineHealthCheck', 'prod-win').spec.checks.nodeStartupTimeoutSeconds).toBeGreaterThan(
      only(objects, 'MachineHealthCheck', 'prod-linux').spec.checks.nodeStartupTimeoutSeconds);
    const { app } = hybridCluster({ cluster: { machineHealthChecks: false }, windows: { machineHealthCheck: true } });
    expect(synthObjects(app).filter((o) => o.kind === 'MachineHealthCheck').map((o) => o.metadata.name)).toEqual(['prod-win']);
  });

  test('template names follow their content, so a change rolls out under a new name', () => {
    const name = (instanceType: string) => synthObjects(hybridCluster({ linux: { instanceType } }).app)
      .filter((o) => o.kind === 'AWSMachineTemplate' && o.metadata.name.startsWith('prod-linux-'))[0].metadata.name;
    expect(name('t3.large')).toBe(name('t3.large'));
    expect(name('t3.large')).not.toBe(name('m6i.large'));
    const labels = (labels: Record<string, string>) => synthObjects(hybridCluster({ linux: { labels } }).app)
      .filter((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('prod-linux-'))[0].metadata.name;
    expect(labels({ a: 'b' })).not.toBe(labels({ a: 'c' }));
  });

  test('deployed infrastructure becomes the network, AMIs and instance profiles', () => {
    const infra = new ClusterInfra({
      region: 'eu-west-1',
      vpcId: 'vpc-0123',
      publicSubnetIds: ['subnet-pub-a', 'subnet-pub-b'],
      privateSubnetIds: ['subnet-priv-a', 'subnet-priv-b'],
      controlPlaneInstanceProfile: 'cp-profile',
      nodeInstanceProfile: 'node-profile',
      linuxAmiId: 'ami-0aaaaaaaaaaaaaaa1',
      windowsAmiIds: { [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'ami-0bbbbbbbbbbbbbbb2' } },
      sshKeyName: 'infra-key',
      privateSubnetZones: ['eu-west-1a', 'eu-west-1b'],
    });
    const { app } = hybridCluster({
      cluster: { region: undefined, zones: undefined, sshKeyName: undefined, infra, controlPlane: { instanceType: 't3.large', ami: undefined } },
      linux: { ami: undefined },
      windows: { ami: undefined },
    });
    const out = synthObjects(app);
    const aws = only(out, 'AWSCluster').spec;
    expect(aws.region).toBe('eu-west-1');
    expect(aws.sshKeyName).toBe('infra-key');
    expect(aws.network.vpc).toEqual({ id: 'vpc-0123' });
    expect(aws.network.subnets).toEqual(['subnet-priv-a', 'subnet-priv-b', 'subnet-pub-a', 'subnet-pub-b'].map((id) => ({ id })));
    // The pools spread over the infra's private subnets' zones.
    expect(out.filter((o) => o.kind === 'MachineDeployment').map((md) => md.spec.template.spec.failureDomain)).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1a', 'eu-west-1b']);
    const spec = (prefix: string) => out.find((o) => o.kind === 'AWSMachineTemplate' && o.metadata.name.startsWith(prefix))!.spec.template.spec;
    expect(spec('prod-cp-')).toMatchObject({ ami: { id: 'ami-0aaaaaaaaaaaaaaa1' }, iamInstanceProfile: 'cp-profile' });
    expect(spec('prod-linux-')).toMatchObject({ ami: { id: 'ami-0aaaaaaaaaaaaaaa1' }, iamInstanceProfile: 'node-profile' });
    expect(spec('prod-win-')).toMatchObject({ ami: { id: 'ami-0bbbbbbbbbbbbbbb2' }, iamInstanceProfile: 'node-profile' });
  });

  test('a JSON patch on a generated object is visible to the checks', () => {
    const { app, windows } = hybridCluster();
    ApiObject.of(windows!.workerConfigTemplates[0]).addJsonPatch(JsonPatch.replace('/spec/template/spec/provisioner/type', 'cloud-config'));
    expect(() => synthObjects(app)).toThrow(/provisioner is \{"platform":"windows","type":"cloud-config"\}.*powershell-xml/);
  });
});
