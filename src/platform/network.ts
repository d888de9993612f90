/** The k0s network provider (CNI). */
export enum NetworkProvider {
  /** Calico: the only one of k0s's providers with Windows support. */
  CALICO = 'calico',
  /**
   * kube-router: Linux only, and not on EC2 (`HybridCluster` refuses it, see `KUBE_ROUTER_ON_EC2`).
   */
  KUBE_ROUTER = 'kuberouter',
  /** Bring your own CNI. */
  CUSTOM = 'custom',
}

/** Calico's data plane mode in k0s (`spec.network.calico.mode`). */
export enum CalicoMode {
  /** VXLAN overlay: the mode Calico on Windows supports. */
  VXLAN = 'vxlan',
  /** IP-in-IP overlay with BGP: Linux only. k0s runs it as Calico's bird mode, like `BIRD`. */
  IPIP = 'ipip',
  /**
   * Calico's bird (BGP) mode: Linux only. Not plain routing: k0s sets `CALICO_IPV4POOL_IPIP` to
   * the overlay, `Always` by default (k0s v1.34 static/manifests/calico/DaemonSet/calico-node.yaml),
   * so it runs IP-in-IP like `IPIP`.
   */
  BIRD = 'bird',
}

/** Calico for Windows works only with the VXLAN defaults: UDP port 4789 and VNI 4096. */
export const CALICO_WINDOWS_VXLAN = { port: 4789, vni: 4096 } as const;

/**
 * Why k0s's kube-router does not carry pod traffic on EC2. k0s runs it with kube-router's overlay
 * defaults (k0s v1.34 pkg/component/controller/kuberouter.go sets no overlay flag), which tunnel
 * only between nodes in different subnets (kube-router v2.6.3 pkg/options/options.go,
 * `--overlay-type` "subnet"), and it never masquerades traffic from pods to node addresses
 * (pkg/controllers/routing/pod_egress.go excludes node IPs): packets with pod addresses leave the
 * instance, and EC2's source/destination check, which CAPA never turns off, drops them. Even a
 * full overlay leaves pod-to-node traffic (metrics-server to the kubelets) dropped.
 */
export const KUBE_ROUTER_ON_EC2 = 'k0s\'s kube-router sends pod traffic between nodes of one subnet without an overlay (--overlay-type=subnet) and pod-to-node traffic from pod addresses (no masquerade), which EC2\'s source/destination check drops; CAPA cannot turn that check off';
