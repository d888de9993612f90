import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { oncePerSynth } from '../platform/synth-scope';
import { LABEL_OS, WINDOWS_NODE_TAINT, taintArgument } from '../platform/windows';
import { PodTemplateLocation, explicitOs, manifestPath, podTemplateOf, pointerSegment, targetsWindows, tolerates } from './pod-template';
import { validatePodSpec } from './validate-pod-spec';
import { windowsPodIssues } from './windows-pod-rules';

const ID = 'PodTemplatePolicy';

/**
 * The chart-wide guard of a hybrid cluster's pod templates. One per chart (`PodTemplatePolicy.of`),
 * created by every Windows workload and by `HybridChart`.
 *
 * Its validation reads every API object of the chart — cdk8s-plus workloads, `Include`d manifests,
 * plain `ApiObject`s — as it will be emitted (`ApiObject.toJson()`, after all JSON patches), and
 * reports what the API server would reject (`validatePodSpec`), Windows pods that would not be
 * scheduled on or run on Windows nodes, and Linux pods that could drift onto them.
 *
 * With `pinLinux()`, every pod template that does not ask for Windows also gets `spec.os.name:
 * linux` and the `kubernetes.io/os: linux` node selector. A template that explicitly selects
 * Windows is never re-pinned: when it is not Windows-safe it is reported.
 */
export class PodTemplatePolicy extends Construct {
  /** The chart's policy, created on first use. */
  public static of(scope: Construct): PodTemplatePolicy {
    const chart = Chart.of(scope);
    return (chart.node.tryFindChild(ID) as PodTemplatePolicy | undefined) ?? new PodTemplatePolicy(chart);
  }

  private linuxPinning = false;

  private constructor(private readonly chart: Chart) {
    super(chart, ID);
    this.node.addValidation({
      validate: () => {
        // Pinning has to wait until the chart is complete. cdk8s validates the whole app before
        // rendering any object, in every synth path (App.synth, synthYaml, Chart.toJson,
        // Testing.synth), so this is the last moment before rendering; prepare() is idempotent.
        return oncePerSynth(this, () => {
          this.prepare();
          return this.objects().flatMap((o) => this.check(o));
        });
      },
    });
  }

  /** Pins every pod template that does not ask for Windows to Linux nodes. */
  public pinLinux(): void {
    this.linuxPinning = true;
  }

  /**
   * Adds the Linux pinning patches to the objects that still need them. Idempotent: a pinned
   * template needs no further patch. Runs in validation; call it yourself only to read pinned
   * manifests through `ApiObject.toJson()` outside a synth.
   */
  public prepare(): void {
    if (!this.linuxPinning) return;
    for (const obj of this.objects()) {
      const location = podTemplateOf(obj.toJson());
      if (location && !targetsWindows(location.spec)) obj.addJsonPatch(...linuxPinningPatches(location));
    }
  }

  /** The chart's own API objects, at any depth, excluding those of nested charts. */
  private objects(): ApiObject[] {
    return this.chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && Chart.of(c) === this.chart);
  }

  private check(obj: ApiObject): string[] {
    const manifest = obj.toJson();
    const location = podTemplateOf(manifest);
    if (!location) return [];
    const where = `${obj.node.path} (${manifest.kind} ${manifest.metadata?.name})`;
    const format = (path: string, message: string, advice = '') => `${where} ${manifestPath(location, path)}: ${message}${advice}`;

    const errors = validatePodSpec(location.spec).map((v) => format(v.path, v.message, ' (the API server would reject this)'));
    if (targetsWindows(location.spec)) {
      errors.push(...windowsPodIssues(location.spec).map((v) => format(v.path, v.message)));
    } else if (tolerates(location.spec.tolerations) && !pinnedToLinux(location)) {
      errors.push(format('spec.nodeSelector', `tolerates the Windows node taint ${taintArgument(WINDOWS_NODE_TAINT)} but is not pinned to Linux, so it can land on a Windows node and crash-loop; add nodeSelector ${LABEL_OS}: linux or use HybridChart`));
    }
    return errors;
  }
}

function pinnedToLinux(location: PodTemplateLocation): boolean {
  const t = explicitOs(location.spec);
  return t.nodeSelectorOs === 'linux' || (t.affinityOs !== undefined && t.affinityOs.every((os) => os === 'linux'));
}

/** The patches that pin a non-Windows pod template to Linux; none when it already is. */
function linuxPinningPatches(location: PodTemplateLocation): JsonPatch[] {
  const patches: JsonPatch[] = [];
  const spec = location.spec;
  if (spec.os === undefined) patches.push(JsonPatch.add(`${location.pointer}/os`, { name: 'linux' }));
  if (spec.nodeSelector === undefined || spec.nodeSelector === null) {
    patches.push(JsonPatch.add(`${location.pointer}/nodeSelector`, { [LABEL_OS]: 'linux' }));
  } else if (spec.nodeSelector[LABEL_OS] === undefined) {
    patches.push(JsonPatch.add(`${location.pointer}/nodeSelector/${pointerSegment(LABEL_OS)}`, 'linux'));
  }
  return patches;
}
