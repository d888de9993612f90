import { Construct } from 'constructs';
import { GKE_LINUX_IMAGE_TYPES } from '../platform/gke';
import type { HybridGkeCluster } from './gke-cluster';
import { GkeNodePoolOptions, GkeNodePoolParts, createNodePool } from './node-pool';

/** Props of `GkeLinuxNodePool`: those of every node pool, and the Linux image. */
export interface GkeLinuxNodePoolProps extends GkeNodePoolOptions {
  /**
   * The node image: `COS_CONTAINERD` (Container-Optimized OS) or `UBUNTU_CONTAINERD`.
   * @default 'COS_CONTAINERD'
   */
  readonly imageType?: (typeof GKE_LINUX_IMAGE_TYPES)[number];
}

/**
 * A node pool of Linux nodes (Container-Optimized OS by default). kube-dns and the other system
 * components run here: a cluster with Windows pools needs one with `minNodesPerZone >= 1`.
 */
export class GkeLinuxNodePool extends Construct {
  /** The node pool and its service account, for their attributes and for escape hatches. */
  public readonly parts: GkeNodePoolParts;

  public constructor(cluster: HybridGkeCluster, id: string, props: GkeLinuxNodePoolProps) {
    super(cluster, id);
    this.parts = createNodePool(this, cluster, props, {
      imageType: props?.imageType ?? 'COS_CONTAINERD',
      propsOfFields: { 'google_container_node_pool node_config.image_type': 'imageType' },
    });
  }
}
