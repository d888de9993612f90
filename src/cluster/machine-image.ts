/** The AMI a group of machines boots from. */
export class MachineImage {
  /** A pinned AMI id, e.g. `ami-0fa91bc90632c73c9`. */
  public static id(amiId: string): MachineImage {
    return new MachineImage(amiId);
  }

  private constructor(public readonly amiId: string) {}
}
