import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, JsonPatch } from 'cdk8s';
import { CalicoMode, NetworkProvider, WindowsVersion, WindowsWorkerPool } from '../../src';
import { WINDOWS_SUPPORT, WindowsPlatform } from '../../src/platform/support';
import { synthObjects } from '../support/synth';
import { FixtureOptions, hybridCluster, WINDOWS_AMI } from './fixture';

/** Synthesizes through the App (validations on) and returns the error message, or '' when it passes. */
function synthError(options: FixtureOptions, patch?: (f: ReturnType<typeof hybridCluster>) => void): string {
  try {
    const fixture = hybridCluster(options);
    patch?.(fixture);
    synthObjects(fixture.app);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the platform checks', () => {
  test('the valid fixture passes every check', () => {
    expect(synthError({})).toBe('');
  });

  describe('CoreDNS needs a Linux worker', () => {
    const message = /\[mgmt\/prod\] Cluster prod: Windows pools \(prod-win-a, prod-win-b\) need a Linux worker for CoreDNS.*Fix: add a LinuxWorkerPool with replicas >= 1, or set controlPlane.enableWorker/;
    test('no Linux pool', () => expect(synthError({ linux: null })).toMatch(message));
    test('a Linux pool with 0 replicas', () => expect(synthError({ linux: { replicas: 0 } })).toMatch(message));
    test('controllers with --enable-worker are enough', () => {
      expect(synthError({ linux: null, cluster: { controlPlane: { instanceType: 't3.large', enableWorker: true } } })).toBe('');
    });
    test('a Linux-only cluster needs nothing more', () => expect(synthError({ windows: null, linux: null })).toBe(''));
  });

  describe('k0s versions', () => {
    test('a Windows pool on v1.33.x is refused', () => {
      expect(synthError({ windows: { k0sVersion: 'v1.33.4+k0s.0' } }))
        .toMatch(/\[mgmt\/prod\/win\] k0sVersion: MachineDeployment prod-win-a: k0s v1\.33\.4\+k0s\.0 cannot run Windows workers: k0smotron refuses them below v1\.34\.2\+k0s\.0.*Fix: use k0s v1\.34\.4\+k0s\.0 or newer/);
    });
    test('a cluster on v1.33.x refuses its Windows pool, not its Linux one', () => {
      const message = synthError({ cluster: { k0sVersion: 'v1.33.4+k0s.0' } });
      expect(message).toMatch(/\[mgmt\/prod\/win\] k0sVersion: MachineDeployment prod-win-a: k0s v1\.33\.4\+k0s\.0 cannot run Windows workers/);
      expect(message).not.toMatch(/mgmt\/prod\/linux\]/);
    });
    // k0smotron v2.1.0 accepts v1.34.2 and v1.34.3 (api/bootstrap/v1beta2/k0s_types.go,
    // minWindowsVersion), but their Windows pods get no network: k0s v1.34.2's calico-node-windows
    // points the host CNI config at a path inside its container (fixed in v1.34.3+k0s.0, commit
    // 6a3eb47c, static/manifests/calico/DaemonSet/calico-node-windows.yaml CNI_NET_DIR), and
    // before v1.34.4+k0s.0 the pause image comes from k8s.gcr.io (pkg/constant/constant.go).
    test.each(['v1.34.1+k0s.0', 'v1.34.2+k0s.0', 'v1.34.3+k0s.0'])('%s is too old for Windows pods', (k0sVersion) => {
      expect(synthError({ windows: { k0sVersion } })).toMatch(/cannot run Windows workers: .*Windows pods stay in ContainerCreating.*Fix: use k0s v1\.34\.4\+k0s\.0 or newer/);
    });
    test.each(['v1.34.4+k0s.0', 'v1.34.10+k0s.0'])('%s is fine', (k0sVersion) => expect(synthError({ windows: { k0sVersion } })).toBe(''));
    test('v1.35.1 is fine on the whole cluster', () => expect(synthError({ cluster: { k0sVersion: 'v1.35.1+k0s.0' } })).toBe(''));
    test('the support matrix says k0s reset runs on Windows from v1.35.1 (k0s v1.34 cmd/root_linux.go)', () => {
      for (const version of [WindowsVersion.SERVER_2019, WindowsVersion.SERVER_2022]) {
        expect(WINDOWS_SUPPORT[WindowsPlatform.K0SMOTRON_AWS][version].caveats).toEqual([expect.stringContaining('`k0s reset` runs on Windows only from v1.35.1+k0s.0')]);
      }
    });
    test.each(['v1.34.2', '1.34.2+k0s.0', 'v1.34.2-k0s.0', 'v1.34+k0s.0'])('%s is not in vX.Y.Z+k0s.N form', (version) => {
      expect(synthError({ windows: { k0sVersion: version } })).toContain(`[mgmt/prod/win] k0sVersion: MachineDeployment prod-win-a: k0s version "${version}" is not of the form vX.Y.Z+k0s.N`);
      expect(synthError({ cluster: { k0sVersion: version } })).toContain(`[mgmt/prod] k0sVersion: K0sControlPlane prod: k0s version "${version}" is not of the form vX.Y.Z+k0s.N`);
    });
  });

  describe('network provider', () => {
    // k0s v1.34 pkg/component/controller/kuberouter.go sets no overlay flag, so kube-router v2.6.3
    // tunnels only across subnets (pkg/options/options.go, --overlay-type "subnet") and never
    // masquerades pod-to-node traffic (pkg/controllers/routing/pod_egress.go): EC2's
    // source/destination check, which CAPA has no field to turn off, drops those packets.
    test.each([['with', undefined], ['without', null]])('kube-router on EC2 is refused %s Windows pools', (_, windows) => {
      expect(synthError({ windows, cluster: { network: { provider: NetworkProvider.KUBE_ROUTER } } }))
        .toMatch(/^\[mgmt\/prod\] network\.provider: K0sControlPlane prod: network provider "kuberouter" on EC2 \(AWSCluster prod\): .*source\/destination check.*Fix: use calico \(NetworkProvider\.CALICO, VXLAN\)\.$/);
    });
    test('a patched kube-router provider is reported on the final objects', () => {
      expect(synthError({ windows: null }, ({ cluster }) => ApiObject.of(cluster.controlPlane).addJsonPatch(
        JsonPatch.replace('/spec/k0sConfigSpec/k0s/spec/network/provider', 'kuberouter'))))
        .toMatch(/\[mgmt\/prod\] K0sControlPlane prod: network provider "kuberouter" on EC2 \(AWSCluster prod\).*Fix: use calico/);
    });
    test.each([CalicoMode.IPIP, CalicoMode.BIRD])('Calico %s with Windows pools', (mode) => {
      expect(synthError({ cluster: { network: { calicoMode: mode } } })).toMatch(new RegExp(`Calico mode "${mode}" does not work on Windows.*Fix: use CalicoMode.VXLAN`));
    });
    test('a patched VXLAN port', () => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.controlPlane).addJsonPatch(
        JsonPatch.replace('/spec/k0sConfigSpec/k0s/spec/network/calico/vxlanPort', 4790))))
        .toMatch(/VXLAN port 4790.*only port 4789 and VNI 4096/);
    });
    test('IP-in-IP on a Linux-only cluster gets BGP and IP-in-IP rules instead of VXLAN', () => {
      const { app } = hybridCluster({ windows: null, cluster: { network: { calicoMode: CalicoMode.IPIP } } });
      const rules = synthObjects(app).find((o) => o.kind === 'AWSCluster')!.spec.network.cni.cniIngressRules;
      expect(rules.map((r: { protocol: string }) => r.protocol)).toEqual(['tcp', '4']);
    });
    test.each([['10.96.0.0/12', '10.100.0.0/16', /overlaps service CIDR/], ['10.0.0.0/33', '10.128.0.0/12', /pod CIDR: "10.0.0.0\/33" has a prefix length above 32/], ['192.168.0.1/16', '10.128.0.0/12', /pod CIDR: "192.168.0.1\/16" has host bits set: did you mean 192.168.0.0\/16\?/]])(
      'pod %s / service %s', (podCidr, serviceCidr, message) => {
        expect(synthError({ cluster: { network: { podCidr, serviceCidr } } })).toMatch(message);
      });
  });

  describe('control plane stays Linux', () => {
    test('platform windows patched onto the K0sControlPlane', () => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.controlPlane).addJsonPatch(
        JsonPatch.add('/spec/k0sConfigSpec/provisioner', { platform: 'windows' }))))
        .toMatch(/\[mgmt\/prod\] K0sControlPlane prod: K0sControlPlane provisioner.platform is "windows"; k0s controllers run on Linux only/);
    });
    test.each(['powershell', 'powershell-xml'])('provisioner type %s on the control plane', (type) => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.controlPlane).addJsonPatch(
        JsonPatch.add('/spec/k0sConfigSpec/provisioner', { type }))))
        .toContain(`K0sControlPlane provisioner.type is "${type}", a Windows-only provisioner`);
    });
    test.each([2, 4])('%d controllers', (replicas) => {
      expect(synthError({ cluster: { controlPlane: { instanceType: 't3.large', replicas } } })).toContain(`[mgmt/prod] controlPlane.replicas: K0sControlPlane prod: control plane replicas ${replicas} is not an odd number >= 1`);
    });
    test.each([0, 1.5, NaN, 2 ** 31])('controlPlane.replicas %d is refused where it enters', (replicas) => {
      expect(synthError({ cluster: { controlPlane: { instanceType: 't3.large', replicas } } })).toMatch(/^\[mgmt\/prod\] controlPlane\.replicas: .*Fix: use 1, 3 or 5\.$/);
    });
    test('replicas patched to 2 on the K0sControlPlane', () => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.controlPlane).addJsonPatch(JsonPatch.replace('/spec/replicas', 2))))
        .toContain('control plane replicas 2 is not an odd number >= 1');
    });
  });

  describe('Windows instance types', () => {
    test.each([['m7g.large', 'm7i.large'], ['t4g.xlarge', 't3.xlarge'], ['c6gn.2xlarge', 'c6i.2xlarge'], ['a1.xlarge', 'm5.xlarge']])('%s (Graviton) is refused', (instanceType, sibling) => {
      expect(synthError({ windows: { instanceType } }))
        .toContain(`[mgmt/prod/win] instanceType: AWSMachineTemplate prod-win-`);
      expect(synthError({ windows: { instanceType } })).toContain(`: instance type ${instanceType} is arm64 (AWS Graviton), and Windows Server on EC2 is amd64 only. Fix: pick an x86 type such as ${sibling}.`);
    });
    test.each([['t3.medium', 4], ['c5.large', 4], ['m6i.medium', 4]])('%s has too little memory', (instanceType, gib) => {
      expect(synthError({ windows: { instanceType } })).toContain(`instance type ${instanceType} has ${gib} GiB of memory; Windows workers need at least 8 GiB`);
    });
    test.each(['t3.large', 'm6i.large', 'c6i.xlarge', 'r7i.large', 'm7i-flex.large', 'g4dn.xlarge'])('%s is accepted', (instanceType) => {
      expect(synthError({ windows: { instanceType } })).toBe('');
    });
    test('Graviton is fine for Linux pools', () => {
      expect(synthError({ linux: { instanceType: 'm7g.large' } })).toBe('');
    });
  });

  describe('load balancer', () => {
    test.each(['classic', 'elb', 'alb'])('type %s patched in', (type) => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.awsCluster).addJsonPatch(
        JsonPatch.replace('/spec/controlPlaneLoadBalancer/loadBalancerType', type))))
        .toContain(`control-plane load balancer type "${type}" cannot carry k0s's konnectivity (8132) and join API (9443) listeners`);
    });
    test('a removed listener', () => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.awsCluster).addJsonPatch(
        JsonPatch.remove('/spec/controlPlaneLoadBalancer/additionalListeners/1'))))
        .toMatch(/no listener for 9443/);
    });
    test('8132 and 9443 opened to the world', () => {
      const message = synthError({ cluster: { apiServerLoadBalancer: { additionalIngressRules: [
        { description: 'everything', protocol: 'tcp' as never, fromPort: 8000, toPort: 9999, cidrBlocks: ['0.0.0.0/0'] },
      ] } } });
      expect(message).toContain('controlPlaneLoadBalancer.ingressRules rule "everything" opens k0s port 8132 and 9443 to 0.0.0.0/0');
    });
    test('all protocols from ::/0 onto the controllers', () => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.awsCluster).addJsonPatch(JsonPatch.add(
        '/spec/network/additionalControlPlaneIngressRules/-', { description: 'any', protocol: '-1', fromPort: 0, toPort: 0, ipv6CidrBlocks: ['::/0'] }))))
        .toContain('network.additionalControlPlaneIngressRules rule "any" opens k0s port 8132 and 9443 to ::/0');
    });
    test('the API itself may be open (authenticated); preserveClientIP may not', () => {
      expect(synthError({ cluster: { apiServerLoadBalancer: { allowedCidrs: ['0.0.0.0/0'] } } })).toBe('');
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.awsCluster).addJsonPatch(
        JsonPatch.add('/spec/controlPlaneLoadBalancer/preserveClientIP', true)))).toMatch(/preserveClientIP makes CAPA open/);
    });
  });

  describe('names', () => {
    test('a cluster name over 40 characters', () => {
      const name = 'a'.repeat(41);
      expect(synthError({ cluster: { name } })).toContain(`[mgmt/prod] cluster name "${name}" is 41 characters long; the limit is 40`);
    });
    test('an upper-case cluster name', () => {
      expect(synthError({ cluster: { name: 'Prod' } })).toMatch(/\[mgmt\/prod\] name: Cluster Prod: Cluster name "Prod" must be lower-case/);
    });
    test('a pool whose MachineDeployment name is too long is refused at construction, naming the pool\'s name', () => {
      // One line per zone's MachineDeployment.
      expect(synthError({ linux: { name: 'l'.repeat(57) } }).split('\n')).toEqual(['a', 'b'].map((zone) => expect.stringMatching(new RegExp(
        `^\\[mgmt/prod/linux\\] name: MachineDeployment prod-l{57}-${zone}: MachineDeployment name "prod-l{57}-${zone}" is 64 characters long; the limit is 63 \\(a label value\\)\\. Fix: shorten it to at most 63 characters\\.$`))));
    });
    test('a long Windows pool name is fine: the node name is the Machine name, not the 15-character computer name', () => {
      expect(synthError({ windows: { name: 'windows2022' } })).toBe('');
    });
    test('two pools patched to one machineNaming template', () => {
      const fixture = hybridCluster();
      const pool2 = new WindowsWorkerPool(fixture.cluster, 'win2', { instanceType: 't3.xlarge', ami: WINDOWS_AMI });
      for (const pool of [fixture.windows!, pool2]) {
        ApiObject.of(pool.machineDeployments[0]).addJsonPatch(JsonPatch.add('/spec/machineNaming', { template: 'win-{{ .random }}' }));
      }
      expect(() => synthObjects(fixture.app)).toThrow(/MachineDeployments prod-win-a and prod-win2-a name their machines from the same template "win-\{\{ \.random \}\}"/);
    });
  });

  describe('machines', () => {
    test('an AMI patched away with its lookup', () => {
      expect(synthError({}, ({ cluster }) => ApiObject.of(cluster.controlPlaneMachineTemplate).addJsonPatch(JsonPatch.remove('/spec/template/spec/ami'))))
        .toMatch(/\[mgmt\/prod\] AWSMachineTemplate prod-cp-[0-9a-f]{8}: no AMI and no image lookup/);
    });
    test('no region and no infra', () => {
      expect(synthError({ cluster: { region: undefined } })).toContain('[mgmt/prod] region: AWSCluster prod: no AWS region. Fix: pass `region`');
    });
    test.each([[-1, 'is below 0'], [1.5, 'is not a whole number'], [NaN, 'is not a whole number'], [2 ** 31, 'is above 2147483647']])('replicas %d', (replicas, why) => {
      // Written as given on each zone's MachineDeployment, for the rule to name.
      expect(synthError({ linux: { replicas } }).split('\n')).toEqual(['a', 'b'].map((zone) => `[mgmt/prod/linux] replicas: MachineDeployment prod-linux-${zone}: replicas ${replicas} ${why}. Fix: set \`replicas\` to a whole number, 0 or more.`));
    });
    test('replicas patched to -1 on the MachineDeployment', () => {
      expect(synthError({}, ({ linux }) => ApiObject.of(linux!.machineDeployments[0]).addJsonPatch(JsonPatch.replace('/spec/replicas', -1))))
        .toContain('[mgmt/prod/linux] MachineDeployment prod-linux-a: replicas -1 is below 0');
    });
    test('Windows machines patched back to the Secrets Manager hand-off', () => {
      expect(synthError({}, ({ windows }) => ApiObject.of(windows!.machineTemplate).addJsonPatch(
        JsonPatch.remove('/spec/template/spec/cloudInit')))).toMatch(/insecureSkipSecretsManager and uncompressedUserData true/);
    });
  });

  test('all problems of a construct\'s objects are reported at once, where it is constructed', () => {
    const message = synthError({ windows: { instanceType: 'm7g.large', k0sVersion: 'v1.33.0+k0s.0' } });
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/^\[mgmt\/prod\/win\] k0sVersion: MachineDeployment prod-win-a: .*cannot run Windows workers/),
      expect.stringMatching(/^\[mgmt\/prod\/win\] instanceType: .*m7g.large is arm64/),
      // The pool's other zone: one MachineDeployment each, one shared machine template (reported once).
      expect.stringMatching(/^\[mgmt\/prod\/win\] k0sVersion: MachineDeployment prod-win-b: .*cannot run Windows workers/),
    ]);
  });

  test('the README shows what construction and synth print', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const shown = /```\nHybridConfigError: ([^`]*)```/.exec(readme)![1].trim().split('\n\n');
    const atConstruction = synthError({ windows: { instanceType: 'm7g.large', k0sVersion: 'v1.33.0+k0s.0' } });
    const atSynth = synthError({ linux: null });
    expect(atConstruction.replace(/prod-win-[0-9a-f]{8}/g, 'prod-win-…')).toBe(shown[0]);
    expect(`Error: ${atSynth}`).toBe(shown[1]);
  });
});
