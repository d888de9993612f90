/**
 * Cluster API's rolling-update arithmetic for MachineDeployments (cluster-api v1.14.0).
 * Defaults: core/webhooks/admission/machinedeployment.go sets an absent maxSurge to 1 and an
 * absent maxUnavailable to 0. Resolution: core/reconcilers/machinedeployment/mdutil/util.go,
 * ResolveFenceposts: a percentage of replicas, maxSurge rounded up and maxUnavailable down, and
 * maxUnavailable 1 when both resolve to 0; MaxUnavailable is 0 for 0 replicas and at most replicas.
 */

/** An absolute number or a whole percentage (`"25%"`), as the MachineDeployment takes them. */
export type IntOrPercent = number | string;

/** CAPI v1.14's defaults for an absent maxSurge and maxUnavailable. */
export const CAPI_ROLLOUT_DEFAULTS = { maxSurge: 1, maxUnavailable: 0 } as const;

/** The machines a rollout may add above replicas and take away below it, as CAPI resolves them. */
export interface ResolvedRollout {
  readonly maxSurge: number;
  readonly maxUnavailable: number;
}

/**
 * A whole percentage (`"25%"`) as its number, or undefined for any other text: apimachinery's
 * IsValidPercent (pkg/util/validation), which both the API server and CAPI read maxSurge and
 * maxUnavailable with.
 */
export function wholePercent(value: string): number | undefined {
  return /^[0-9]+%$/.test(value) ? Number(value.slice(0, -1)) : undefined;
}

function scaled(value: IntOrPercent, replicas: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const percent = wholePercent(value);
  if (percent === undefined) throw new Error(`"${value}" is neither a number nor a whole percentage`);
  const exact = percent * replicas / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** maxSurge and maxUnavailable as CAPI v1.14 computes them for `replicas` machines. */
export function resolveRollout(replicas: number, maxSurge: IntOrPercent = CAPI_ROLLOUT_DEFAULTS.maxSurge,
  maxUnavailable: IntOrPercent = CAPI_ROLLOUT_DEFAULTS.maxUnavailable): ResolvedRollout {
  const surge = scaled(maxSurge, replicas, true);
  let unavailable = scaled(maxUnavailable, replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { maxSurge: surge, maxUnavailable: replicas === 0 ? 0 : Math.min(unavailable, replicas) };
}

/**
 * How k0smotron v2.1.0 replaces controllers (internal/controller/controlplane/scale.go): only a
 * k0s version change is applied in place, and only under `InPlace`
 * (reconcileInplaceK0sVersionUpdate); every other change of `k0sConfigSpec` or of the machine
 * template, and a version change under another strategy, replaces machines: isNeededScaleUp adds
 * a controller while the machines stay within calculateMaxSurge, which is `replicas` only for
 * `RecreateDeleteFirst` with 3 replicas or more and `replicas + 1` otherwise, before isNeededScaleDown
 * removes an old one. On fixed hosts that extra controller waits for a host forever, and
 * preflightChecks (isLatestMachineReady) then holds every later change: reverting does not help.
 */
export type ControlPlaneChange = 'version' | 'other';

/** Whether replacing controllers under `strategy` adds one above `replicas` first (calculateMaxSurge). */
export function controlPlaneSurges(strategy: string, replicas: number): boolean {
  return !(strategy === 'RecreateDeleteFirst' && replicas >= 3);
}

/** Whether a change of this kind needs a host beyond `replicas` under `strategy`. */
export function controlPlaneChangeNeedsSpare(strategy: string, replicas: number, change: ControlPlaneChange): boolean {
  if (change === 'version' && strategy === 'InPlace') return false;
  return controlPlaneSurges(strategy, replicas);
}

/**
 * Why a control plane of `replicas` controllers on `hosts` fixed hosts wedges on some change under
 * `strategy`, or undefined. One controller on one host can take only in-place version changes
 * (no strategy replaces the only controller without a second host), so `InPlace` is accepted there
 * and documented; everywhere else every change must go through.
 */
export function controlPlaneRolloutProblem(strategy: string, replicas: number, hosts: number): { what: string; fix: string } | undefined {
  if (hosts > replicas) return undefined;
  if (replicas === 1 && strategy === 'InPlace') return undefined;
  const wedges: ControlPlaneChange[] = (['version', 'other'] as const).filter((c) => controlPlaneChangeNeedsSpare(strategy, replicas, c));
  if (wedges.length === 0) return undefined;
  return {
    what: `updateStrategy ${strategy} rolls out ${wedges.length === 2 ? 'every change' : 'every change but a k0s version'} by creating a controller before it deletes one `
      + `(k0smotron v2.1.0 scale.go: up to ${replicas + 1} machines), and there are ${hosts} host${hosts === 1 ? '' : 's'} for ${replicas} replica${replicas === 1 ? '' : 's'}: `
      + 'the new controller waits for a host forever, and every later change waits behind it (reverting does not help)',
    fix: replicas >= 3 ? 'use RecreateDeleteFirst (it deletes a controller first: one fewer during each replacement), or list a spare host'
    : replicas === 1 ? 'use InPlace (version changes only without a spare host), or list a spare host' : 'list a spare host',
  };
}

/**
 * How long CAPI may drain a pool's node before it deletes the machine anyway: 15 minutes. CAPI's
 * default is none ("The default value is 0, meaning that the node can be drained without any time
 * limitations": cluster-api v1.14 MachineDeployment `spec.template.spec.deletion.nodeDrainTimeoutSeconds`),
 * so a PodDisruptionBudget that never allows an eviction, or a node that no longer answers, holds
 * a rollout, a scale-down or a health check's remediation forever.
 */
export const NODE_DRAIN_TIMEOUT_SECONDS = 900;
