import { LABEL_OS } from './windows';

/**
 * The Service annotations that keep an AWS load balancer off Windows nodes.
 *
 * - `target-node-labels`: which nodes an instance-mode load balancer registers, as
 *   `key=value[,key=value]`; read by the AWS Load Balancer Controller
 *   (kubernetes-sigs/aws-load-balancer-controller docs/guide/service/annotations.md,
 *   "Target node labels"; pkg/service/model_build_target_group.go, buildTargetGroupBindingNodeSelector)
 *   and by the in-tree and external AWS cloud provider (kubernetes/cloud-provider-aws
 *   pkg/providers/v1/aws.go, ServiceAnnotationLoadBalancerTargetNodeLabels).
 * - `nlb-target-type: ip`: the controller registers the pods' addresses instead of nodes
 *   (annotations.md, "nlb-target-type"); the in-tree provider has no IP mode.
 */
export const LB_ANNOTATIONS = {
  targetNodeLabels: 'service.beta.kubernetes.io/aws-load-balancer-target-node-labels',
  nlbTargetType: 'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type',
  /**
   * `external` (or the legacy `nlb-ip`) hands the Service to the AWS Load Balancer Controller
   * (docs/guide/service/nlb.md, "Configuration"); without it or the controller's
   * `loadBalancerClass`, the AWS cloud provider owns the Service unless the controller's Service
   * webhook (on by default from v2.5, `enableServiceMutatorWebhook`) set the class at creation.
   */
  type: 'service.beta.kubernetes.io/aws-load-balancer-type',
} as const;

/** The `aws-load-balancer-type` values that make the AWS Load Balancer Controller the Service's owner. */
export const AWS_LBC_TYPES: readonly string[] = ['external', 'nlb-ip'];

/** The target-node-labels value that keeps instance targets to Linux nodes. */
export const LINUX_TARGET_NODE_LABELS = `${LABEL_OS}=linux`;

/** The `loadBalancerClass` of the AWS Load Balancer Controller's NLBs; any other class is another controller's. */
export const AWS_LBC_CLASS = 'service.k8s.aws/nlb';
