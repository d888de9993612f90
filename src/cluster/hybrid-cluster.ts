import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ClusterInfra } from '../infra/cluster-infra';
import {
  AwsCluster,
  AwsClusterSpecControlPlaneLoadBalancerAdditionalListenersProtocol as ListenerProtocol,
  AwsClusterSpecControlPlaneLoadBalancerHealthCheckProtocol as HealthCheckProtocol,
  AwsClusterSpecControlPlaneLoadBalancerIngressRules as LoadBalancerIngressRule,
  AwsClusterSpecControlPlaneLoadBalancerIngressRulesProtocol as LbProtocol,
  AwsClusterSpecControlPlaneLoadBalancerIngressRulesSourceSecurityGroupRoles as LbSourceRole,
  AwsClusterSpecControlPlaneLoadBalancerLoadBalancerType,
  AwsClusterSpecControlPlaneLoadBalancerScheme,
  AwsClusterSpecNetworkAdditionalControlPlaneIngressRulesProtocol as CpProtocol,
  AwsClusterSpecNetworkAdditionalControlPlaneIngressRulesSourceSecurityGroupRoles as CpSourceRole,
  AwsClusterSpecNetwork,
  AwsMachineTemplate,
} from '../generated/capa-infrastructure.cluster.x-k8s.io';
import { Cluster } from '../generated/cluster-api-cluster.x-k8s.io';
import { K0sControlPlane, K0SControlPlaneSpecUpdateStrategy } from '../generated/k0smotron-controlplane.cluster.x-k8s.io';
import { CalicoMode, KubernetesNetworkProps, cniIngressRules, k0sNetworkConfig, NetworkProvider } from './kubernetes-network';
import { clusterChecks } from './cluster-checks';
import { apiGroupOf, CLUSTERAWSADM_INSTANCE_PROFILES, K0S_CLUSTER_PORTS, K0S_PORTS } from './conventions';
import { hashedMachineTemplate, MachineProps, machineTemplateSpec } from './machine-template';
import { typedApiObject } from './typed-api-object';
import { WorkerPool } from './worker-pool';

export {
  AwsClusterSpecControlPlaneLoadBalancerLoadBalancerType as LoadBalancerType,
  AwsClusterSpecControlPlaneLoadBalancerScheme as LoadBalancerScheme,
  K0SControlPlaneSpecUpdateStrategy as ControlPlaneUpdateStrategy,
};

/** The Linux control plane: k0s controllers on EC2 behind a network load balancer. */
export interface ControlPlaneProps extends MachineProps {
  /**
   * Number of controllers; odd, so that etcd keeps a quorum through one failure.
   * @default 3
   */
  readonly replicas?: number;
  /**
   * Run workloads on the controllers too (`k0s controller --enable-worker`). This also counts as
   * the Linux worker that CoreDNS needs.
   * @default false
   */
  readonly enableWorker?: boolean;
  /**
   * How k0smotron rolls out a new version or machine template.
   * @default K0SControlPlaneSpecUpdateStrategy.RECREATE
   */
  readonly updateStrategy?: K0SControlPlaneSpecUpdateStrategy;
  /**
   * Extra kube-apiserver flags (`spec.api.extraArgs` of the k0s config). Anonymous auth stays off
   * unless you set `anonymous-auth` here: CAPA's TCP health check does not need it.
   * @default - none
   */
  readonly apiExtraArgs?: Record<string, string>;
}

/** Where the API load balancer stands and who may reach it. */
export interface ApiServerLoadBalancerProps {
  /**
   * Load balancer type. k0s needs 8132 and 9443 beside 6443, and only an NLB carries additional
   * listeners: anything else fails the cluster's checks.
   * @default nlb
   */
  readonly type?: AwsClusterSpecControlPlaneLoadBalancerLoadBalancerType;
  /**
   * `internet-facing` or `internal`. An internal load balancer is reachable only from the VPC,
   * so the management cluster must be there too.
   * @default internet-facing
   */
  readonly scheme?: AwsClusterSpecControlPlaneLoadBalancerScheme;
  /**
   * CIDR blocks that may reach the Kubernetes API (6443) through the load balancer. The
   * management cluster must be among them. Nodes reach the API through the NAT gateways, which
   * CAPA allows by itself; 8132 and 9443 are only ever opened to the cluster's own nodes.
   * @default ['0.0.0.0/0'] (the API requires authentication, and anonymous auth is off)
   */
  readonly allowedCidrs?: string[];
  /**
   * Further ingress rules for the load balancer's security group.
   * @default - none
   */
  readonly additionalIngressRules?: LoadBalancerIngressRule[];
}

export interface HybridClusterProps {
  /**
   * The cluster's name: of the Cluster object, of its AWS resources and the prefix of every
   * other object. A DNS label of at most 40 characters.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * AWS region.
   * @default - the `infra` region (required when there is no `infra`)
   */
  readonly region?: string;
  /** k0s version of the control plane and, unless a pool says otherwise, the workers: `vX.Y.Z+k0s.N`. */
  readonly k0sVersion: string;
  /**
   * EC2 key pair for SSH (Linux) and for decrypting the Windows Administrator password.
   * @default - the `infra` key pair, else none
   */
  readonly sshKeyName?: string;
  readonly controlPlane: ControlPlaneProps;
  /**
   * AWS infrastructure deployed by `HybridClusterInfra` (see `ClusterInfra.fromOutputsFile`):
   * its VPC and subnets become the cluster's network, and its AMIs and instance profiles the
   * machines' defaults.
   * @default - CAPA creates and manages a VPC itself
   */
  readonly infra?: ClusterInfra;
  /** @default - Calico in VXLAN mode, pods 192.168.0.0/16, services 10.128.0.0/12 */
  readonly network?: KubernetesNetworkProps;
  /** @default - an internet-facing NLB */
  readonly apiServerLoadBalancer?: ApiServerLoadBalancerProps;
  /**
   * Give each worker pool a MachineHealthCheck that replaces machines whose node stays unready.
   * @default true
   */
  readonly machineHealthChecks?: boolean;
  /**
   * Tags for every AWS resource CAPA creates.
   * @default - none
   */
  readonly additionalTags?: Record<string, string>;
}

/**
 * A Cluster API cluster with a k0s control plane (k0smotron) on AWS, ready for Linux and
 * Windows worker pools: add `LinuxWorkerPool`s and `WindowsWorkerPool`s as its children.
 */
export class HybridCluster extends Construct {
  public readonly clusterName: string;
  public readonly k0sVersion: string;
  public readonly infra?: ClusterInfra;
  public readonly sshKeyName?: string;
  public readonly additionalTags?: Record<string, string>;
  public readonly machineHealthChecks: boolean;
  public readonly cluster: ApiObject;
  public readonly awsCluster: ApiObject;
  public readonly controlPlane: ApiObject;
  public readonly controlPlaneMachineTemplate: ApiObject;

  public constructor(scope: Construct, id: string, props: HybridClusterProps) {
    super(scope, id);
    this.clusterName = props.name ?? id;
    this.k0sVersion = props.k0sVersion;
    this.infra = props.infra;
    this.sshKeyName = props.sshKeyName ?? props.infra?.sshKeyName;
    this.additionalTags = props.additionalTags;
    this.machineHealthChecks = props.machineHealthChecks ?? true;

    const network = {
      podCidr: '192.168.0.0/16',
      serviceCidr: '10.128.0.0/12',
      provider: NetworkProvider.CALICO,
      calicoMode: CalicoMode.VXLAN,
      ...props.network,
    };
    const lb = {
      type: AwsClusterSpecControlPlaneLoadBalancerLoadBalancerType.NLB,
      scheme: AwsClusterSpecControlPlaneLoadBalancerScheme.INTERNET_HYPHEN_FACING,
      allowedCidrs: ['0.0.0.0/0'],
      additionalIngressRules: [],
      ...props.apiServerLoadBalancer,
    };

    this.awsCluster = typedApiObject(this, 'AWSCluster', AwsCluster, {
      metadata: { name: this.clusterName },
      spec: {
        region: props.region ?? props.infra?.region,
        sshKeyName: this.sshKeyName,
        additionalTags: props.additionalTags,
        controlPlaneLoadBalancer: {
          loadBalancerType: lb.type,
          scheme: lb.scheme,
          healthCheckProtocol: HealthCheckProtocol.TCP,
          additionalListeners: K0S_CLUSTER_PORTS.map(({ port }) => ({ port, protocol: ListenerProtocol.TCP })),
          ingressRules: [...loadBalancerIngressRules(lb.allowedCidrs, lb.scheme), ...lb.additionalIngressRules],
        },
        network: this.awsNetwork(network.calicoMode, network.provider),
      },
    });

    const cpSpec = machineTemplateSpec(props.controlPlane, {
      os: 'linux',
      amiId: props.controlPlane.ami?.amiId ?? props.infra?.linuxAmiId,
      iamInstanceProfile: props.controlPlane.iamInstanceProfile ?? props.infra?.controlPlaneInstanceProfile ?? CLUSTERAWSADM_INSTANCE_PROFILES.controlPlane,
      sshKeyName: this.sshKeyName,
      additionalTags: props.additionalTags,
    });
    this.controlPlaneMachineTemplate = hashedMachineTemplate(this, 'ControlPlaneMachineTemplate', `${this.clusterName}-cp`, cpSpec);

    this.controlPlane = typedApiObject(this, 'K0sControlPlane', K0sControlPlane, {
      metadata: { name: this.clusterName },
      spec: {
        replicas: props.controlPlane.replicas ?? 3,
        version: props.k0sVersion,
        updateStrategy: props.controlPlane.updateStrategy ?? K0SControlPlaneSpecUpdateStrategy.RECREATE,
        k0SConfigSpec: {
          args: props.controlPlane.enableWorker ? ['--enable-worker'] : undefined,
          k0S: {
            apiVersion: 'k0s.k0sproject.io/v1beta1',
            kind: 'ClusterConfig',
            metadata: { name: 'k0s' },
            spec: {
              api: props.controlPlane.apiExtraArgs ? { extraArgs: props.controlPlane.apiExtraArgs } : undefined,
              network: k0sNetworkConfig(network),
              telemetry: { enabled: false },
            },
          },
        },
        machineTemplate: {
          // k0smotron's machine template reference is a classic ObjectReference: apiVersion, not apiGroup.
          infrastructureRef: {
            apiVersion: AwsMachineTemplate.GVK.apiVersion,
            kind: AwsMachineTemplate.GVK.kind,
            name: this.controlPlaneMachineTemplate.name,
          },
        },
      },
    });

    this.cluster = typedApiObject(this, 'Cluster', Cluster, {
      metadata: { name: this.clusterName },
      spec: {
        clusterNetwork: {
          pods: { cidrBlocks: [network.podCidr] },
          services: { cidrBlocks: [network.serviceCidr] },
          serviceDomain: 'cluster.local',
        },
        controlPlaneRef: { apiGroup: apiGroupOf(K0sControlPlane.GVK.apiVersion), kind: K0sControlPlane.GVK.kind, name: this.controlPlane.name },
        infrastructureRef: { apiGroup: apiGroupOf(AwsCluster.GVK.apiVersion), kind: AwsCluster.GVK.kind, name: this.awsCluster.name },
      },
    });

    this.node.addValidation({ validate: () => clusterChecks(this) });
  }

  /** The cluster's worker pools. */
  public get workerPools(): WorkerPool[] {
    return this.node.children.filter((c): c is WorkerPool => c instanceof WorkerPool);
  }

  private awsNetwork(calicoMode: CalicoMode, provider: NetworkProvider): AwsClusterSpecNetwork {
    const infra = this.infra;
    return {
      vpc: infra ? { id: infra.vpcId } : undefined,
      subnets: infra ? [...infra.privateSubnetIds, ...infra.publicSubnetIds].map((id) => ({ id })) : undefined,
      // Setting this list replaces CAPA's defaults (BGP and IP-in-IP), so it must say what the CNI needs.
      cni: { cniIngressRules: cniIngressRules(provider, calicoMode) },
      additionalControlPlaneIngressRules: K0S_CLUSTER_PORTS.map(({ port, description }) => ({
        description,
        protocol: CpProtocol.TCP,
        fromPort: port,
        toPort: port,
        sourceSecurityGroupRoles: [CpSourceRole.CONTROLPLANE, CpSourceRole.NODE],
      })),
    };
  }
}

/**
 * Ingress of the load balancer's security group. Setting any rule replaces CAPA's default (6443
 * from anywhere), so the API rule is explicit. Machines in private subnets reach an
 * internet-facing load balancer from the NAT gateways' addresses, which CAPA fills in for
 * `natGatewaysIPsSource`; an internal one sees the machines' own security groups.
 */
function loadBalancerIngressRules(allowedCidrs: string[], scheme: AwsClusterSpecControlPlaneLoadBalancerScheme): LoadBalancerIngressRule[] {
  const internal = scheme === AwsClusterSpecControlPlaneLoadBalancerScheme.INTERNAL;
  const rules: LoadBalancerIngressRule[] = allowedCidrs.length > 0
    ? [{ description: 'Kubernetes API', protocol: LbProtocol.TCP, fromPort: K0S_PORTS.api, toPort: K0S_PORTS.api, cidrBlocks: allowedCidrs }]
    : [];
  for (const { port, description } of K0S_CLUSTER_PORTS) {
    rules.push({
      description,
      protocol: LbProtocol.TCP,
      fromPort: port,
      toPort: port,
      ...(internal
        ? { sourceSecurityGroupRoles: [LbSourceRole.CONTROLPLANE, LbSourceRole.NODE] }
        : { natGatewaysIPsSource: true }),
    });
  }
  return rules;
}

