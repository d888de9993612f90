// Objects no construct of the library checks (a plain Chart, as Helm output brought in would be):
// only the HybridValidation plugin of cdk8s.yaml sees that the pod cannot schedule on Windows.
import { ApiObject, App, Chart } from 'cdk8s';

const app = new App();
const chart = new Chart(app, 'plain');
new ApiObject(chart, 'web', {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        nodeSelector: { 'kubernetes.io/os': 'windows' },
        containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
      },
    },
  },
});
app.synth();
