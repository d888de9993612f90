import { RETIRED_WINDOWS_RELEASES, WINDOWS_RELEASES, WindowsVersion } from '../platform/windows';

/** How a Windows container shares the node's kernel. */
export enum WindowsIsolation {
  /** Shares the host kernel: the image must be built for exactly the host's Windows release. */
  PROCESS = 'process',
  /** Runs in a utility VM: the image may be built for an older release than the host's. */
  HYPER_V = 'hyperv',
}

/**
 * The Windows release an image tag names, when it names one.
 * @internal
 */
export interface ImageRelease {
  /** The release's LTSC tag (`ltsc2019` also for `1809` and `10.0.17763.x` tags), or the `ltscYYYY` found for an unsupported one. */
  readonly ltscTag: string;
  /** The Windows Server release it stands for; undefined for an LTSC release Kubernetes does not support (e.g. ltsc2016). */
  readonly version?: WindowsVersion;
  /** The channel of a retired release (`RETIRED_WINDOWS_RELEASES`), when the tag names one. */
  readonly retired?: string;
}

const RELEASE_ORDER = [WindowsVersion.SERVER_2019, WindowsVersion.SERVER_2022, WindowsVersion.SERVER_2025];

/**
 * The release one token of a tag names: `ltscYYYY`; `1809`, nanoserver's and the 2019 images'
 * name of Windows Server 2019; or a build tag `10.0.<build>[.<revision>]`. The forms Microsoft
 * publishes: `ltsc2022`, `windowsservercore-ltsc2022`, `nanoserver-1809`, `10.0.20348.2849`,
 * and composite .NET and IIS tags such as `8.0-nanoserver-ltsc2022` or `4.8-windowsservercore-ltsc2019`.
 */
function releaseOfToken(token: string): ImageRelease | undefined {
  const ltsc = /^ltsc(\d{4})$/.exec(token);
  if (ltsc) {
    const version = RELEASE_ORDER.find((v) => WINDOWS_RELEASES[v].ltscTag === token);
    return { ltscTag: token, version };
  }
  if (token === '1809') return { ltscTag: WINDOWS_RELEASES[WindowsVersion.SERVER_2019].ltscTag, version: WindowsVersion.SERVER_2019 };
  const build = /^(10\.0\.\d+)(\.\d+)?$/.exec(token);
  if (build) {
    const version = RELEASE_ORDER.find((v) => WINDOWS_RELEASES[v].build === build[1]);
    if (version) return { ltscTag: WINDOWS_RELEASES[version].ltscTag, version };
    const retired = RETIRED_WINDOWS_RELEASES.find((r) => r.build === build[1]);
    return retired ? { ltscTag: retired.tag, retired: retired.channel } : undefined;
  }
  return undefined;
}

// The Windows base images a bare release tag (`servercore:1909`) is read from; elsewhere `2004`
// may be anything, so only `<base>-<release>` (`nanoserver-1909`) counts.
const WINDOWS_BASE_REPOSITORY = /^mcr\.microsoft\.com\/windows\//;
const BASE_TOKENS = new Set(['nanoserver', 'servercore', 'windowsservercore']);

/** A Semi-Annual Channel release a tag's token names, where the token is known to be a Windows release. */
function retiredOfToken(token: string, windowsBase: boolean): ImageRelease | undefined {
  const retired = windowsBase ? RETIRED_WINDOWS_RELEASES.find((r) => r.tag === token && r.channel !== 'LTSC') : undefined;
  return retired ? { ltscTag: retired.tag, retired: retired.channel } : undefined;
}

/**
 * Reads the Windows release from an image reference's tag (see `releaseOfToken` for the forms).
 * Digests and registry ports are not mistaken for tags. Undefined when the tag names no release
 * (multi-arch tags like `latest` or `8.0`).
 * @internal
 */
export function imageRelease(image: string): ImageRelease | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  if (colon < 0) return undefined;
  const tag = withoutDigest.slice(colon + 1).toLowerCase();
  const tokens = tag.split(/[-_]/);
  for (const token of [tag, ...tokens]) {
    const release = releaseOfToken(token);
    if (release) return release;
  }
  const base = WINDOWS_BASE_REPOSITORY.test(withoutDigest.toLowerCase());
  return retiredOfToken(tag, base) ?? tokens.map((t, i) => retiredOfToken(t, i > 0 && BASE_TOKENS.has(tokens[i - 1]))).find((r) => r !== undefined);
}

/**
 * The container releases a host runs, as containerd pulls and starts them: an exact match before
 * Windows Server 2022; from 2022 on, the previous stable-ABI LTSC (2022) up to the host's own
 * (containerd/platforms v0.2.1 platform_compat_windows.go, checkHostAndContainerCompat, and
 * v1.0.0-rc.4 platform_windows_compat.go with ltsc2025; Microsoft's "Windows container version
 * compatibility"). containerd's default pull drops image entries outside this set, so it holds
 * for Hyper-V isolation too: an older image on a newer host is refused at pull.
 * @internal
 */
export function runnableReleases(host: WindowsVersion): WindowsVersion[] {
  switch (host) {
    case WindowsVersion.SERVER_2019: return [WindowsVersion.SERVER_2019];
    case WindowsVersion.SERVER_2022: return [WindowsVersion.SERVER_2022];
    case WindowsVersion.SERVER_2025: return [WindowsVersion.SERVER_2022, WindowsVersion.SERVER_2025];
  }
}

/**
 * Why an image cannot run on a host of the given release, or undefined when it can (or when the
 * tag names no release, in which case a multi-arch manifest is assumed).
 * @internal
 */
export function imageIncompatibility(image: string, host: WindowsVersion, isolation: WindowsIsolation): string | undefined {
  const release = imageRelease(image);
  if (!release) return undefined;
  const hostTag = WINDOWS_RELEASES[host].ltscTag;
  if (!release.version) return unsupportedRelease(image, hostTag);
  const runnable = runnableReleases(host);
  if (!runnable.includes(release.version)) {
    const tags = runnable.map((v) => WINDOWS_RELEASES[v].ltscTag).join(' or ');
    const hyperV = isolation === WindowsIsolation.HYPER_V ? ' (Hyper-V isolation does not help: containerd\'s default pull refuses it first)' : '';
    return `image ${image} is built for ${release.ltscTag}, which a Windows Server ${host} host (build ${WINDOWS_RELEASES[host].build}) cannot run${hyperV}; use ${tags}`;
  }
  return undefined;
}

/**
 * Why an image names an LTSC release no Windows node can run (e.g. ltsc2016), or undefined.
 * @internal
 */
export function unsupportedRelease(image: string, use?: string): string | undefined {
  const release = imageRelease(image);
  if (!release || release.version) return undefined;
  const supported = RELEASE_ORDER.map((v) => WINDOWS_RELEASES[v].ltscTag).join(', ');
  const what = release.retired === 'Semi-Annual Channel' ? `Windows Server, version ${release.ltscTag.toUpperCase()}, a retired Semi-Annual Channel release no supported Windows node runs` : `${release.ltscTag}, a release Kubernetes does not support on Windows nodes`;
  return `image ${image} names ${what}; use an image tagged ${use ?? `with one of ${supported}`}`;
}
