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

function scaled(value: IntOrPercent, replicas: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) throw new Error(`"${value}" is neither a number nor a whole percentage`);
  const exact = Number(m[1]) * replicas / 100;
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
