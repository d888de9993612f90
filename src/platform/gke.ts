import { WindowsVersion } from './windows';

/**
 * Facts about Google Kubernetes Engine that the GKE constructs write and the Terraform rules
 * judge: image types, Windows OS versions, machine types that run Windows, name limits.
 */

/**
 * Node image types (GKE "Node images"; the API's `NodeConfig.imageType`). The Docker-based
 * `COS`, `UBUNTU`, `WINDOWS_LTSC` and `WINDOWS_SAC` left GKE with Kubernetes 1.24, and the
 * semi-annual `WINDOWS_SAC`/`WINDOWS_SAC_CONTAINERD` with the end of Windows Server SAC (GKE docs
 * deprecations/windows-server-sac: no new SAC node pools after 2022-08-09; "in GKE version 1.23 and
 * later", `windows_ltsc_containerd` is the only Windows Server image type for new node pools).
 */
export const GKE_LINUX_IMAGE_TYPES = ['COS_CONTAINERD', 'UBUNTU_CONTAINERD'] as const;
/**
 * The one Windows image type: Windows Server LTSC with containerd (GKE "Node images", "Windows Server
 * node images"; hashicorp/terraform-provider-google v7.45.0 resource_container_node_pool_test.go
 * `testAccContainerNodePool_withWindowsNodeConfig` creates its pools with it).
 */
export const GKE_WINDOWS_IMAGE_TYPE = 'WINDOWS_LTSC_CONTAINERD';
/** Image types GKE removed; a pool naming one fails at apply. */
export const GKE_RETIRED_IMAGE_TYPES = ['COS', 'UBUNTU', 'WINDOWS_LTSC', 'WINDOWS_SAC', 'WINDOWS_SAC_CONTAINERD'] as const;

/**
 * `windows_node_config.osversion` per Windows release: the provider takes `OS_VERSION_UNSPECIFIED`,
 * `OS_VERSION_LTSC2019` and `OS_VERSION_LTSC2022` only (hashicorp/terraform-provider-google
 * v7.45.0 google/services/container/node_config.go, `windows_node_config.osversion`
 * `validation.StringInSlice`), and the API knows no other (googleapis/googleapis
 * google/container/v1/cluster_service.proto at 0054cdcb, `WindowsNodeConfig.OSVersion`:
 * UNSPECIFIED, LTSC2019, LTSC2022). No 2025 on GKE.
 */
export const GKE_WINDOWS_OS_VERSIONS: Readonly<Partial<Record<WindowsVersion, string>>> = {
  [WindowsVersion.SERVER_2019]: 'OS_VERSION_LTSC2019',
  [WindowsVersion.SERVER_2022]: 'OS_VERSION_LTSC2022',
};
/** What the provider writes when `osversion` is left out: GKE picks the release, and images must match it. */
export const GKE_OS_VERSION_UNSPECIFIED = 'OS_VERSION_UNSPECIFIED';

/** The Windows release of an `osversion`, or undefined. */
export function gkeWindowsVersionOf(osversion: unknown): WindowsVersion | undefined {
  return (Object.entries(GKE_WINDOWS_OS_VERSIONS) as Array<[WindowsVersion, string]>).find(([, v]) => v === osversion)?.[0];
}

/**
 * Compute Engine series of Arm CPUs (Compute Engine "Machine families": T2A, and the Axion C4A
 * and N4A): Windows Server images run on x86 only.
 */
export const GCE_ARM_SERIES = ['t2a', 'c4a', 'n4a'] as const;
/**
 * Shared-core machine types (Compute Engine "Shared-core machine types"): a fraction of a vCPU,
 * bursting. GKE Windows Server node pools need whole cores (GKE "Creating a cluster using Windows
 * Server node pools": no shared-core machine types).
 */
export const GCE_SHARED_CORE_TYPES = ['e2-micro', 'e2-small', 'e2-medium', 'f1-micro', 'g1-small'] as const;

// `<series>-<class>-<vCPUs>[-<suffix>]`, `<series>-custom-<vCPUs>-<MiB>[-ext]`, `custom-<vCPUs>-<MiB>` (N1), and the shared-core names.
const MACHINE_TYPE = /^(?:[a-z][a-z0-9]*-(?:[a-z]+-\d+[a-z0-9-]*|custom-\d+-\d+(?:-ext)?)|custom-\d+-\d+(?:-ext)?|f1-micro|g1-small|e2-(?:micro|small|medium))$/;

/** Why a machine type is not a Compute Engine machine type name, or undefined. */
export function gceMachineTypeProblem(type: unknown): string | undefined {
  return typeof type === 'string' && MACHINE_TYPE.test(type) ? undefined : `machine type ${JSON.stringify(type)} is not a Compute Engine machine type`;
}

/** Why a Windows Server node pool cannot use a machine type (Arm, shared-core), or undefined. */
export function gkeWindowsMachineTypeProblem(type: string): { readonly what: string; readonly fix: string } | undefined {
  const series = type.split('-')[0];
  if ((GCE_ARM_SERIES as readonly string[]).includes(series)) {
    return { what: `machine type ${type} is Arm (${series.toUpperCase()}), and Windows Server on Compute Engine is x86 only`, fix: 'pick an x86 type such as n2-standard-4' };
  }
  if ((GCE_SHARED_CORE_TYPES as readonly string[]).includes(type)) {
    return { what: `machine type ${type} is shared-core, and GKE Windows Server node pools need whole vCPUs`, fix: 'pick a standard type such as n2-standard-4' };
  }
  return undefined;
}

/**
 * Name limits: cluster names (the provider's `name` ValidateFunc in resource_container_cluster.go:
 * at most 40 characters of lower-case letters, digits and `-`, starting with a letter, not
 * ending with `-`), node pool names (the GKE API: 1 to 40 characters, lower-case letters, digits
 * and `-`, starting with a letter and ending with a letter or digit), Compute Engine names of
 * networks, subnetworks, routers (RFC 1035, 1 to 63 characters) and service account ids (6 to 30
 * characters, `[a-z]([-a-z0-9]*[a-z0-9])`: IAM `CreateServiceAccount` `accountId`).
 */
export const GKE_LIMITS = {
  clusterName: { max: 40, pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/ },
  nodePoolName: { max: 40, pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/ },
  gceName: { max: 63, pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/ },
  serviceAccountId: { min: 6, max: 30, pattern: /^[a-z]([-a-z0-9]*[a-z0-9])$/ },
  /**
   * Project ids: 6 to 30 lower-case letters, digits and `-`, starting with a letter, not ending
   * with `-` (Resource Manager "Creating and managing projects"), optionally after a legacy
   * `domain:` scope (e.g. `example.com:my-project`); the Google APIs take the project number too.
   */
  project: /^(?:[a-z\d][-a-z\d.]*[a-z\d]:)?[a-z][-a-z\d]{4,28}[a-z\d]$|^\d+$/,
  /**
   * Regions and zones: `<geography>-<area><n>` (europe-north1, northamerica-northeast2) and a zone
   * letter after it (us-central1-a) (Compute Engine "Regions and zones"); the provider takes any string
   * as `location` and the API refuses the rest at apply.
   */
  region: /^[a-z]+-[a-z]+\d+$/,
  zone: /^[a-z]+-[a-z]+\d+-[a-z]$/,
  /** Cloud NAT names: RFC 1035, 2 to 63 characters (resource_compute_router_nat.go `name`, `verify.ValidateRFC1035Name(2, 63)`). */
  natName: { min: 2, max: 63 },
  /** The boot disk (node_config.go `disk_size_gb`: `validation.IntAtLeast(10)`); Compute Engine persistent disks go to 65,536 GB. */
  diskSizeGb: { min: 10, max: 65536 },
} as const;

/**
 * Compute Engine series whose machines take Hyperdisk only, no Persistent Disk: those with no `pd-*`
 * type in the machine/disk compatibility table of kubernetes-sigs/gcp-compute-persistent-disk-csi-driver
 * (deploy/kubernetes/overlays/node-labeler/configmap.yaml `machine-pd-compatibility`, at 761f9706,
 * 2026-02-03; also deploy/disk_type_labels.sh). N4 and C4A take `pd-balanced` and `pd-ssd` there.
 * A `pd-*` boot disk fails at apply on these, so the pools default to `hyperdisk-balanced` on them.
 */
export const GCE_HYPERDISK_ONLY_SERIES = ['a4', 'a4x', 'c4', 'c4d', 'ct6e', 'g4', 'h4d', 'm4', 'n4a', 'n4d', 'tpu7x', 'x4'] as const;

/** The series of a machine type (`n2` of `n2-standard-4`). */
export function gceSeriesOf(machineType: string): string {
  return machineType.startsWith('custom-') ? 'n1' : machineType.split('-')[0];
}

/** True when the machine type's series takes Hyperdisk only. */
export function gceHyperdiskOnly(machineType: string): boolean {
  return (GCE_HYPERDISK_ONLY_SERIES as readonly string[]).includes(gceSeriesOf(machineType));
}

/** Boot disk types a node pool takes (node_config.go `disk_type`: pd-standard, pd-balanced, pd-ssd; hyperdisk-balanced on the series that support it). */
export const GKE_DISK_TYPES = ['pd-standard', 'pd-balanced', 'pd-ssd', 'hyperdisk-balanced'] as const;

/** The provider's taint effects (node_config.go `taint.effect`), the GKE spelling of Kubernetes' effects. */
export const GKE_TAINT_EFFECT: Readonly<Record<string, string>> = { NoSchedule: 'NO_SCHEDULE', PreferNoSchedule: 'PREFER_NO_SCHEDULE', NoExecute: 'NO_EXECUTE' };

/**
 * Release channels (hashicorp/terraform-provider-google v7.45.0 resource_container_cluster.go
 * `release_channel.channel`: `StringInSlice` of UNSPECIFIED, RAPID, REGULAR, STABLE, EXTENDED).
 */
export enum GkeReleaseChannel {
  /** Newest versions, first. */
  RAPID = 'RAPID',
  /** The default: versions after they have been in RAPID. */
  REGULAR = 'REGULAR',
  /** Versions after they have been in REGULAR. */
  STABLE = 'STABLE',
  /** Versions kept for up to 24 months (extended support, billed). */
  EXTENDED = 'EXTENDED',
}

/**
 * The least-privilege role of a node service account (GKE "Harden your cluster's security", "Use
 * least privilege IAM service accounts"): logs, metrics and the node's own metadata, nothing else.
 */
export const GKE_NODE_SERVICE_ACCOUNT_ROLE = 'roles/container.defaultNodeServiceAccount';

/**
 * The oldest GKE minor on which this library's Windows pools (`WINDOWS_LTSC_CONTAINERD` with an
 * `osversion`) are what GKE offers (GKE docs "Windows Server Semi-Annual Channel end of servicing",
 * cloud.google.com/kubernetes-engine/docs/archive/windows-server-sac: "In GKE version 1.23 and later,
 * this is the only supported Windows Server image type for new clusters and node pools").
 */
export const GKE_WINDOWS_MINIMUM_MINOR = 23;

/** The minor of a GKE version (`1.NN…`), or undefined (`latest`, an expression). */
export function gkeMinorOf(version: unknown): number | undefined {
  const m = typeof version === 'string' ? /^1\.(\d+)(\.|$)/.exec(version) : null;
  return m ? Number(m[1]) : undefined;
}

/** GKE versions as the API takes them: `1.NN`, `1.NN.P`, `1.NN.P-gke.N`, or `latest`. */
const GKE_VERSION = /^(latest|1\.(\d+)(\.\d+(-gke\.\d+)?)?)$/;

/** Why a cluster or node version is not a GKE version, or undefined. */
export function gkeVersionProblem(version: unknown): string | undefined {
  return typeof version === 'string' && GKE_VERSION.test(version) ? undefined : `Kubernetes version ${JSON.stringify(version)} is not a GKE version (1.NN, 1.NN.P, 1.NN.P-gke.N or latest)`;
}
