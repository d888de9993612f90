import { ApiObject, App } from 'cdk8s';
import { buildManyCharts } from '../../bench/many-charts';
import { LABEL_OS } from '../../src';
import { HyperVRuntimeClass, podTemplateOf } from '../../src/workloads';
import { synthObjects } from '../support/synth';

/**
 * Issue 9.7, render once: within one synth call the workload checks (the chart's
 * PodTemplatePolicy, each WindowsPod) render every object once and share it, and cdk8s renders
 * it once more to write it (cdk8s 2.70 lib/app.js: `chartToKube(chart).map(obj => obj.toJson())`).
 * cdk8s validates the app once per chart written, plus once, so anything rendered inside a
 * validation would otherwise be rendered once per chart.
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
  test('every workload object is rendered twice per synth (checked, written), whatever the number of charts', () => {
    for (const charts of [1, 4]) {
      const { counts } = rendersPerObject(charts);
      const workloads = [...counts].filter(([path]) => /\/(win|linux)\d+\//.test(path));
      expect(workloads).toHaveLength(charts * 20);
      expect(new Set(workloads.map(([, n]) => n))).toEqual(new Set([2]));
    }
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
