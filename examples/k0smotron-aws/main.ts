/**
 * The k0smotron "Full Example with AWS", rebuilt with the constructs: a Linux control plane of
 * three k0s controllers behind an NLB, a Linux pool for CoreDNS and Linux workloads, and a
 * Windows Server 2022 pool. Run: `npm run synth` (writes dist/).
 *
 * On deployed infrastructure: `cdktf deploy --outputs-file infra.json` (examples/k0smotron-aws/infra.ts),
 * then `HYBRID_INFRA_OUTPUTS=infra.json npm run synth` uses its VPC, subnets, AMIs, instance
 * profiles and key pair.
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
 * Stand-ins used when no deployed infrastructure is given: they pass the checks and the schemas
 * but can never boot a machine. Replace them, or deploy the AWS stack and set HYBRID_INFRA_OUTPUTS.
 */
export const PLACEHOLDERS = {
  // Well-formed ids that name no image: the checks refuse ids that are not of the ami- form.
  linuxAmi: 'ami-00000000000000000',
  windowsAmi: 'ami-00000000000000001',
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
  const outputsFile = process.env.HYBRID_INFRA_OUTPUTS;
  const app = new App();
  buildCluster(app, outputsFile ? ClusterInfra.fromOutputsFile(outputsFile) : undefined);
  app.synth();
  if (!outputsFile) {
    console.warn('k0smotron-aws: HYBRID_INFRA_OUTPUTS is not set, so dist/ holds placeholders for the AMIs (ami-0000…) and the key pair (REPLACE-ME).');
  }
}
