/**
 * The AWS side of the k0smotron example: `cdktf deploy --outputs-file infra.json` creates the
 * network, IAM and AMI lookups, and `HYBRID_INFRA_OUTPUTS=infra.json npm run synth` feeds them to
 * the cluster objects (examples/k0smotron-aws/main.ts reads them with ClusterInfra.fromOutputsFile).
 */
import { App } from 'cdktn';
import { WindowsEdition, WindowsVersion } from '../../src';
import { HybridClusterInfraStack } from '../../src/aws';

// App() writes to $CDKTF_OUTDIR, which `cdktf synth` sets, else to ./cdktf.out.
const app = new App();
// The stack name is the top-level key of the outputs file.
new HybridClusterInfraStack(app, 'aws-test-infra', {
  region: 'eu-north-1',
  clusterName: 'aws-test',
  iamNamePrefix: 'aws-test-',
  images: { windows: [{ version: WindowsVersion.SERVER_2022, edition: WindowsEdition.CORE }] },
  // Optional: import your key, e.g. SSH_PUBLIC_KEY="$(cat ~/.ssh/id_rsa.pub)" cdktf deploy ...
  sshPublicKey: process.env.SSH_PUBLIC_KEY,
});
app.synth();
