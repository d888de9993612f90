export * from './platform/windows';
export * from './infra/cluster-infra';
export * from './infra/outputs';

/** Generated L1 bindings (escape hatch for fields the constructs do not model). */
export * as capi from './generated/cluster-api-cluster.x-k8s.io';
export * as capa from './generated/capa-infrastructure.cluster.x-k8s.io';
export * as k0smotronBootstrap from './generated/k0smotron-bootstrap.cluster.x-k8s.io';
export * as k0smotronControlPlane from './generated/k0smotron-controlplane.cluster.x-k8s.io';

export * from './cluster/hybrid-cluster';
export * from './cluster/worker-pool';
export * from './cluster/linux-worker-pool';
export * from './cluster/windows-worker-pool';
export * from './cluster/machine-image';
export * from './cluster/machine-template';
export * from './cluster/kubernetes-network';
export * from './cluster/conventions';
export * from './cluster/k0s-version';
export { MAX_CLUSTER_NAME } from './cluster/cluster-checks';

/** Windows workloads: constructs, Linux pinning and the API server's OS-specific pod checks. */
export * from './workloads';
