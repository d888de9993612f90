import { optional, text } from '../core/props-spec';
import { GKE_LINUX_IMAGE_TYPES } from '../platform/gke';
import type { HybridGkeCluster } from './gke-cluster';
import { GKE_NODE_POOL_OPTIONS, GkeNodePoolBase, GkeNodePoolOptions, GkeOsPart, gkeNodePoolSpec } from './node-pool';

/** Props of `GkeLinuxNodePool`: those of every node pool, and the Linux image. */
export interface GkeLinuxNodePoolProps extends GkeNodePoolOptions {
  /**
   * The node image: `COS_CONTAINERD` (Container-Optimized OS) or `UBUNTU_CONTAINERD`.
   * @default 'COS_CONTAINERD'
   */
  readonly imageType?: (typeof GKE_LINUX_IMAGE_TYPES)[number];
}

/**
 * The spec of `GkeLinuxNodePoolProps`; `gke-node-pool` judges the image type.
 * @internal
 */
export const GKE_LINUX_NODE_POOL_PROPS = gkeNodePoolSpec<GkeLinuxNodePoolProps>('GkeLinuxNodePool', {
  ...GKE_NODE_POOL_OPTIONS,
  imageType: optional(text({ max: 64, form: 'a GKE Linux image type', example: 'COS_CONTAINERD', judgedBy: 'gke-node-pool' })),
});

/**
 * A node pool of Linux nodes (Container-Optimized OS by default). kube-dns and the other system
 * components run here: a cluster with Windows pools needs one with `minNodesPerZone >= 1`.
 */
export class GkeLinuxNodePool extends GkeNodePoolBase<GkeLinuxNodePoolProps> {
  public constructor(cluster: HybridGkeCluster, id: string, props: GkeLinuxNodePoolProps) {
    super(cluster, id, GKE_LINUX_NODE_POOL_PROPS, props);
  }

  protected osPart(props: GkeLinuxNodePoolProps): GkeOsPart {
    return { imageType: props.imageType ?? 'COS_CONTAINERD', propsOfFields: { 'google_container_node_pool node_config.image_type': 'imageType' } };
  }
}
