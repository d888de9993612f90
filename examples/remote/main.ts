/**
 * A hybrid cluster on hosts no cloud provider manages, through k0smotron's RemoteMachine (SSH)
 * provider: three Linux controllers behind a virtual IP, two Linux workers for CoreDNS and Linux
 * workloads, and three Windows Server 2022 workers, one of them spare so that a rollout adds a
 * machine before it removes one. Run: `npm run synth` (writes dist/, and the PowerShell to run
 * once on each Windows host to dist/remote-windows-host-preparation.ps1).
 *
 * Before applying: the Secrets `linux-ssh-key` and `windows-ssh-key` with each private key under
 * `value`, and the virtual IP 10.0.0.10 forwarding 6443, 8132 and 9443 to the controllers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Chart } from 'cdk8s';
import { RemoteHybridCluster, RemoteLinuxWorkerPool, RemoteWindowsWorkerPool, WINDOWS_EXPORTER_PORT, WindowsVersion } from '../../src';

/** The example's chart and its Windows pool. */
export function buildRemoteCluster(app: App): { chart: Chart; windows: RemoteWindowsWorkerPool } {
  const chart = new Chart(app, 'remote', { namespace: 'default', disableResourceNameHashes: true });
  const cluster = new RemoteHybridCluster(chart, 'edge', {
    k0sVersion: 'v1.34.4+k0s.0',
    controlPlaneEndpoint: { host: '10.0.0.10' },
    controlPlane: {
      hosts: [{ address: '10.0.0.11' }, { address: '10.0.0.12' }, { address: '10.0.0.13' }],
      sshKeySecret: 'linux-ssh-key',
      user: 'ubuntu',
      useSudo: true,
    },
  });
  new RemoteLinuxWorkerPool(cluster, 'linux', {
    hosts: [{ address: '10.0.1.11' }, { address: '10.0.1.12' }],
    sshKeySecret: 'linux-ssh-key',
    user: 'ubuntu',
    useSudo: true,
  });
  const windows = new RemoteWindowsWorkerPool(cluster, 'win', {
    hosts: [{ address: '10.0.2.11' }, { address: '10.0.2.12' }, { address: '10.0.2.13' }],
    replicas: 2,
    sshKeySecret: 'windows-ssh-key',
    windowsVersion: WindowsVersion.SERVER_2022,
  });
  return { chart, windows };
}

if (require.main === module) {
  const app = new App();
  const { windows } = buildRemoteCluster(app);
  app.synth();
  const script = windows.hostPreparationScript({
    publicKey: process.env.WINDOWS_SSH_PUBLIC_KEY ?? 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA replace-with-your-key',
    additionalTcpPorts: [WINDOWS_EXPORTER_PORT],
  });
  writeFileSync(join(app.outdir, 'remote-windows-host-preparation.ps1'), script);
}
