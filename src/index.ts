export * from './platform/windows';
export * from './infra/cluster-infra';

/** Generated L1 bindings (escape hatch for fields the constructs do not model). */
export * as capi from './generated/cluster-api-cluster.x-k8s.io';
export * as capa from './generated/capa-infrastructure.cluster.x-k8s.io';
export * as k0smotronBootstrap from './generated/k0smotron-bootstrap.cluster.x-k8s.io';
export * as k0smotronControlPlane from './generated/k0smotron-controlplane.cluster.x-k8s.io';

/** Windows workloads: constructs, Linux pinning and the API server's OS-specific pod checks. */
export * from './workloads';
