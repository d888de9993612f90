import { isUnresolvedToken } from '../core/tokens';

/** A CPU architecture, in Kubernetes' words (`kubernetes.io/arch`). */
export enum Architecture {
  /** x86-64 (Intel and AMD instance types); the only one Windows Server runs on in EC2. */
  AMD64 = 'amd64',
  /** 64-bit Arm (AWS Graviton instance types); Linux only. */
  ARM64 = 'arm64',
}

/** What the checks need to know about an EC2 instance type. */
export interface InstanceTypeInfo {
  /** The machine's CPU architecture. */
  readonly arch: Architecture;
  /**
   * Memory in GiB.
   * @default - unknown: checks that need it are skipped
   */
  readonly memoryGiB?: number;
  /**
   * vCPUs.
   * @default - unknown: an autoscaled pool must state its capacity
   */
  readonly vcpus?: number;
}

// EC2 instance type names: https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html
// (series letters, generation, options, `.`, size).
const NAME = /^([a-z]+)(\d+)([a-z]*(?:-flex)?)\.(nano|micro|small|medium|large|xlarge|\d+xlarge|metal(?:-\d+xl)?)$/;
const SERIES = new Set(['a', 'c', 'd', 'dl', 'f', 'g', 'gr', 'h', 'hpc', 'i', 'im', 'inf', 'is', 'm', 'mac', 'p', 'r', 'trn', 't', 'u', 'vt', 'x', 'z']);
// Options after the generation: processor (a AMD, g Graviton, i Intel) then b, d, e, n, q, z.
const OPTIONS = /^[agi]?[bdenqz]*(-flex)?$/;

// Burstable sizes do not follow the per-vCPU ratio of the other series.
const BURSTABLE_GIB: Readonly<Record<string, number>> = {
  nano: 0.5, micro: 1, small: 2, medium: 4, large: 8, xlarge: 16, '2xlarge': 32,
};
// Burstable vCPUs (EC2 instance types, general purpose: t3, t3a, t4g).
const BURSTABLE_VCPUS: Readonly<Record<string, number>> = {
  nano: 2, micro: 2, small: 2, medium: 2, large: 2, xlarge: 4, '2xlarge': 8,
};
// GiB per vCPU of the series whose sizes are regular (c5n and the x series are not).
const GIB_PER_VCPU: Readonly<Record<string, number>> = { a: 2, c: 2, m: 4, r: 8, z: 8 };

function vcpus(size: string): number | undefined {
  if (size === 'medium') return 1;
  if (size === 'large') return 2;
  if (size === 'xlarge') return 4;
  const m = /^(\d+)xlarge$/.exec(size);
  return m ? Number(m[1]) * 4 : undefined;
}

/**
 * An EC2 instance type, parsed once: its family and size, and the architecture and memory where
 * the family tells them. Graviton (arm64) families carry a `g` after the generation number
 * (`t4g`, `m7g`, `c6gn`, `im4gn`) or are `a1`/`mac2`.
 */
export class InstanceType {
  /**
   * Parses `family.size` (`m7i.large`, `c7i-flex.2xlarge`). Throws when the name is not of that
   * form, or when its family is unknown and `stated` does not give its architecture.
   */
  public static of(name: string, stated?: InstanceTypeInfo): InstanceType {
    const result = InstanceType.parse(name, stated);
    if (typeof result === 'string') throw new Error(result);
    return result;
  }

  /** Like `of`, but returns the reason instead of throwing. */
  public static parse(name: string, stated?: InstanceTypeInfo): InstanceType | string {
    if (isUnresolvedToken(name)) return new InstanceType(name, stated);
    const m = typeof name === 'string' ? NAME.exec(name) : null;
    if (!m) {
      return `instance type "${String(name)}" is not an EC2 instance type name (lower-case family, ".", size: e.g. m7i.large)`;
    }
    const [, series, generation, options, size] = m;
    if (!SERIES.has(series) || !OPTIONS.test(options)) {
      return stated
        ? new InstanceType(name, stated)
        : `instance type "${name}" is of a family this library does not know, so it cannot tell its architecture and memory`;
    }
    const arch = series === 'a' || (series === 'mac' && generation !== '1') || options.startsWith('g') ? Architecture.ARM64 : Architecture.AMD64;
    let memoryGiB: number | undefined;
    const cpuCount = series === 't' ? BURSTABLE_VCPUS[size] : vcpus(size);
    if (series === 't') memoryGiB = BURSTABLE_GIB[size];
    else if (!(series === 'c' && options.includes('n') && generation === '5')) {
      const ratio = GIB_PER_VCPU[series];
      const cpus = vcpus(size);
      memoryGiB = ratio !== undefined && cpus !== undefined ? ratio * cpus : undefined;
    }
    return new InstanceType(name, { arch: stated?.arch ?? arch, memoryGiB: stated?.memoryGiB ?? memoryGiB, vcpus: stated?.vcpus ?? cpuCount }, series);
  }

  /** The architecture, when known (always, except for deploy-time tokens without `stated`). */
  public readonly arch?: Architecture;
  /** Memory in GiB, when known. */
  public readonly memoryGiB?: number;
  /** vCPUs, when known. */
  public readonly vcpus?: number;

  /** The instance type's name, e.g. `m7i.large`. */
  public readonly name: string;
  private readonly series?: string;

  private constructor(name: string, info?: InstanceTypeInfo, series?: string) {
    this.name = name;
    this.series = series;
    this.arch = info?.arch;
    this.memoryGiB = info?.memoryGiB;
    this.vcpus = info?.vcpus;
  }

  /** Mac instances run macOS only (EC2 Mac AMIs). */
  public get isMac(): boolean {
    return this.series === 'mac';
  }

  /** The name as given, e.g. `m7i.large`. */
  public toString(): string {
    return this.name;
  }
}

/** Why a stated `InstanceTypeInfo` is not one (an architecture, and a positive memory when given), or undefined. */
export function instanceTypeInfoProblem(info: unknown): string | undefined {
  if (info === undefined) return undefined;
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return `is ${JSON.stringify(info)}, not { arch, memoryGiB }`;
  const { arch, memoryGiB } = info as Record<string, unknown>;
  if (!Object.values(Architecture).includes(arch as Architecture)) return `arch is ${JSON.stringify(arch)}; it is required, Architecture.AMD64 or Architecture.ARM64`;
  if (memoryGiB !== undefined && (typeof memoryGiB !== 'number' || !Number.isFinite(memoryGiB) || memoryGiB <= 0)) return `memoryGiB is ${String(memoryGiB)}, not a positive number of GiB`;
  const { vcpus: cpus } = info as Record<string, unknown>;
  if (cpus !== undefined && (!Number.isInteger(cpus) || (cpus as number) < 1)) return `vcpus is ${String(cpus)}, not a whole number of at least 1`;
  return undefined;
}

/** Windows Server reserves about 3.5 GiB for itself; below 8 GiB a node has too little left for pods. */
export const WINDOWS_MIN_MEMORY_GIB = 8;

/**
 * The one judgement of whether an EC2 instance type can run a Windows node: EC2 Mac runs macOS
 * only, Windows Server on EC2 is amd64 only, and below `WINDOWS_MIN_MEMORY_GIB` a node has too
 * little left for pods. Architecture and memory come from the family, else from what the props
 * stated (`instanceTypeInfo`); what neither tells is not judged.
 */
export function windowsInstanceTypeProblem(type: InstanceType): { readonly what: string; readonly fix: string } | undefined {
  const known = typeof InstanceType.parse(type.name) !== 'string';
  if (type.isMac) return { what: `instance type ${type} is an EC2 Mac, which runs macOS only`, fix: 'pick an x86 type such as m7i.large' };
  if (type.arch === Architecture.ARM64) {
    return known
      ? { what: `instance type ${type} is arm64 (AWS Graviton), and Windows Server on EC2 is amd64 only`, fix: `pick an x86 type such as ${amd64Sibling(type.name)}` }
      : { what: `instance type ${type} is stated to be arm64, and Windows Server on EC2 is amd64 only`, fix: 'pick an amd64 instance type' };
  }
  if (type.memoryGiB !== undefined && type.memoryGiB < WINDOWS_MIN_MEMORY_GIB) {
    return {
      what: `instance type ${type} ${known ? 'has' : 'is stated to have'} ${type.memoryGiB} GiB of memory; Windows workers need at least ${WINDOWS_MIN_MEMORY_GIB} GiB (the OS takes about 3.5)`,
      fix: 'pick a larger type, e.g. t3.large or m6i.large',
    };
  }
  return undefined;
}

/** The x86 type of the same shape as a Graviton one, for the message. */
function amd64Sibling(instanceType: string): string {
  const [family, size] = instanceType.split('.');
  if (family === 't4g') return `t3.${size}`;
  if (family === 'a1') return `m5.${size}`;
  return `${family.replace(/^([a-z]+\d+)g[a-z]*$/, '$1i')}.${size}`;
}
