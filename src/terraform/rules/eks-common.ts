import { Finding } from '../../rules/engine/rule';
import { TerraformBlock, TerraformGraph, address, blockViolation, isExpression, list } from '../graph';

/** What the EKS rules share: subnet ids, Kubernetes minors, the cluster a block belongs to. */

// EC2 resource ids: a prefix and 8 or 17 hex digits (EC2 User Guide, "Resource IDs").
export const SUBNET_ID = /^subnet-([0-9a-f]{8}|[0-9a-f]{17})$/;

/** The minor of `1.NN`, or undefined. */
export function minorOf(version: unknown): number | undefined {
  const m = typeof version === 'string' ? /^1\.(\d+)$/.exec(version) : null;
  return m ? Number(m[1]) : undefined;
}

/** The cluster a block's `cluster_name` refers to (`${aws_eks_cluster.x.name}`), if it is in the graph. */
export function clusterOf(graph: TerraformGraph, block: TerraformBlock): TerraformBlock | undefined {
  const target = graph.resolve(block, block.body.cluster_name);
  return target?.type === 'aws_eks_cluster' ? target : undefined;
}

/**
 * Subnet ids as EKS takes them (CreateCluster `resourcesVpcConfig.subnetIds`, CreateNodegroup
 * `subnets`; the provider's `subnet_ids`, MinItems 1): subnet ids or references to subnets. A
 * `vpc-` id or a reference to another kind of resource fails at apply.
 */
export function subnetProblems(graph: TerraformGraph, block: TerraformBlock, field: string, value: unknown, fix: string): Finding[] {
  if (isExpression(value)) return []; // a whole list from an expression: known at plan time only
  const ids = list(value);
  if (ids.length === 0) {
    return [blockViolation(block, `${field} is empty, and EKS needs at least one subnet`, fix, field)];
  }
  return ids.flatMap((id, i) => {
    if (isExpression(id)) {
      const target = graph.resolve(block, id);
      // Another stack's output (a cross-stack reference whose stack is not in the graph): known at plan time only.
      const elsewhere = target?.mode === 'data' && target.type === 'terraform_remote_state';
      const ok = target === undefined || elsewhere || ['aws_subnet', 'aws_default_subnet'].includes(target.type);
      return ok ? [] : [blockViolation(block, `${field}[${i}] ${id} is the ${TerraformGraph.attributeOf(id)} of ${address(target!)}, not of a subnet`, fix, field)];
    }
    return typeof id === 'string' && SUBNET_ID.test(id) ? [] : [blockViolation(block,
      `${field}[${i}] ${JSON.stringify(id)} is not a subnet id${typeof id === 'string' && id.startsWith('vpc-') ? ' (it is a VPC id)' : ''}`, fix, field)];
  });
}
