/**
 * AKS with the Linux System pool, a Linux user pool and a Windows Server 2022 pool. `npm run synth`
 * (or `cdktn synth` with this app) writes the Terraform JSON to cdktf.out/stacks/aks-test; the
 * windows-app example's workloads run on it unchanged, since they tolerate the same taint.
 */
import { WindowsVersion } from '../../src';
import { AksLinuxNodePool, AksWindowsNodePool, HybridAksStack } from '../../src/aks';
import { App } from 'cdktn';

// App() writes to $CDKTF_OUTDIR, which `cdktn synth` sets, else to ./cdktf.out.
const app = new App();
const stack = new HybridAksStack(app, 'aks-test', {
  location: 'westeurope',
  clusterName: 'aks-test',
  kubernetesVersion: '1.35',
});
new AksLinuxNodePool(stack.cluster, 'linux', { machineType: 'Standard_D4ds_v5', minNodes: 1 });
new AksWindowsNodePool(stack.cluster, 'win', { machineType: 'Standard_D4ds_v5', minNodes: 1, windowsVersion: WindowsVersion.SERVER_2022 });
app.synth();
