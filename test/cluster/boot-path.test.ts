import { ApiObject, App, Duration, JsonPatch } from 'cdk8s';
import { CalicoMode, ClusterInfra, MachineImage, NetworkProvider, WindowsEdition, WindowsVersion } from '../../src';
import { KeyPairType } from '../../src/platform/aws';
import { remediationLimit } from '../../src/capi/machine-deployment-pool';
import { buildCluster } from '../../examples/k0smotron-aws/main';
import { K8sObject, only, synthObjects } from '../support/synth';
import { constructionError, FixtureOptions, hybridCluster } from './fixture';

/** The fixture without AMIs: what a user gets who names none and has no infra. */
const NO_AMIS: FixtureOptions = {
  cluster: { controlPlane: { instanceType: 't3.large', ami: undefined } },
  linux: { ami: undefined },
  windows: { ami: undefined },
};

function machineSpec(objects: K8sObject[], prefix: string) {
  return objects.find((o) => o.kind === 'AWSMachineTemplate' && o.metadata.name.startsWith(prefix))!.spec.template.spec;
}

describe('Linux bootstrap data (issue 7.1)', () => {
  // CAPA boots a machine through a Secrets Manager #cloud-boothook unless
  // cloudInit.insecureSkipSecretsManager is true (cluster-api-provider-aws
  // pkg/cloud/scope/machine.go, UseSecretsManager); the boothook needs the AWS CLI and a patched
  // cloud-init (docs/book/src/topics/userdata-privacy.md), which stock Ubuntu lacks.
  // CompressUserData is true only for an explicit uncompressedUserData: false (same file).
  const objects = synthObjects(hybridCluster(NO_AMIS).app);

  test.each(['prod-cp-', 'prod-linux-'])('%s: plain user data, gzipped', (prefix) => {
    expect(machineSpec(objects, prefix)).toMatchObject({ cloudInit: { insecureSkipSecretsManager: true }, uncompressedUserData: false });
  });

  test('Windows: plain user data, not gzipped (EC2Launch does not gunzip)', () => {
    expect(machineSpec(objects, 'prod-win-')).toMatchObject({ cloudInit: { insecureSkipSecretsManager: true }, uncompressedUserData: true });
  });

  test('the Secrets Manager hand-off is an opt-in on a pinned image', () => {
    const pinned = MachineImage.id('ami-0fa91bc90632c73c9');
    const out = synthObjects(hybridCluster({
      cluster: { controlPlane: { instanceType: 't3.large', ami: pinned, bootstrapThroughSecretsManager: true } },
      linux: { ami: pinned, bootstrapThroughSecretsManager: true },
    }).app);
    for (const prefix of ['prod-cp-', 'prod-linux-']) expect(machineSpec(out, prefix).cloudInit).toBeUndefined();
  });

  test('the opt-in on a looked-up stock image is refused', () => {
    expect(() => hybridCluster({ ...NO_AMIS, linux: { ami: undefined, bootstrapThroughSecretsManager: true } }))
      .toThrow(/^\[mgmt\/prod\/linux\] bootstrapThroughSecretsManager: AWSMachineTemplate prod-linux-[0-9a-f]{8}: cloudInit\.insecureSkipSecretsManager is not true, so CAPA hands the bootstrap data over through Secrets Manager, and the machine boots an image lookup: stock images have neither the AWS CLI nor the patched cloud-init.*Fix: remove the patch, or set bootstrapThroughSecretsManager with `ami: MachineImage\.id/);
    expect(() => hybridCluster({ ...NO_AMIS, cluster: { controlPlane: { instanceType: 't3.large', ami: undefined, bootstrapThroughSecretsManager: true } } }))
      .toThrow(/^\[mgmt\/prod\] controlPlane\.bootstrapThroughSecretsManager: AWSMachineTemplate prod-cp-[0-9a-f]{8}: cloudInit\.insecureSkipSecretsManager is not true/);
  });

  test('the opt-in on a Windows pool is refused', () => {
    expect(() => hybridCluster({ windows: { bootstrapThroughSecretsManager: true } }))
      .toThrow(/\[mgmt\/prod\/win\] bootstrapThroughSecretsManager on a Windows pool: .*boothook, which Windows cannot run\. Fix: remove it\./);
  });
});

describe('images without infra or AMI ids: CAPA looks them up (issue 7.2)', () => {
  // CAPA resolves imageLookupOrg (owner-id filter) + imageLookupFormat (name filter) to the newest
  // available image of the instance type's architecture (cluster-api-provider-aws
  // pkg/cloud/services/ec2/ami.go, DefaultAMILookup; instances.go calls it when ami.id is empty).
  const objects = synthObjects(hybridCluster(NO_AMIS).app);

  test.each(['prod-cp-', 'prod-linux-'])('%s: Canonical\'s Ubuntu 24.04 server images', (prefix) => {
    const spec = machineSpec(objects, prefix);
    expect(spec.ami).toBeUndefined();
    expect(spec).toMatchObject({ imageLookupOrg: '099720109477', imageLookupFormat: 'ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-*-server-*' });
  });

  test.each([
    [WindowsVersion.SERVER_2022, undefined, 'Windows_Server-2022-English-Core-Base-*'],
    [WindowsVersion.SERVER_2022, WindowsEdition.FULL, 'Windows_Server-2022-English-Full-Base-*'],
    [WindowsVersion.SERVER_2019, WindowsEdition.CORE, 'Windows_Server-2019-English-Core-Base-*'],
  ])('Windows Server %s %s: Amazon\'s base image %s', (windowsVersion, edition, pattern) => {
    const out = synthObjects(hybridCluster({ ...NO_AMIS, windows: { ami: undefined, windowsVersion, edition } }).app);
    expect(machineSpec(out, 'prod-win-')).toMatchObject({ imageLookupOrg: '801119661308', imageLookupFormat: pattern });
  });

  test('the lookup names no Kubernetes version, so k0s\'s "+k0s.N" versions never reach the name filter', () => {
    // GenerateAmiName fills {{.K8sVersion}} only where the format asks for it (ami.go).
    for (const prefix of ['prod-cp-', 'prod-linux-', 'prod-win-']) expect(machineSpec(objects, prefix).imageLookupFormat).not.toContain('{{');
  });

  test('the default example applies as is: no placeholder, and an account without key pairs launches it', () => {
    // cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go (createInstance): an
    // AWSMachine's sshKeyName, else the AWSCluster's, else the key pair named "default"
    // (bastion.go, defaultSSHKeyName), and "" on either means no key. Absent everywhere,
    // RunInstances fails in an account without a key pair called "default".
    const app = new App();
    buildCluster(app);
    const yaml = app.synthYaml();
    expect(yaml).not.toMatch(/REPLACE|ami-0{17}/);
    const out = synthObjects(app);
    expect(only(out, 'AWSCluster').spec.sshKeyName).toBe('');
    for (const t of out.filter((o) => o.kind === 'AWSMachineTemplate')) {
      expect(t.spec.template.spec.imageLookupOrg).toMatch(/^\d{12}$/);
      expect(t.spec.template.spec.sshKeyName).toBe('');
    }
  });
});

describe('image lookups by partition (issue 17.7)', () => {
  // CAPA filters on owner-id (ami.go DefaultAMILookup), and each partition has its own accounts:
  // ami.go itself switches Canonical's account to 513442679011 in GovCloud (ubuntuOwnerIDUsGov).
  const inRegion = (region: string) => ({ region, zones: [`${region}a`] });
  const govCloud = { cluster: { ...inRegion('us-gov-west-1'), controlPlane: { instanceType: 't3.large', ami: undefined } }, linux: { ami: undefined }, windows: null } satisfies FixtureOptions;

  test('Ubuntu in GovCloud is looked up under Canonical\'s GovCloud account', () => {
    const out = synthObjects(hybridCluster(govCloud).app);
    for (const prefix of ['prod-cp-', 'prod-linux-']) expect(machineSpec(out, prefix).imageLookupOrg).toBe('513442679011');
  });

  test('Windows Server outside the aws partition is refused: Amazon\'s account there is not documented', () => {
    expect(() => hybridCluster({ ...govCloud, windows: { ami: undefined } }))
      .toThrow(/^\[mgmt\/prod\/win\] ami: AWSMachineTemplate prod-win-[0-9a-f]{8}: imageLookupOrg 801119661308 is Amazon's Windows Server images' account in the aws partition, and the cluster runs in us-gov-west-1 \(aws-us-gov\), where their account is not documented: CAPA's lookup finds nothing\. Fix: pass `ami: MachineImage\.id\(\.\.\.\)` of an image in aws-us-gov, or an `infra`/);
  });

  test.each(['cn-north-1', 'eusc-de-east-1'])('Ubuntu in %s is refused', (region) => {
    expect(() => hybridCluster({ ...govCloud, cluster: { ...govCloud.cluster, ...inRegion(region) } }))
      .toThrow(/^\[mgmt\/prod\] controlPlane\.ami: AWSMachineTemplate prod-cp-[0-9a-f]{8}: imageLookupOrg 099720109477 is Canonical's Ubuntu images' account in the aws partition, and the cluster runs in (cn-north-1|eusc-de-east-1) \(aws-(cn|eusc)\), where their account is not documented/);
  });

  test('a pinned AMI or your own lookup works in any partition', () => {
    const out = synthObjects(hybridCluster({ cluster: inRegion('cn-north-1'), windows: { ami: MachineImage.lookup('123456789012', 'my-windows-*') } }).app);
    expect(machineSpec(out, 'prod-win-')).toMatchObject({ imageLookupOrg: '123456789012', imageLookupFormat: 'my-windows-*' });
  });

  test('a patched lookup owner of another partition is reported on the final objects', () => {
    const f = hybridCluster({ ...govCloud });
    ApiObject.of(f.linux!.machineTemplate).addJsonPatch(JsonPatch.replace('/spec/template/spec/imageLookupOrg', '099720109477'));
    expect(() => synthObjects(f.app)).toThrow(/AWSMachineTemplate prod-linux-[0-9a-f]{8}: imageLookupOrg 099720109477 is Canonical's Ubuntu images' account in the aws partition, and the cluster runs in us-gov-west-1 \(aws-us-gov\), where their account is 513442679011: CAPA's lookup finds nothing\. Fix: look up under 513442679011/);
  });
});

describe('CNI security-group rules (issue 7.4)', () => {
  const cni = (options: FixtureOptions) => only(synthObjects(hybridCluster({ windows: null, ...options }).app), 'AWSCluster').spec.network;

  test('Calico BIRD opens BGP and IP-in-IP: k0s runs bird mode with CALICO_IPV4POOL_IPIP on', () => {
    // k0s v1.34.10+k0s.0 pkg/component/controller/calico.go maps bird and ipip to "bird", and
    // static/manifests/calico/DaemonSet/calico-node.yaml sets CALICO_IPV4POOL_IPIP to the overlay
    // (Always) in that mode.
    const rules = cni({ cluster: { network: { calicoMode: CalicoMode.BIRD } } }).cni.cniIngressRules;
    expect(rules).toEqual([
      expect.objectContaining({ protocol: 'tcp', fromPort: 179, toPort: 179 }),
      expect.objectContaining({ protocol: '4' }),
    ]);
  });

  test('a custom CNI leaves network.cni out, so CAPA applies its defaults', () => {
    // CAPA defaults only a nil network.cni (api/v1beta2/defaults.go, SetDefaults_NetworkSpec);
    // `cni: {}` would mean no rules at all (pkg/cloud/scope/cluster.go, CNIIngressRules).
    expect(cni({ cluster: { network: { provider: NetworkProvider.CUSTOM } } })).not.toHaveProperty('cni');
  });
});

describe('node agent ports (windows_exporter, issue 8.1 cluster side)', () => {
  test('each port is open to the cluster\'s own machines in the node security group', () => {
    const network = only(synthObjects(hybridCluster({ cluster: { nodeAgentPorts: [9182] } }).app), 'AWSCluster').spec.network;
    expect(network.additionalNodeIngressRules).toEqual([{
      description: 'node agent 9182 from cluster machines', protocol: 'tcp', fromPort: 9182, toPort: 9182, sourceSecurityGroupRoles: ['controlplane', 'node'],
    }]);
  });
  test('none by default', () => {
    expect(only(synthObjects(hybridCluster().app), 'AWSCluster').spec.network.additionalNodeIngressRules).toBeUndefined();
  });
  // The range is the aws-cluster rule's, judged on the written AWSCluster and named after the prop.
  test.each([
    [[9182, 70000], 1, 'fromPort 70000 is above 65535. Fix: use a port range from 0 to 65535, fromPort <= toPort (nodeAgentPorts take single ports from 1).'],
    [[0], 0, 'port 0 alone admits nothing, as no process can listen on port 0. Fix: give the port the agent listens on, from 1 to 65535.'],
    [[9182.5], 0, 'fromPort 9182.5 is not a whole number. Fix: use a port range from 0 to 65535, fromPort <= toPort (nodeAgentPorts take single ports from 1).'],
  ])('ports %j are refused by the aws-cluster rule at construction, naming nodeAgentPorts[%i]', (nodeAgentPorts, i, message) => {
    const error = constructionError({ cluster: { nodeAgentPorts } });
    expect(error.rule).toBe('aws-cluster');
    expect(error.message).toBe(`[mgmt/prod] nodeAgentPorts[${i}]: AWSCluster prod: network.additionalNodeIngressRules rule "node agent ${nodeAgentPorts[i]} from cluster machines": ${message}`);
  });
});

describe('MachineHealthChecks that can act (issue 7.7)', () => {
  // CAPI scales a percentage down (cluster-api v1.14 core/reconcilers/machinehealthcheck/
  // machinehealthcheck_controller.go, getMaxUnhealthy: GetScaledValueFromIntOrPercent(..., false))
  // and remediates nothing when more machines are unhealthy than that.
  const capiPercentOf = (percent: number, machines: number) => Math.floor((percent * machines) / 100);

  test.each([1, 2, 3, 4, 5, 10, 50])('a pool of %i can always have one machine remediated', (replicas) => {
    expect(capiPercentOf(40, Math.min(replicas, 2))).toBe(0); // why a percentage would not do
    expect(remediationLimit(replicas)).toBeGreaterThanOrEqual(1);
    expect(remediationLimit(replicas)).toBeLessThanOrEqual(Math.max(1, capiPercentOf(40, replicas)));
  });

  test('the emitted limit is a number of machines from the pool\'s replicas', () => {
    const out = synthObjects(hybridCluster({ linux: { replicas: 2 }, windows: { replicas: 10 } }).app);
    expect(only(out, 'MachineHealthCheck', 'prod-linux').spec.remediation.triggerIf.unhealthyLessThanOrEqualTo).toBe(1);
    expect(only(out, 'MachineHealthCheck', 'prod-win').spec.remediation.triggerIf.unhealthyLessThanOrEqualTo).toBe(4);
  });
});

describe('Windows readiness (issue 7.8)', () => {
  const readyTimeouts = (options: FixtureOptions = {}) => {
    const out = synthObjects(hybridCluster(options).app);
    return ['linux', 'win'].map((pool) => only(out, 'MachineHealthCheck', `prod-${pool}`).spec.checks.unhealthyNodeConditions
      .map((c: { timeoutSeconds: number }) => c.timeoutSeconds));
  };

  test('Windows nodes get 15 minutes of NotReady before remediation, Linux nodes 5', () => {
    // k0s deploys Calico and kube-proxy for Windows from a reconciler that polls once a minute;
    // the node is NotReady until their images are pulled.
    expect(readyTimeouts()).toEqual([[300, 300], [900, 900]]);
  });

  test('nodeReadyTimeout overrides it per pool', () => {
    expect(readyTimeouts({ windows: { nodeReadyTimeout: Duration.minutes(25) } })[1]).toEqual([1500, 1500]);
  });

  test('a nodeReadyTimeout under a minute is refused', () => {
    expect(() => hybridCluster({ windows: { nodeReadyTimeout: Duration.seconds(0) } })).toThrow(/\[mgmt\/prod\/win\] nodeReadyTimeout: MachineHealthCheck prod-win: .* after 0 seconds, .*Fix: give at least 60 seconds/);
  });
});

describe('worker-enabled controllers (issue 7.11)', () => {
  const args = (controlPlane: object) => only(synthObjects(hybridCluster({ cluster: { controlPlane: { instanceType: 't3.large', ...controlPlane } } }).app), 'K0sControlPlane')
    .spec.k0sConfigSpec.args;

  test('keep k0s\'s control-plane taint unless untaintedControllers (k0s --no-taints)', () => {
    expect(args({ enableWorker: true })).toEqual(['--enable-worker']);
    expect(args({ enableWorker: true, untaintedControllers: true })).toEqual(['--enable-worker', '--no-taints']);
  });

  test('untaintedControllers without enableWorker is refused', () => {
    expect(() => args({ untaintedControllers: true })).toThrow(/\[mgmt\/prod\] controlPlane.untaintedControllers without enableWorker.*Fix: set controlPlane.enableWorker too/);
  });
});

describe('the key pair as CAPA reads it (issue 17.1)', () => {
  // cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go: with sshKeyName absent on
  // both the AWSMachine and the AWSCluster, CAPA launches with the key pair named "default".
  test('a patch that drops the "" on both is reported', () => {
    const f = hybridCluster({ cluster: { sshKeyName: undefined } });
    ApiObject.of(f.cluster.awsCluster).addJsonPatch(JsonPatch.remove('/spec/sshKeyName'));
    ApiObject.of(f.linux!.machineTemplate).addJsonPatch(JsonPatch.remove('/spec/template/spec/sshKeyName'));
    expect(() => synthObjects(f.app)).toThrow(/AWSMachineTemplate prod-linux-[0-9a-f]{8}: neither it nor AWSCluster prod sets sshKeyName, so CAPA launches its machines with the key pair named "default"/);
  });

  test('the AWSCluster\'s key covers templates without one, as in CAPA', () => {
    const f = hybridCluster();
    ApiObject.of(f.linux!.machineTemplate).addJsonPatch(JsonPatch.remove('/spec/template/spec/sshKeyName'));
    expect(() => synthObjects(f.app)).not.toThrow(/key pair named "default"/);
  });

  test('a name CAPA\'s webhook refuses (webhooks/sshkeyname.go: printable ASCII, no space at either end)', () => {
    expect(() => hybridCluster({ cluster: { sshKeyName: ' ops' } })).toThrow(/^\[mgmt\/prod\] sshKeyName: AWSCluster prod: key pair name " ops" is not 1 to 255 printable ASCII characters without a space at either end/);
  });
});

describe('the kubelet port on Windows hosts (issue 17.3)', () => {
  // k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go (getWindowsCommands)
  // puts preK0sCommands into C:\bootstrap\k0s_install.ps1, before `k0s install worker`, which
  // powershell.exe runs with $ErrorActionPreference = "Stop" and a scheduled task reruns after the
  // Containers feature's reboot; nothing else opens 10250 (sig-windows-tools PrepareNode.ps1 does, for kubeadm).
  const config = (objects: ReturnType<typeof synthObjects>, prefix: string) =>
    objects.find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith(prefix))!.spec.template.spec;

  test('Windows pools open inbound TCP 10250 once, in PowerShell, before k0s starts', () => {
    const out = synthObjects(hybridCluster().app);
    const [command, ...rest] = config(out, 'prod-win-a-').preK0sCommands;
    expect(rest).toEqual([]);
    expect(command).toMatch(/^if \(-not \(Get-NetFirewallRule -DisplayName 'kubelet-10250' -ErrorAction SilentlyContinue\)\) \{ New-NetFirewallRule .*-Direction Inbound .*-Action Allow -Protocol TCP -LocalPort 10250 \| Out-Null \}$/);
    // k0smotron writes the script through a single-quoted here-string, as ASCII.
    expect(command).not.toMatch(/[^\x20-\x7e]|^'@/m);
    expect(config(out, 'prod-linux-a-').preK0sCommands).toBeUndefined();
  });

  test('a Windows pool whose bootstrap lost it is reported on the final objects', () => {
    const f = hybridCluster();
    ApiObject.of(f.windows!.workerConfigTemplates[1]).addJsonPatch(JsonPatch.remove('/spec/template/spec/preK0sCommands'));
    expect(() => synthObjects(f.app)).toThrow(/\[mgmt\/prod\/win\] K0sWorkerConfigTemplate prod-win-b-[0-9a-f]{8}: preK0sCommands open no inbound TCP 10250 in the Windows firewall/);
  });
});

describe('zones (issue 17.4)', () => {
  // CAPA puts a machine without a failure domain in the first private subnet, and one with a
  // failure domain in a private subnet of that zone (cluster-api-provider-aws v2.11.1
  // pkg/cloud/services/ec2/instances.go, findSubnet); it reports every private subnet's zone as
  // a failure domain (controllers/awscluster_controller.go).
  const mds = (objects: ReturnType<typeof synthObjects>, pool: string) => objects.filter((o) => o.kind === 'MachineDeployment' && o.metadata.name.startsWith(`prod-${pool}-`))
    .map((md) => ({ name: md.metadata.name, zone: md.spec.template.spec.failureDomain, replicas: md.spec.replicas }));

  test('the default example puts each pool\'s workers in more than one zone, and CAPA\'s subnets in exactly those zones', () => {
    const app = new App();
    buildCluster(app);
    const out = synthObjects(app);
    for (const pool of ['linux', 'win']) {
      const zones = out.filter((o) => o.kind === 'MachineDeployment' && o.metadata.name.startsWith(`aws-test-${pool}-`) && o.spec.replicas > 0)
        .map((md) => md.spec.template.spec.failureDomain);
      expect(new Set(zones).size).toBeGreaterThanOrEqual(2);
    }
    // pkg/cloud/services/network/subnets.go getDefaultSubnets: zones + 1 blocks of 10.0.0.0/16, the
    // first split into the public subnets; written out, CAPA creates these and no others.
    expect(only(out, 'AWSCluster').spec.network.subnets).toEqual([
      { id: 'aws-test-subnet-public-eu-north-1a', cidrBlock: '10.0.0.0/20', availabilityZone: 'eu-north-1a', isPublic: true },
      { id: 'aws-test-subnet-private-eu-north-1a', cidrBlock: '10.0.64.0/18', availabilityZone: 'eu-north-1a', isPublic: false },
      { id: 'aws-test-subnet-public-eu-north-1b', cidrBlock: '10.0.16.0/20', availabilityZone: 'eu-north-1b', isPublic: true },
      { id: 'aws-test-subnet-private-eu-north-1b', cidrBlock: '10.0.128.0/18', availabilityZone: 'eu-north-1b', isPublic: false },
      { id: 'aws-test-subnet-public-eu-north-1c', cidrBlock: '10.0.32.0/20', availabilityZone: 'eu-north-1c', isPublic: true },
      { id: 'aws-test-subnet-private-eu-north-1c', cidrBlock: '10.0.192.0/18', availabilityZone: 'eu-north-1c', isPublic: false },
    ]);
  });

  test('replicas are divided over the zones, the first ones taking the rest', () => {
    const out = synthObjects(hybridCluster({ cluster: { zones: ['eu-north-1a', 'eu-north-1b', 'eu-north-1c'] }, linux: { replicas: 5 } }).app);
    expect(mds(out, 'linux')).toEqual([
      { name: 'prod-linux-a', zone: 'eu-north-1a', replicas: 2 },
      { name: 'prod-linux-b', zone: 'eu-north-1b', replicas: 2 },
      { name: 'prod-linux-c', zone: 'eu-north-1c', replicas: 1 },
    ]);
    // The health check counts the whole pool: 40% of 5.
    expect(only(out, 'MachineHealthCheck', 'prod-linux').spec.remediation.triggerIf.unhealthyLessThanOrEqualTo).toBe(2);
  });

  test('a pool\'s zones pin it to some of the cluster\'s', () => {
    const out = synthObjects(hybridCluster({ linux: { zones: ['eu-north-1b'] } }).app);
    expect(mds(out, 'linux')).toEqual([{ name: 'prod-linux-b', zone: 'eu-north-1b', replicas: 2 }]);
    expect(() => hybridCluster({ linux: { zones: ['eu-north-1c'] } })).toThrow(/\[mgmt\/prod\/linux\] zones: "eu-north-1c" is not one of the cluster's zones \(eu-north-1a, eu-north-1b\), so CAPA would find no subnet for its machines/);
  });

  test('without an infra the zones are required: their names differ between accounts', () => {
    expect(() => hybridCluster({ cluster: { zones: undefined } })).toThrow(/\[mgmt\/prod\] no `zones`: without an infra CAPA creates the VPC, and zone names differ between accounts\. Fix: pass `zones: \['eu-north-1a', 'eu-north-1b'\]`/);
    expect(() => hybridCluster({ cluster: { zones: ['eu-west-1a'] } })).toThrow(/\[mgmt\/prod\] zones: eu-west-1a is in eu-west-1, not in eu-north-1/);
  });

  test('a MachineDeployment patched out of its zone, or into one without a subnet, is reported', () => {
    const dropped = hybridCluster();
    ApiObject.of(dropped.linux!.machineDeployments[1]).addJsonPatch(JsonPatch.remove('/spec/template/spec/failureDomain'));
    expect(() => synthObjects(dropped.app)).toThrow(/MachineDeployment prod-linux-b: its pool spreads over eu-north-1a, and it names no failure domain, so CAPA puts its machines in the first private subnet/);
    const moved = hybridCluster();
    ApiObject.of(moved.linux!.machineDeployments[1]).addJsonPatch(JsonPatch.replace('/spec/template/spec/failureDomain', 'eu-north-1c'));
    expect(() => synthObjects(moved.app)).toThrow(/MachineDeployment prod-linux-b: failureDomain eu-north-1c has no private subnet among AWSCluster prod's \(eu-north-1a, eu-north-1b\), so CAPA never creates its machines/);
  });

  // CAPI's webhook takes a MachineDeployment name that is a label value (63 characters), and cuts
  // the MachineSet and Machine names made from it to fit (src/platform/names.ts cites the code).
  test('<cluster>-<pool>-<zone> may take the 63 characters of a label value, and no more', () => {
    const longest = synthObjects(hybridCluster({ linux: { name: 'l'.repeat(56) } }).app).filter((o) => o.kind === 'MachineDeployment' && o.metadata.name.startsWith('prod-l'));
    expect(longest.map((md) => md.metadata.name.length)).toEqual([63, 63]);
    expect(longest.map((md) => md.spec.template.metadata.labels['cluster.x-k8s.io/deployment-name'])).toEqual(longest.map((md) => md.metadata.name));
    expect(() => hybridCluster({ linux: { name: 'l'.repeat(57) } })).toThrow(/\[mgmt\/prod\/linux\] name: MachineDeployment prod-l{57}-a: MachineDeployment name "prod-l{57}-a" is 64 characters long; the limit is 63/);
  });
});

describe('ED25519 keys and Windows (issue 17.5)', () => {
  // EC2 User Guide, "Create a key pair": ED25519 keys are not supported for Windows instances.
  const infra = (sshKeyType: KeyPairType) => new ClusterInfra({
    region: 'eu-north-1', vpcId: 'vpc-0123456789abcdef0', publicSubnetIds: ['subnet-0bbb0000000000001'], privateSubnetIds: ['subnet-0aaa0000000000001'],
    privateSubnetZones: ['eu-north-1a'], controlPlaneInstanceProfile: 'cp', nodeInstanceProfile: 'nodes', linuxAmiId: 'ami-0a1b2c3d4e5f60718',
    sshKeyName: 'ops-key', sshKeyType,
  });
  const withInfra = (type: KeyPairType): FixtureOptions => ({ cluster: { region: undefined, zones: undefined, sshKeyName: undefined, infra: infra(type) } });

  test('a Windows pool refuses the infra\'s ED25519 key where it enters', () => {
    expect(() => hybridCluster(withInfra(KeyPairType.ED25519))).toThrow(/^\[mgmt\/prod\/win\] sshKeyName \(of the cluster\): AWSMachineTemplate prod-win-[0-9a-f]{8}: it boots Windows with the AWS stack's key pair "ops-key", an ED25519 key: EC2 refuses to launch Windows AMIs with an ED25519 key pair.*Fix: import an RSA key/);
    expect(() => hybridCluster({ ...withInfra(KeyPairType.ED25519), windows: null })).not.toThrow();
    expect(() => synthObjects(hybridCluster(withInfra(KeyPairType.RSA)).app)).not.toThrow();
  });

  test('a patch that puts the ED25519 key back on a Windows template is reported by the hand-off', () => {
    const f = hybridCluster({ ...withInfra(KeyPairType.ED25519), cluster: { ...withInfra(KeyPairType.ED25519).cluster, sshKeyName: '' } });
    ApiObject.of(f.windows!.machineTemplate).addJsonPatch(JsonPatch.replace('/spec/template/spec/sshKeyName', 'ops-key'));
    expect(() => synthObjects(f.app)).toThrow(/AWSMachineTemplate prod-win-[0-9a-f]{8}: it boots Windows with the AWS stack's key pair "ops-key", an ED25519 key: EC2 refuses/);
  });
});
