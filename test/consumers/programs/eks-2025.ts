// A Windows Server 2025 node group: synthesizes on CDK Terrain (hashicorp/aws 6.66.0), refused on
// cdktf 0.21 (@cdktf/provider-aws 21 pins 6.25.0, which predates the 2025 AMI types).
import { App } from 'cdktn';
import { WindowsVersion } from 'cdk-hybrid-windows';
import { EksLinuxNodeGroup, EksWindowsNodeGroup, HybridEksStack } from 'cdk-hybrid-windows/eks';

const app = new App();
const stack = new HybridEksStack(app, 'eks-2025', { region: 'eu-north-1', clusterName: 'eks-2025', kubernetesVersion: '1.35' });
new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], minSize: 2, windowsVersion: WindowsVersion.SERVER_2025 });
app.synth();
