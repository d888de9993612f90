import { Construct } from 'constructs';
import { amiIdProblem } from '../platform/aws';
import { Architecture } from '../platform/instance-type';
import { WindowsEdition, WindowsVersion } from '../platform/windows';
import { fail } from '../core/errors';
import { choice, data, list, optional, propsSpec, text } from '../core/props-spec';
import { DataAwsSsmParameter } from '../terraform/providers/aws';

/** Ubuntu LTS releases Canonical publishes amd64 AMIs for, used for the control plane and Linux workers. */
export enum UbuntuRelease {
  /** Ubuntu 22.04 LTS (Jammy Jellyfish). */
  JAMMY_22_04 = '22.04',
  /** Ubuntu 24.04 LTS (Noble Numbat). */
  NOBLE_24_04 = '24.04',
}

/** One Windows Server image: a version and an installation option. */
export interface WindowsImage {
  /** Windows Server release. */
  readonly version: WindowsVersion;
  /** Installation option: Core or Full (Desktop Experience). */
  readonly edition: WindowsEdition;
}

/**
 * AWS's public SSM parameter holding the latest English Windows Server AMI of a version and edition.
 * @internal
 */
export function windowsAmiParameter(image: WindowsImage): string {
  return `/aws/service/ami-windows-latest/Windows_Server-${image.version}-English-${image.edition}-Base`;
}

/**
 * Canonical's public SSM parameter for the current Ubuntu server amd64 AMI. 22.04 is published on
 * gp2 volumes, 24.04 and later on gp3.
 * @internal
 */
export function ubuntuAmiParameter(release: UbuntuRelease): string {
  const volume = release === UbuntuRelease.JAMMY_22_04 ? 'ebs-gp2' : 'ebs-gp3';
  return `/aws/service/canonical/ubuntu/server/${release}/stable/current/amd64/hvm/${volume}/ami-id`;
}

/** Props of `ClusterImages`: which images to look up, or pin. */
export interface ClusterImagesProps {
  /**
   * Ubuntu release for the control plane and Linux workers.
   * @default UbuntuRelease.NOBLE_24_04
   */
  readonly linux?: UbuntuRelease;
  /**
   * A fixed Linux AMI instead of the SSM lookup (e.g. a CAPA-built image or a pinned release).
   * @default - the latest image of `linux`
   */
  readonly linuxAmiId?: string;
  /**
   * Architecture of a pinned `linuxAmiId` (the lookup is always Canonical's amd64 image). It goes
   * to the cluster with the hand-off, which refuses instance types of the other architecture.
   * @default Architecture.AMD64
   */
  readonly linuxAmiArchitecture?: Architecture;
  /**
   * Windows Server images to look up.
   * @default - Windows Server 2022 Core
   */
  readonly windows?: readonly WindowsImage[];
  /**
   * Fixed Windows AMIs by version and edition. Each one replaces the lookup of that image and
   * adds it when it is not in `windows`.
   * @default - none
   */
  readonly windowsAmiIds?: Partial<Record<WindowsVersion, Partial<Record<WindowsEdition, string>>>>;
}

const AMI_ID = text({ max: 64, form: 'an AMI id', example: 'ami-0123456789abcdef0' });
const isObject = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The spec of `ClusterImagesProps`, named `images.<prop>` as the stack takes them; the construct
 * judges the AMI ids and the Windows images.
 * @internal
 */
export const CLUSTER_IMAGES_PROPS = propsSpec<ClusterImagesProps>('ClusterImagesProps', {
  linux: optional(choice(UbuntuRelease, 'UbuntuRelease')),
  linuxAmiId: optional(AMI_ID),
  linuxAmiArchitecture: optional(choice(Architecture, 'Architecture')),
  windows: optional(list(data('a Windows image { version, edition }', isObject, 'give { version: WindowsVersion.SERVER_2022, edition: WindowsEdition.CORE }'))),
  windowsAmiIds: optional(data('a map of WindowsVersion to WindowsEdition to AMI id', isObject, 'give e.g. { [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: "ami-0123456789abcdef0" } }')),
});

/** A resolved AMI id (a lookup token or a pinned id) for one Windows image. */
export interface WindowsAmi extends WindowsImage {
  /** The AMI id: a lookup token or the pinned id. */
  readonly amiId: string;
}

/**
 * The AMIs the cluster's machines boot: one Linux image and the requested Windows images, each
 * through AWS's public SSM parameters (always the current patched release) unless pinned.
 */
export class ClusterImages extends Construct {
  /** The Linux AMI id: a lookup token or the pinned id. */
  public readonly linuxAmiId: string;
  /** Architecture of `linuxAmiId`. */
  public readonly linuxAmiArchitecture: Architecture;
  /** In the order requested, without duplicates. */
  public readonly windowsAmis: readonly WindowsAmi[];

  public constructor(scope: Construct, id: string, given?: ClusterImagesProps) {
    super(scope, id);
    const props = CLUSTER_IMAGES_PROPS.parse(this.node.path, given, 'images.');
    const pinned = props.windowsAmiIds ?? {};
    // The shared AMI value check, which lets deploy-time tokens (another data source's id) through.
    const checkAmi = (prop: string, value: string): string => {
      const problem = amiIdProblem(value);
      if (problem) fail(this, `${prop}: ${problem}`, 'give ami- and 8 or 17 hex digits, e.g. ami-0123456789abcdef0');
      return value;
    };

    this.linuxAmiId = props.linuxAmiId !== undefined
      ? checkAmi('images.linuxAmiId', props.linuxAmiId)
      : this.lookup('Linux', ubuntuAmiParameter(props.linux ?? UbuntuRelease.NOBLE_24_04));
    if (props.linuxAmiArchitecture !== undefined && props.linuxAmiId === undefined) {
      fail(this, `images.linuxAmiArchitecture ${props.linuxAmiArchitecture} without images.linuxAmiId: the lookup is always Canonical's amd64 image`, 'pin linuxAmiId too, or drop linuxAmiArchitecture');
    }
    this.linuxAmiArchitecture = props.linuxAmiArchitecture ?? Architecture.AMD64;

    const requested: WindowsImage[] = [...(props.windows ?? [{ version: WindowsVersion.SERVER_2022, edition: WindowsEdition.CORE }])];
    for (const [version, editions] of Object.entries(pinned) as [WindowsVersion, Partial<Record<WindowsEdition, string>>][]) {
      for (const edition of Object.keys(editions ?? {}) as WindowsEdition[]) requested.push({ version, edition });
    }
    const seen = new Set<string>();
    const amis: WindowsAmi[] = [];
    for (const image of requested) {
      if (!Object.values(WindowsVersion).includes(image.version) || !Object.values(WindowsEdition).includes(image.edition)) {
        fail(this, `images.${(props.windows ?? []).includes(image) ? 'windows' : 'windowsAmiIds'}: Windows image ${JSON.stringify(image)} is not supported`,
          `use a WindowsVersion (${Object.values(WindowsVersion).join(', ')}) and a WindowsEdition (${Object.values(WindowsEdition).join(', ')})`);
      }
      const key = `${image.version}-${image.edition}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const fixed = pinned[image.version]?.[image.edition];
      amis.push({
        ...image,
        amiId: fixed !== undefined
          ? checkAmi(`images.windowsAmiIds.${key.replace('-', '.')}`, fixed)
          : this.lookup(`Windows${image.version}${image.edition}`, windowsAmiParameter(image)),
      });
    }
    this.windowsAmis = amis;
  }

  /**
   * `insecure_value` rather than `value`: the provider marks `value` sensitive, and Terraform then
   * refuses to write it to an output. These public parameters are plain strings, not secrets.
   */
  private lookup(id: string, name: string): string {
    return new DataAwsSsmParameter(this, id, { name }).insecureValue;
  }
}
