// WindowsPod on a hand-made cdk8s-plus Deployment, of the major named by CDK8S_PLUS (cdk8s-plus-33
// as `cdk8s init` installs it, or cdk8s-plus-28 beside it).
import { App, Chart } from 'cdk8s';
import { WindowsPod } from 'cdk-hybrid-windows/workloads';

// Loaded by name so that this file compiles where cdk8s-plus-28 is not installed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const kplus: typeof import('cdk8s-plus-33') = require(process.env.CDK8S_PLUS ?? 'cdk8s-plus-33');
const app = new App();
const chart = new Chart(app, 'windows-pod');
const web = new kplus.Deployment(chart, 'web', {
  containers: [{ image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', portNumber: 80 }],
});
new WindowsPod(web).addContainer({ name: 'logs', image: 'mcr.microsoft.com/windows/servercore:ltsc2022' });
app.synth();
