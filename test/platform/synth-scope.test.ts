import { ApiObject, App, Chart, Testing, Yaml } from 'cdk8s';
import { oncePerSynth } from '../../src/core/synth-scope';

/** An app of `charts` charts whose every chart carries one counting validation. */
function countingApp(charts: number, problem: () => string[] = () => []) {
  const app = Testing.app();
  let computed = 0;
  let called = 0;
  const key = {};
  for (let i = 0; i < charts; i++) {
    const chart = new Chart(app, `c${i}`);
    new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    if (i === 0) {
      chart.node.addValidation({
        validate: () => {
          called++;
          return oncePerSynth(key, () => {
            computed++;
            return problem();
          });
        },
      });
    }
  }
  return { app, counts: () => ({ called, computed }) };
}

describe('oncePerSynth', () => {
  test('the work runs once per synth; cdk8s validates the app in synth() and for the first chart written, not for each chart', () => {
    const { app, counts } = countingApp(4);
    app.synth();
    // cdk8s lib/app.js: validate(app) in synth(), and again in every chart's toJson(): 5 calls for
    // 4 charts without the synth scope.
    expect(counts()).toEqual({ called: 2, computed: 1 });
    app.synthYaml();
    expect(counts()).toEqual({ called: 4, computed: 2 });
  });

  test('each chart is written as cdk8s writes it alone: its own objects, in dependency order, dependencies across charts included', () => {
    const app = Testing.app();
    const charts = [0, 1, 2].map((i) => new Chart(app, `c${i}`));
    const objects = charts.map((chart) => ['a', 'b', 'c'].map((id) => new ApiObject(chart, id, { apiVersion: 'v1', kind: 'ConfigMap', data: { id } })));
    // Within a chart: a after c; across charts: chart 0 after chart 2, so cdk8s writes 2 first.
    objects[1][0].addDependency(objects[1][2]);
    charts[0].addDependency(charts[2]);
    const nested = new Chart(charts[1], 'nested');
    new ApiObject(nested, 'n', { apiVersion: 'v1', kind: 'ConfigMap' });
    const written = app.synthYaml();
    // cdk8s's own per-chart step, outside a synth call (after the synth, which made the nested
    // chart a dependency of its parent).
    expect(written).toBe(Yaml.stringify(...app.charts.flatMap((c) => (c as Chart).toJson())));
    expect(written).toMatch(/name: c2-[\s\S]*name: c0-[\s\S]*name: c1-nested-n[\s\S]*name: c1-c[\s\S]*name: c1-a/);
  });

  test('outside a synth call nothing is kept', () => {
    const { app, counts } = countingApp(2);
    (app.charts[0] as Chart).toJson();
    (app.charts[0] as Chart).toJson();
    expect(counts().computed).toBe(2);
  });

  test('a change between two synths is seen by the second', () => {
    let answer: string[] = [];
    const { app } = countingApp(2, () => answer);
    expect(() => app.synthYaml()).not.toThrow();
    answer = ['broken'];
    expect(() => app.synthYaml()).toThrow(/broken/);
  });

  test('a validation error stops the synth as before', () => {
    const { app } = countingApp(3, () => ['bad']);
    expect(() => new App().synthYaml()).not.toThrow();
    expect(() => app.synth()).toThrow(/\[c0\] bad/);
  });
});
