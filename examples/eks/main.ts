/**
 * EKS with a Linux and a Windows Server 2022 node group. `npm run synth` (or `cdktf synth` with
 * this app) writes the Terraform JSON to cdktf.out/stacks/eks-test; the windows-app example's
 * workloads run on it unchanged, since they tolerate the same taint.
 */
import { WindowsEdition, WindowsVersion } from '../../src';
import { EksLinuxNodeGroup, EksWindowsNodeGroup, HybridEksStack } from '../../src/eks';
import { App } from 'cdktn';

// App() writes to $CDKTF_OUTDIR, which `cdktf synth` sets, else to ./cdktf.out.
const app = new App();
const stack = new HybridEksStack(app, 'eks-test', {
  region: 'eu-north-1',
  clusterName: 'eks-test',
  kubernetesVersion: '1.34',
  // e.g. EKS_PUBLIC_CIDR=203.0.113.7/32 to reach the API endpoint from your machine.
  publicAccessCidrs: process.env.EKS_PUBLIC_CIDR ? [process.env.EKS_PUBLIC_CIDR] : undefined,
});
new EksLinuxNodeGroup(stack.cluster, 'linux', { machineTypes: ['t3.large'], minNodes: 2 });
new EksWindowsNodeGroup(stack.cluster, 'windows', {
  machineTypes: ['m6i.xlarge'],
  minNodes: 2,
  windowsVersion: WindowsVersion.SERVER_2022,
  edition: WindowsEdition.CORE,
});
app.synth();
