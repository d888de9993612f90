/**
 * A Windows application in a hybrid cluster: an IIS site on Windows Server 2022 nodes behind a
 * Service, an nginx frontend pinned to Linux, and windows_exporter on every Windows node.
 *
 *   npm run synth   # writes dist/windows-app.k8s.yaml (CDK8S_OUTDIR overrides dist)
 */
import { App, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { Construct } from 'constructs';
import { WindowsVersion } from '../../src';
import { HybridChart, HybridChartProps, WindowsExporter, WindowsWorkload } from '../../src/workloads';

export class WindowsAppChart extends HybridChart {
  /** `props.platform`: the platform the chart is for (`WindowsPlatform.GKE` tolerates GKE's own Windows taint). */
  constructor(scope: Construct, id: string, props: HybridChartProps = {}) {
    super(scope, id, props);

    const iis = new WindowsWorkload(this, 'iis', {
      image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
      port: 80,
      replicas: 2,
      version: WindowsVersion.SERVER_2022,
      main: {
        resources: { cpu: { request: kplus.Cpu.millis(500) }, memory: { request: Size.gibibytes(1), limit: Size.gibibytes(2) } },
        readiness: kplus.Probe.fromHttpGet('/'),
      },
    });
    const site = iis.exposeViaService({ name: 'iis', ports: [{ port: 80 }] });

    // A Linux pod: HybridChart pins it to Linux nodes. The unprivileged image suits cdk8s-plus's
    // non-root, read-only-root defaults once /tmp is writable: it writes its pid and temp files
    // there (nginxinc/docker-nginx-unprivileged mainline/alpine-slim/Dockerfile).
    const frontend = new kplus.Deployment(this, 'frontend', {
      replicas: 2,
      containers: [{
        image: 'nginxinc/nginx-unprivileged:1.27-alpine',
        portNumber: 8080,
        envVariables: { BACKEND: kplus.EnvValue.fromValue(`http://${site.name}`) },
        volumeMounts: [{ path: '/tmp', volume: kplus.Volume.fromEmptyDir(this, 'tmp', 'tmp') }],
      }],
    });
    frontend.exposeViaService({ name: 'frontend', ports: [{ port: 80, targetPort: 8080 }] });

    new WindowsExporter(this, 'windows-exporter');
  }
}

// Synthesize when run (`node lib/examples/windows-app/main.js`), not when a test imports the chart.
if (require.main === module) {
  const app = new App();
  new WindowsAppChart(app, 'windows-app');
  app.synth();
}
