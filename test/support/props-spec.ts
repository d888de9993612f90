import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { Testing, TerraformStack } from 'cdktn';
import { parseAllDocuments } from 'yaml';
import { HybridConfigError, validateManifests } from '../../src';
import { bothGiven, propsSpec } from '../../src/core/props-spec';
import type { PropEntry, PropKind, PropsSpec } from '../../src/core/props-spec';
import { CLUSTER_API_IAM_PROPS, ClusterApiIam } from '../../src/aws/cluster-api-iam';
import { CLUSTER_IMAGES_PROPS, ClusterImages } from '../../src/aws/cluster-images';
import { CLUSTER_NETWORK_OPTIONS, CLUSTER_NETWORK_PROPS, ClusterNetwork } from '../../src/aws/cluster-network';
import { CLUSTER_VPC_ENDPOINTS_PROPS, ClusterVpcEndpoints } from '../../src/aws/cluster-vpc-endpoints';
import { EXISTING_NETWORK, ExistingClusterNetwork } from '../../src/aws/existing-network';
import { HYBRID_CLUSTER_INFRA_PROPS, HybridClusterInfra } from '../../src/aws/hybrid-cluster-infra';
import { HYBRID_CLUSTER_INFRA_STACK_PROPS, HybridClusterInfraStack } from '../../src/aws/hybrid-cluster-infra-stack';
import { HYBRID_EKS_CLUSTER_PROPS, HybridEksCluster } from '../../src/eks/eks-cluster';
import { HYBRID_EKS_STACK_PROPS, HybridEksStack, HybridEksStackProps } from '../../src/eks/hybrid-eks-stack';
import { EKS_LINUX_NODE_GROUP_PROPS, EksLinuxNodeGroup } from '../../src/eks/linux-node-group';
import { EKS_WINDOWS_NODE_GROUP_PROPS, EksWindowsNodeGroup } from '../../src/eks/windows-node-group';
import { WINDOWS_EXPORTER_PROPS, WindowsExporter } from '../../src/workloads/windows-exporter';
import { HYPERV_RUNTIME_CLASS_PROPS, HyperVRuntimeClass } from '../../src/workloads/hyperv-runtime-class';
import { EKS_NODE_ROLE_PROPS, EksNodeRole } from '../../src/eks/node-role';
import { KARPENTER_WINDOWS_NODE_POOL_PROPS, KarpenterWindowsNodePool } from '../../src/eks/karpenter-windows-node-pool';
import { KARPENTER_WINDOWS_NODE_ROLE_PROPS, KarpenterWindowsNodeRole } from '../../src/eks/karpenter-node-role';
import { SERVICE_ACCOUNT_ROLE_PROPS, ServiceAccountRole } from '../../src/eks/pod-credentials';
import { AWS_ROLE_SERVICE_ACCOUNT_PROPS, awsRoleServiceAccount } from '../../src/workloads/aws-role-service-account';
import { WINDOWS_EBS_CSI_NODE_PROPS, WINDOWS_SMB_CSI_PROPS, WindowsEbsCsiNode, WindowsSmbCsi } from '../../src/workloads/windows-csi';
import { WindowsPlatform } from '../../src/platform/support';
import { WINDOWS_FLUENT_BIT_PROPS, WindowsFluentBit } from '../../src/workloads/windows-fluent-bit';
import { HYBRID_CHART_PROPS, HybridChart } from '../../src/workloads/hybrid-chart';
import { GMSA_CREDENTIAL_SPEC_PROPS, GMSA_WEBHOOK_PROPS, GmsaCredentialSpec, GmsaWebhook } from '../../src/workloads/gmsa';
import { WINDOWS_POD_OPTIONS, WindowsPod } from '../../src/workloads/windows-pod';
import { WINDOWS_WORKLOAD_PROPS, WindowsWorkload } from '../../src/workloads/windows-workload';
import { AwsProvider } from '../../src/terraform/providers/aws';
import { AzurermProvider } from '../../src/terraform/providers/azurerm';
import { GoogleProvider } from '../../src/terraform/providers/google';
import { HYBRID_AKS_CLUSTER_PROPS, HybridAksCluster } from '../../src/aks/aks-cluster';
import { HYBRID_AKS_STACK_PROPS, HybridAksStack } from '../../src/aks/hybrid-aks-stack';
import { AKS_LINUX_NODE_POOL_PROPS, AksLinuxNodePool } from '../../src/aks/linux-node-pool';
import { AKS_WINDOWS_NODE_POOL_PROPS, AksWindowsNodePool } from '../../src/aks/windows-node-pool';
import { HYBRID_GKE_CLUSTER_PROPS, HybridGkeCluster } from '../../src/gke/gke-cluster';
import { GKE_NETWORK_PROPS, GkeNetwork } from '../../src/gke/gke-network';
import { HYBRID_GKE_STACK_PROPS, HybridGkeStack } from '../../src/gke/hybrid-gke-stack';
import { GKE_LINUX_NODE_POOL_PROPS, GkeLinuxNodePool } from '../../src/gke/linux-node-pool';
import { GKE_WINDOWS_NODE_POOL_PROPS, GkeWindowsNodePool } from '../../src/gke/windows-node-pool';
import { MachineImage } from '../../src/cluster/machine-image';
import { HYBRID_CLUSTER_PROPS, HybridCluster } from '../../src/cluster/hybrid-cluster';
import { LINUX_WORKER_POOL_PROPS, LinuxWorkerPool } from '../../src/cluster/linux-worker-pool';
import { WINDOWS_WORKER_POOL_PROPS, WindowsWorkerPool } from '../../src/cluster/windows-worker-pool';
import { REMOTE_HYBRID_CLUSTER_PROPS, RemoteHybridCluster } from '../../src/remote/remote-hybrid-cluster';
import { REMOTE_LINUX_WORKER_POOL_PROPS, RemoteLinuxWorkerPool } from '../../src/remote/remote-linux-worker-pool';
import { REMOTE_WINDOWS_WORKER_POOL_PROPS, RemoteWindowsWorkerPool } from '../../src/remote/remote-windows-worker-pool';
import { CAPZ_CLUSTER_PROPS, CapzCluster } from '../../src/capz/capz-cluster';
import { CAPZ_LINUX_WORKER_POOL_PROPS, CAPZ_WINDOWS_WORKER_POOL_PROPS, CapzLinuxWorkerPool, CapzWindowsWorkerPool } from '../../src/capz/worker-pools';
import { CAPZ_WINDOWS_ADDONS_PROPS, CapzWindowsAddons } from '../../src/capz/windows-addons';
import { offShape } from './message-shape';

/**
 * The constructs that declare their props (src/core/props-spec.ts), each with valid props and a
 * way to build it and judge what it writes: the generated property tests
 * (test/properties/props-spec.test.ts) feed every prop of every spec odd values and compare the
 * outcome with what the spec declares.
 */
export interface SpecSubject<F = unknown> {
  readonly name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly spec: PropsSpec<any>;
  /** Props it builds with. */
  readonly base: Readonly<Record<string, unknown>>;
  /** A fresh scope to build it in (an app, a chart, a stack with an EKS cluster). */
  fixture(): F;
  /** Builds it in `fixture` as `id`. */
  build(fixture: F, id: string, props: unknown): void;
  /** The construct path of the one built as `id`, which its errors name. */
  pathOf(id: string): string;
  /** Synthesizes `fixture`, rules on; returns what the rules find in the output. */
  synth(fixture: F): string[];
  /** What the construct names its props with (`network.` where a stack's prop holds them). @default '' */
  readonly prefix?: string;
  /** Props of the construct that builds this one, which its refusals name (`iamNamePrefix` for ClusterApiIam's `namePrefix`). */
  readonly alsoNamed?: readonly string[];
  /** The spec is part of the construct's props, which another subject's spec parses first (its props-object test is that one's). */
  readonly partOfProps?: boolean;
  /** Props the construct reads through another spec of its own (ClusterNetwork's clusterName and region beside its options). */
  readonly alsoReads?: readonly string[];
}

const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

/** Synthesizes a cdk8s app (construct validations included) and judges its objects. */
function k8s(chart: Chart): string[] {
  const objects = parseAllDocuments((chart.node.root as App).synthYaml()).map((d) => d.toJS()).filter((o) => o !== null);
  return [...validateManifests(objects).map((v) => v.message), ...dataProblems(objects)];
}

/** Synthesizes a Terraform stack (its validations run the Terraform rules) and judges its JSON. */
function tf(stack: TerraformStack): string[] {
  return dataProblems(JSON.parse(Testing.synth(stack, true)));
}

function awsStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'tf');
  new AwsProvider(stack, 'aws', { region: 'eu-north-1' });
  return stack;
}

/** Subnets that exist: fewer resources to synthesize than a created network. */
const EXISTING = { vpcId: 'vpc-0123456789abcdef0', publicSubnetIds: ['subnet-0bbb0000000000001', 'subnet-0bbb0000000000002'], privateSubnetIds: ['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002'] };

/** An EKS cluster on existing subnets, with a Linux group for CoreDNS, for the node groups. */
function eksCluster(more: Partial<HybridEksStackProps> = {}): HybridEksCluster {
  const stack = new HybridEksStack(Testing.app(), 'eks', { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34', existingNetwork: EXISTING, ...more });
  new EksLinuxNodeGroup(stack.cluster, 'base', { instanceTypes: ['t3.large'], minSize: 2 });
  return stack.cluster;
}

/** A stack of `provider`'s cloud, for a construct that creates none. */
function stackWith(provider: (stack: TerraformStack) => unknown): () => TerraformStack {
  return () => {
    const stack = new TerraformStack(Testing.app(), 'tf');
    provider(stack);
    return stack;
  };
}
const azureStack = stackWith((stack) => new AzurermProvider(stack, 'azurerm', { features: [{}] }));
const googleStack = stackWith((stack) => new GoogleProvider(stack, 'google', { project: 'my-project', region: 'europe-north1' }));
const AKS_STACK = { location: 'westeurope', clusterName: 'aks-test', kubernetesVersion: '1.34' };
const GKE_STACK = { project: 'my-project', region: 'europe-north1', clusterName: 'gke-test' };
const aksCluster = (): HybridAksCluster => new HybridAksStack(Testing.app(), 'aks-test', AKS_STACK).cluster;
const gkeCluster = (): HybridGkeCluster => new HybridGkeStack(Testing.app(), 'gke-test', GKE_STACK).cluster;
const stackOf = (app: App): TerraformStack => app.node.children.find((c) => c instanceof TerraformStack) as TerraformStack;

/** Values no output may hold: non-finite numbers, nulls (NaN written as JSON), the 300 KB input. */
function dataProblems(value: unknown, where = ''): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [`${where}: ${value}`];
  if (value === null) return [`${where}: null`];
  if (typeof value === 'string') return value.length >= HUGE.length ? [`${where}: a string of ${value.length} characters`] : [];
  if (typeof value !== 'object') return [];
  return Object.entries(value as object).flatMap(([k, v]) => dataProblems(v, `${where}.${k}`));
}

export const HUGE = 'x'.repeat(300 * 1024);

const chart = (): Chart => new Chart(new App(), 'apps', { namespace: 'apps' });
/** A construct built in a plain stack with an AWS provider. */
function inAwsStack<P>(name: string, spec: PropsSpec<P>, base: Record<string, unknown>, make: (stack: TerraformStack, id: string, props: P) => unknown, more: Pick<SpecSubject, 'prefix' | 'alsoNamed' | 'partOfProps' | 'alsoReads'> = {}): SpecSubject<TerraformStack> {
  return { name, spec, base, fixture: awsStack, build: (stack, id, props) => make(stack, id, props as P), pathOf: (id) => `tf/${id}`, synth: tf, ...more };
}
const subject = <F>(s: SpecSubject<F>): SpecSubject => s as SpecSubject;
/** A construct built in a chart (namespace `apps`) of its own app, judged by the rules over the synthesized objects. */
function inChart<P>(name: string, spec: PropsSpec<P>, base: Record<string, unknown>, make: (chart: Chart, id: string, props: P) => unknown): SpecSubject {
  return subject<Chart>({ name, spec, base, fixture: chart, build: (c, id, props) => make(c, id, props as P), pathOf: (id) => `apps/${id}`, synth: k8s });
}

/** The Cluster API clusters (k0smotron on EC2 and on hosts), with a Linux pool each (CoreDNS), for their pools. */
const LINUX_AMI = MachineImage.id('ami-0fa91bc90632c73c9');
const HYBRID_CLUSTER = { region: 'eu-north-1', k0sVersion: 'v1.34.10+k0s.0', zones: ['eu-north-1a', 'eu-north-1b'], controlPlane: { instanceType: 't3.large', ami: LINUX_AMI } };
const LINUX_POOL = { instanceType: 't3.large', ami: LINUX_AMI };
const REMOTE_CLUSTER = { k0sVersion: 'v1.34.4+k0s.0', controlPlaneEndpoint: { host: '10.0.0.10' }, controlPlane: { hosts: [{ address: '10.0.0.11' }], sshKeySecret: 'ssh-key' } };
const remotePool = (octet: number) => ({ hosts: [{ address: `10.0.${octet}.11` }], sshKeySecret: 'ssh-key' });
const mgmt = (): Chart => new Chart(new App(), 'mgmt');
function hybridCluster(): HybridCluster {
  const cluster = new HybridCluster(mgmt(), 'c', HYBRID_CLUSTER as never);
  new LinuxWorkerPool(cluster, 'linux', LINUX_POOL as never);
  return cluster;
}
function remoteCluster(): RemoteHybridCluster {
  const cluster = new RemoteHybridCluster(mgmt(), 'c', REMOTE_CLUSTER as never);
  new RemoteLinuxWorkerPool(cluster, 'linux', remotePool(1) as never);
  return cluster;
}
/** A pool's subject: built in a cluster of `fixture`, synthesized with it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function poolSubject<C extends HybridCluster | RemoteHybridCluster>(name: string, spec: PropsSpec<any>, base: Record<string, unknown>, fixture: () => C, make: (cluster: C, id: string, props: never) => unknown): SpecSubject {
  return subject<C>({ name, spec, base, fixture, pathOf: (id) => `mgmt/c/${id}`, build: (c, id, props) => make(c, id, props as never), synth: (c) => k8s(c.node.scope as Chart) });
}

/** A kubeadm cluster on Azure (CAPZ) like the CAPZ example's, with a Linux pool (CoreDNS), for its pools and add-ons. */
const GUID = '00000000-0000-0000-0000-000000000000';
const CAPZ_CLUSTER = {
  kubernetesVersion: 'v1.34.4', location: 'westeurope', subscriptionId: GUID, identity: { type: 'WorkloadIdentity', clientId: GUID, tenantId: GUID }, cloudProvider: 'helm-chart-proxy',
  machineIdentity: `/subscriptions/${GUID}/resourceGroups/ids/providers/Microsoft.ManagedIdentity/userAssignedIdentities/cloud-provider`,
};
const CAPZ_POOL = { vmSize: 'Standard_D4s_v3' };
function capzCluster(): CapzCluster {
  const cluster = new CapzCluster(new Chart(new App(), 'mgmt', { namespace: 'default' }), 'c', CAPZ_CLUSTER as never);
  new CapzLinuxWorkerPool(cluster, 'linux', CAPZ_POOL as never);
  return cluster;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const capzSubject = (name: string, spec: PropsSpec<any>, base: Record<string, unknown>, make: (cluster: CapzCluster, id: string, props: never) => unknown): SpecSubject => subject<CapzCluster>({
  name, spec, base, fixture: capzCluster, pathOf: (id) => `mgmt/c/${id}`, build: (c, id, props) => make(c, id, props as never), synth: (c) => k8s(c.node.scope as Chart),
});

export const SUBJECTS: readonly SpecSubject[] = [
  subject<Chart>({
    name: 'WindowsWorkload', spec: WINDOWS_WORKLOAD_PROPS, base: { image: IIS }, fixture: chart, pathOf: (id) => `apps/${id}`, synth: k8s,
    build: (c, id, props) => new WindowsWorkload(c, id, props as never),
  }),
  subject<Chart>({
    name: 'WindowsPod', spec: WINDOWS_POD_OPTIONS, base: {}, fixture: chart, pathOf: (id) => `apps/${id}`, synth: k8s,
    build: (c, id, props) => new WindowsPod(new kplus.Deployment(c, id, { containers: [{ image: IIS }] }), props as never),
  }),
  subject<Chart>({
    name: 'WindowsExporter', spec: WINDOWS_EXPORTER_PROPS, base: {}, fixture: chart, pathOf: (id) => `apps/${id}`, synth: k8s,
    build: (c, id, props) => new WindowsExporter(c, id, props as never),
  }),
  subject<App>({
    name: 'HybridEksStack', spec: HYBRID_EKS_STACK_PROPS, base: { region: 'eu-north-1', clusterName: 'eks', kubernetesVersion: '1.34', existingNetwork: EXISTING },
    fixture: () => Testing.app() as unknown as App, pathOf: (id) => id,
    build: (app, id, props) => new EksLinuxNodeGroup(new HybridEksStack(app as never, id, props as never).cluster, 'base', { instanceTypes: ['t3.large'], minSize: 2 }),
    synth: (app) => tf(app.node.children.find((c) => c instanceof TerraformStack) as TerraformStack),
  }),
  inAwsStack('HybridEksCluster', HYBRID_EKS_CLUSTER_PROPS, { clusterName: 'eks', kubernetesVersion: '1.34', subnetIds: ['subnet-0aaa0000000000001', 'subnet-0bbb0000000000002'] },
    (stack, id, props) => new EksLinuxNodeGroup(new HybridEksCluster(stack, id, props), 'base', { instanceTypes: ['t3.large'], minSize: 2 })),
  subject<HybridEksCluster>({
    name: 'EksLinuxNodeGroup', spec: EKS_LINUX_NODE_GROUP_PROPS, base: { machineTypes: ['t3.large'] }, fixture: eksCluster, pathOf: (id) => `eks/Cluster/${id}`,
    build: (cluster, id, props) => new EksLinuxNodeGroup(cluster, id, props as never), synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  subject<HybridEksCluster>({
    name: 'EksWindowsNodeGroup', spec: EKS_WINDOWS_NODE_GROUP_PROPS, base: { machineTypes: ['m6i.xlarge'] }, fixture: eksCluster, pathOf: (id) => `eks/Cluster/${id}`,
    build: (cluster, id, props) => new EksWindowsNodeGroup(cluster, id, props as never), synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  subject<App>({
    name: 'HybridClusterInfraStack', spec: HYBRID_CLUSTER_INFRA_STACK_PROPS, base: { region: 'eu-north-1', clusterName: 'aws-test' },
    fixture: () => Testing.app() as unknown as App, pathOf: (id) => id,
    build: (app, id, props) => new HybridClusterInfraStack(app as never, id, props as never),
    synth: (app) => tf(app.node.children.find((c) => c instanceof TerraformStack) as TerraformStack),
  }),
  subject<Chart>({
    name: 'HyperVRuntimeClass', spec: HYPERV_RUNTIME_CLASS_PROPS, base: {}, fixture: chart, pathOf: (id) => `apps/${id}`, synth: k8s,
    build: (c, id, props) => new HyperVRuntimeClass(c, id, props as never),
  }),
  inAwsStack('EksNodeRole', EKS_NODE_ROLE_PROPS, { partition: 'aws' }, (stack, id, props) => new EksNodeRole(stack, id, props)),
  inAwsStack('HybridClusterInfra', HYBRID_CLUSTER_INFRA_PROPS, { clusterName: 'aws-test' }, (stack, id, props) => new HybridClusterInfra(stack, id, props)),
  inAwsStack('ClusterNetwork', CLUSTER_NETWORK_PROPS, { clusterName: 'c', region: 'eu-north-1' }, (stack, id, props) => new ClusterNetwork(stack, id, props as never), { partOfProps: true }),
  // The options of the same construct, named network.<prop>.
  inAwsStack('ClusterNetwork options', CLUSTER_NETWORK_OPTIONS, { clusterName: 'c', region: 'eu-north-1' }, (stack, id, props) => new ClusterNetwork(stack, id, props as never), { prefix: 'network.', alsoReads: ['clusterName', 'region'] }),
  inAwsStack('ExistingClusterNetwork', EXISTING_NETWORK, { clusterName: 'c', ...EXISTING },
    (stack, id, props) => new ExistingClusterNetwork(stack, id, props as never), { prefix: 'existingNetwork.', alsoReads: ['clusterName'] }),
  inAwsStack('ClusterImages', CLUSTER_IMAGES_PROPS, {}, (stack, id, props) => new ClusterImages(stack, id, props), { prefix: 'images.' }),
  // Built by HybridClusterInfra, whose prop iamNamePrefix its refusals name.
  inAwsStack('ClusterApiIam', CLUSTER_API_IAM_PROPS, { partition: 'aws' }, (stack, id, props) => new ClusterApiIam(stack, id, props), { alsoNamed: ['iamNamePrefix'] }),
  inAwsStack('ClusterVpcEndpoints', CLUSTER_VPC_ENDPOINTS_PROPS,
    { clusterName: 'c', region: 'eu-north-1', vpcId: 'vpc-0123456789abcdef0', vpcCidr: '10.0.0.0/16', subnetIds: ['subnet-0aaa0000000000001'], routeTableIds: ['rtb-0123456789abcdef0'] },
    (stack, id, props) => new ClusterVpcEndpoints(stack, id, props)),
  subject<App>({
    name: 'HybridAksStack', spec: HYBRID_AKS_STACK_PROPS, base: AKS_STACK, fixture: () => Testing.app() as unknown as App, pathOf: (id) => id,
    build: (app, id, props) => new HybridAksStack(app as never, id, props as never), synth: (app) => tf(stackOf(app)),
  }),
  subject<TerraformStack>({
    name: 'HybridAksCluster', spec: HYBRID_AKS_CLUSTER_PROPS, fixture: azureStack, pathOf: (id) => `tf/${id}`, synth: tf,
    base: { clusterName: 'aks', kubernetesVersion: '1.34', location: 'westeurope', resourceGroupName: 'rg', subnetId: '/subscriptions/0/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/aks' },
    build: (stack, id, props) => new HybridAksCluster(stack, id, props as never),
  }),
  subject<HybridAksCluster>({
    name: 'AksLinuxNodePool', spec: AKS_LINUX_NODE_POOL_PROPS, base: { machineType: 'Standard_D4ds_v5' }, fixture: aksCluster, pathOf: (id) => `aks-test/Cluster/${id}`,
    build: (cluster, id, props) => new AksLinuxNodePool(cluster, id, props as never), synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  subject<HybridAksCluster>({
    name: 'AksWindowsNodePool', spec: AKS_WINDOWS_NODE_POOL_PROPS, base: { machineType: 'Standard_D4ds_v5', poolName: 'win' }, fixture: aksCluster, pathOf: (id) => `aks-test/Cluster/${id}`,
    build: (cluster, id, props) => new AksWindowsNodePool(cluster, id, props as never), synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  subject<App>({
    name: 'HybridGkeStack', spec: HYBRID_GKE_STACK_PROPS, base: GKE_STACK, fixture: () => Testing.app() as unknown as App, pathOf: (id) => id,
    build: (app, id, props) => new HybridGkeStack(app as never, id, props as never), synth: (app) => tf(stackOf(app)),
  }),
  subject<TerraformStack>({
    name: 'HybridGkeCluster', spec: HYBRID_GKE_CLUSTER_PROPS, fixture: googleStack, pathOf: (id) => `tf/${id}`, synth: tf,
    base: { clusterName: 'gke', project: 'my-project', location: 'europe-north1', network: { network: 'net', subnetwork: 'subnet', podsRangeName: 'pods', servicesRangeName: 'services' } },
    build: (stack, id, props) => new HybridGkeCluster(stack, id, props as never),
  }),
  subject<TerraformStack>({
    name: 'GkeNetwork', spec: GKE_NETWORK_PROPS, base: { name: 'net', region: 'europe-north1' }, fixture: googleStack, pathOf: (id) => `tf/${id}`, synth: tf,
    build: (stack, id, props) => new GkeNetwork(stack, id, props as never),
  }),
  subject<HybridGkeCluster>({
    name: 'GkeLinuxNodePool', spec: GKE_LINUX_NODE_POOL_PROPS, base: { machineType: 'e2-standard-4' }, fixture: gkeCluster, pathOf: (id) => `gke-test/Cluster/${id}`,
    build: (cluster, id, props) => new GkeLinuxNodePool(cluster, id, props as never), synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  subject<HybridGkeCluster>({
    name: 'GkeWindowsNodePool', spec: GKE_WINDOWS_NODE_POOL_PROPS, base: { machineType: 'n2-standard-4' }, fixture: gkeCluster, pathOf: (id) => `gke-test/Cluster/${id}`,
    build: (cluster, id, props) => {
      // kube-dns needs a Linux node beside Windows pools (gke-windows-cluster).
      new GkeLinuxNodePool(cluster, `${id}-linux`, { machineType: 'e2-standard-4' });
      new GkeWindowsNodePool(cluster, id, props as never);
    },
    synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  // Day 2
  inChart('KarpenterWindowsNodePool', KARPENTER_WINDOWS_NODE_POOL_PROPS, { clusterName: 'eks', role: 'eks-karpenter-windows', limits: { cpu: 64 } }, (c, id, props) => new KarpenterWindowsNodePool(c, id, props)),
  subject<HybridEksCluster>({
    name: 'KarpenterWindowsNodeRole', spec: KARPENTER_WINDOWS_NODE_ROLE_PROPS, base: {}, fixture: eksCluster, pathOf: (id) => `eks/Cluster/${id}`,
    build: (cluster, id, props) => new KarpenterWindowsNodeRole(cluster, id, props as never), synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  subject<HybridEksCluster>({
    name: 'ServiceAccountRole', spec: SERVICE_ACCOUNT_ROLE_PROPS, base: { namespace: 'shop', serviceAccount: 'iis' }, fixture: () => eksCluster({ podCredentials: { irsa: true } }),
    pathOf: (id) => `eks/Cluster/${id}`, build: (cluster, id, props) => new ServiceAccountRole(cluster, id, props as never), synth: (cluster) => tf(cluster.node.scope as TerraformStack),
  }),
  inChart('WindowsSmbCsi', WINDOWS_SMB_CSI_PROPS, { platform: WindowsPlatform.EKS }, (c, id, props) => new WindowsSmbCsi(c, id, props)),
  inChart('WindowsEbsCsiNode', WINDOWS_EBS_CSI_NODE_PROPS, { platform: WindowsPlatform.EKS }, (c, id, props) => new WindowsEbsCsiNode(c, id, props)),
  inChart('GmsaWebhook', GMSA_WEBHOOK_PROPS, {}, (c, id, props) => new GmsaWebhook(c, id, props)),
  inChart('GmsaCredentialSpec', GMSA_CREDENTIAL_SPEC_PROPS,
    { name: 'webapp1', account: 'WebApp1', domain: { dnsName: 'contoso.com', netBiosName: 'CONTOSO', guid: '244818ae-87ca-4fcd-92ec-e79e5252348a', sid: 'S-1-5-21-2126729477-2524075714-3094792973' } },
    (c, id, props) => new GmsaCredentialSpec(c, id, props)),
  inChart('WindowsFluentBit', WINDOWS_FLUENT_BIT_PROPS, { versions: ['2022'], namespace: 'logging' }, (c, id, props) => new WindowsFluentBit(c, id, props)),
  subject<App>({
    name: 'HybridChart', spec: HYBRID_CHART_PROPS, base: {}, fixture: () => new App(), pathOf: (id) => id,
    // A Linux workload in it: the chart's checks and pinning have a pod template to judge.
    build: (app, id, props) => new kplus.Deployment(new HybridChart(app, id, props as never), 'web', { containers: [{ image: 'nginx:1.27', securityContext: { ensureNonRoot: false } }] }),
    synth: (app) => k8s(app.node.children[0] as Chart),
  }),
  // A function's props: errors name the service account it makes.
  inChart('AwsRoleServiceAccountProps', AWS_ROLE_SERVICE_ACCOUNT_PROPS, { name: 'iis', roleArn: 'arn:aws:iam::123456789012:role/shop-iis' }, (c, id, props) => awsRoleServiceAccount(c, id, props)),
  subject<Chart>({
    name: 'HybridCluster', spec: HYBRID_CLUSTER_PROPS, base: HYBRID_CLUSTER, fixture: mgmt, pathOf: (id) => `mgmt/${id}`, synth: k8s,
    build: (c, id, props) => new LinuxWorkerPool(new HybridCluster(c, id, props as never), 'linux', LINUX_POOL as never),
  }),
  poolSubject('LinuxWorkerPool', LINUX_WORKER_POOL_PROPS, LINUX_POOL, hybridCluster, (c, id, props) => new LinuxWorkerPool(c, id, props)),
  poolSubject('WindowsWorkerPool', WINDOWS_WORKER_POOL_PROPS, { instanceType: 'm6i.xlarge' }, hybridCluster, (c, id, props) => new WindowsWorkerPool(c, id, props)),
  subject<Chart>({
    name: 'RemoteHybridCluster', spec: REMOTE_HYBRID_CLUSTER_PROPS, base: REMOTE_CLUSTER, fixture: mgmt, pathOf: (id) => `mgmt/${id}`, synth: k8s,
    build: (c, id, props) => new RemoteLinuxWorkerPool(new RemoteHybridCluster(c, id, props as never), 'linux', remotePool(1) as never),
  }),
  poolSubject('RemoteLinuxWorkerPool', REMOTE_LINUX_WORKER_POOL_PROPS, remotePool(2), remoteCluster, (c, id, props) => new RemoteLinuxWorkerPool(c, id, props)),
  poolSubject('RemoteWindowsWorkerPool', REMOTE_WINDOWS_WORKER_POOL_PROPS, remotePool(3), remoteCluster, (c, id, props) => new RemoteWindowsWorkerPool(c, id, props)),
  subject<Chart>({
    name: 'CapzCluster', spec: CAPZ_CLUSTER_PROPS, base: CAPZ_CLUSTER, fixture: () => new Chart(new App(), 'mgmt', { namespace: 'default' }), pathOf: (id) => `mgmt/${id}`, synth: k8s,
    build: (c, id, props) => new CapzLinuxWorkerPool(new CapzCluster(c, id, props as never), 'linux', CAPZ_POOL as never),
  }),
  capzSubject('CapzLinuxWorkerPool', CAPZ_LINUX_WORKER_POOL_PROPS, CAPZ_POOL, (c, id, props) => new CapzLinuxWorkerPool(c, id, props)),
  capzSubject('CapzWindowsWorkerPool', CAPZ_WINDOWS_WORKER_POOL_PROPS, { ...CAPZ_POOL, kubeletService: 'nssm' }, (c, id, props) => new CapzWindowsWorkerPool(c, id, props)),
  capzSubject('CapzWindowsAddons', CAPZ_WINDOWS_ADDONS_PROPS, {}, (c, id, props) => new CapzWindowsAddons(c, id, props)),
];

/** An object whose every read throws, as a getter or proxy can. */
const throwing = new Proxy({}, { get: () => { throw new Error('no reading me'); }, ownKeys: () => { throw new Error('no listing me'); } });

/** The odd values every prop is fed (the list), before its kind's own edge values. */
export const ODD_VALUES: readonly unknown[] = [
  undefined, null, NaN, Infinity, -Infinity, 0.5, -1, 0, '', '   ', HUGE, 'ünïcødé ✓ 日本語', 'a\nb', 42, true, {}, [],
  BigInt(5), Object.freeze({ a: 'b' }), Object.freeze(['a']), new Proxy({ a: 'b' }, {}), throwing,
  { get a() { throw new RangeError('getter'); } },
  JSON.parse('{"__proto__": {"polluted": "yes"}}'), { constructor: 'x' }, 'a-string,where-a-list-belongs', () => 1, Symbol('s'),
];

/** A prop of a spec, nested ones (`network.vpcCidr`) included: where its value goes, and its entry. */
export interface SpecProp {
  /** `network.vpcCidr`. */
  readonly name: string;
  readonly top: string;
  readonly nested?: string;
  readonly entry: PropEntry;
}

/** Every prop of `spec`, one level of nested props objects included. */
export function propsOf(spec: PropsSpec<unknown>): SpecProp[] {
  return Object.entries<PropEntry>(spec.entries).flatMap(([top, entry]) => {
    const nested = (entry.declared?.kind ?? entry.kind).nested;
    return [
      { name: top, top, entry },
      ...Object.entries<PropEntry>(nested?.entries ?? {}).map(([key, inner]) => ({ name: `${top}.${key}`, top, nested: key, entry: inner })),
    ];
  });
}

/** `base` with `value` at the prop's place. */
export function withValue(base: Readonly<Record<string, unknown>>, prop: SpecProp, value: unknown): Record<string, unknown> {
  if (prop.nested === undefined) return { ...base, [prop.top]: value };
  const inner = base[prop.top];
  return { ...base, [prop.top]: { ...(typeof inner === 'object' && inner !== null ? inner : {}), [prop.nested]: value } };
}

/** The values `prop` is fed: the odd ones, and its kind's edges. */
export function valuesFor(prop: SpecProp): unknown[] {
  const kind: PropKind = prop.entry.declared?.kind ?? prop.entry.kind;
  return [...ODD_VALUES, ...kind.edges];
}

/** What the spec declares for `props` at `path`: the error its parse throws, or undefined when it takes them. */
function declared(subject: SpecSubject, path: string, props: Record<string, unknown>, prop: SpecProp): HybridConfigError | undefined {
  const entry = subject.spec.entries[prop.top] as PropEntry;
  // The prop alone, as declared (by the construct it is handed on to, if so), with the exclusions it is in.
  const alone = propsSpec<Record<string, unknown>>('alone', { [prop.top]: { ...entry, kind: entry.declared?.kind ?? entry.kind } });
  const others = subject.spec.exclusions.filter((x) => x.props.includes(prop.top));
  try {
    for (const { props: [a, b], what, fix } of others) {
      if (props[a] !== undefined && props[b] !== undefined) throw new HybridConfigError(path, what ?? bothGiven(`${subject.prefix ?? ''}${a}`, props[a], `${subject.prefix ?? ''}${b}`, props[b]), fix);
    }
    alone.parse(path, { [prop.top]: props[prop.top] }, subject.prefix);
    return undefined;
  } catch (e) {
    if (e instanceof HybridConfigError) return e;
    throw e;
  }
}

/** The names of a subject's props, top level and nested, and those it is also named by. */
function propNames(subject: SpecSubject): string[] {
  return [...propsOf(subject.spec).flatMap((p) => [p.top, p.nested ?? p.top]), ...subject.alsoNamed ?? []];
}

/** Specs that are subjects of their own: where another subject takes their props, the values they take are built there. */
const SUBJECT_SPECS = (): Set<unknown> => new Set(SUBJECTS.map((s) => s.spec));
const SUBJECT_NAMES = (): Set<string> => new Set(SUBJECTS.map((s) => s.name));

/**
 * Whether the values `prop` takes are built and judged by another subject: a prop handed on to
 * a construct that is a subject, or a prop of a nested object whose spec is one. Its refusals are
 * still checked here (they cost no synth).
 */
function coveredElsewhere(subject: SpecSubject, prop: SpecProp): boolean {
  const top = subject.spec.entries[prop.top] as PropEntry;
  if (top.declared !== undefined && SUBJECT_NAMES().has(top.declared.by)) return true;
  return prop.nested !== undefined && SUBJECT_SPECS().has((top.declared?.kind ?? top.kind).nested);
}

const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The generated property of one prop of `subject`: fed each of `values`, it gives the declared
 * error, exactly (path, what, fix; a prop handed on to another construct may be refused at that
 * construct's path below), or, where the spec takes the value, output that passes the rules and
 * holds no NaN, null or 300 KB string, or an error in the one shape that names a prop. Never a raw
 * TypeError or RangeError, never a polluted Object.prototype. Returns what is wrong ([] when all
 * is well). Refused values are built side by side in one fixture (each fails before it builds
 * anything); each taken value gets a fixture of its own, synthesized.
 */
export function judgeProp(subject: SpecSubject, prop: SpecProp, values: readonly unknown[]): string[] {
  const shared = subject.fixture();
  const covered = coveredElsewhere(subject, prop);
  return values.flatMap((value, i) => judgeValue(subject, prop, value, shared, `v${i}`, covered).map((w) => `${describe(value)}: ${w}`));
}

function judgeValue(subject: SpecSubject, prop: SpecProp, value: unknown, shared: unknown, id: string, covered: boolean): string[] {
  const props = withValue(subject.base, prop, value);
  const path = subject.pathOf(id);
  const expected = declared(subject, path, props, prop);
  if (expected === undefined && covered) return [];
  let thrown: unknown;
  let found: string[] = [];
  try {
    if (expected !== undefined) {
      subject.build(shared, id, props);
    } else {
      const own = subject.fixture();
      subject.build(own, id, props);
      found = subject.synth(own);
    }
  } catch (e) {
    thrown = e;
  }
  const polluted = Object.getOwnPropertyNames(Object.prototype).filter((k) => !PROTOTYPE_KEYS.has(k));
  const wrong: string[] = polluted.length > 0 ? [`Object.prototype polluted: ${polluted.join(', ')}`] : [];
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  if (expected !== undefined) {
    const handedOn = prop.entry.declared !== undefined || (subject.spec.entries[prop.top] as PropEntry).declared !== undefined;
    if (!(thrown instanceof HybridConfigError)) return [...wrong, `expected the declared error ${expected.message}, got ${thrown === undefined ? 'no error' : message}`];
    const samePlace = handedOn ? thrown.path.startsWith(path) : thrown.path === expected.path;
    if (!samePlace || thrown.what !== expected.what || thrown.fix !== expected.fix) wrong.push(`expected the declared error ${expected.message}, got ${message}`);
    return wrong;
  }
  if (thrown === undefined) return [...wrong, ...found.map((f) => `the output: ${f}`)];
  if (thrown instanceof TypeError || thrown instanceof RangeError || !(thrown instanceof Error)) return [...wrong, `raw ${(thrown as Error)?.name ?? typeof thrown}: ${message}`];
  if (offShape(message).length > 0) return [...wrong, `off the one shape: ${message}`];
  // A refusal names a prop, or the value given (a judgement across props: an image of another release).
  if (!propNames(subject).some((n) => message.includes(n)) && !(['string', 'number'].includes(typeof value) && message.includes(String(value)))) wrong.push(`names no prop: ${message}`);
  return wrong;
}

/** A value as a failure names it. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}…` : value);
  if (typeof value === 'symbol' || typeof value === 'function') return typeof value;
  if (typeof value === 'bigint') return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}
