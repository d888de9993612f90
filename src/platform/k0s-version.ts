import { HybridConfigError } from '../core/errors';

/**
 * A k0s release in the `vX.Y.Z+k0s.N` form that k0s and k0smotron use (k0s
 * `docs/releases.md`: the Kubernetes version plus `+k0s.N`). Numbers have no leading zeros, as
 * in SemVer 2.0.0 §2, so `v1.034.2+k0s.0` is refused rather than read as 1.34.
 */
export class K0sVersion {
  /** The one fix for a version of another form. */
  public static readonly FIX = 'write it like "v1.34.10+k0s.0"';

  private static readonly PATTERN = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)\+k0s\.(0|[1-9]\d*)$/;

  /** Parses `vX.Y.Z+k0s.N`; throws a `HybridConfigError` naming the value for anything else. */
  public static of(text: string): K0sVersion {
    const version = K0sVersion.parse(text);
    if (!version) throw new HybridConfigError('K0sVersion', K0sVersion.problem(text)!, K0sVersion.FIX);
    return version;
  }

  /** Parses `vX.Y.Z+k0s.N`; undefined for anything else (`1.34.2`, `v1.34.2`, `v1.34.2-k0s.0`). */
  public static parse(text: string): K0sVersion | undefined {
    const m = typeof text === 'string' ? K0sVersion.PATTERN.exec(text) : null;
    return m ? new K0sVersion(text, [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]) : undefined;
  }

  /** Why `text` is not a k0s version, or undefined when it is one. */
  public static problem(text: unknown): string | undefined {
    return K0sVersion.parse(text as string) ? undefined : `k0s version ${JSON.stringify(text)} is not of the form vX.Y.Z+k0s.N`;
  }

  /** The version as written, e.g. `v1.34.2+k0s.0`. */
  public readonly text: string;
  private readonly parts: readonly number[];

  private constructor(text: string, parts: readonly number[]) {
    this.text = text;
    this.parts = parts;
  }

  /** The Kubernetes minor version (34 for v1.34.2+k0s.0). */
  public get minor(): number {
    return this.parts[1];
  }

  /** `major.minor.patch`, without the `v` and the k0s suffix (k0sproject/version `Core()`). */
  public get core(): string {
    return this.parts.slice(0, 3).join('.');
  }

  /** The Kubernetes major version. */
  public get major(): number {
    return this.parts[0];
  }

  /** Negative, zero or positive as this version is older, equal or newer than `other`. */
  public compare(other: K0sVersion): number {
    for (let i = 0; i < this.parts.length; i++) {
      if (this.parts[i] !== other.parts[i]) return this.parts[i] - other.parts[i];
    }
    return 0;
  }

  /** The version as written, e.g. `v1.34.2+k0s.0`. */
  public toString(): string {
    return this.text;
  }
}

/**
 * k0s releases k0smotron's K0sControlPlane webhook refuses, by core version, with the release to
 * use instead (k0smotron v2.1.0 api/controlplane/v1beta2/k0s_controlplane_webhook.go,
 * denyIncompatibleK0sVersions).
 */
export const K0SMOTRON_REFUSED_CONTROL_PLANE_VERSIONS: Readonly<Record<string, string>> = { '1.31.1': 'v1.31.2+k0s.0 or newer' };
