/**
 * Tags CAPA and the AWS cloud provider read. `shared` rather than `owned`: the subnets belong to
 * this stack, so neither CAPA nor the cloud provider may delete them with the cluster.
 */
export function clusterTag(clusterName: string): Record<string, string> {
  return { [`kubernetes.io/cluster/${clusterName}`]: 'shared' };
}

/** Cluster tag plus the role tag the cloud provider uses to pick subnets for load balancers. */
export function subnetRoleTags(clusterName: string, role: 'public' | 'private'): Record<string, string> {
  return {
    ...clusterTag(clusterName),
    [role === 'public' ? 'kubernetes.io/role/elb' : 'kubernetes.io/role/internal-elb']: '1',
  };
}
