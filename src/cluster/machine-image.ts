import { fail } from '../core/errors';
import type { PropKind } from '../core/props-spec';
import { show } from '../core/values';
import { AwsPartitionId } from '../platform/aws';
import { IMAGE_PUBLISHERS, ImagePublisher, UBUNTU_2404_NAME_PATTERN, windowsServerNamePattern } from '../platform/images';
import { WindowsEdition, WindowsVersion } from '../platform/windows';

/** What CAPA filters public images on: the owner account and the name (`*` wildcards). */
export interface ImageLookup {
  /** The owner's account id. */
  readonly owner: string;
  /** The image name, with `*` wildcards. */
  readonly namePattern: string;
}

/**
 * The AMI a group of machines boots from: a pinned id, or a lookup that CAPA resolves when it
 * creates each machine (the newest available image of the owner whose name matches the pattern,
 * for the instance type's architecture: CAPA `pkg/cloud/services/ec2/ami.go`, `DefaultAMILookup`).
 */
export class MachineImage {
  /** A pinned AMI id, e.g. `ami-0fa91bc90632c73c9`. */
  public static id(amiId: string): MachineImage {
    return new MachineImage(amiId, undefined, undefined);
  }

  /**
   * The newest AMI of `owner` (an account id) whose name matches `namePattern` (`*` wildcards),
   * looked up by CAPA per machine. New machines pick up newer images by themselves; pin an id
   * where every machine must boot the same bits.
   */
  public static lookup(owner: string, namePattern: string): MachineImage {
    return new MachineImage(undefined, undefined, { owner, namePattern });
  }

  /**
   * Canonical's newest Ubuntu 24.04 LTS server image: stock cloud-init, no Kubernetes baked in (k0s
   * brings its own). Canonical's account is known for the `aws` and `aws-us-gov` partitions.
   */
  public static ubuntu2404(): MachineImage {
    return new MachineImage(undefined, IMAGE_PUBLISHERS.canonical, { owner: undefined, namePattern: UBUNTU_2404_NAME_PATTERN });
  }

  /**
   * Amazon's newest English Windows Server base image of a release and edition (EC2Launch v2 from
   * 2022 on). Amazon's account is known for the `aws` partition only.
   */
  public static windowsServer(version: WindowsVersion, edition: WindowsEdition): MachineImage {
    return new MachineImage(undefined, IMAGE_PUBLISHERS.amazonWindows, { owner: undefined, namePattern: windowsServerNamePattern(version, edition) });
  }

  private constructor(
    /** The pinned AMI id, when this is one. */
    public readonly amiId: string | undefined,
    private readonly publisher: ImagePublisher | undefined,
    private readonly filter: { readonly owner: string | undefined; readonly namePattern: string } | undefined,
  ) {}

  /** Whether the image is a pinned id (a lookup names no image before CAPA resolves it). */
  public get isPinned(): boolean {
    return this.amiId !== undefined;
  }

  /** The name filter of a lookup; undefined for a pinned id. */
  public get namePattern(): string | undefined {
    return this.filter?.namePattern;
  }

  /**
   * The lookup in a partition (undefined for a pinned id): the publisher's account there, else its
   * commercial one, which finds nothing outside `aws` and which the `image-lookup` rule reports.
   */
  public lookupIn(partition: AwsPartitionId): ImageLookup | undefined {
    if (!this.filter) return undefined;
    return { owner: this.filter.owner ?? this.publisher?.owners[partition] ?? this.publisher!.owners.aws!, namePattern: this.filter.namePattern };
  }
}

/**
 * An `ami` prop as the constructs take it: a `MachineImage`, never the id as a plain string (which
 * would be read as an image of no id and no lookup) or another object; undefined passes through.
 * @internal
 */
export function machineImageProp(path: string, prop: string, value: unknown): MachineImage | undefined {
  if (value === undefined || value instanceof MachineImage) return value;
  const id = typeof value === 'string' ? value : undefined;
  fail(path, `${prop} is ${show(value)}, not a MachineImage`,
    id !== undefined && /^ami-/.test(id) ? `write MachineImage.id(${JSON.stringify(id)})` : 'write MachineImage.id(\'ami-…\') for a pinned image, or leave it out for the default lookup');
}

/**
 * The kind of an `ami` prop in a props spec: a `MachineImage`, refused as `machineImageProp` words it.
 * @internal
 */
export function machineImage(): PropKind<MachineImage> {
  return {
    parse: (at, value) => machineImageProp(at.path, at.prop, value)!,
    constraint: 'a MachineImage (`MachineImage.id`, `.lookup`, `.ubuntu2404`, `.windowsServer`)',
    edges: [MachineImage.id('ami-0123456789abcdef0'), 'ami-0123456789abcdef0', { amiId: 'ami-0123456789abcdef0' }],
  };
}
