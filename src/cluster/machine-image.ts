import { AMI_OWNERS, UBUNTU_2404_NAME_PATTERN, windowsServerNamePattern } from '../platform/images';
import { WindowsEdition, WindowsVersion } from '../platform/windows';

/**
 * The AMI a group of machines boots from: a pinned id, or a lookup that CAPA resolves when it
 * creates each machine (the newest available image of the owner whose name matches the pattern,
 * for the instance type's architecture: CAPA `pkg/cloud/services/ec2/ami.go`, `DefaultAMILookup`).
 */
export class MachineImage {
  /** A pinned AMI id, e.g. `ami-0fa91bc90632c73c9`. */
  public static id(amiId: string): MachineImage {
    return new MachineImage(amiId, undefined);
  }

  /**
   * The newest AMI of `owner` (an account id) whose name matches `namePattern` (`*` wildcards),
   * looked up by CAPA per machine. New machines pick up newer images by themselves; pin an id
   * where every machine must boot the same bits.
   */
  public static lookup(owner: string, namePattern: string): MachineImage {
    return new MachineImage(undefined, { owner, namePattern });
  }

  /** Canonical's newest Ubuntu 24.04 LTS server image: stock cloud-init, no Kubernetes baked in (k0s brings its own). */
  public static ubuntu2404(): MachineImage {
    return MachineImage.lookup(AMI_OWNERS.canonical, UBUNTU_2404_NAME_PATTERN);
  }

  /** Amazon's newest English Windows Server base image of a release and edition (EC2Launch v2 from 2022 on). */
  public static windowsServer(version: WindowsVersion, edition: WindowsEdition): MachineImage {
    return MachineImage.lookup(AMI_OWNERS.amazonWindows, windowsServerNamePattern(version, edition));
  }

  private constructor(
    /** The pinned AMI id, when this is one. */
    public readonly amiId: string | undefined,
    /** The lookup, when this is one. */
    public readonly lookupFilter: { readonly owner: string; readonly namePattern: string } | undefined,
  ) {}

  /** Whether the image is a pinned id (a lookup names no image before CAPA resolves it). */
  public get isPinned(): boolean {
    return this.amiId !== undefined;
  }
}
