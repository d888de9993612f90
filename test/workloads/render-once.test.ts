import { ApiObject, App, Chart, JsonPatch, Yaml } from 'cdk8s';
import { Construct } from 'constructs';
import { buildManyCharts } from '../../bench/many-charts';
import { LABEL_OS } from '../../src';
import { HyperVRuntimeClass, WindowsWorkload, podTemplateOf } from '../../src/workloads';
import { synthObjects } from '../support/synth';

/**
 * Issue 9.7, render once: within one synth call the workload checks (the chart's
 * PodTemplatePolicy, each WindowsPod) render every object once and share it. cdk8s renders the
 * first chart's objects once more to write them (cdk8s 2.70 lib/app.js: `chartToKube(chart).map(obj
 * => obj.toJson())`); the charts after the first are written from the checks' render (issue 37,
 * src/core/synth-scope.ts), except objects patched since (the Linux pinning). cdk8s validates the
 * app once per chart written, plus once, so anything rendered inside a validation would otherwise
 * be rendered once per chart.
 */
function rendersPerObject(charts: number, build: (app: App) => void = (app) => buildManyCharts(app, charts)) {
  const app = new App();
  build(app);
  const counts = new Map<string, number>();
  const original = ApiObject.prototype.toJson;
  const spy = jest.spyOn(ApiObject.prototype, 'toJson').mockImplementation(function (this: ApiObject) {
    counts.set(this.node.path, (counts.get(this.node.path) ?? 0) + 1);
    return original.call(this);
  });
  let objects;
  try {
    objects = synthObjects(app);
  } finally {
    spy.mockRestore();
  }
  return { counts, objects };
}

describe('render once per synth', () => {
  test('a workload object is rendered at most twice per synth (checked, written), whatever the number of charts; once when written from the checks\' render', () => {
    for (const charts of [1, 4]) {
      const { counts } = rendersPerObject(charts);
      const workloads = [...counts].filter(([path]) => /\/(win|linux)\d+\//.test(path));
      expect(workloads).toHaveLength(charts * 20);
      // The first chart is written by cdk8s's own step; the Linux Deployments are pinned (patched) after the checks' render.
      const expected = ([path]: [string, number]) => (path.startsWith('apps0/') || path.includes('/linux') ? 2 : 1);
      expect(workloads.map(([path, n]) => [path, n])).toEqual(workloads.map((w) => [w[0], expected(w)]));
    }
  });

  test('the charts after the first are written byte for byte as cdk8s writes them', () => {
    const build = () => {
      const app = new App();
      buildManyCharts(app, 3);
      return app;
    };
    const viaChecks = build().synthYaml();
    // Outside a synth call every object is rendered afresh by cdk8s's own per-chart step.
    const app = build();
    app.synthYaml();
    const ownSteps = Yaml.stringify(...app.charts.flatMap((c) => c.toJson()));
    expect(viaChecks).toBe(ownSteps);
  });

  test('a JSON patch added after the checks\' render, by a validation later in the tree, is written', () => {
    const app = new App();
    buildManyCharts(app, 2);
    const win = ApiObject.of((app.charts[1].node.findChild('win0') as WindowsWorkload).workload);
    // Validated after the chart's PodTemplatePolicy, which renders every object of the chart first.
    const late = new Construct(app.charts[1], 'zz-late');
    late.node.addValidation({ validate: () => {
      win.addJsonPatch(JsonPatch.add('/metadata/annotations', { late: 'yes' }));
      return [];
    } });
    const written = synthObjects(app).find((o) => o.metadata.name === `${Chart.of(win).node.id}-win0`);
    expect(written?.metadata.annotations).toEqual({ late: 'yes' });
  });

  test('the pinning patches added in validation reach both the checks and the written objects', () => {
    const { objects } = rendersPerObject(2);
    const pods = objects.map((o) => ({ name: o.metadata.name as string, spec: podTemplateOf(o)?.spec })).filter((p) => p.spec);
    expect(pods).toHaveLength(40);
    for (const { name, spec } of pods) {
      const os = name.includes('win') ? 'windows' : 'linux';
      expect({ name, os: spec.os, selector: spec.nodeSelector[LABEL_OS] }).toEqual({ name, os: { name: os }, selector: os });
    }
  });

  test('a RuntimeClass is rendered once for all charts\' checks', () => {
    const { counts } = rendersPerObject(3, (app) => {
      buildManyCharts(app, 3);
      new HyperVRuntimeClass(app.charts[0], 'hv');
    });
    const runtimeClass = [...counts].filter(([path]) => path.includes('/hv/'));
    expect(runtimeClass.map(([, n]) => n)).toEqual([2]);
  });
});
