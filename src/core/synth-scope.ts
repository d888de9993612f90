import { App } from 'cdk8s';

/**
 * Work done once per `App.synth()` / `App.synthYaml()`, however often cdk8s validates within it.
 *
 * cdk8s 2.70 validates the whole app before writing, and again for every chart it writes
 * (`App.synth` → `Chart.toJson` → `App._synthChart` → `validate(app)`, cdk8s lib/app.js), so a
 * validation that renders its objects runs once per chart plus one: synth time grows with the
 * square of the number of charts. Within one synth call no user code runs between those
 * validations, so their results cannot differ; the first one's are kept until the call returns.
 * Outside a synth call (a direct `Chart.toJson()`, `Testing.synth`) nothing is kept.
 */
let current: WeakMap<object, unknown> | undefined;

/** `compute()`'s result for `key`, computed once per synth call. */
export function oncePerSynth<T>(key: object, compute: () => T): T {
  if (!current) return compute();
  if (current.has(key)) return current.get(key) as T;
  const value = compute();
  current.set(key, value);
  return value;
}

const WRAPPED = Symbol.for('cdk-hybrid-windows.synth-scope');

function scoped(method: 'synth' | 'synthYaml'): void {
  const original = App.prototype[method] as (this: App) => unknown;
  (App.prototype as unknown as Record<string, unknown>)[method] = function (this: App): unknown {
    const outer = current;
    current = outer ?? new WeakMap();
    try {
      return original.call(this);
    } finally {
      current = outer;
    }
  };
}

if (!(App.prototype as unknown as Record<symbol, boolean>)[WRAPPED]) {
  Object.defineProperty(App.prototype, WRAPPED, { value: true });
  scoped('synth');
  scoped('synthYaml');
}
