/**
 * The cluster side (cdk8s): `HybridCluster` and its worker pools, the rules over the objects
 * (`validateManifests`, `HybridValidation`), the Windows facts they share, and the workload pieces
 * that need no cdk8s-plus. The namespaces `capi`, `capa`, `k0smotronBootstrap`,
 * `k0smotronControlPlane` and `k0smotronInfrastructure` hold the bindings generated from the
 * pinned CRDs, the escape hatch for fields the constructs do not model; this reference leaves them
 * out, as their types are the CRDs' fields one for one.
 * @module cdk-hybrid-windows
 */
export * from './platform/windows';
export { HybridConfigError, HybridValidationError } from './core/errors';
export { GKE_WINDOWS_NODE_TAINT, WINDOWS_NODE_TAINTS, WindowsPlatform, windowsNodeTaint } from './platform/support';
export type { NodeTaint } from './platform/support';
export { FLEET_LABELS, fleetLabels } from './platform/labels';
export * from './infra/cluster-infra';
export * from './infra/outputs';

// Generated L1 bindings: the escape hatch for fields the constructs do not model.
/** Cluster API (`cluster.x-k8s.io`) objects, generated from the pinned CRDs. */
export * as capi from './generated/cluster-api-cluster.x-k8s.io';
/** Cluster API Provider AWS (`infrastructure.cluster.x-k8s.io`) objects, generated from the pinned CRDs. */
export * as capa from './generated/capa-infrastructure.cluster.x-k8s.io';
/** k0smotron bootstrap (`bootstrap.cluster.x-k8s.io`) objects, generated from the pinned CRDs. */
export * as k0smotronBootstrap from './generated/k0smotron-bootstrap.cluster.x-k8s.io';
/** k0smotron control-plane (`controlplane.cluster.x-k8s.io`) objects, generated from the pinned CRDs. */
export * as k0smotronControlPlane from './generated/k0smotron-controlplane.cluster.x-k8s.io';
/** k0smotron infrastructure (`infrastructure.cluster.x-k8s.io`: `RemoteMachine`, `PooledRemoteMachine`, ...) objects, generated from the pinned CRDs. */
export * as k0smotronInfrastructure from './generated/k0smotron-infrastructure.cluster.x-k8s.io';

export * from './capi/cluster';
export * from './capi/machine-deployment-pool';
export * from './capi/windows-os';
export * from './k0s/k0s-cluster';
export * from './k0s/windows-pool';
export type { K0smotronInfrastructure } from './platform/infrastructures';
export { BUILT_IN_INFRASTRUCTURES } from './platform/infrastructures';
export * from './cluster/hybrid-cluster';
export * from './k0s/worker-pool';

/** Clusters and pools on hosts reached over SSH (k0smotron's RemoteMachine provider). */
export * from './remote/index';
export * from './cluster/aws-machines';
export * from './cluster/linux-worker-pool';
export * from './cluster/windows-worker-pool';
export * from './cluster/machine-image';
export type { MachineProps } from './cluster/machine-template';
export { CalicoMode, NetworkProvider, CALICO_WINDOWS_VXLAN } from './platform/network';
export type { KubernetesNetworkProps } from './k0s/kubernetes-network';
export { K0S_PORTS, WINDOWS_K0S_INSTALL_DIR } from './platform/conventions';
export * from './platform/k0s-version';

/** Value types shared by the cluster (cdk8s) and AWS (cdktf) sides. */
export { Architecture, InstanceType, WINDOWS_MIN_MEMORY_GIB } from './platform/instance-type';
export { AvailabilityZone, AwsRegion, KeyPairType } from './platform/aws';
export type { AwsPartitionId } from './platform/aws';
export type { InstanceTypeInfo } from './platform/instance-type';

/** The rules over final manifests, for this library's objects and YAML from elsewhere. */
export { validateManifests, adviseManifests, judgeManifests, formatViolation, CLUSTER_RULES, WORKLOAD_RULES, EKS_WORKLOAD_RULES, ManifestGraph } from './rules/index';
export type { Infrastructures, Manifest, ManifestGraphContext, ManifestJudgement, ManifestRule, ManifestSource, ManifestViolation, Reference, RuleScope, ValidateManifestsOptions } from './rules/index';
export type { Rule } from './rules/engine/rule';
export type { PropsOfFields } from './rules/run/judge';
/** The rules over the Terraform JSON of the AWS and EKS stacks, for a `cdk.tf.json` from anywhere (no cdktf loaded). */
export { validateTerraform, formatTerraformViolation, TERRAFORM_RULES, AWS_RULES, EKS_RULES, AKS_RULES, GKE_RULES, TerraformGraph } from './terraform/index';
export type { TerraformBlock, TerraformJson, TerraformRule, ValidateTerraformOptions } from './terraform/index';
export { HybridValidation } from './rules/run/plugin';
export { RULE_SETS } from './rule-sets';
export { MANIFEST_RULE_SETS } from './rules/index';
export { TERRAFORM_RULE_SETS } from './terraform/index';
export type { RuleSet } from './rules/engine/rule';
export type { HybridValidationProps, PluginValidationContext } from './rules/run/plugin';

/**
 * Linux pinning and the API server's OS-specific pod checks. The Windows workload constructs,
 * which need cdk8s-plus-33, are in `cdk-hybrid-windows/workloads`.
 */
export * from './workloads/core';
