import { fail } from '../core/errors';
import { GKE_WINDOWS_IMAGE_TYPE, GKE_WINDOWS_OS_VERSIONS } from '../platform/gke';
import { WindowsPlatform, windowsSupport } from '../platform/support';
import { WindowsVersion } from '../platform/windows';
import { WINDOWS_VERSION_ENTRY, windowsRelease } from '../terraform/managed-node-pool';
import type { HybridGkeCluster } from './gke-cluster';
import { GKE_NODE_POOL_OPTIONS, GkeNodePoolBase, GkeNodePoolOptions, GkeOsPart, gkeNodePoolSpec } from './node-pool';

/** Props of `GkeWindowsNodePool`: those of every node pool, and the Windows Server release. */
export interface GkeWindowsNodePoolProps extends GkeNodePoolOptions {
  /**
   * The Windows Server LTSC release of the nodes (`windows_node_config.osversion`): 2019 or 2022;
   * GKE offers no 2025. Process-isolated containers need images of the same release. Changing it on
   * a pool that exists updates the pool in place: GKE recreates its nodes on the other release, and
   * pods pinned to the old build (`node.kubernetes.io/windows-build`) stay Pending. To move
   * workloads without a gap, add a pool of the new release under a new id, move the workloads, then
   * remove this one (docs/gke.md, "Day 2").
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
}

/**
 * The spec of `GkeWindowsNodePoolProps`.
 * @internal
 */
export const GKE_WINDOWS_NODE_POOL_PROPS = gkeNodePoolSpec<GkeWindowsNodePoolProps>('GkeWindowsNodePool', { ...GKE_NODE_POOL_OPTIONS, windowsVersion: WINDOWS_VERSION_ENTRY });

/**
 * A node pool of Windows Server LTSC nodes (`WINDOWS_LTSC_CONTAINERD`, the release from
 * `windowsVersion`) on an x86 machine type with whole vCPUs. GKE taints its Windows nodes
 * `node.kubernetes.io/os=windows:NoSchedule` itself (`GKE_WINDOWS_NODE_TAINT`), so the pool writes
 * no taint: hashicorp/google 5.0 and later keep GKE's in `effective_taints` and plan no change for
 * it (node_config.go `flattenTaints`). The workload constructs tolerate it in charts made for
 * `WindowsPlatform.GKE`.
 */
export class GkeWindowsNodePool extends GkeNodePoolBase<GkeWindowsNodePoolProps> {
  public constructor(cluster: HybridGkeCluster, id: string, props: GkeWindowsNodePoolProps) {
    super(cluster, id, GKE_WINDOWS_NODE_POOL_PROPS, props);
  }

  protected osPart(props: GkeWindowsNodePoolProps): GkeOsPart {
    const version = windowsRelease(props);
    const osversion = GKE_WINDOWS_OS_VERSIONS[version];
    if (osversion === undefined) fail(this, `windowsVersion: GKE offers no ${version} node pools (${windowsSupport(WindowsPlatform.GKE, version).source})`, 'use WindowsVersion.SERVER_2022');
    return {
      windowsVersion: version,
      imageType: GKE_WINDOWS_IMAGE_TYPE,
      windowsNodeConfig: { osversion },
      propsOfFields: { 'google_container_node_pool node_config.windows_node_config.osversion': 'windowsVersion' },
    };
  }
}
