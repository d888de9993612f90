/** The k0s network provider (CNI). */
export enum NetworkProvider {
  /** Calico: the only one of k0s's providers with Windows support. */
  CALICO = 'calico',
  /** kube-router: Linux only. */
  KUBE_ROUTER = 'kuberouter',
  /** Bring your own CNI. */
  CUSTOM = 'custom',
}

/** Calico's data plane mode in k0s (`spec.network.calico.mode`). */
export enum CalicoMode {
  /** VXLAN overlay: the mode Calico on Windows supports. */
  VXLAN = 'vxlan',
  /** IP-in-IP overlay with BGP: Linux only. */
  IPIP = 'ipip',
  /** BGP without overlay: Linux only. */
  BIRD = 'bird',
}

/** Calico for Windows works only with the VXLAN defaults: UDP port 4789 and VNI 4096. */
export const CALICO_WINDOWS_VXLAN = { port: 4789, vni: 4096 } as const;
