import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ClusterInfra } from '../infra/cluster-infra';
import {
  AwsCluster,
  AwsClusterSpecControlPlaneLoadBalancerAdditionalListenersProtocol as ListenerProtocol,
  AwsClusterSpecControlPlaneLoadBalancerHealthCheckProtocol as HealthCheckProtocol,
  AwsClusterSpecControlPlaneLoadBalancerIngressRules as L1IngressRule,
  AwsClusterSpecControlPlaneLoadBalancerIngressRulesProtocol as LbProtocol,
  AwsClusterSpecControlPlaneLoadBalancerIngressRulesSourceSecurityGroupRoles as LbSourceRole,
  AwsClusterSpecControlPlaneLoadBalancerLoadBalancerType as L1LoadBalancerType,
  AwsClusterSpecControlPlaneLoadBalancerScheme as L1Scheme,
  AwsClusterSpecNetworkAdditionalControlPlaneIngressRulesProtocol as CpProtocol,
  AwsClusterSpecNetworkAdditionalControlPlaneIngressRulesSourceSecurityGroupRoles as CpSourceRole,
  AwsClusterSpecNetworkAdditionalNodeIngressRulesProtocol as NodeProtocol,
  AwsClusterSpecNetworkAdditionalNodeIngressRulesSourceSecurityGroupRoles as NodeSourceRole,
  AwsClusterSpecNetwork,
} from '../generated/capa-infrastructure.cluster.x-k8s.io';
import { AvailabilityZone, AwsPartitionId, AwsRegion } from '../platform/aws';
import { fail } from '../core/errors';
import { InstanceType, InstanceTypeInfo, instanceTypeInfoProblem } from '../platform/instance-type';
import { listOf } from '../core/values';
import { choice, instance, judgedNumber, list, optional, propsSpec, record, required, stringRecord, text } from '../core/props-spec';
import { CalicoMode, NetworkProvider } from '../platform/network';
import type { CapiCluster } from '../capi/cluster';
import { K0sInfrastructurePart, ControlPlaneUpdateStrategy, K0S_CLUSTER_OPTIONS, K0S_CONTROL_PLANE_OPTIONS, K0sCluster, K0sClusterProps, K0sControlPlaneProps } from '../k0s/k0s-cluster';
import { AWS_INFRASTRUCTURE } from '../platform/infrastructures';

export { ControlPlaneUpdateStrategy } from '../k0s/k0s-cluster';
import { networkWithDefaults } from '../k0s/kubernetes-network';
import { cniIngressRules } from './aws-cni';
import { CAPA_DEFAULT_VPC_CIDR, capaDefaultSubnets, CLUSTERAWSADM_INSTANCE_PROFILES, K0S_CLUSTER_PORTS, K0S_PORTS } from '../platform/conventions';
import { MachineImage } from './machine-image';
import { hashedMachineTemplate, INSTANCE_TYPE_INFO, machineOptions, MachineProps, machineTemplateSpec } from './machine-template';
import { markContentNamed, PropsOfFields } from '../rules/run/judge';
import { typedApiObject } from '../core/typed-api-object';

export { MAX_CLUSTER_NAME } from '../platform/dns';

/** Where the API load balancer stands. */
export enum LoadBalancerScheme {
  /** Reachable from the internet (and from the management cluster wherever it runs). */
  INTERNET_FACING = 'internet-facing',
  /** Reachable only from inside the VPC: the management cluster must run there. */
  INTERNAL = 'internal',
}

/** The IP protocol of a load-balancer ingress rule. */
export enum IngressProtocol {
  /** TCP. */
  TCP = 'tcp',
  /** UDP. */
  UDP = 'udp',
}

/** A further ingress rule of the API load balancer's security group. */
export interface LoadBalancerIngressRule {
  /** What the rule is for; CAPA uses it to tell rules apart. */
  readonly description: string;
  /**
   * IP protocol.
   * @default IngressProtocol.TCP
   */
  readonly protocol?: IngressProtocol;
  /** First port of the range. */
  readonly fromPort: number;
  /**
   * Last port of the range.
   * @default - `fromPort`
   */
  readonly toPort?: number;
  /** IPv4 sources. */
  readonly cidrBlocks: string[];
}

/** The Linux control plane: k0s controllers on EC2 behind a network load balancer. */
export interface ControlPlaneProps extends MachineProps, K0sControlPlaneProps {
  /**
   * Extra kube-apiserver flags (`spec.api.extraArgs` of the k0s config). Anonymous auth stays off
   * unless you set `anonymous-auth` here: CAPA's TCP health check does not need it.
   * @default - none
   */
  readonly apiExtraArgs?: Record<string, string>;
  /**
   * Architecture and memory of `instanceType`, for a family this library does not know.
   * @default - derived from the instance type's family (an error for unknown families)
   */
  readonly instanceTypeInfo?: InstanceTypeInfo;
}

/** Where the API load balancer stands and who may reach it. It is always an NLB: only an NLB carries k0s's 8132 and 9443 listeners. */
export interface ApiServerLoadBalancerProps {
  /**
   * `INTERNET_FACING` or `INTERNAL`. An internal load balancer is reachable only from the VPC,
   * so the management cluster must be there too. With an `infra` (your own VPC) and an
   * internet-facing load balancer, CAPA opens 8132/9443 to the NAT gateways of the listed
   * public subnets: they must have NAT gateways.
   * @default LoadBalancerScheme.INTERNET_FACING
   */
  readonly scheme?: LoadBalancerScheme;
  /**
   * CIDR blocks that may reach the Kubernetes API (6443) through the load balancer. The
   * management cluster must be among them: an internet-facing load balancer with none is refused,
   * since CAPA then opens 6443 only to the cluster's NAT gateways. Nodes reach the API through the
   * NAT gateways, which CAPA allows by itself; 8132 and 9443 are opened to the NAT gateways'
   * addresses (internet-facing) or the cluster's security groups (internal), never to these blocks.
   * @default ['0.0.0.0/0'] (the API requires authentication, and anonymous auth is off)
   */
  readonly allowedCidrs?: string[];
  /**
   * Further ingress rules for the load balancer's security group.
   * @default - none
   */
  readonly additionalIngressRules?: LoadBalancerIngressRule[];
}

/** Props of `HybridCluster`: those of every k0smotron cluster, and the AWS ones. */
export interface HybridClusterProps extends K0sClusterProps {
  /**
   * AWS region.
   * @default - the `infra` region (required when there is no `infra`)
   */
  readonly region?: string;
  /**
   * EC2 key pair for SSH (Linux) and for decrypting the Windows Administrator password; "" for
   * none. Windows machines need an RSA key: EC2 refuses to launch Windows AMIs with ED25519 ones.
   * @default - the `infra` key pair, else none: `sshKeyName: ""` is written, since CAPA launches
   *   with the key pair named `default` when no key name is set anywhere
   */
  readonly sshKeyName?: string;
  /** The controllers. */
  readonly controlPlane: ControlPlaneProps;
  /**
   * AWS infrastructure deployed by `HybridClusterInfra` (see `ClusterInfra.fromOutputsFile`):
   * its VPC and subnets become the cluster's network, and its AMIs and instance profiles the
   * machines' defaults.
   * @default - CAPA creates and manages a VPC itself
   */
  readonly infra?: ClusterInfra;
  /**
   * Availability zones of the machines, by name as your account sees them (`aws ec2
   * describe-availability-zones`; names map to different data centres per account). The
   * controllers spread over them (k0smotron picks the zone with the fewest), and every pool has one
   * MachineDeployment per zone. Without an `infra`, CAPA creates one public and one private subnet
   * in each, laid out as CAPA lays out its own (`capaDefaultSubnets`); with one, they must be zones
   * of its private subnets.
   * @default - the zones of the infra's private subnets; required without an `infra`
   */
  readonly zones?: readonly string[];
  /**
   * The API load balancer.
   * @default - an internet-facing NLB open to 0.0.0.0/0 on 6443
   */
  readonly apiServerLoadBalancer?: ApiServerLoadBalancerProps;
  /**
   * Tags for every AWS resource CAPA creates, as CAPA validates them: keys of 1 to 128 and values of
   * up to 256 letters, digits, spaces and `_ . : / = + - @`, no `aws:` prefix, at most 50. Written
   * on the AWSCluster only: CAPA tags machines with them and re-tags running ones when they change,
   * so a change replaces no machine.
   * @default - none
   */
  readonly additionalTags?: Record<string, string>;
  /**
   * TCP ports (1 to 65535) of host-network agents on the nodes that the cluster's own machines may reach, such
   * as windows_exporter's 9182 (`WINDOWS_EXPORTER_PORT`) for a Prometheus on a Linux node. CAPA's
   * node security group otherwise admits only the kubelet, NodePorts and the CNI from other
   * machines; each port becomes a `network.additionalNodeIngressRules` rule from the control-plane
   * and node security groups (CAPA pkg/cloud/scope/cluster.go, AdditionalNodeIngressRules).
   * @default - none
   */
  readonly nodeAgentPorts?: number[];
  /**
   * IPv4 blocks that may reach the NodePorts (30000-32767) of every machine, controllers
   * included: `network.nodePortIngressRuleCidrBlocks`, which CAPA otherwise opens to 0.0.0.0/0 on
   * the node security group (cluster-api-provider-aws v2.11.1
   * pkg/cloud/services/securitygroup/securitygroups.go, getSecurityGroupIngressRules: the node
   * role's NodePort rule takes `NodePortIngressRuleCidrBlocks`, else `services.AnyIPv4CidrBlock`).
   * Widen it for a load balancer that reaches NodePorts from elsewhere.
   * @default - the VPC's block (CAPA's 10.0.0.0/16 when CAPA creates the VPC, the AWS stack's
   *   `vpc_cidr_block` output); for an existing VPC whose block is not known, the private ranges
   *   10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16
   */
  readonly nodePortCidrs?: string[];
}

/** An IPv4 block as the spec takes it: a string, whose network the `aws-cluster` rule judges on the AWSCluster. */
const CIDR = text({ max: 64, form: 'an IPv4 CIDR', example: '203.0.113.0/24', judgedBy: 'aws-cluster' });

/**
 * The spec of `ControlPlaneProps`: the machines', k0smotron's control plane's, and the API flags.
 * @internal
 */
export const CONTROL_PLANE_PROPS = propsSpec<ControlPlaneProps>('ControlPlaneProps', {
  ...machineOptions('control-plane'),
  ...K0S_CONTROL_PLANE_OPTIONS,
  apiExtraArgs: optional(stringRecord()),
  instanceTypeInfo: optional(INSTANCE_TYPE_INFO),
});

/**
 * The spec of `LoadBalancerIngressRule`: ports and sources are the `aws-cluster` rule's, on the
 * AWSCluster written (`ingressRuleProps` names the props behind its fields). The description
 * becomes the security-group rule's, which EC2 takes of up to 255 characters of
 * `a-zA-Z0-9 ._-:/()#,@[]+=&;{}!$*` (Amazon EC2 API Reference, IpRange, Description).
 * @internal
 */
export const LOAD_BALANCER_INGRESS_RULE_PROPS = propsSpec<LoadBalancerIngressRule>('LoadBalancerIngressRule', {
  description: required(text({ max: 255, pattern: /^[a-zA-Z0-9 ._\-:/()#,@[\]+=&;{}!$*]+$/, form: 'a security-group rule description EC2 takes', example: 'office' }),
    'say what the rule is for, e.g. `description: \'office\'`'),
  protocol: optional(choice(IngressProtocol, 'IngressProtocol')),
  fromPort: required(judgedNumber('aws-cluster'), 'give the first port of the range'),
  toPort: optional(judgedNumber('aws-cluster')),
  cidrBlocks: required(list(CIDR), 'list the IPv4 sources, e.g. `cidrBlocks: [\'203.0.113.0/24\']`'),
});

/**
 * The spec of `ApiServerLoadBalancerProps`: a source listed twice is one rule EC2 refuses twice.
 * @internal
 */
export const API_SERVER_LOAD_BALANCER_PROPS = propsSpec<ApiServerLoadBalancerProps>('ApiServerLoadBalancerProps', {
  scheme: optional(choice(LoadBalancerScheme, 'LoadBalancerScheme')),
  allowedCidrs: optional(list(CIDR, { unique: String })),
  additionalIngressRules: optional(list(record(LOAD_BALANCER_INGRESS_RULE_PROPS))),
});

/**
 * The spec of `HybridClusterProps`. The region, the key pair, the tags, the ports and the NodePort
 * sources are judged by the rules on the AWSCluster; the zones against the region and the infra
 * when the cluster is made.
 * @internal
 */
export const HYBRID_CLUSTER_PROPS = propsSpec<HybridClusterProps>('HybridCluster', {
  ...K0S_CLUSTER_OPTIONS,
  controlPlane: required(record(CONTROL_PLANE_PROPS), 'pass the controllers\' props, e.g. `controlPlane: { instanceType: \'t3.large\' }`'),
  region: optional(text({ max: 64, form: 'an AWS region', example: 'eu-north-1', judgedBy: 'aws-cluster' })),
  sshKeyName: optional(text({ max: 255, form: 'an EC2 key pair name', example: 'ops', judgedBy: 'key-pair' })),
  infra: optional(instance<ClusterInfra>('a ClusterInfra', (v) => v instanceof ClusterInfra, 'pass `ClusterInfra.fromOutputsFile(...)`, or `new ClusterInfra({...})`')),
  zones: optional(list(text({ max: 64, form: 'an availability zone name', example: 'eu-north-1a' }))),
  apiServerLoadBalancer: optional(record(API_SERVER_LOAD_BALANCER_PROPS)),
  additionalTags: optional(stringRecord()),
  // One security-group rule per port: EC2 refuses a duplicate, and CAPA then retries the whole batch on every reconcile.
  nodeAgentPorts: optional(list(judgedNumber('aws-cluster'), { unique: String })),
  nodePortCidrs: optional(list(CIDR, { unique: String })),
});

/**
 * A Cluster API cluster with a k0s control plane (k0smotron) on AWS, ready for Linux and
 * Windows worker pools: add `LinuxWorkerPool`s and `WindowsWorkerPool`s as its children.
 *
 * Inputs are checked for form when constructed (a `HybridConfigError` naming the construct path,
 * the value and the fix); the rules over the objects as written (`validateManifests`) run on
 * every synth and have the final word, JSON patches included.
 */
export class HybridCluster extends K0sCluster {
  /** The deployed AWS infrastructure the cluster runs in, if any. */
  public readonly infra?: ClusterInfra;
  /** The EC2 key pair of every machine; "" for none. */
  public readonly sshKeyName: string;
  /**
   * The partition of the cluster's region, where public image lookups find their publisher's
   * account (`aws` stands in for a region that does not parse, which the rules then report).
   */
  public readonly partition: AwsPartitionId;
  /** The availability zones of the machines: the pools' failure domains. */
  public readonly zones: readonly AvailabilityZone[];
  /** Tags for every AWS resource CAPA creates. */
  public readonly additionalTags?: Record<string, string>;
  /** The AWSCluster object (CAPA): region, network and load balancer. */
  public readonly awsCluster: ApiObject;

  public constructor(scope: Construct, id: string, given: HybridClusterProps) {
    // The cluster does not exist yet: errors name the path it will have.
    const path = scope.node.path ? `${scope.node.path}/${id}` : id;
    const props = HYBRID_CLUSTER_PROPS.parse(path, given);
    const aws = new AwsClusterPart(path, props);
    super(scope, id, props, aws);
    this.infra = props.infra;
    this.sshKeyName = aws.sshKeyName;
    this.partition = aws.partition;
    this.zones = aws.zones;
    this.additionalTags = props.additionalTags;
    this.awsCluster = this.infrastructureCluster;
  }
}

/**
 * The EC2 part of a cluster (CAPA): the AWSCluster (region, network, load balancer) and the
 * controllers' AWSMachineTemplate, from the props and the infra. Inputs are read once, when made.
 */
class AwsClusterPart implements K0sInfrastructurePart {
  public readonly infrastructure = AWS_INFRASTRUCTURE;
  public readonly defaultReplicas = 3;
  public readonly propsOfFields: PropsOfFields;
  public readonly apiExtraArgs?: Record<string, string>;
  public readonly infra?: ClusterInfra;
  public readonly sshKeyName: string;
  public readonly partition: AwsPartitionId;
  public readonly zones: readonly AvailabilityZone[];
  private readonly region?: string;

  /** @param path construct path the cluster will have, for errors before it exists. */
  public constructor(path: string, private readonly props: HybridClusterProps) {
    const cp = props.controlPlane;
    this.infra = props.infra;
    this.apiExtraArgs = cp.apiExtraArgs;
    // cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go: an AWSMachine
    // sshKeyName, else the AWSCluster's, else the key pair named "default" (bastion.go,
    // defaultSSHKeyName); "" on either means no key. RunInstances fails without such a key pair.
    this.sshKeyName = props.sshKeyName ?? props.infra?.sshKeyName ?? '';
    this.region = props.region ?? props.infra?.region;
    const parsedRegion = AwsRegion.parse(this.region);
    this.partition = typeof parsedRegion === 'string' ? 'aws' : parsedRegion.partition;
    checkInputs(path, props);
    this.propsOfFields = { ...PROPS_OF_FIELDS, ...ingressRuleProps(props.apiServerLoadBalancer), ...nodeAgentPortProps(props.nodeAgentPorts), ...nodePortCidrProps(props.nodePortCidrs) };
    this.zones = clusterZones(path, props, typeof parsedRegion === 'string' ? undefined : parsedRegion);
    const scheme = props.apiServerLoadBalancer?.scheme ?? LoadBalancerScheme.INTERNET_FACING;
    if (props.infra && scheme === LoadBalancerScheme.INTERNET_FACING && props.infra.publicSubnetIds.length === 0) {
      // CAPA opens 8132/9443 to the NAT gateways' addresses (natGatewaysIPsSource), which it finds
      // only in the cluster's public subnets; without any, CAPA's processIngressRulesSGs
      // (pkg/cloud/services/securitygroup/securitygroups.go) fails every security-group reconcile
      // with "NAT Gateway IPs are not available yet".
      fail(path, `the infra (VPC ${props.infra.vpcId}) lists no public subnets, and an internet-facing load balancer needs the NAT gateways there: CAPA opens 8132/9443 to their addresses`,
        'list the public subnets that hold the NAT gateways in the infra, or use `apiServerLoadBalancer.scheme: LoadBalancerScheme.INTERNAL` with the management cluster inside the VPC');
    }
  }

  public defaultUpdateStrategy(): ControlPlaneUpdateStrategy {
    return ControlPlaneUpdateStrategy.RECREATE;
  }

  public infrastructureCluster(cluster: CapiCluster): ApiObject {
    const props = this.props;
    const network = networkWithDefaults(props.network);
    const scheme = props.apiServerLoadBalancer?.scheme ?? LoadBalancerScheme.INTERNET_FACING;
    const allowedCidrs = props.apiServerLoadBalancer?.allowedCidrs ?? ['0.0.0.0/0'];
    const additionalIngressRules = (props.apiServerLoadBalancer?.additionalIngressRules ?? []).map((r): L1IngressRule => ({
      description: r.description,
      protocol: (r.protocol ?? IngressProtocol.TCP) as string as LbProtocol,
      fromPort: r.fromPort,
      toPort: r.toPort ?? r.fromPort,
      cidrBlocks: r.cidrBlocks,
    }));
    return typedApiObject(cluster, 'AWSCluster', AwsCluster, {
      metadata: { name: cluster.clusterName },
      spec: {
        region: this.region,
        sshKeyName: this.sshKeyName,
        additionalTags: props.additionalTags,
        controlPlaneLoadBalancer: {
          loadBalancerType: L1LoadBalancerType.NLB,
          scheme: scheme as string as L1Scheme,
          healthCheckProtocol: HealthCheckProtocol.TCP,
          additionalListeners: K0S_CLUSTER_PORTS.map(({ port }) => ({ port, protocol: ListenerProtocol.TCP })),
          ingressRules: [...loadBalancerIngressRules(allowedCidrs, scheme), ...additionalIngressRules],
        },
        network: this.awsNetwork(cluster.clusterName, network.calicoMode, network.provider, props.nodeAgentPorts ?? []),
      },
    });
  }

  public controlPlaneMachineTemplate(cluster: CapiCluster): ApiObject {
    const cp = this.props.controlPlane;
    const template = hashedMachineTemplate(cluster, 'ControlPlaneMachineTemplate', `${cluster.clusterName}-cp`, machineTemplateSpec(cp, {
      os: 'linux',
      image: controlPlaneImage(this.props),
      partition: this.partition,
      iamInstanceProfile: cp.iamInstanceProfile ?? this.infra?.controlPlaneInstanceProfile ?? CLUSTERAWSADM_INSTANCE_PROFILES.controlPlane,
      sshKeyName: this.sshKeyName,
    }));
    markContentNamed(template);
    return template;
  }

  private awsNetwork(clusterName: string, calicoMode: CalicoMode, provider: NetworkProvider, nodeAgentPorts: readonly number[]): AwsClusterSpecNetwork {
    const infra = this.infra;
    return {
      vpc: infra ? { id: infra.vpcId } : undefined,
      subnets: infra
        ? [...infra.privateSubnetIds, ...infra.publicSubnetIds].map((id) => ({ id }))
        : capaDefaultSubnets(clusterName, CAPA_DEFAULT_VPC_CIDR, this.zones.map((z) => z.name)),
      // A list replaces CAPA's defaults (BGP and IP-in-IP), so it must say what the CNI needs; a
      // custom CNI gets no `cni`, so that CAPA's defaults apply.
      cni: provider === NetworkProvider.CUSTOM ? undefined : { cniIngressRules: cniIngressRules(provider, calicoMode) },
      additionalNodeIngressRules: nodeAgentPorts.length > 0
        ? nodeAgentPorts.map((port) => ({
          description: `node agent ${port} from cluster machines`,
          protocol: NodeProtocol.TCP,
          fromPort: port,
          toPort: port,
          sourceSecurityGroupRoles: [NodeSourceRole.CONTROLPLANE, NodeSourceRole.NODE],
        }))
        : undefined,
      nodePortIngressRuleCidrBlocks: [...(this.props.nodePortCidrs ?? (infra ? (infra.vpcCidrBlock ? [infra.vpcCidrBlock] : PRIVATE_IPV4_RANGES) : [CAPA_DEFAULT_VPC_CIDR]))],
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

/** RFC 1918's private IPv4 ranges: NodePorts' reach when the VPC's own block is not known. */
const PRIVATE_IPV4_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];

/** The props behind the fields the cluster rules name, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  'AWSCluster spec.region': 'region',
  'AWSCluster spec.additionalTags': 'additionalTags',
  'AWSCluster spec.sshKeyName': 'sshKeyName',
  'AWSCluster spec.controlPlaneLoadBalancer.ingressRules': 'apiServerLoadBalancer.allowedCidrs',
  'AWSMachineTemplate spec.template.spec.imageLookupOrg': 'controlPlane.ami',
  'AWSMachineTemplate spec.template.spec.ami.id': 'controlPlane.ami',
  'AWSMachineTemplate spec.template.spec.instanceType': 'controlPlane.instanceType',
  'AWSMachineTemplate spec.template.spec.cloudInit.insecureSkipSecretsManager': 'controlPlane.bootstrapThroughSecretsManager',
  'AWSCluster spec.network.vpc.id': 'infra',
  'AWSMachineTemplate spec.template.spec.rootVolume.size': 'controlPlane.rootVolumeSizeGiB',
};

/**
 * The inputs no object can show (the instance type's stated facts, flag combinations, the infra's
 * agreement), checked where they enter; the rules judge the objects built from the rest.
 */
function checkInputs(path: string, props: HybridClusterProps): void {
  const at = (prop: string) => ({ path, prop });
  const cp = props.controlPlane;
  // The values are the spec's; replicas are the rules' (control-plane: odd, >= 1), at construction too.
  const infoProblem = instanceTypeInfoProblem(cp.instanceTypeInfo);
  if (infoProblem) fail(path, `controlPlane.instanceTypeInfo of instance type ${JSON.stringify(props.controlPlane.instanceType)}: ${infoProblem}`, `state { arch: Architecture.AMD64, memoryGiB: 16 } for ${props.controlPlane.instanceType}, or leave it out for a known family`);
  const lb = props.apiServerLoadBalancer;
  const rules = lb?.additionalIngressRules ?? [];
  // The load balancer's rules as EC2 sees them: one (protocol, ports, source) each.
  const permissions = [
    ...(lb?.allowedCidrs ?? ['0.0.0.0/0']).map((cidr) => `tcp ${K0S_PORTS.api}-${K0S_PORTS.api} from ${cidr}`),
    ...rules.flatMap((r) => r.cidrBlocks.map((cidr) => `${r.protocol ?? IngressProtocol.TCP} ${r.fromPort}-${r.toPort ?? r.fromPort} from ${cidr}`)),
  ];
  listOf<string>(at('apiServerLoadBalancer'), permissions, String);
  const type = InstanceType.parse(cp.instanceType, cp.instanceTypeInfo);
  if (typeof type === 'string') fail(path, `controlPlane: ${type}`, 'use a known type such as t3.large, or state `instanceTypeInfo: { arch, memoryGiB }`');
}

/**
 * The machines' zones: the props', else the infra's private subnets' (in their order, once each).
 * Names are checked for form and region here, since the pools' names are built from them; whether
 * the account has them, only EC2 knows: CAPA reports a zone it cannot describe on the AWSCluster
 * before any machine is made (pkg/cloud/services/network/subnets.go, reconcileZoneInfo).
 */
function clusterZones(path: string, props: HybridClusterProps, region: AwsRegion | undefined): AvailabilityZone[] {
  const infraZones = props.infra?.privateSubnetZones;
  const names = props.zones ?? (infraZones ? [...new Set(infraZones)] : undefined);
  if (names === undefined) {
    fail(path, props.infra
      ? 'the infra names no zones for its private subnets (an outputs file of an older AWS stack)'
      : 'no `zones`: without an infra CAPA creates the VPC, and zone names differ between accounts',
    props.infra
      ? 'redeploy the AWS stack (it writes private_subnet_zones), or pass `zones`'
      : `pass \`zones: ['${region ?? 'eu-north-1'}a', '${region ?? 'eu-north-1'}b']\` with zones your account has (aws ec2 describe-availability-zones)`);
  }
  if (names.length === 0) fail(path, 'zones is empty', 'name at least one availability zone; two or more survive a zone outage');
  return names.map((name, i) => {
    const zone = AvailabilityZone.parse(name);
    if (typeof zone === 'string') fail(path, `zones: ${zone}`, `name zones of the cluster's region such as ${region ?? 'eu-north-1'}a`);
    // Zones taken from the infra are in its region: a region prop that differs is the hand-off rule's.
    if (region && props.zones !== undefined && zone.region.name !== region.name) fail(path, `zones: ${zone} is in ${zone.region}, not in ${region}`, `name zones of ${region} such as ${region}a`);
    if (names.indexOf(name) !== i) fail(path, `zones names ${name} twice`, 'name each zone once');
    if (infraZones && !infraZones.includes(name)) {
      fail(path, `zones: ${name} has none of the infra's private subnets (they are in ${[...new Set(infraZones)].join(', ')})`, 'name zones of the infra\'s private subnets, or leave `zones` out for all of them');
    }
    return zone;
  });
}

/**
 * The props behind the written load balancer rules the aws-cluster rule names one by one: the
 * API rule (`allowedCidrs`) first, then k0s's, then `additionalIngressRules` in order
 * (`loadBalancerIngressRules`).
 */
function ingressRuleProps(lb: ApiServerLoadBalancerProps | undefined): PropsOfFields {
  const allowed = lb?.allowedCidrs ?? ['0.0.0.0/0'];
  const field = (i: number) => `AWSCluster spec.controlPlaneLoadBalancer.ingressRules[${i}]`;
  const offset = (allowed.length > 0 ? 1 : 0) + K0S_CLUSTER_PORTS.length;
  return Object.fromEntries([
    ...(allowed.length > 0 ? [[`${field(0)}.cidrBlocks`, 'apiServerLoadBalancer.allowedCidrs']] : []),
    ...(lb?.additionalIngressRules ?? []).flatMap((_, i) => ['fromPort', 'toPort', 'cidrBlocks'].map((f) => [`${field(offset + i)}.${f}`, `apiServerLoadBalancer.additionalIngressRules[${i}].${f}`])),
  ]);
}

/** The props behind the written node rules, one per `nodeAgentPorts` entry in order (`awsNetwork`). */
function nodeAgentPortProps(ports: readonly number[] | undefined): PropsOfFields {
  const field = (i: number) => `AWSCluster spec.network.additionalNodeIngressRules[${i}]`;
  return Object.fromEntries((ports ?? []).flatMap((_, i) => ['fromPort', 'toPort'].map((f) => [`${field(i)}.${f}`, `nodeAgentPorts[${i}]`])));
}

/** The props behind the NodePort sources (`nodePortIngressRuleCidrBlocks`): `nodePortCidrs` item by item, else the infra's VPC block. */
function nodePortCidrProps(cidrs: readonly string[] | undefined): PropsOfFields {
  const field = 'AWSCluster spec.network.nodePortIngressRuleCidrBlocks';
  return cidrs === undefined ? { [field]: 'infra' } : Object.fromEntries(cidrs.map((_, i) => [`${field}[${i}]`, `nodePortCidrs[${i}]`]));
}

/**
 * Ingress of the load balancer's security group. Setting any rule replaces CAPA's default (6443
 * from anywhere), so the API rule is explicit. Machines in private subnets reach an
 * internet-facing load balancer from the NAT gateways' addresses, which CAPA fills in for
 * `natGatewaysIPsSource`; an internal one sees the machines' own security groups.
 */
function loadBalancerIngressRules(allowedCidrs: string[], scheme: LoadBalancerScheme): L1IngressRule[] {
  const internal = scheme === LoadBalancerScheme.INTERNAL;
  const rules: L1IngressRule[] = allowedCidrs.length > 0
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

/** The controllers' image: the props', else the infra's, else Canonical's Ubuntu 24.04. */
function controlPlaneImage(props: HybridClusterProps): MachineImage {
  return props.controlPlane.ami ?? (props.infra ? MachineImage.id(props.infra.linuxAmiId) : MachineImage.ubuntu2404());
}
