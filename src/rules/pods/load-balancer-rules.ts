import { AWS_LBC_CLASS, AWS_LBC_TYPES, LB_ANNOTATIONS, LINUX_TARGET_NODE_LABELS } from '../../platform/load-balancer';
import { Json, ManifestGraph, ManifestSource, namespaceOf, violation } from '../engine/graph';
import { rule } from '../engine/rule';
import { osIntent, podTemplatesOf } from './pod-template';

/** Whether an annotation's `key=value,...` list restricts nodes to Linux. */
function restrictsToLinux(labels: unknown): boolean {
  return typeof labels === 'string' && labels.split(',').map((l) => l.trim()).some((l) => l === LINUX_TARGET_NODE_LABELS || l === 'beta.kubernetes.io/os=linux');
}

/**
 * Whether an AWS load balancer for this Service would register nodes of every OS: a `v1` Service of
 * type LoadBalancer, of no class or the AWS Load Balancer Controller's, in instance mode (the
 * default of both the controller and the cloud provider), without target node labels that keep it
 * to Linux nodes.
 * @internal
 */
export function targetsEveryNode(service: Json): boolean {
  if (service?.apiVersion !== 'v1' || service?.kind !== 'Service' || service?.spec?.type !== 'LoadBalancer') return false;
  const lbClass = service.spec.loadBalancerClass;
  if (lbClass !== undefined && lbClass !== AWS_LBC_CLASS) return false;
  const annotations = service.metadata?.annotations ?? {};
  return annotations[LB_ANNOTATIONS.nlbTargetType] !== 'ip' && !restrictsToLinux(annotations[LB_ANNOTATIONS.targetNodeLabels]);
}

/**
 * Whether a Service's external traffic goes only to nodes with its endpoints: with
 * `externalTrafficPolicy: Local` the load balancer's health check asks each node's kube-proxy on
 * the Service's healthCheckNodePort, which answers 503 on a node without a ready local endpoint
 * (kubernetes pkg/proxy/healthcheck/service_health.go; the Windows proxier serves it too,
 * pkg/proxy/winkernel/proxier.go): Windows nodes stay registered but unhealthy, and get no traffic.
 */
function localTrafficOnly(service: Json): boolean {
  return service?.spec?.externalTrafficPolicy === 'Local';
}

/**
 * Whether the objects say the AWS Load Balancer Controller owns a Service: its class, or the
 * `aws-load-balancer-type` annotation. Without either, the controller still owns it where its
 * Service webhook set the class at creation (v2.5 on, by default), which the objects cannot show.
 */
function saysControllerOwnsIt(service: Json): boolean {
  return service.spec?.loadBalancerClass === AWS_LBC_CLASS || AWS_LBC_TYPES.includes(service.metadata?.annotations?.[LB_ANNOTATIONS.type]);
}

/**
 * The OS of the pods a Service selects among `sources` (same namespace, every selector label on
 * the pod template): `undefined` when it selects none of them or has no selector.
 * @internal
 */
export function selectedPodsOs(service: Json, sources: readonly ManifestSource[], runtimeClassOs?: (name: string) => string | undefined): Array<'linux' | 'windows' | 'other'> | undefined {
  const selector = service?.spec?.selector;
  if (selector === null || typeof selector !== 'object' || Object.keys(selector).length === 0) return undefined;
  const ns = namespaceOf(service);
  const found = sources.filter((s) => namespaceOf(s.manifest) === ns).flatMap((s) => podTemplatesOf(s.manifest).map((location) => ({ s, location })))
    .filter(({ s, location }) => {
      const labels = location.pointer.endsWith('/template/spec') ? podLabels(s.manifest, location.pointer) : s.manifest.metadata?.labels;
      return labels && Object.entries(selector).every(([k, v]) => labels[k] === v);
    })
    .map(({ location }) => {
      const os = osIntent(location.spec, runtimeClassOs).os;
      return os === 'windows' ? 'windows' : os === 'linux' || os === 'open' ? 'linux' : 'other';
    });
  return found.length > 0 ? found : undefined;
}

/** The labels of the pod template beside a pod spec at `pointer` (`.../template/spec` → `.../template/metadata/labels`). */
function podLabels(manifest: Json, pointer: string): Json {
  const path = pointer.split('/').slice(1, -1);
  const template = path.reduce((o: Json, k) => o?.[k], manifest);
  return template?.metadata?.labels;
}

/** Whether the objects show Windows nodes in the cluster: a pod template that runs only on Windows. */
function clusterHasWindows(graph: ManifestGraph): boolean {
  return graph.sources.some((s) => podTemplatesOf(s.manifest).some((l) => osIntent(l.spec).os === 'windows'));
}

/**
 * A LoadBalancer Service whose pods run on Linux, in a cluster with Windows nodes, must keep its
 * AWS load balancer off the Windows nodes: in instance mode the load balancer registers every
 * node as a target (`LB_ANNOTATIONS`), and on Windows nodes its health checks fail and requests
 * time out (kubernetes/ingress-nginx#5027). Holds where AWS load balancers serve Services (EKS,
 * k0smotron on AWS); the objects show Windows nodes through a Windows pod template.
 */
export const LOAD_BALANCER_TARGETS_RULE = rule<ManifestGraph>({
  name: 'load-balancer-targets',
  scope: 'graph',
  description: 'In a cluster with Windows nodes, an AWS load balancer of Linux pods uses IP targets or Linux target nodes',
  source: 'kubernetes-sigs/aws-load-balancer-controller docs/guide/service/annotations.md (nlb-target-type, target-node-labels), docs/guide/service/nlb.md (who owns a Service); kubernetes pkg/proxy/healthcheck (externalTrafficPolicy Local); kubernetes/cloud-provider-aws pkg/providers/v1/aws.go (ServiceAnnotationLoadBalancerTargetNodeLabels); kubernetes/ingress-nginx#5027',
  check: (graph) => {
    if (!clusterHasWindows(graph)) return [];
    return graph.ofKind('Service').filter((s) => targetsEveryNode(s.manifest) && !localTrafficOnly(s.manifest)).flatMap((service) => {
      const pods = selectedPodsOs(service.manifest, graph.sources);
      if (pods === undefined || !pods.every((os) => os === 'linux')) return [];
      return [violation(service,
        'a LoadBalancer Service of pods on Linux, in instance mode in a cluster with Windows nodes: the AWS load balancer registers every node, Windows ones included, as a target, and fails health checks and requests there (kubernetes/ingress-nginx#5027)',
        `annotate it ${LB_ANNOTATIONS.targetNodeLabels}: ${LINUX_TARGET_NODE_LABELS} (AWS Load Balancer Controller and the AWS cloud provider), or ${LB_ANNOTATIONS.nlbTargetType}: ip with the AWS Load Balancer Controller`,
        'metadata.annotations')];
    });
  },
  // `nlb-target-type: ip` keeps nodes out only where the AWS Load Balancer Controller owns the
  // Service: the AWS cloud provider ignores it and registers every node (docs/guide/service/nlb.md).
  advise: (graph) => {
    if (!clusterHasWindows(graph)) return [];
    return graph.ofKind('Service').filter((s) => s.manifest?.spec?.type === 'LoadBalancer' && s.manifest.spec.loadBalancerClass === undefined
      && s.manifest.metadata?.annotations?.[LB_ANNOTATIONS.nlbTargetType] === 'ip' && !saysControllerOwnsIt(s.manifest)
      && !restrictsToLinux(s.manifest.metadata?.annotations?.[LB_ANNOTATIONS.targetNodeLabels]) && !localTrafficOnly(s.manifest))
      .flatMap((service) => {
        const pods = selectedPodsOs(service.manifest, graph.sources);
        if (pods === undefined || !pods.every((os) => os === 'linux')) return [];
        return [violation(service,
          `${LB_ANNOTATIONS.nlbTargetType}: ip keeps Windows nodes out only if the AWS Load Balancer Controller owns this Service (its Service webhook, on by default from v2.5, sets spec.loadBalancerClass at creation); the AWS cloud provider ignores the annotation and registers every node`,
          `say so in the Service: ${LB_ANNOTATIONS.type}: external or spec.loadBalancerClass: ${AWS_LBC_CLASS}`, 'metadata.annotations')];
      });
  },
});
