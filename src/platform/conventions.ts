import { blockSize, formatCidr, Ipv4Cidr, parseCidr } from './cidr';

/**
 * The k0s controller ports behind the load balancer: the API and konnectivity, which workers and
 * controllers use, and the join API, which only joining controllers use (k0s docs/networking.md:
 * 9443 controller to controller).
 */
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

/** One subnet of a CAPA-managed VPC, as `AWSCluster.spec.network.subnets` states it. */
export interface CapaSubnet {
  /** CAPA's name for it: `<cluster>-subnet-<public|private>-<zone>` (its Name tag). */
  readonly id: string;
  readonly cidrBlock: string;
  readonly availabilityZone: string;
  readonly isPublic: boolean;
}

/**
 * The subnets CAPA creates in a VPC it manages when the AWSCluster lists none, for these zones:
 * the VPC split into the next power of two of zones + 1 blocks, the first one split again into one
 * public block per zone, the others private, one per zone (cluster-api-provider-aws v2.11.1
 * pkg/cloud/services/network/subnets.go, getDefaultSubnets, with pkg/internal/cidr
 * SplitIntoSubnetsIPv4). Written out, they make CAPA use exactly these zones (it would otherwise
 * pick the first three of the account's zones in name order), and a cluster CAPA already made
 * for the same zones sees no change.
 */
export function capaDefaultSubnets(clusterName: string, vpcCidr: string, zones: readonly string[]): CapaSubnet[] {
  const split = (cidr: Ipv4Cidr, count: number): Ipv4Cidr[] => {
    const prefix = cidr.prefix + Math.ceil(Math.log2(count));
    if (prefix > 32) throw new Error(`${formatCidr(cidr)} cannot hold ${count} subnets`);
    return Array.from({ length: count }, (_, i) => ({ network: cidr.network + i * blockSize(prefix), prefix }));
  };
  const blocks = split(parseCidr(vpcCidr), zones.length + 1);
  const publicBlocks = split(blocks[0], zones.length);
  return zones.flatMap((zone, i) => [
    { id: `${clusterName}-subnet-public-${zone}`, cidrBlock: formatCidr(publicBlocks[i]), availabilityZone: zone, isPublic: true },
    { id: `${clusterName}-subnet-private-${zone}`, cidrBlock: formatCidr(blocks[i + 1]), availabilityZone: zone, isPublic: false },
  ]);
}
