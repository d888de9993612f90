/**
 * The default example with one CRD CEL rule that the engine must evaluate: a JSON patch gives the
 * Linux pool's MachineHealthCheck a machine condition, which its CRD's rule on
 * `unhealthyMachineConditions[].type` judges. The default example itself sets no field a CEL rule
 * reads (their results for that case are computed at `npm run import`), so it never loads the engine;
 * this case measures what a synth pays when it does. Run: `node lib/bench/cel-evaluated.js`.
 */
import { ApiObject, App, JsonPatch } from 'cdk8s';
import { buildCluster } from '../examples/k0smotron-aws/main';
import { WorkerPool } from '../src';

const app = new App({ outdir: process.env.CDK8S_OUTDIR ?? 'dist-bench' });
const chart = buildCluster(app);
const pool = chart.node.findAll().find((c): c is WorkerPool => c instanceof WorkerPool && c.os === 'linux');
ApiObject.of(pool!.machineHealthCheck!).addJsonPatch(JsonPatch.add('/spec/checks/unhealthyMachineConditions',
  [{ type: 'InfrastructureReady', status: 'False', timeoutSeconds: 600 }]));
app.synth();
