/** The k0s controller ports that workers and joining controllers reach through the load balancer. */
export const K0S_PORTS = { api: 6443, konnectivity: 8132, joinApi: 9443 } as const;

/** The controller ports beside the API that only the cluster's own machines may reach. */
export const K0S_CLUSTER_PORTS = [
  { port: K0S_PORTS.konnectivity, description: 'k0s konnectivity from cluster machines' },
  { port: K0S_PORTS.joinApi, description: 'k0s join API from cluster machines' },
] as const;

/** Instance profiles `clusterawsadm bootstrap iam create-cloudformation-stack` creates. */
export const CLUSTERAWSADM_INSTANCE_PROFILES = {
  controlPlane: 'control-plane.cluster-api-provider-aws.sigs.k8s.io',
  nodes: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
} as const;

/** `controlplane.cluster.x-k8s.io/v1beta2` → `controlplane.cluster.x-k8s.io`: v1beta2 references name the group only. */
export function apiGroupOf(apiVersion: string): string {
  return apiVersion.split('/')[0];
}

/** Where k0s goes on Windows workers. k0smotron does not quote the path: no spaces. */
export const WINDOWS_K0S_INSTALL_DIR = 'C:\\k0s';

/** CAPA's VPC when the AWSCluster names none (CAPA `api/v1beta2/defaults.go`, `DefaultVPCCidr`). */
export const CAPA_DEFAULT_VPC_CIDR = '10.0.0.0/16';
