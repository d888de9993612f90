import { ApiObject, App, Chart, DependencyGraph } from 'cdk8s';

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

/**
 * An object's manifest rendered in this synth call and, when it is `toJson()`'s own, how many JSON
 * patches the object had then.
 */
export interface SynthRender {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
  readonly patches?: number;
}

/** Key of this synth's renders in `oncePerSynth`. */
const RENDERS = {};

/**
 * This synth call's renders, which src/core/render.ts makes for the checks and the charts after
 * the first are written from (`renderedForWrite`); outside a synth call a fresh, empty map each time.
 */
export function synthRenders(): WeakMap<ApiObject, SynthRender> {
  return oncePerSynth(RENDERS, () => new WeakMap<ApiObject, SynthRender>());
}

/**
 * How many JSON patches an object has: `ApiObject.patches`, private in cdk8s 2.70 (lib/api-object.js),
 * read only to tell whether one was added since a render; undefined, so never equal, should a
 * release rename it.
 */
export function patchCount(obj: ApiObject): number | undefined {
  const patches = (obj as unknown as { patches?: unknown }).patches;
  return Array.isArray(patches) ? patches.length : undefined;
}

/**
 * The manifest cdk8s writes for `obj` in this synth call: the checks' render, when the object was
 * rendered in this call and has had no JSON patch added since, else `toJson()`. Between the checks
 * and the write cdk8s changes no object; a patch added by other code in between is seen by its
 * count, and one added by `addRenderedPatch` (src/core/render.ts) makes it render again. The
 * caller writes the manifest and never changes it.
 */
function renderedForWrite(obj: ApiObject): unknown {
  const r = synthRenders().get(obj);
  return r?.patches !== undefined && r.patches === patchCount(obj) ? r.json : obj.toJson();
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

/** Key, per app, of "a chart of it was written in this synth call" in `current`. */
const CHART_WRITTEN = new WeakMap<App, object>();

/**
 * Within a synth call, cdk8s's per-chart step (`App._synthChart`: resolve the app's dependencies,
 * validate the whole app, then render the chart's objects in dependency order) walks every
 * construct of the app twice per chart written, which makes a synth grow with the charts times
 * the constructs. Both walks were done before the first chart (`App.synth` and `App.synthYaml`
 * resolve and validate first) and again for the first chart; for the charts after it they only
 * repeat that work (dependencies are sets, and no user code runs in between), so they are left out
 * and the chart's objects are written in cdk8s's order (`chartToKube`, cdk8s lib/app.js), each from
 * the render the checks made in this call when no JSON patch was added since (`renderedForWrite`:
 * one render per object instead of two), else rendered as cdk8s renders it.
 * Outside a synth call (`Chart.toJson()`, `Testing.synth`) cdk8s's own step runs unchanged.
 */
function chartsAfterTheFirst(): void {
  const statics = App as unknown as Record<string, unknown>;
  const original = statics._synthChart;
  // An internal of cdk8s: should a release drop it, cdk8s's own synth runs unchanged.
  if (typeof original !== 'function') return;
  statics._synthChart = function (this: unknown, chart: Chart): unknown {
    if (!current) return original.call(this, chart);
    const app = App.of(chart) as App;
    const key = CHART_WRITTEN.get(app) ?? {};
    CHART_WRITTEN.set(app, key);
    if (!current.has(key)) {
      current.set(key, true);
      return original.call(this, chart);
    }
    return new DependencyGraph(chart.node).topology()
      .filter((c): c is ApiObject => c instanceof ApiObject && Chart.of(c) === chart)
      .map((o) => renderedForWrite(o));
  };
}

if (!(App.prototype as unknown as Record<symbol, boolean>)[WRAPPED]) {
  Object.defineProperty(App.prototype, WRAPPED, { value: true });
  scoped('synth');
  scoped('synthYaml');
  chartsAfterTheFirst();
}
