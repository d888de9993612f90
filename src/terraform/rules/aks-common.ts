import type { Json } from '../../rules/engine/graph';
import { parseAksWindowsOsSku } from '../../platform/aks';
import { TerraformBlock, TerraformGraph, single } from '../graph';

/** What the AKS rules share: the pools of a cluster as one shape, and their sizes and versions. */

export const CLUSTER = 'azurerm_kubernetes_cluster';
export const POOL = 'azurerm_kubernetes_cluster_node_pool';

/**
 * One node pool as the rules see it: the cluster's `default_node_pool` (always Linux, the System
 * pool azurerm creates with the cluster) or an `azurerm_kubernetes_cluster_node_pool`.
 */
export interface Pool {
  /** The block the pool is written in (the cluster for the default pool). */
  readonly block: TerraformBlock;
  readonly body: Json;
  /** `default_node_pool.` for the default pool, else ''. */
  readonly at: string;
  readonly cluster?: TerraformBlock;
  readonly windows: boolean;
  readonly system: boolean;
}

/** The cluster's default pool, or undefined when the JSON has none. */
export function defaultPool(cluster: TerraformBlock): Pool | undefined {
  const body = cluster.body.default_node_pool;
  if (body === undefined) return undefined;
  return { block: cluster, body: single(body), at: 'default_node_pool.', cluster, windows: parseAksWindowsOsSku(single(body).os_sku) !== undefined, system: true };
}

/** A separate pool, with its cluster when its `kubernetes_cluster_id` refers to one in the graph. */
export function extraPool(graph: TerraformGraph, block: TerraformBlock): Pool {
  const target = graph.resolve(block, block.body.kubernetes_cluster_id);
  return {
    block, body: block.body, at: '', cluster: target?.type === CLUSTER ? target : undefined,
    windows: block.body.os_type === 'Windows', system: block.body.mode === 'System',
  };
}

/** Every pool of the graph: each cluster's default pool, then the separate pools. */
export function pools(graph: TerraformGraph): Pool[] {
  return [
    ...graph.ofType(CLUSTER).flatMap((c) => defaultPool(c) ?? []),
    ...graph.ofType(POOL).map((p) => extraPool(graph, p)),
  ];
}

/** The pools of one cluster (separate pools found by their `kubernetes_cluster_id` reference). */
export function poolsOf(graph: TerraformGraph, cluster: TerraformBlock): Pool[] {
  return pools(graph).filter((p) => p.cluster === cluster);
}

export const poolName = (p: Pool): string => String(p.body.name);

/** The nodes a pool may have: `max_count` when it autoscales, else `node_count`; undefined when unknown. */
export function maxNodes(p: Pool): number | undefined {
  const n = p.body.auto_scaling_enabled === true ? p.body.max_count : p.body.node_count;
  return typeof n === 'number' ? n : undefined;
}

/** The nodes a pool keeps: `min_count` when it autoscales, else `node_count`. */
export function minNodes(p: Pool): number | undefined {
  const n = p.body.auto_scaling_enabled === true ? p.body.min_count : p.body.node_count;
  return typeof n === 'number' ? n : undefined;
}

/** The Kubernetes version a pool runs: its `orchestrator_version`, else its cluster's. */
export function versionOf(p: Pool): unknown {
  return p.body.orchestrator_version ?? p.cluster?.body.kubernetes_version;
}
