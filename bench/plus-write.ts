/**
 * The large app's floor for a library whose workloads are cdk8s-plus objects: the same objects
 * written by cdk8s with every Deployment built as a `kplus.Deployment` (cdk8s-plus-33) and no
 * library. `WindowsWorkload` is a cdk8s-plus workload by its API (`workload: kplus.Workload`,
 * `addContainer`, `exposeViaService`), and the large app's Linux Deployments are the user's own
 * `kplus.Deployment`s, so no change inside the library can write them without cdk8s-plus's cost.
 *
 * Each Deployment is built from its image and port; when cdk8s writes it, cdk8s-plus renders it as
 * it would, and the library's object is written in its place, so cdk8s writes exactly the
 * library's objects (`npm run bench` compares the files byte for byte) after cdk8s-plus's whole
 * build and render. Every other object is a plain `ApiObject`, as in bench/plain-write.ts.
 *
 * `node lib/bench/plus-write.js <objects.json> <outdir>` (the JSON file of bench/plain-write.ts).
 */
import { readFileSync } from 'node:fs';
import { ApiObject, App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import type { ChartObjects } from './plain-write';

interface Deployment {
  readonly spec: { readonly template: { readonly spec: { readonly containers: Array<{ image: string; ports?: Array<{ containerPort: number }> }> } } };
}

/** Adds each chart's objects to `app`, its Deployments through cdk8s-plus. */
function addPlusCharts(app: App, charts: ChartObjects): void {
  for (const [name, objects] of Object.entries(charts)) {
    const chart = new Chart(app, name, { disableResourceNameHashes: true });
    objects.forEach((o, i) => {
      if (o.apiVersion !== 'apps/v1' || o.kind !== 'Deployment') {
        new ApiObject(chart, `o${i}`, o);
        return;
      }
      const main = (o as unknown as Deployment).spec.template.spec.containers[0];
      const workload = ApiObject.of(new kplus.Deployment(chart, `o${i}`, {
        metadata: { name: o.metadata.name },
        containers: [{ image: main.image, portNumber: main.ports?.[0]?.containerPort }],
      }));
      const render = workload.toJson.bind(workload);
      workload.toJson = () => {
        render();
        return o;
      };
    });
  }
}

if (require.main === module) {
  const [objectsFile, outdir] = process.argv.slice(2);
  const app = new App({ outdir });
  addPlusCharts(app, JSON.parse(readFileSync(objectsFile, 'utf8')));
  app.synth();
}
