import { WINDOWS_RELEASES, WindowsVersion } from '../platform/windows';

/** How a Windows container shares the node's kernel. */
export enum WindowsIsolation {
  /** Shares the host kernel: the image must be built for exactly the host's Windows release. */
  PROCESS = 'process',
  /** Runs in a utility VM: the image may be built for an older release than the host's. */
  HYPER_V = 'hyperv',
}

/** The LTSC release an image tag names, when it names one. */
export interface ImageRelease {
  /** The `ltscYYYY` token found in the tag. */
  readonly ltscTag: string;
  /** The Windows Server release it stands for; undefined for an LTSC release Kubernetes does not support (e.g. ltsc2016). */
  readonly version?: WindowsVersion;
}

const LTSC_TOKEN = /(?:^|[-_.])(ltsc\d{4})(?:$|[-_.])/;
const RELEASE_ORDER = [WindowsVersion.SERVER_2019, WindowsVersion.SERVER_2022, WindowsVersion.SERVER_2025];

/**
 * Reads the LTSC release from an image reference's tag: `ltsc2022`, `windowsservercore-ltsc2022`,
 * `4.8-windowsservercore-ltsc2022` all name Windows Server 2022. Digests and registry ports are
 * not mistaken for tags. Undefined when the tag names no LTSC release (multi-arch tags like `latest`).
 */
export function imageRelease(image: string): ImageRelease | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  if (colon < 0) return undefined;
  const match = LTSC_TOKEN.exec(withoutDigest.slice(colon + 1).toLowerCase());
  if (!match) return undefined;
  const ltscTag = match[1];
  const version = RELEASE_ORDER.find((v) => WINDOWS_RELEASES[v].ltscTag === ltscTag);
  return { ltscTag, version };
}

/**
 * Why an image cannot run on a host of the given release, or undefined when it can (or when the
 * tag names no LTSC release, in which case a multi-arch manifest is assumed).
 * Process isolation needs an exact match; Hyper-V isolation accepts an image up to the host's release.
 */
export function imageIncompatibility(image: string, host: WindowsVersion, isolation: WindowsIsolation): string | undefined {
  const release = imageRelease(image);
  if (!release) return undefined;
  const hostTag = WINDOWS_RELEASES[host].ltscTag;
  if (!release.version) return unsupportedRelease(image, hostTag);
  if (isolation === WindowsIsolation.PROCESS && release.version !== host) {
    return `image ${image} is built for ${release.ltscTag} but process isolation on Windows Server ${host} (build ${WINDOWS_RELEASES[host].build}) needs ${hostTag}; use the ${hostTag} tag, or Hyper-V isolation`;
  }
  if (isolation === WindowsIsolation.HYPER_V && RELEASE_ORDER.indexOf(release.version) > RELEASE_ORDER.indexOf(host)) {
    const allowed = RELEASE_ORDER.slice(0, RELEASE_ORDER.indexOf(host) + 1).map((v) => WINDOWS_RELEASES[v].ltscTag).join(' or ');
    return `image ${image} is built for ${release.ltscTag}, newer than the Windows Server ${host} host; Hyper-V isolation runs only images up to the host's release: use ${allowed}`;
  }
  return undefined;
}

/** Why an image names an LTSC release no Windows node can run (e.g. ltsc2016), or undefined. */
export function unsupportedRelease(image: string, use?: string): string | undefined {
  const release = imageRelease(image);
  if (!release || release.version) return undefined;
  const supported = RELEASE_ORDER.map((v) => WINDOWS_RELEASES[v].ltscTag).join(', ');
  return `image ${image} names ${release.ltscTag}, a release Kubernetes does not support on Windows nodes; use an image tagged ${use ?? `with one of ${supported}`}`;
}
