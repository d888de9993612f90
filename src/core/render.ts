import { ApiObject, JsonPatch } from 'cdk8s';
import { HybridConfigError } from './errors';
import { patchCount, SynthRender, synthRenders } from './synth-scope';
import { show } from './values';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function render(obj: ApiObject): SynthRender {
  return { json: renderOrExplain(obj), patches: patchCount(obj) };
}

/**
 * An object's manifest as it will be written (`ApiObject.toJson()`, after its JSON patches),
 * rendered once per synth call and shared by every check of that call (workload policies, the
 * cluster rules, the hand-off) and by cdk8s's write of the charts after the first
 * (`src/core/synth-scope.ts`). Outside a synth call it is rendered afresh, as user code may change the
 * object between two calls.
 * Callers read it; they never change it (add patches with `addRenderedPatch`).
 */
export function rendered(obj: ApiObject): Json {
  const cache = synthRenders();
  let r = cache.get(obj);
  if (!r) cache.set(obj, r = render(obj));
  return r.json;
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
  const cache = synthRenders();
  const r = cache.get(obj);
  if (r) cache.set(obj, { json: JsonPatch.apply(r.json, ...ops) });
}
