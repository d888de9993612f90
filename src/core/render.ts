import { ApiObject, JsonPatch } from 'cdk8s';
import { HybridConfigError } from './errors';
import { oncePerSynth } from './synth-scope';
import { show } from './values';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Key of this synth's render cache in `oncePerSynth`. */
const RENDERS = {};

/**
 * An object's manifest in this synth call and, when it is `toJson()`'s own, how many JSON patches
 * the object had then.
 */
interface Render {
  readonly json: Json;
  readonly patches?: number;
}

/** This synth call's rendered manifests; outside a synth call a fresh, empty map each time. */
function renders(): WeakMap<ApiObject, Render> {
  return oncePerSynth(RENDERS, () => new WeakMap<ApiObject, Render>());
}

/**
 * How many JSON patches an object has: `ApiObject.patches`, private in cdk8s 2.70 (lib/api-object.js),
 * read only to tell whether one was added since a render; undefined, so never equal, should a
 * release rename it.
 */
function patchCount(obj: ApiObject): number | undefined {
  const patches = (obj as unknown as { patches?: unknown }).patches;
  return Array.isArray(patches) ? patches.length : undefined;
}

function render(obj: ApiObject): Render {
  return { json: renderOrExplain(obj), patches: patchCount(obj) };
}

/**
 * An object's manifest as it will be written (`ApiObject.toJson()`, after its JSON patches),
 * rendered once per synth call and shared by every check of that call (workload policies, the
 * cluster rules, the hand-off) and by cdk8s's write of the charts after the first
 * (`renderedForWrite`). Outside a synth call it is rendered afresh, as user code may change the
 * object between two calls.
 * Callers read it; they never change it (add patches with `addRenderedPatch`).
 */
export function rendered(obj: ApiObject): Json {
  const cache = renders();
  let r = cache.get(obj);
  if (!r) cache.set(obj, r = render(obj));
  return r.json;
}

/**
 * The manifest cdk8s writes for `obj` in this synth call (`src/core/synth-scope.ts`): the checks'
 * render, when the object was rendered in this call and has had no JSON patch added since, else
 * `toJson()`. Between the checks and the write cdk8s changes no object; a patch added by other
 * code in between is seen by its count, and one added by `addRenderedPatch` makes it render again.
 * The caller writes the manifest and never changes it.
 */
export function renderedForWrite(obj: ApiObject): Json {
  const r = renders().get(obj);
  return r?.patches !== undefined && r.patches === patchCount(obj) ? r.json : obj.toJson();
}

/**
 * `toJson()`, with its failures given the object's path: a JSON patch whose path names no field
 * makes cdk8s's patch library throw a bare TypeError ("Cannot read properties of undefined").
 */
function renderOrExplain(obj: ApiObject): Json {
  try {
    return obj.toJson();
  } catch (e) {
    if (e instanceof HybridConfigError) throw e;
    const patch = patchProblem(obj);
    if (patch) throw new HybridConfigError(obj.node.path, `${obj.kind} ${obj.name}: ${patch.what}`, patch.fix);
    const cause = (e as Error).message.replace(/^Failed serializing construct at path '[^']*' with name '[^']*': /, '');
    throw new HybridConfigError(obj.node.path, `${obj.kind} ${obj.name} cannot be written (${cause})`,
      'if you added JSON patches (addJsonPatch), make each path name a field that exists, adding its parent first; otherwise change the props as the message says');
  }
}

/**
 * Which of an object's JSON patches cannot be applied, and why, or undefined: a plain RFC 6902
 * object where cdk8s wants a `JsonPatch` (its `toJson` calls each patch's `_toJson`: cdk8s
 * lib/json-patch.js), or the first patch whose path names no field of the object as the patches
 * before it left it (applied one at a time to the unpatched object, on this error path only).
 */
function patchProblem(obj: ApiObject): { what: string; fix: string } | undefined {
  const holder = obj as unknown as { patches?: unknown[] };
  const patches = Array.isArray(holder.patches) ? [...holder.patches] : [];
  const plain = patches.findIndex((p) => typeof (p as { _toJson?: unknown })?._toJson !== 'function');
  if (plain >= 0) {
    const op = patches[plain] as { op?: unknown; path?: unknown };
    return {
      what: `JSON patch [${plain}] ${show(op)} is a plain object, not a cdk8s JsonPatch`,
      fix: `write it with cdk8s's JsonPatch, e.g. JsonPatch.${typeof op?.op === 'string' && /^(add|remove|replace|copy|move|test)$/.test(op.op) ? op.op : 'add'}(${JSON.stringify(typeof op?.path === 'string' ? op.path : '/spec/...')}, value)`,
    };
  }
  let doc: Json;
  holder.patches = [];
  try {
    doc = obj.toJson();
  } catch {
    return undefined;
  } finally {
    holder.patches = patches;
  }
  for (const [i, p] of (patches as JsonPatch[]).entries()) {
    try {
      doc = JsonPatch.apply(doc, p);
    } catch {
      const { op, path } = p._toJson() as { op: string; path: string };
      return {
        what: `JSON patch [${i}] (${op} ${path}) names a path that does not exist in the object`,
        fix: op === 'add' ? `add ${path.slice(0, path.lastIndexOf('/')) || '/'} first (JsonPatch.add with an object), or correct the path`
        : `correct the path: ${op} needs a field that exists (the rendered object shows which do: cdk8s synth without the patch)`,
      };
    }
  }
  return undefined;
}

/**
 * Adds JSON patches to an object and to its manifest rendered in this synth call, if any, so
 * that later checks of the call see the patched manifest without rendering it again.
 * `ApiObject.toJson()` applies patches to the resolved document before an L1 class maps its
 * fields (cdk8s lib/api-object.js, cdk8s-plus-33 lib/imports/k8s.js), and the patches added this
 * way (`os`, `nodeSelector`) are the same in both forms; but the patched render's keys are in
 * another order than `toJson()`'s, so cdk8s's write renders the object again.
 */
export function addRenderedPatch(obj: ApiObject, ...ops: JsonPatch[]): void {
  obj.addJsonPatch(...ops);
  const cache = renders();
  const r = cache.get(obj);
  if (r) cache.set(obj, { json: JsonPatch.apply(r.json, ...ops) });
}
