/** What the checks need to know about an EC2 instance type. */
export interface InstanceTypeInfo {
  readonly arch: 'amd64' | 'arm64';
  /** Memory in GiB, when the family is one whose sizes are regular enough to know it. */
  readonly memoryGiB?: number;
}

// Burstable families do not follow the per-vCPU ratio of the others.
const BURSTABLE_GIB: Readonly<Record<string, number>> = {
  nano: 0.5, micro: 1, small: 2, medium: 4, large: 8, xlarge: 16, '2xlarge': 32,
};
// GiB per vCPU of the regular families.
const GIB_PER_VCPU: Readonly<Record<string, number>> = { c: 2, m: 4, r: 8, x: 16, z: 8 };

function vcpus(size: string): number | undefined {
  if (size === 'medium') return 1;
  if (size === 'large') return 2;
  if (size === 'xlarge') return 4;
  const m = /^(\d+)xlarge$/.exec(size);
  return m ? Number(m[1]) * 4 : undefined;
}

/**
 * Architecture and memory of an instance type, from its name (`m7g.large`, `t3.xlarge`,
 * `c7i-flex.2xlarge`). Graviton (arm64) families carry a `g` after the generation number
 * (`t4g`, `m7g`, `c6gn`, `x2gd`, `im4gn`) or are `a1`.
 */
export function describeInstanceType(instanceType: string): InstanceTypeInfo | undefined {
  const m = /^([a-z]+)(\d+)([a-z-]*)\.([a-z0-9]+)$/.exec(instanceType);
  if (!m) return undefined;
  const [, series, , suffix, size] = m;
  const arch = series === 'a' || suffix.startsWith('g') ? 'arm64' : 'amd64';
  if (series === 't') return { arch, memoryGiB: BURSTABLE_GIB[size] };
  const ratio = GIB_PER_VCPU[series];
  const cpus = vcpus(size);
  return { arch, memoryGiB: ratio !== undefined && cpus !== undefined ? ratio * cpus : undefined };
}
