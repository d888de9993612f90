/**
 * The k0smotron "Full Example with AWS", rebuilt with the constructs: a Linux control plane of
 * three k0s controllers behind an NLB, a Linux pool for CoreDNS and Linux workloads, and a
 * Windows Server 2022 pool. Run: `npm run synth` (writes dist/).
 */
import { App, Chart } from 'cdk8s';
import {
  ClusterInfra,
  HybridCluster,
  LinuxWorkerPool,
  MachineImage,
  WindowsVersion,
  WindowsWorkerPool,
} from '../../src';

/**
 * Stand-ins used when no deployed infrastructure is given. The AMIs are the ones the upstream
 * example names for eu-north-1 (Ubuntu and Windows Server 2022); replace all three, or deploy
 * the AWS stack and set HYBRID_INFRA_OUTPUTS.
 */
export const PLACEHOLDERS = {
  linuxAmi: 'ami-0fa91bc90632c73c9',
  windowsAmi: 'ami-010e40c6557403885',
  sshKeyName: 'REPLACE-ME-ssh-key',
} as const;

/** The example's chart, on deployed infrastructure when `infra` is given. */
export function buildCluster(app: App, infra?: ClusterInfra): Chart {
  const chart = new Chart(app, 'k0smotron-aws', { namespace: 'default', disableResourceNameHashes: true });
  const ami = (id: string) => (infra ? undefined : MachineImage.id(id));
  const cluster = new HybridCluster(chart, 'aws-test', {
    region: infra ? undefined : 'eu-north-1',
    k0sVersion: 'v1.34.2+k0s.0',
    sshKeyName: infra ? undefined : PLACEHOLDERS.sshKeyName,
    infra,
    controlPlane: { replicas: 3, instanceType: 't3.large', ami: ami(PLACEHOLDERS.linuxAmi) },
  });
  new LinuxWorkerPool(cluster, 'linux', { replicas: 2, instanceType: 't3.large', ami: ami(PLACEHOLDERS.linuxAmi) });
  new WindowsWorkerPool(cluster, 'win', {
    replicas: 2,
    instanceType: 't3.xlarge',
    windowsVersion: WindowsVersion.SERVER_2022,
    ami: ami(PLACEHOLDERS.windowsAmi),
  });
  return chart;
}

if (require.main === module) {
  const app = new App();
  buildCluster(app);
  app.synth();
}
