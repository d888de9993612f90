import { ApiObject, App, Chart, Testing } from 'cdk8s';
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
  test('cdk8s validates once per chart written, plus once; the work runs once per synth', () => {
    const { app, counts } = countingApp(4);
    app.synth();
    // cdk8s lib/app.js: validate(app) in synth(), and again in every chart's toJson().
    expect(counts()).toEqual({ called: 5, computed: 1 });
    app.synthYaml();
    expect(counts().computed).toBe(2);
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
