import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { HybridConfigError, RemoteHybridCluster, RemoteWindowsWorkerPool, validateManifests, WindowsVersion } from '../../src';
import { ControlPlaneUpdateStrategy } from '../../src/cluster/hybrid-cluster';
import { crdViolations, describeWithCrds } from '../support/crd-schemas';
import { K8sObject, only, synthObjects } from '../support/synth';
import { ACCEPTED_KEYS, DSA_KEY } from '../support/openssh-keys';
import { clusterProps, remoteApp } from './fixture';

// Each default and refusal cites the upstream line it rests on: k0smotron v2.1.0, rig v0.21.11,
// cluster-api v1.14.0.

function objectsOf(opts: Parameters<typeof remoteApp>[0] = {}): K8sObject[] {
  return synthObjects(remoteApp(opts).app);
}

/**
 * The errors of building and synthesizing an app, as one string: a rule of object scope refuses
 * when the construct is built, one of graph scope at synth.
 */
function synthErrors(app: App | (() => App)): string {
  try {
    (typeof app === 'function' ? app() : app).synthYaml();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

describeWithCrds('remote objects against the pinned CRDs', () => {
  test('every object passes the strict schema check', () => {
    const objects = objectsOf();
    expect(objects.map((o) => o.kind).sort()).toEqual([
      'Cluster', 'K0sControlPlane', 'K0sWorkerConfigTemplate', 'K0sWorkerConfigTemplate', 'MachineDeployment', 'MachineDeployment',
      'MachineHealthCheck', 'MachineHealthCheck', 'PooledRemoteMachine', 'PooledRemoteMachine', 'PooledRemoteMachine', 'PooledRemoteMachine',
      'PooledRemoteMachine', 'PooledRemoteMachine', 'RemoteCluster', 'RemoteMachineTemplate', 'RemoteMachineTemplate', 'RemoteMachineTemplate',
    ]);
    expect(objects.flatMap(crdViolations)).toEqual([]);
  });

  test('the rules find nothing in the default objects', () => {
    expect(validateManifests(objectsOf())).toEqual([]);
  });
});

describe('RemoteHybridCluster', () => {
  test('Cluster and RemoteCluster carry the endpoint; the Cluster references RemoteCluster and K0sControlPlane', () => {
    const objects = objectsOf({ cluster: { controlPlaneEndpoint: { host: 'api.example.com', port: 16443 } } });
    const cluster = only(objects, 'Cluster');
    expect(cluster.spec.controlPlaneEndpoint).toEqual({ host: 'api.example.com', port: 16443 });
    expect(only(objects, 'RemoteCluster').spec.controlPlaneEndpoint).toEqual({ host: 'api.example.com', port: 16443 });
    expect(cluster.spec.infrastructureRef).toEqual({ apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'RemoteCluster', name: 'edge' });
    expect(cluster.spec.controlPlaneRef).toEqual({ apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'K0sControlPlane', name: 'edge' });
    // Port default: the k0s API port.
    expect(only(objectsOf(), 'Cluster').spec.controlPlaneEndpoint).toEqual({ host: '10.0.0.10', port: 6443 });
  });

  test('controllers come from a pool of their hosts: one PooledRemoteMachine per host, replicas = hosts', () => {
    const objects = objectsOf();
    const kcp = only(objects, 'K0sControlPlane');
    expect(kcp.spec.replicas).toBe(3);
    // k0smotron's machineTemplate.infrastructureRef is a classic ObjectReference (apiVersion).
    const ref = kcp.spec.machineTemplate.infrastructureRef;
    expect(ref).toEqual({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'RemoteMachineTemplate', name: expect.stringMatching(/^edge-control-plane-[0-9a-f]{8}$/) });
    expect(only(objects, 'RemoteMachineTemplate', ref.name).spec.template.spec).toEqual({ pool: 'edge-control-plane' });
    const hosts = objects.filter((o) => o.kind === 'PooledRemoteMachine' && o.spec.pool === 'edge-control-plane');
    expect(hosts.map((h) => [h.metadata.name, h.spec.machine.address, h.spec.machine.user, h.spec.machine.sshKeyRef.name])).toEqual([
      ['edge-control-plane-10.0.0.11', '10.0.0.11', 'root', 'linux-ssh-key'],
      ['edge-control-plane-10.0.0.12', '10.0.0.12', 'root', 'linux-ssh-key'],
      ['edge-control-plane-10.0.0.13', '10.0.0.13', 'root', 'linux-ssh-key'],
    ]);
  });

  test('controller user, sudo, port, enableWorker and replicas reach the objects', () => {
    const objects = objectsOf({ cluster: { controlPlane: {
      hosts: [{ address: '10.0.0.11', port: 2222 }, { address: '10.0.0.12' }], sshKeySecret: 'k', user: 'ubuntu', useSudo: true, replicas: 1, enableWorker: true, untaintedControllers: true,
    } } });
    const first = only(objects, 'PooledRemoteMachine', 'edge-control-plane-10.0.0.11-2222');
    expect(first.spec.machine).toMatchObject({ port: 2222, user: 'ubuntu', useSudo: true });
    const kcp = only(objects, 'K0sControlPlane');
    expect(kcp.spec.replicas).toBe(1);
    expect(kcp.spec.k0sConfigSpec.args).toEqual(['--enable-worker', '--no-taints']);
  });

  // k0smotron v2.1.0 internal/controller/controlplane/scale.go: only a version change is applied in
  // place; any other change adds a controller first (calculateMaxSurge: replicas + 1), except
  // RecreateDeleteFirst from 3 replicas (replicas). Issue 24 point 1.
  test('update strategy: RecreateDeleteFirst without a spare host from 3 replicas, InPlace for one controller on one host, Recreate with a spare host', () => {
    expect(only(objectsOf(), 'K0sControlPlane').spec.updateStrategy).toBe('RecreateDeleteFirst');
    const one = { hosts: [{ address: '10.0.0.11' }], sshKeySecret: 'k', replicas: 1 };
    expect(only(objectsOf({ cluster: { controlPlane: one } }), 'K0sControlPlane').spec.updateStrategy).toBe('InPlace');
    const spare = { hosts: [{ address: '10.0.0.11' }, { address: '10.0.0.12' }], sshKeySecret: 'k', replicas: 1 };
    expect(only(objectsOf({ cluster: { controlPlane: spare } }), 'K0sControlPlane').spec.updateStrategy).toBe('Recreate');
    const chosen = { ...spare, updateStrategy: ControlPlaneUpdateStrategy.RECREATE_DELETE_FIRST };
    expect(only(objectsOf({ cluster: { controlPlane: chosen } }), 'K0sControlPlane').spec.updateStrategy).toBe('RecreateDeleteFirst');
  });

  test('a strategy that adds a controller with no spare host is refused: Recreate, and InPlace (any change but the version)', () => {
    for (const updateStrategy of [ControlPlaneUpdateStrategy.RECREATE, ControlPlaneUpdateStrategy.IN_PLACE]) {
      const { app } = remoteApp({ cluster: { controlPlane: { ...clusterProps().controlPlane, updateStrategy } } });
      expect(synthErrors(app)).toMatch(new RegExp(`updateStrategy ${updateStrategy} rolls out every change${updateStrategy === 'InPlace' ? ' but a k0s version' : ''} by creating a controller before it deletes one \\(k0smotron v2\\.1\\.0 scale\\.go: up to 4 machines\\), and there are 3 hosts for 3 replicas: the new controller waits for a host forever, and every later change waits behind it \\(reverting does not help\\) \\(pool "edge-control-plane"\\)\\. Fix: use RecreateDeleteFirst`));
    }
  });

  test('no controlPlaneEndpoint is refused before anything is written (controlplane_bootstrap_controller.go waits for it)', () => {
    const chart = new Chart(new App(), 'c');
    expect(() => new RemoteHybridCluster(chart, 'x', { ...clusterProps(), controlPlaneEndpoint: undefined as never }))
      .toThrow(/^\[c\/x\] controlPlaneEndpoint: .*Fix: pass the address of a load balancer or virtual IP .*k0smotron writes no controller bootstrap data without it/);
    expect(() => new RemoteHybridCluster(chart, 'y', { ...clusterProps(), controlPlaneEndpoint: { host: 'not an address' } })).toThrow(HybridConfigError);
  });

  test('an endpoint that is one of several controller hosts is refused; with one controller it is its address', () => {
    // Judged where the construct builds its objects (the rule has object scope), naming the prop.
    expect(() => remoteApp({ cluster: { controlPlaneEndpoint: { host: '10.0.0.12' } } }))
      .toThrow(/^\[remote\/edge\] controlPlaneEndpoint: Cluster edge: controlPlaneEndpoint 10\.0\.0\.12 is the address of one of the 3 controller hosts.*Fix: put a load balancer or virtual IP/);
    const single = remoteApp({ cluster: { controlPlaneEndpoint: { host: '10.0.0.11' }, controlPlane: { hosts: [{ address: '10.0.0.11' }], sshKeySecret: 'k', enableWorker: true } } });
    expect(synthErrors(single.app)).toBe('');
  });

  test('an even number of controllers is refused (etcd quorum)', () => {
    expect(synthErrors(() => remoteApp({ cluster: { controlPlane: { hosts: [{ address: '10.0.0.11' }, { address: '10.0.0.12' }], sshKeySecret: 'k' } } }).app))
      .toMatch(/controlPlane\.replicas: K0sControlPlane edge: control plane replicas 2 is not an odd number/);
  });

  test('hosts: none, a bad address, a bad port, a duplicate and a bad Secret name are refused with the fix', () => {
    const cp = clusterProps().controlPlane;
    const make = (controlPlane: object) => () => new RemoteHybridCluster(new Chart(new App(), 'c'), 'x', { ...clusterProps(), controlPlane: { ...cp, ...controlPlane } });
    // Refused by the cluster's props spec (REMOTE_HYBRID_CLUSTER_PROPS), naming the prop as written.
    expect(make({ hosts: [] })).toThrow(/^\[c\/x\] controlPlane\.hosts: \[\] has fewer than 1 item/);
    expect(make({ hosts: [{ address: '10.0.0.1 ' }] })).toThrow(/^\[c\/x\] controlPlane\.hosts\[0\]\.address: "10\.0\.0\.1 " is not an IP address or DNS name/);
    expect(make({ hosts: [{ address: '10.0.0.1', port: 70000 }] })).toThrow(/^\[c\/x\] controlPlane\.hosts\[0\]\.port: 70000 is above 65535/);
    expect(make({ hosts: [{ address: 'A.example.com' }, { address: 'a.example.com', port: 22 }] })).toThrow(/^\[c\/x\] controlPlane\.hosts\[1\]: .*repeats \[0\].*duplicate\. Fix: list it once/);
    expect(make({ sshKeySecret: 'Key_1' })).toThrow(/^\[c\/x\] controlPlane\.sshKeySecret: "Key_1" must be lower-case/);
  });
});

describe('RemoteWindowsWorkerPool defaults', () => {
  const objects = objectsOf();
  const config = objects.find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('edge-win-'))!;
  const md = only(objects, 'MachineDeployment', 'edge-win');
  const hosts = objects.filter((o) => o.kind === 'PooledRemoteMachine' && o.spec.pool === 'edge-win');

  test('provisioner windows/cloud-config: the RemoteMachine controller parses bootstrap data as cloud-config whatever the OS (remote_machine_controller.go Reconcile, yaml.Unmarshal into write_files/runcmd)', () => {
    expect(config.spec.template.spec.provisioner).toEqual({ platform: 'windows', type: 'cloud-config' });
    expect(config.spec.template.spec.k0sInstallDir).toBe('C:\\k0s');
    expect(config.spec.template.spec.args).toEqual(['--labels=node.cluster.x-k8s.io/pool=win', '--taints=os=windows:NoSchedule']);
  });

  test('hosts: user Administrator (the CRD default is root: remote_machine_types.go), no sudo, commands one by one (commandsAsScript writes #!/bin/sh: ssh_provisioner.go Provision), no workingDir', () => {
    expect(hosts).toHaveLength(2);
    for (const h of hosts) {
      expect(h.spec.machine).toMatchObject({ user: 'Administrator', useSudo: false, commandsAsScript: false, port: 22, sshKeyRef: { name: 'windows-ssh-key' } });
      expect(h.spec.machine.workingDir).toBeUndefined();
      expect(h.spec.machine.cleanUpCommands).toHaveLength(1);
    }
    const other = objectsOf({ windows: { user: 'k0sadmin' } }).filter((o) => o.kind === 'PooledRemoteMachine' && o.spec.pool === 'edge-win');
    expect(other.map((h) => h.spec.machine.user)).toEqual(['k0sadmin', 'k0sadmin']);
  });

  test('replicas default to the hosts; the rollout frees a host before it needs one (CAPI defaults maxSurge 1 / maxUnavailable 0: core/webhooks/admission/machinedeployment.go)', () => {
    expect(md.spec.replicas).toBe(2);
    expect(md.spec.rollout.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
    const spare = only(objectsOf({ windows: { replicas: 1 } }), 'MachineDeployment', 'edge-win');
    expect(spare.spec.replicas).toBe(1);
    expect(spare.spec.rollout.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
  });

  test('the MachineDeployment takes its machines from a RemoteMachineTemplate of pool <cluster>-<pool>', () => {
    const ref = md.spec.template.spec.infrastructureRef;
    expect(ref.kind).toBe('RemoteMachineTemplate');
    expect(only(objects, 'RemoteMachineTemplate', ref.name).spec.template.spec).toEqual({ pool: 'edge-win' });
    const renamed = objectsOf({ windows: { name: 'iis' } });
    expect(renamed.filter((o) => o.kind === 'PooledRemoteMachine').map((o) => o.spec.pool)).toContain('edge-iis');
  });

  test('health check gives a new Windows machine 30 minutes (the Containers feature and its reboot)', () => {
    expect(only(objects, 'MachineHealthCheck', 'edge-win').spec.checks.nodeStartupTimeoutSeconds).toBeGreaterThanOrEqual(1800);
  });

  test('Windows Server 2025 is refused unless acknowledged; 2019 is accepted', () => {
    expect(() => remoteApp({ windows: { windowsVersion: WindowsVersion.SERVER_2025 } })).toThrow(/Windows Server 2025 is not supported by k0s/);
    expect(() => remoteApp({ windows: { windowsVersion: WindowsVersion.SERVER_2025, acknowledgeUnsupportedWindowsVersion: true } })).not.toThrow();
    expect(remoteApp({ windows: { windowsVersion: WindowsVersion.SERVER_2019 } }).windows!.windowsVersion).toBe('2019');
  });

  test('hostPreparationScript refuses what is not one public key line, and bad ports', () => {
    const { windows } = remoteApp();
    expect(() => windows!.hostPreparationScript({ publicKey: '-----BEGIN OPENSSH PRIVATE KEY-----' })).toThrow(/is not one OpenSSH public key line/);
    expect(() => windows!.hostPreparationScript({ publicKey: ACCEPTED_KEYS['ssh-ed25519'], additionalTcpPorts: [0] })).toThrow(/additionalTcpPorts: 0 is below 1/);
  });

  // The host's sshd reads the key from administrators_authorized_keys: one fact of the lines it
  // takes (src/platform/windows-openssh.ts, test/platform/windows-openssh.test.ts).
  test('hostPreparationScript writes a key of every type Windows OpenSSH takes, and refuses DSA and a broken body naming publicKey', () => {
    const { windows } = remoteApp();
    for (const key of Object.values(ACCEPTED_KEYS)) expect(windows!.hostPreparationScript({ publicKey: key })).toContain(`$publicKey = '${key}'`);
    expect(() => windows!.hostPreparationScript({ publicKey: DSA_KEY })).toThrow(new HybridConfigError('remote/edge/win',
      `publicKey: ${JSON.stringify(DSA_KEY.slice(0, 40))}… (${DSA_KEY.length} characters) is a DSA key, which Windows OpenSSH refuses (not among sshd's accepted key types, and not built in from Win32-OpenSSH v9.8.1.0)`,
      'make a key of a type Windows OpenSSH takes (ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com), e.g. `ssh-keygen -t ed25519`, and give the line of its .pub file'));
    const cut = ACCEPTED_KEYS['ssh-rsa'].replace(/ ops@example$/, '').slice(0, -10);
    expect(() => windows!.hostPreparationScript({ publicKey: cut })).toThrow(new HybridConfigError('remote/edge/win',
      `publicKey: ${JSON.stringify(cut.slice(0, 40))}… (${cut.length} characters) has a key that is not Base64 as sshd decodes it (cut, altered, or padded wrongly)`,
      'give the whole line of the key\'s .pub file, as ssh-keygen wrote it'));
  });
});

describe('RemoteLinuxWorkerPool', () => {
  test('user, sudo and hosts reach the PooledRemoteMachines; replicas default to the hosts; k0smotron\'s own Linux cleanup stays (no cleanUpCommands)', () => {
    const objects = objectsOf({ linux: { hosts: [{ address: '10.0.1.11' }, { address: '10.0.1.12' }, { address: '10.0.1.13' }], user: 'ubuntu', useSudo: true } });
    const hosts = objects.filter((o) => o.kind === 'PooledRemoteMachine' && o.spec.pool === 'edge-linux');
    expect(hosts.map((h) => h.spec.machine)).toEqual([11, 12, 13].map((n) => ({ address: `10.0.1.${n}`, port: 22, user: 'ubuntu', useSudo: true, sshKeyRef: { name: 'linux-ssh-key' } })));
    const md = only(objects, 'MachineDeployment', 'edge-linux');
    expect(md.spec.replicas).toBe(3);
    const config = only(objects, 'K0sWorkerConfigTemplate', md.spec.template.spec.bootstrap.configRef.name);
    expect(config.spec.template.spec.provisioner).toEqual({ platform: 'linux', type: 'cloud-config' });
    expect(only(objectsOf(), 'PooledRemoteMachine', 'edge-linux-10.0.1.11').spec.machine.user).toBe('root');
  });
});

describe('refusals over the objects as written (rules remote-pools, remote-windows, windows-pool, windows-hosted-ingress)', () => {
  /** Synth errors after a JSON patch on the first object of `kind` under the Windows pool. */
  function patched(kind: string, ...patches: JsonPatch[]): string {
    const { app, windows } = remoteApp();
    const target = windows!.node.findAll().find((c) => (c as { kind?: string }).kind === kind) as unknown as { addJsonPatch(...p: JsonPatch[]): void };
    target.addJsonPatch(...patches);
    return synthErrors(app);
  }

  test('powershell and powershell-xml provisioners', () => {
    for (const type of ['powershell', 'powershell-xml']) {
      expect(patched('K0sWorkerConfigTemplate', JsonPatch.replace('/spec/template/spec/provisioner/type', type)))
        .toMatch(new RegExp(`provisioner is \\{"platform":"windows","type":"${type}"\\}; Windows workers on remote hosts need \\{"platform":"windows","type":"cloud-config"\\}: k0smotron's RemoteMachine controller reads the bootstrap data as cloud-config YAML.*Fix: use type "cloud-config"`));
    }
  });

  test('customUserDataRef', () => {
    expect(patched('K0sWorkerConfigTemplate', JsonPatch.add('/spec/template/spec/provisioner/customUserDataRef', { secretRef: { name: 's', key: 'k' } })))
      .toMatch(/customUserDataRef on a remote Windows pool/);
  });

  test('downloadURL and preInstalledK0s (getWindowsCommands downloads from get.k0sproject.io)', () => {
    expect(patched('K0sWorkerConfigTemplate', JsonPatch.add('/spec/template/spec/downloadURL', 'https://mirror.example.com/k0s.exe'))).toMatch(/downloadURL on a Windows worker config: k0smotron's Windows bootstrap ignores it and downloads k0s.exe from get.k0sproject.io/);
    expect(patched('K0sWorkerConfigTemplate', JsonPatch.add('/spec/template/spec/preInstalledK0s', true))).toMatch(/preInstalledK0s on a Windows worker config: k0smotron's Windows bootstrap ignores it/);
  });

  test('the provision Job (job_provisioner.go)', () => {
    expect(patched('RemoteMachineTemplate', JsonPatch.add('/spec/template/spec/provisionJob', { sshCommand: 'ssh' }))).toMatch(/provisionJob on a Windows pool/);
  });

  test('root, or no user (the CRD default root), on Windows hosts (rig connection.go discoverSudo needs Administrators)', () => {
    expect(synthErrors(() => remoteApp({ windows: { user: 'root' } }).app)).toMatch(/user "root" on a Windows host, which has no root account.*Fix: set the user to Administrator/);
    expect(patched('PooledRemoteMachine', JsonPatch.remove('/spec/machine/user'))).toMatch(/user unset \(the CRD default "root"\) on a Windows host/);
  });

  test('commandsAsScript and missing cleanUpCommands on Windows hosts', () => {
    expect(patched('PooledRemoteMachine', JsonPatch.replace('/spec/machine/commandsAsScript', true))).toMatch(/commandsAsScript on a Windows host/);
    expect(patched('PooledRemoteMachine', JsonPatch.remove('/spec/machine/cleanUpCommands'))).toMatch(/no cleanUpCommands on a Windows host/);
  });

  test('a k0s version below the Windows minimum', () => {
    expect(synthErrors(() => remoteApp({ windows: { k0sVersion: 'v1.34.1+k0s.0' } }).app)).toMatch(/k0s v1\.34\.1\+k0s\.0 cannot run Windows workers/);
  });

  test('a k0s version of another form (no cleanup script can be chosen for it)', () => {
    expect(synthErrors(() => remoteApp({ windows: { k0sVersion: '1.34.4' } }).app)).toMatch(/k0s version "1\.34\.4" is not of the form vX\.Y\.Z\+k0s\.N/);
  });

  test('a Windows pool without a Linux worker for CoreDNS', () => {
    expect(synthErrors(() => remoteApp({ linux: false }).app)).toMatch(/need a Linux worker for CoreDNS/);
  });

  test('more replicas than hosts, and CAPI\'s default rollout without a spare host', () => {
    expect(synthErrors(() => remoteApp({ windows: { replicas: 3 } }).app)).toMatch(/3 replicas but pool "edge-win" lists 2 hosts/);
    expect(patched('MachineDeployment', JsonPatch.remove('/spec/rollout'))).toMatch(/a rollout adds up to 1 machine \(maxSurge, CAPI's default 1\) to 2, and pool "edge-win" has 2 hosts/);
  });

  test('a pool name shared across clusters, and a host in two pools', () => {
    const app = new App();
    const chart = new Chart(app, 'c');
    const a = new RemoteHybridCluster(chart, 'a', clusterProps({ controlPlane: { hosts: [{ address: '10.0.0.1' }], sshKeySecret: 'k' }, controlPlaneEndpoint: { host: '10.0.0.1' } }));
    const ab = new RemoteHybridCluster(chart, 'a-b', clusterProps({ controlPlane: { hosts: [{ address: '10.0.0.2' }], sshKeySecret: 'k' }, controlPlaneEndpoint: { host: '10.0.0.2' } }));
    new RemoteWindowsWorkerPool(a, 'b-win', { hosts: [{ address: '10.0.2.1' }], sshKeySecret: 'k' });
    new RemoteWindowsWorkerPool(ab, 'win', { hosts: [{ address: '10.0.2.1' }], sshKeySecret: 'k' });
    const errors = synthErrors(app);
    expect(errors).toMatch(/pool "a-b-win" is also the pool of MachineDeployment a-b-win/);
    expect(errors).toMatch(/host 10\.0\.2\.1:22 is also PooledRemoteMachine a-b-win-10\.0\.2\.1/);
  });

  test('a hosted control plane\'s ingress with Windows pools (getWindowsCommands: "TODO: implement ingress support for Windows")', () => {
    const objects = [
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'h' }, spec: { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'K0smotronControlPlane', name: 'h' } } },
      { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'K0smotronControlPlane', metadata: { name: 'h' }, spec: { ingress: { apiHost: 'api.example.com', konnectivityHost: 'k.example.com' } } },
      { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'h-win' }, spec: { clusterName: 'h', template: { spec: { clusterName: 'h', bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'K0sWorkerConfigTemplate', name: 'w' } } } } } },
      { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'K0sWorkerConfigTemplate', metadata: { name: 'w' }, spec: { template: { spec: { provisioner: { platform: 'windows', type: 'powershell-xml' } } } } },
    ];
    const found = validateManifests(objects).filter((v) => v.rule === 'windows-hosted-ingress');
    expect(found.map((v) => v.message)).toEqual([expect.stringMatching(/^spec\.ingress with Windows pools \(h-win\).*Fix: remove spec\.ingress/)]);
    const linux = objects.map((o) => (o.kind === 'K0sWorkerConfigTemplate' ? { ...o, spec: { template: { spec: { provisioner: { platform: 'linux' } } } } } : o));
    expect(validateManifests(linux).filter((v) => v.rule === 'windows-hosted-ingress')).toEqual([]);
  });
});

// Issue 24 point 2: a RemoteMachine that never reserved a host never finishes deleting (k0smotron
// v2.1.0 internal/controller/infrastructure/remote_machine_controller.go: with a pool and a
// deletion timestamp it skips the reservation, then getSSHKey reads a Secret named "" and requeues
// before the deletion branch). The defaults never create more machines than hosts (replicas,
// rollouts, the control plane: see above); an autoscaler allowed above the hosts is refused.
describe('machines that would never get a host, and so never finish deleting', () => {
  test('an autoscaler max-size above the pool\'s hosts is refused; at the hosts it passes', () => {
    const { app, windows } = remoteApp();
    const md = ApiObject.of(windows!.node.findAll().find((c) => c instanceof ApiObject && (c as ApiObject).kind === 'MachineDeployment') as ApiObject);
    md.metadata.addAnnotation('cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size', '5');
    expect(synthErrors(app)).toMatch(/the cluster autoscaler may scale pool "edge-win" to 5 machines \(cluster\.x-k8s\.io\/cluster-api-autoscaler-node-group-max-size\), and it has 2 hosts: .*one deleted before it got a host never finishes deleting\. Fix: lower the max-size annotation to 2, or list more hosts/);
    md.metadata.addAnnotation('cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size', '2');
    expect(synthErrors(app)).toBe('');
  });

  test('docs/remote.md says the way out: which finalizer, on what, and how the host returns to its pool', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'remote.md'), 'utf8');
    expect(doc).toContain('remotemachine.k0smotron.io/finalizer');
    expect(doc).toMatch(/kubectl patch remotemachine \S+ -n \S+ --type json -p '\[\{"op": "remove", "path": "\/metadata\/finalizers\/\d+"\}\]'/);
    expect(doc).toMatch(/kubectl patch pooledremotemachine \S+ -n \S+ --subresource status --type merge -p '\{"status": \{"reserved": false, "machineRef": null\}\}'/);
  });
});

// Issue 24 point 14. rig v0.21.11 ssh.go dials net.JoinHostPort(address, port); k0smotron v2.1.0
// remote_machine_types.go defaults only an absent user to root; k0s api.externalAddress is where every node reaches the API.
describe('hosts and endpoints no machine can use', () => {
  test.each([
    ['an endpoint on loopback', { cluster: { controlPlaneEndpoint: { host: '127.0.0.1' } } }, /controlPlaneEndpoint 127\.0\.0\.1 is a loopback address: every machine reaching it would reach itself, and every node and client reaches the API there/],
    ['the unspecified endpoint', { cluster: { controlPlaneEndpoint: { host: '0.0.0.0' } } }, /controlPlaneEndpoint 0\.0\.0\.0 is the unspecified address, which nothing can connect to/],
    ['a host address with its port', { linux: { hosts: [{ address: '10.0.1.11:22' }] } }, /host 10\.0\.1\.11:22 carries a port, and the port is a field of its own\. Fix: give the host's own IP address or DNS name, and its SSH port in port/],
    ['a loopback host', { linux: { hosts: [{ address: 'localhost' }] } }, /host localhost is a loopback address/],
    ['an empty login user', { linux: { user: '' } }, /the login user of 10\.0\.1\.11 is empty, so SSH logs in as nobody\. Fix: give the user/],
  ])('%s is refused', (_name, opts, message) => {
    expect(synthErrors(() => remoteApp(opts as never).app)).toMatch(message);
  });

  test('a host\'s own address, an IPv6 one included, and a DNS name pass', () => {
    expect(synthErrors(() => remoteApp({ linux: { hosts: [{ address: 'fd00::11' }, { address: 'linux-1.example.com' }] } }).app)).toBe('');
  });
});
