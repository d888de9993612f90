// Limits Kubernetes, k0s and Cluster API put on what a cluster may be given.

/**
 * kube-apiserver refuses IPv4 service ranges larger than /12 (kubernetes `cmd/kube-apiserver/app/
 * options/validation.go`, `validateClusterIPFlags`, v1.34: "the mask must be >= 12").
 */
export const LARGEST_SERVICE_PREFIX = 12;
/**
 * k0s puts CoreDNS on the 10th address of the service range only from /28 up (k0s
 * `pkg/apis/k0s/v1beta1/network.go`, `DNSAddress`); a smaller range leaves no room for Services.
 */
export const SMALLEST_SERVICE_PREFIX = 28;
/** kubelet may be at most 3 minors older than the API server (CAPI v1.14 `core/reconcilers/machineset/machineset_preflight.go`). */
export const MAX_KUBELET_MINOR_SKEW = 3;
/** The shortest node-condition timeout a health check may have (the pools' `nodeReadyTimeout` minimum). */
export const MIN_NODE_CONDITION_TIMEOUT_SECONDS = 60;
/**
 * The kubelet's API port: the API server (logs, exec, port-forward through konnectivity) and
 * metrics-server reach every node there (k0s docs/networking.md, "Required ports": 10250,
 * controller and worker to every host).
 */
export const KUBELET_PORT = 10250;

/**
 * A Kubernetes version as a distribution writes it: `v1.34.4` (kubeadm, Cluster API),
 * `v1.34.4+k0s.0` (k0s), `v1.34.4+rke2r1` (RKE2): SemVer 2.0.0 with an optional pre-release and
 * build, and an optional `v`, which Cluster API's webhooks prepend (cluster-api v1.14
 * core/webhooks/admission/machinedeployment.go, Default; controlplane/kubeadm/webhooks/admission/
 * kubeadmcontrolplane.go, Default) before they parse the rest as SemVer.
 */
export interface KubernetesVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** The version as written. */
  readonly text: string;
}

const KUBERNETES_VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** The Kubernetes version `text` names, whatever the distribution's form; undefined for anything else. */
export function kubernetesVersion(text: unknown): KubernetesVersion | undefined {
  const m = typeof text === 'string' ? KUBERNETES_VERSION.exec(text) : null;
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), text: text as string } : undefined;
}
