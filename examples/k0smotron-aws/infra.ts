/**
 * The AWS side of the k0smotron example: `cdktf deploy --outputs-file infra.json` creates the
 * network, IAM and AMI lookups, and `HYBRID_INFRA_OUTPUTS=infra.json npm run synth` feeds them to
 * the cluster objects (examples/k0smotron-aws/main.ts).
 */
import { App } from 'cdktf';
import { HybridClusterInfraStack, WindowsEdition, WindowsVersion } from '../../src';

/** The stack name is the top-level key of the outputs file. */
export const INFRA_STACK_NAME = 'aws-test-infra';

// App() writes to $CDKTF_OUTDIR when `cdktf synth` sets it, else to ./cdktf.out.
const app = new App();
new HybridClusterInfraStack(app, INFRA_STACK_NAME, {
  region: 'eu-north-1',
  clusterName: 'aws-test',
  iamNamePrefix: 'aws-test-',
  images: { windows: [{ version: WindowsVersion.SERVER_2022, edition: WindowsEdition.CORE }] },
  defaultTags: { 'cluster.x-k8s.io/cluster-name': 'aws-test' },
});
app.synth();
