/**
 * The Kubernetes minors whose API schemas the schema check knows (src/generated/k8s-schemas.ts,
 * `npm run import`): the minors of the EKS calendar this library supports (src/platform/eks.ts),
 * oldest first. Kept here, apart from the generated data, so that reading the list loads none of it.
 */
export const KUBERNETES_MINORS: readonly string[] = ['1.29', '1.30', '1.31', '1.32', '1.33', '1.34', '1.35'];

/** The minor checked when none is named: the newest the library supports. */
export const DEFAULT_KUBERNETES_VERSION = KUBERNETES_MINORS[KUBERNETES_MINORS.length - 1];

/**
 * The minor of a Kubernetes version as users write it (`1.34`, `v1.34.2`, `1.34.2-eks-1`,
 * `v1.34.10+k0s.0`), when its schema is known; undefined otherwise.
 */
export function kubernetesMinorOf(version: string): string | undefined {
  const m = /^v?1\.(\d{1,3})(?:\.\d+)?(?:[-+].*)?$/.exec(version.trim());
  const minor = m ? `1.${Number(m[1])}` : undefined;
  return minor !== undefined && KUBERNETES_MINORS.includes(minor) ? minor : undefined;
}
