import { flag, optional } from '../core/props-spec';
import { AKS_FIPS_REQUIRED, AKS_WINDOWS_OS_SKUS } from '../platform/aks';
import { WINDOWS_NODE_TAINT, WindowsVersion, taintArgument } from '../platform/windows';
import { WINDOWS_VERSION_ENTRY, windowsRelease } from '../terraform/managed-node-pool';
import type { HybridAksCluster } from './aks-cluster';
import { AKS_NODE_POOL_OPTIONS, AksNodePoolBase, AksNodePoolOptions, AksOsPart, aksNodePoolSpec } from './node-pool';

/** Props of `AksWindowsNodePool`: those of every node pool, the Windows release and FIPS. */
export interface AksWindowsNodePoolProps extends AksNodePoolOptions {
  /**
   * The Windows Server release (`os_sku`). AKS refuses Windows Server 2019 on Kubernetes 1.33+
   * and 2022 on 1.37+; azurerm does not accept 2025 yet (docs/aks.md). Process-isolated
   * containers need images of the same release. Changing it on a pool that exists replaces the
   * pool (azurerm forces a new pool on any Windows `os_sku` change, and AKS migrates no pool
   * between releases), which `deletionProtection` stops at plan: add a pool of the new release
   * under a new name instead, move the workloads, then remove this one (docs/aks.md, "Day 2").
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
  /**
   * FIPS 140-2 mode of the nodes. Windows Server 2025 pools must run it: AKS refuses them without.
   * @default - on for Windows Server 2025, else off
   */
  readonly fipsEnabled?: boolean;
}

/**
 * The spec of `AksWindowsNodePoolProps`.
 * @internal
 */
export const AKS_WINDOWS_NODE_POOL_PROPS = aksNodePoolSpec<AksWindowsNodePoolProps>('AksWindowsNodePool', {
  ...AKS_NODE_POOL_OPTIONS,
  windowsVersion: WINDOWS_VERSION_ENTRY,
  fipsEnabled: optional(flag()),
});

/**
 * A User pool of Windows Server nodes: `os_sku` from `windowsVersion`, the `os=windows:NoSchedule`
 * taint the workload constructs tolerate (AKS taints no Windows node itself), autoscaling.
 * Its name is at most 6 characters (AKS).
 */
export class AksWindowsNodePool extends AksNodePoolBase<AksWindowsNodePoolProps> {
  public constructor(cluster: HybridAksCluster, id: string, props: AksWindowsNodePoolProps) {
    super(cluster, id, AKS_WINDOWS_NODE_POOL_PROPS, props);
  }

  protected osPart(props: AksWindowsNodePoolProps): AksOsPart {
    const version = windowsRelease(props);
    return {
      windowsVersion: version,
      osType: 'Windows',
      osSku: AKS_WINDOWS_OS_SKUS[version],
      taints: [taintArgument(WINDOWS_NODE_TAINT)],
      fipsEnabled: props.fipsEnabled ?? (AKS_FIPS_REQUIRED.includes(version) ? true : undefined),
      propsOfFields: { 'azurerm_kubernetes_cluster_node_pool os_sku': 'windowsVersion', 'azurerm_kubernetes_cluster_node_pool fips_enabled': 'fipsEnabled' },
    };
  }
}
