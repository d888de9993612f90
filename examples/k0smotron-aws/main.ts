/**
 * The k0smotron "Full Example with AWS", rebuilt with the constructs: a Linux control plane of
 * three k0s controllers behind an NLB, a Linux pool for CoreDNS and Linux workloads, and a
 * Windows Server 2022 pool. Run: `npm run synth` (writes dist/).
 *
 * Without deployed infrastructure the YAML applies as is: CAPA creates the VPC, and looks up
 * Canonical's newest Ubuntu 24.04 and Amazon's newest Windows Server 2022 Core base images per
 * machine. On deployed infrastructure: `cdktf deploy --outputs-file infra.json`
 * (examples/k0smotron-aws/infra.ts), then `HYBRID_INFRA_OUTPUTS=infra.json npm run synth` uses its
 * VPC, subnets, AMIs, instance profiles and key pair.
 */
import { App, Chart } from 'cdk8s';
import { ClusterInfra, HybridCluster, LinuxWorkerPool, WINDOWS_EXPORTER_PORT, WindowsVersion, WindowsWorkerPool } from '../../src';

/** The example's chart, on deployed infrastructure when `infra` is given. */
export function buildCluster(app: App, infra?: ClusterInfra): Chart {
  const chart = new Chart(app, 'k0smotron-aws', { namespace: 'default', disableResourceNameHashes: true });
  const cluster = new HybridCluster(chart, 'aws-test', {
    region: infra ? undefined : 'eu-north-1',
    // Every account has these three in eu-north-1; with an infra, the zones of its private subnets.
    zones: infra ? undefined : ['eu-north-1a', 'eu-north-1b', 'eu-north-1c'],
    k0sVersion: 'v1.34.10+k0s.0',
    infra,
    controlPlane: { replicas: 3, instanceType: 't3.large' },
    // The windows-app example's windows_exporter, scraped from a Linux node.
    nodeAgentPorts: [WINDOWS_EXPORTER_PORT],
  });
  new LinuxWorkerPool(cluster, 'linux', { replicas: 2, instanceType: 't3.large' });
  new WindowsWorkerPool(cluster, 'win', { replicas: 2, instanceType: 't3.xlarge', windowsVersion: WindowsVersion.SERVER_2022 });
  return chart;
}

if (require.main === module) {
  const outputsFile = process.env.HYBRID_INFRA_OUTPUTS;
  const app = new App();
  buildCluster(app, outputsFile ? ClusterInfra.fromOutputsFile(outputsFile) : undefined);
  app.synth();
}
