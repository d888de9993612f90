/** A k0s release in the `vX.Y.Z+k0s.N` form that k0s and k0smotron use. */
export class K0sVersion {
  private static readonly PATTERN = /^v(\d+)\.(\d+)\.(\d+)\+k0s\.(\d+)$/;

  /** k0s releases before this one cannot run Windows workers under k0smotron. */
  public static readonly MIN_WINDOWS = K0sVersion.parse('v1.34.2+k0s.0')!;

  /** Parses `vX.Y.Z+k0s.N`; undefined for anything else (`1.34.2`, `v1.34.2`, `v1.34.2-k0s.0`). */
  public static parse(text: string): K0sVersion | undefined {
    const m = K0sVersion.PATTERN.exec(text);
    return m ? new K0sVersion(text, [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]) : undefined;
  }

  private constructor(public readonly text: string, private readonly parts: readonly number[]) {}

  /** Negative, zero or positive as this version is older, equal or newer than `other`. */
  public compare(other: K0sVersion): number {
    for (let i = 0; i < this.parts.length; i++) {
      if (this.parts[i] !== other.parts[i]) return this.parts[i] - other.parts[i];
    }
    return 0;
  }

  public toString(): string {
    return this.text;
  }
}
