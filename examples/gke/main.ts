/**
 * GKE with a Linux and a Windows Server 2022 node pool. `npm run synth` (or `cdktn synth` with
 * this app) writes the Terraform JSON to cdktf.out/stacks/gke-test; the windows-app example's
 * workloads run on it in a chart made for `WindowsPlatform.GKE`, which tolerates GKE's own taint.
 */
import { WindowsVersion } from '../../src';
import { GkeLinuxNodePool, GkeWindowsNodePool, HybridGkeStack } from '../../src/gke';
import { App } from 'cdktn';

// App() writes to $CDKTF_OUTDIR, which `cdktn synth` sets, else to ./cdktf.out.
const app = new App();
const stack = new HybridGkeStack(app, 'gke-test', {
  project: process.env.GOOGLE_PROJECT ?? 'my-project',
  region: 'europe-north1',
  clusterName: 'gke-test',
  // e.g. GKE_AUTHORIZED_CIDR=203.0.113.7/32 to reach the API endpoint from your machine.
  authorizedNetworks: process.env.GKE_AUTHORIZED_CIDR ? [process.env.GKE_AUTHORIZED_CIDR] : undefined,
});
new GkeLinuxNodePool(stack.cluster, 'linux', { machineType: 'e2-standard-4', minNodesPerZone: 1, maxNodesPerZone: 3 });
new GkeWindowsNodePool(stack.cluster, 'windows', {
  machineType: 'n2-standard-4',
  minNodesPerZone: 1,
  maxNodesPerZone: 3,
  windowsVersion: WindowsVersion.SERVER_2022,
});
app.synth();
