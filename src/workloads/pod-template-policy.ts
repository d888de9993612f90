import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { CLUSTER_SCOPED_KINDS } from '../platform/cluster-scope';
import { oncePerSynth } from '../core/synth-scope';
import { LABEL_OS } from '../platform/windows';
import { WindowsPlatform } from '../platform/support';
import { addRenderedPatch, rendered } from '../core/render';
import { ManifestSource } from '../rules/engine/graph';
import { adviseManifests, platformRules, validateManifests } from '../rules/index';
import { PodTemplateLocation, osIntent, podTemplatesOf, pointerSegment } from '../rules/pods/pod-template';
import { selectedPodsOs, targetsEveryNode } from '../rules/pods/load-balancer-rules';
import { LB_ANNOTATIONS, LINUX_TARGET_NODE_LABELS } from '../platform/load-balancer';
import { WORKLOAD_RULES } from '../rules/pods/workload-rules';
import { SCHEMA_RULE } from '../rules/schema/rule';

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
  private linuxTargets = false;
  private platform?: WindowsPlatform;

  private constructor(private readonly chart: Chart) {
    super(chart, ID);
    this.node.addValidation({
      validate: () => {
        // Pinning has to wait until the chart is complete. cdk8s validates the whole app before
        // rendering any object, in every synth path (App.synth, synthYaml, Chart.toJson,
        // Testing.synth), so this is the last moment before rendering; prepare() is idempotent.
        return oncePerSynth(this, () => {
          this.prepare();
          return this.check();
        });
      },
    });
  }

  /** Pins every pod template that does not ask for an OS to Linux. */
  public pinLinux(): void {
    this.linuxPinning = true;
  }

  /**
   * Keeps the chart's LoadBalancer Services of Linux pods off Windows nodes: each one that an AWS
   * load balancer would serve in instance mode with every node as a target gets
   * `service.beta.kubernetes.io/aws-load-balancer-target-node-labels: kubernetes.io/os=linux`
   * (`LOAD_BALANCER_TARGETS_RULE`). A Service in IP mode, with target node labels of its own, of
   * another load balancer class, or selecting Windows pods or pods outside the chart is left as it is.
   */
  public targetLinuxNodes(): void {
    this.linuxTargets = true;
  }

  /**
   * Also checks what the chart's pod templates need on `platform` (`platformRules`): Windows pods
   * tolerate the taint its Windows nodes carry (`windowsNodeTaint`), and on `WindowsPlatform.EKS` a
   * Windows pod gets an address only when its nodeSelector names Windows (`eksPodIssues`). The chart's `WindowsPod`s tolerate the platform's Windows taint
   * (`windowsNodeTaint`: GKE's own on `WindowsPlatform.GKE`); call it before adding them.
   */
  public checkFor(platform: WindowsPlatform): void {
    this.platform = platform;
  }

  /** The platform the chart is for (`checkFor`), if it says. */
  public get targetPlatform(): WindowsPlatform | undefined {
    return this.platform;
  }

  /**
   * Adds the Linux pinning patches to the templates that ask for no OS. Idempotent: a pinned
   * template needs no further patch. Runs in validation; call it yourself only to read pinned
   * manifests through `ApiObject.toJson()` outside a synth.
   */
  public prepare(): void {
    this.dropNamespacesOfClusterScopedObjects();
    if (!this.linuxPinning) return;
    const runtimeClassOs = runtimeClassOsOf(this.chart);
    for (const obj of this.objects()) {
      const patches = podTemplatesOf(rendered(obj))
        .filter((location) => osIntent(location.spec, runtimeClassOs).os === 'open')
        .flatMap(linuxPinningPatches);
      if (patches.length > 0) addRenderedPatch(obj, ...patches);
    }
    if (this.linuxTargets) this.annotateLoadBalancers();
  }

  /** The target-node-labels annotation on the Services `targetLinuxNodes` describes. */
  private annotateLoadBalancers(): void {
    const sources = this.objects().map((o) => ({ manifest: rendered(o) }));
    const runtimeClassOs = runtimeClassOsOf(this.chart);
    for (const obj of this.objects()) {
      const service = rendered(obj);
      if (!targetsEveryNode(service)) continue;
      const pods = selectedPodsOs(service, sources, runtimeClassOs);
      if (pods === undefined || !pods.every((os) => os === 'linux')) continue;
      // Labels the Service already selects nodes by stay: the nodes must have them all.
      const own = service.metadata?.annotations?.[LB_ANNOTATIONS.targetNodeLabels];
      const value = typeof own === 'string' && own.trim() !== '' ? `${own},${LINUX_TARGET_NODE_LABELS}` : LINUX_TARGET_NODE_LABELS;
      addRenderedPatch(obj, service.metadata?.annotations
        ? JsonPatch.add(`/metadata/annotations/${pointerSegment(LB_ANNOTATIONS.targetNodeLabels)}`, value)
        : JsonPatch.add('/metadata/annotations', { [LB_ANNOTATIONS.targetNodeLabels]: value }));
    }
  }

  /**
   * Cluster-scoped objects (`CLUSTER_SCOPED_KINDS`, and kinds the app's CustomResourceDefinitions
   * declare `scope: Cluster`) that carry the chart's namespace, which cdk8s gives every object of
   * a namespaced chart: they are written without it.
   */
  private dropNamespacesOfClusterScopedObjects(): void {
    const namespace = this.chart.namespace;
    if (namespace === undefined) return;
    const clusterScoped = clusterScopedKinds(this.chart);
    for (const obj of this.objects()) {
      const manifest = rendered(obj);
      if (clusterScoped.has(String(manifest.kind)) && manifest.metadata?.namespace === namespace) {
        addRenderedPatch(obj, JsonPatch.remove('/metadata/namespace'));
      }
    }
  }

  /**
   * What the chart's pod templates should have but need not (`windowsPodAdvice`: `spec.os.name` and
   * resource requests on Windows pods), one line each, from the same rules as its validation.
   * Never part of validation: upstream manifests such as Calico's Windows DaemonSet are valid
   * without them.
   */
  public advice(): string[] {
    const { sources, paths, rules } = this.judged();
    return adviseManifests(sources, { rules, platform: this.platform })
      .filter((v) => v.path !== undefined && paths.has(v.path))
      .map((v) => `${v.path} (${v.kind} ${v.name}) ${v.message}`);
  }

  /**
   * The API objects this policy guards: those of its chart, at any depth, and of plain charts
   * nested in it; a nested chart with a policy of its own guards its objects itself.
   */
  private objects(): ApiObject[] {
    return this.chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && guardingChart(c) === this.chart);
  }

  /**
   * The workload rules (`WORKLOAD_RULES`, and the platform's: `platformRules`) over this chart's
   * objects, beside the app's RuntimeClasses (cluster-scoped, so another chart's count), as
   * validation messages.
   */
  private check(): string[] {
    const { sources, paths, rules } = this.judged();
    return validateManifests(sources, { rules, platform: this.platform })
      .filter((v) => v.path !== undefined && paths.has(v.path))
      .map((v) => `${v.path} (${v.kind} ${v.name}) ${v.message}`);
  }

  /** This chart's objects beside the app's RuntimeClasses, gMSA specs and RBAC objects, the paths of its own, and the rules for its platform. */
  private judged() {
    const own = this.objects().map((o) => ({ manifest: rendered(o), path: o.node.path }));
    const paths = new Set(own.map((o) => o.path));
    // The schema check too: every object the chart writes passes its kind's schema at synth.
    const rules = [...WORKLOAD_RULES, SCHEMA_RULE, ...platformRules(this.platform)];
    return { sources: [...own, ...appContextOf(this.chart).filter((r) => !paths.has(r.path!))], paths, rules };
  }
}

/** The chart whose policy guards an object: the nearest chart above it that has a policy. */
function guardingChart(obj: ApiObject): Chart | undefined {
  for (let scope: IConstruct | undefined = Chart.of(obj); scope; scope = scope.node.scope) {
    if (Chart.isChart(scope) && scope.node.tryFindChild(ID) instanceof PodTemplatePolicy) return scope;
  }
  return undefined;
}

/** The built-in cluster-scoped kinds and those the app's CustomResourceDefinitions declare cluster-scoped. */
function clusterScopedKinds(chart: Chart): ReadonlySet<string> {
  return oncePerSynth(CLUSTER_SCOPED, () => {
    const kinds = new Set(CLUSTER_SCOPED_KINDS);
    for (const c of chart.node.root.node.findAll()) {
      if (c instanceof ApiObject && c.kind === 'CustomResourceDefinition') {
        const spec = rendered(c).spec ?? {};
        if (spec.scope === 'Cluster' && typeof spec.names?.kind === 'string') kinds.add(spec.names.kind);
      }
    }
    return kinds;
  });
}

/** Key of the app's cluster-scoped kinds in `oncePerSynth`. */
const CLUSTER_SCOPED = {};

/**
 * What the workload rules read beside a chart's pod templates wherever it is in the app:
 * RuntimeClasses (the OS and tolerations they add), gMSA credential specs and the RBAC objects
 * that let service accounts use them.
 */
const APP_CONTEXT_KINDS: ReadonlySet<string> = new Set(['RuntimeClass', 'GMSACredentialSpec', 'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** The app's objects of `APP_CONTEXT_KINDS` as written, read once per synth call for the whole app, not once per chart. */
function appContextOf(chart: Chart): ManifestSource[] {
  return oncePerSynth(APP_CONTEXT, () => chart.node.root.node.findAll()
    .filter((c): c is ApiObject => c instanceof ApiObject && APP_CONTEXT_KINDS.has(c.kind))
    .map((c) => ({ manifest: rendered(c), path: c.node.path })));
}

/** The app's RuntimeClasses as written. */
function runtimeClassesOf(chart: Chart): ManifestSource[] {
  return appContextOf(chart).filter((s) => s.manifest.kind === 'RuntimeClass');
}

/** Key of the app context objects in `oncePerSynth`. */
const APP_CONTEXT = {};

/** RuntimeClass name -> the OS its `scheduling.nodeSelector` picks, for the pinning. */
function runtimeClassOsOf(chart: Chart): (name: string) => string | undefined {
  const byName = new Map(runtimeClassesOf(chart).map((r) => [r.manifest.metadata?.name, r.manifest.scheduling?.nodeSelector?.[LABEL_OS]]));
  return (name) => (typeof byName.get(name) === 'string' ? byName.get(name) : undefined);
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
