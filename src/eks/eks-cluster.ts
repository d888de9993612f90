import { Construct } from 'constructs';
import { judgeOwnResources, judgeStackAtSynth } from '../terraform/judge';
import { fail } from '../core/errors';
import { EKS_CLUSTER_POLICIES, EksControlPlaneLogType, EksIpFamily, NodeAccessEntryType } from '../platform/eks';
import { EksNodeRole } from './node-role';
import { choice, flag, list, optional, propsSpec, record, required, text, wholeIn } from '../core/props-spec';
import { CLOUDWATCH_LOG_RETENTION_DAYS } from '../platform/aws';
import { CloudwatchLogGroup, DataAwsPartition, EksAccessEntry, EksAddon, EksCluster, Fn, IamOpenidConnectProvider, IamRole, IamRolePolicyAttachment } from '../terraform/providers/aws';

/**
 * Versions of the managed add-ons, as `aws eks describe-addon-versions --addon-name <name>` lists
 * them (e.g. `v1.20.4-eksbuild.1`). An add-on without a version gets EKS's default for the cluster's
 * Kubernetes version when it is created and keeps it: `addon_version` is Optional and Computed
 * (hashicorp/terraform-provider-aws `internal/service/eks/addon.go`), so an unset version plans no
 * change, and EKS updates no add-on when the cluster moves to a new minor ("Amazon EKS doesn't
 * automatically update an add-on when new versions are released or after you update your cluster
 * to a new Kubernetes minor version", EKS User Guide, updating-an-add-on). Set these, and raise
 * them with `kubernetesVersion`, to upgrade the add-ons.
 */
export interface EksAddonVersions {
  /**
   * Version of `vpc-cni` (the Amazon VPC CNI: pod addresses on Linux nodes, and the Windows IPAM
   * setting the VPC resource controller reads).
   * @default - the add-on's default version for the cluster's Kubernetes version when it is created, kept after
   */
  readonly vpcCni?: string;
  /**
   * Version of `coredns` (cluster DNS; its pods run on Linux nodes only).
   * @default - the add-on's default version for the cluster's Kubernetes version when it is created, kept after
   */
  readonly coreDns?: string;
  /**
   * Version of `kube-proxy` (Service routing on every node; on Windows nodes it is part of the AMI).
   * @default - the add-on's default version for the cluster's Kubernetes version when it is created, kept after
   */
  readonly kubeProxy?: string;
}

/**
 * Which ways of giving pods AWS credentials the cluster sets up. Pods on Windows nodes can use
 * IRSA only (`PodCredentialMechanism`).
 */
export interface PodCredentialsOptions {
  /**
   * IAM roles for service accounts: an IAM OIDC provider for the cluster's issuer, with the
   * audience `sts.amazonaws.com`. Works for Linux and Windows pods.
   * @default false
   */
  readonly irsa?: boolean;
  /**
   * EKS Pod Identity: the `eks-pod-identity-agent` add-on (a Linux DaemonSet). Linux pods only.
   * @default false
   */
  readonly podIdentity?: boolean;
  /**
   * Version of the `eks-pod-identity-agent` add-on.
   * @default - the add-on's default version for the cluster's Kubernetes version
   */
  readonly podIdentityAgentVersion?: string;
}

/** Props of `HybridEksCluster`. What each prop takes, as the construct checks it: docs/props.md. */
export interface HybridEksClusterProps {
  /** The EKS cluster name; the subnets' `kubernetes.io/cluster/<name>` tags use it too. */
  readonly clusterName: string;
  /** Kubernetes minor version, e.g. `1.34`. */
  readonly kubernetesVersion: string;
  /**
   * Subnets for the control plane's network interfaces and, unless a node group names its own,
   * the nodes: the private subnets of `ClusterNetwork` or `ExistingClusterNetwork`.
   */
  readonly subnetIds: readonly string[];
  /**
   * The IP family of pod and service addresses. Windows nodes support IPv4 only, so IPv6 is
   * refused beside Windows node groups.
   * @default EksIpFamily.IPV4
   */
  readonly ipFamily?: EksIpFamily;
  /**
   * CIDR blocks that may reach a public API endpoint; `[]` is the same as unset.
   * @default - no public endpoint: the API is reachable from the VPC (and networks joined to it) only
   */
  readonly publicAccessCidrs?: readonly string[];
  /**
   * Versions of the `vpc-cni`, `coredns` and `kube-proxy` add-ons (`EksAddonVersions`: unset, an
   * add-on stays at the version it was created with when `kubernetesVersion` rises).
   * @default - each add-on's default version for `kubernetesVersion` when the cluster is created
   */
  readonly addonVersions?: EksAddonVersions;
  /**
   * How pods get AWS credentials: an IAM OIDC provider for IRSA (Linux and Windows pods) and/or
   * the Pod Identity agent add-on (Linux pods only). Give a pod a role with `ServiceAccountRole`.
   * @default - neither: pods get no AWS credentials of their own
   */
  readonly podCredentials?: PodCredentialsOptions;
  /**
   * The control-plane log types EKS sends to CloudWatch Logs (log group
   * `/aws/eks/<clusterName>/cluster`, created here with `controlPlaneLogRetentionDays`); `[]` turns
   * control-plane logging off.
   * @default [API, AUDIT, AUTHENTICATOR]
   */
  readonly controlPlaneLogTypes?: readonly EksControlPlaneLogType[];
  /**
   * Days CloudWatch Logs keeps the control-plane logs.
   * @default 90
   */
  readonly controlPlaneLogRetentionDays?: number;
}

/** An add-on version as `aws eks describe-addon-versions` lists it; the `eks-addon` rule judges its form. */
const ADDON_VERSION = text({ max: 128, form: 'an add-on version', example: 'v1.20.4-eksbuild.1', judgedBy: 'eks-addon' });

/**
 * The spec of `HybridEksClusterProps`; the Terraform rules judge the values further (the name's
 * form, the versions EKS offers, the subnets' zones, the CIDR blocks).
 * @internal
 */
export const HYBRID_EKS_CLUSTER_PROPS = propsSpec<HybridEksClusterProps>('HybridEksCluster', {
  clusterName: required(text({ max: 1024, form: 'an EKS cluster name', example: 'shop', judgedBy: 'eks-cluster' }), 'give clusterName, e.g. "shop"'),
  kubernetesVersion: required(text({ max: 64, form: 'a Kubernetes minor version', example: '1.34', judgedBy: 'eks-cluster' }), 'give kubernetesVersion, e.g. "1.34"'),
  subnetIds: required(list(text({ max: 256, form: 'a subnet id', example: 'subnet-0123456789abcdef0', judgedBy: 'eks-cluster' })), 'give the private subnets, e.g. ClusterNetwork\'s privateSubnets'),
  ipFamily: optional(choice(EksIpFamily, 'EksIpFamily')),
  publicAccessCidrs: optional(list(text({ max: 64, form: 'an IPv4 CIDR block', example: '203.0.113.0/24', judgedBy: 'eks-cluster' }))),
  addonVersions: optional(record(propsSpec<EksAddonVersions>('EksAddonVersions', {
    vpcCni: optional(ADDON_VERSION),
    coreDns: optional(ADDON_VERSION),
    kubeProxy: optional(ADDON_VERSION),
  }))),
  podCredentials: optional(record(propsSpec<PodCredentialsOptions>('PodCredentialsOptions', {
    irsa: optional(flag()),
    podIdentity: optional(flag()),
    podIdentityAgentVersion: optional(ADDON_VERSION),
  }))),
  controlPlaneLogTypes: optional(list(choice(EksControlPlaneLogType, 'EksControlPlaneLogType'))),
  controlPlaneLogRetentionDays: optional(wholeIn(CLOUDWATCH_LOG_RETENTION_DAYS)),
});

/** Which prop sets which field of the cluster's resources, for messages at construction. */
const PROPS_OF_FIELDS = {
  'aws_eks_cluster name': 'clusterName',
  'aws_eks_cluster version': 'kubernetesVersion',
  'aws_eks_cluster vpc_config.subnet_ids': 'subnetIds',
  'aws_eks_cluster vpc_config.public_access_cidrs': 'publicAccessCidrs',
  'aws_eks_cluster kubernetes_network_config.ip_family': 'ipFamily',
  'aws_eks_addon addon_version': 'addonVersions',
  'aws_eks_cluster enabled_cluster_log_types': 'controlPlaneLogTypes',
  'aws_cloudwatch_log_group retention_in_days': 'controlPlaneLogRetentionDays',
};

/** The control-plane logs on unless `controlPlaneLogTypes` says otherwise: the API server, who did what, and which IAM principal it was. */
export const DEFAULT_CONTROL_PLANE_LOG_TYPES: readonly EksControlPlaneLogType[] = [EksControlPlaneLogType.API, EksControlPlaneLogType.AUDIT, EksControlPlaneLogType.AUTHENTICATOR];

/**
 * An EKS cluster ready for Windows node groups: access entries (authentication mode `API`),
 * IPv4, a cluster role with `AmazonEKSClusterPolicy` and `AmazonEKSVPCResourceController`, and
 * the managed add-ons `vpc-cni` (Windows IPAM on through its configuration values), `kube-proxy`
 * and `coredns`. Add `EksLinuxNodeGroup`s and `EksWindowsNodeGroup`s to it. Creates no provider.
 */
export class HybridEksCluster extends Construct {
  /** The EKS cluster name (`clusterName`). */
  public readonly clusterName: string;
  /** The control plane's Kubernetes minor version (`kubernetesVersion`): node groups run it unless they say otherwise. */
  public readonly kubernetesVersion: string;
  /** The AWS partition of the account (`aws`, `aws-cn`, ...), a reference to `data.aws_partition`; policy ARNs are built from it. */
  public readonly partition: string;
  /** The subnets node groups use unless they name their own. */
  public readonly nodeSubnetIds: readonly string[];
  /** The cluster's IAM role, with `EKS_CLUSTER_POLICIES` attached. */
  public readonly role: IamRole;
  /** The `aws_eks_cluster` resource: its endpoint, certificate authority and ARN, and the escape hatch for fields this construct does not set. */
  public readonly cluster: EksCluster;
  /** The `vpc-cni` add-on, with Windows IPAM on (`enableWindowsIpam`). Node groups wait for it: nodes become Ready only with a CNI. */
  public readonly vpcCni: EksAddon;
  /** The `kube-proxy` add-on. Node groups wait for it. */
  public readonly kubeProxy: EksAddon;
  /** The `coredns` add-on. It becomes ACTIVE only once a Linux node runs it, so it waits for the Linux node groups. */
  public readonly coreDns: EksAddon;
  /** The IAM OIDC provider of the cluster's issuer, with `podCredentials.irsa`. */
  public readonly oidcProvider?: IamOpenidConnectProvider;
  /** The `eks-pod-identity-agent` add-on, with `podCredentials.podIdentity`. */
  public readonly podIdentityAgent?: EksAddon;
  /** The CloudWatch log group of the control-plane logs, unless `controlPlaneLogTypes` is `[]`. */
  public readonly controlPlaneLogGroup?: CloudwatchLogGroup;

  public constructor(scope: Construct, id: string, given: HybridEksClusterProps) {
    super(scope, id);
    const props = HYBRID_EKS_CLUSTER_PROPS.parse(this.node.path, given);
    const publicCidrs = props.publicAccessCidrs ?? [];
    this.clusterName = props.clusterName;
    this.kubernetesVersion = props.kubernetesVersion;
    this.nodeSubnetIds = [...props.subnetIds];
    this.partition = new DataAwsPartition(this, 'Partition').partition;
    const logTypes = [...(props.controlPlaneLogTypes ?? DEFAULT_CONTROL_PLANE_LOG_TYPES)];
    if (logTypes.length > 0) {
      // EKS writes to /aws/eks/<name>/cluster and creates it, kept forever, when it does not exist
      // (EKS User Guide, control-plane-logs.adoc); created first, it has a retention and Terraform
      // removes it with the cluster (hashicorp/terraform-provider-aws website/docs/r/eks_cluster,
      // "Enabling Control Plane Logging").
      this.controlPlaneLogGroup = new CloudwatchLogGroup(this, 'ControlPlaneLogs', {
        name: `/aws/eks/${props.clusterName}/cluster`,
        retentionInDays: props.controlPlaneLogRetentionDays ?? 90,
      });
    }

    this.role = new IamRole(this, 'Role', {
      assumeRolePolicy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['eks.amazonaws.com'] }, Action: ['sts:AssumeRole', 'sts:TagSession'] }],
      }),
    });
    const attachments = EKS_CLUSTER_POLICIES.map(
      (policy) => new IamRolePolicyAttachment(this, policy, { role: this.role.name, policyArn: `arn:${this.partition}:iam::aws:policy/${policy}` }),
    );

    this.cluster = new EksCluster(this, 'Cluster', {
      name: props.clusterName,
      version: props.kubernetesVersion,
      roleArn: this.role.arn,
      vpcConfig: {
        subnetIds: [...this.nodeSubnetIds],
        endpointPrivateAccess: true,
        endpointPublicAccess: publicCidrs.length > 0,
        publicAccessCidrs: publicCidrs.length > 0 ? [...publicCidrs] : undefined,
      },
      // Access entries only: node roles get theirs from EKS (managed node groups) or from
      // addNodeAccessEntry, never from a hand-edited aws-auth ConfigMap.
      accessConfig: { authenticationMode: 'API', bootstrapClusterCreatorAdminPermissions: true },
      kubernetesNetworkConfig: { ipFamily: props.ipFamily ?? EksIpFamily.IPV4 },
      // The three managed add-ons below are the only copies: no self-managed aws-node DaemonSet
      // with a ConfigMap of its own that could disagree with the add-on's configuration.
      bootstrapSelfManagedAddons: false,
      enabledClusterLogTypes: logTypes.length > 0 ? logTypes : undefined,
      dependsOn: [...attachments, ...(this.controlPlaneLogGroup ? [this.controlPlaneLogGroup] : [])],
    });

    const addon = (addonId: string, name: string, addonVersion: string | undefined, configuration?: object): EksAddon =>
      new EksAddon(this, addonId, {
        clusterName: this.cluster.name,
        addonName: name,
        addonVersion,
        configurationValues: configuration === undefined ? undefined : JSON.stringify(configuration),
        // OVERWRITE on create and update: the configuration values are the single source of
        // truth. A field changed by hand in the cluster (say, the amazon-vpc-cni ConfigMap) is
        // set back to them on the next apply instead of drifting where Terraform cannot see it
        // (aws/amazon-vpc-cni-k8s#2877, aws/containers-roadmap#2341). PRESERVE would keep such edits.
        resolveConflictsOnCreate: 'OVERWRITE',
        resolveConflictsOnUpdate: 'OVERWRITE',
      });
    // The add-on's configuration schema (`aws eks describe-addon-configuration --addon-name
    // vpc-cni`) has `enableWindowsIpam`, a string of format boolean; the chart
    // (aws/amazon-vpc-cni-k8s charts/aws-vpc-cni, values.yaml and templates/configmap.yaml) writes
    // it as `enable-windows-ipam` into the amazon-vpc-cni ConfigMap, which the VPC resource
    // controller reads before it hands out Windows pod addresses
    // (aws/amazon-vpc-resource-controller-k8s pkg/condition/conditions.go, IsWindowsIPAMEnabled).
    this.vpcCni = addon('VpcCni', 'vpc-cni', props.addonVersions?.vpcCni, { enableWindowsIpam: 'true' });
    this.kubeProxy = addon('KubeProxy', 'kube-proxy', props.addonVersions?.kubeProxy);
    // CoreDNS becomes ACTIVE only on a Linux node: Linux node groups add themselves to its dependsOn.
    this.coreDns = addon('CoreDns', 'coredns', props.addonVersions?.coreDns);

    if (props.podCredentials?.irsa === true) {
      // EKS User Guide, enable-iam-roles-for-service-accounts.adoc: one provider per issuer, with
      // the audience sts.amazonaws.com. No thumbprint: IAM trusts the issuer's CA itself for
      // EKS's OIDC endpoints, and hashicorp/aws 5.81+ makes thumbprint_list optional.
      this.oidcProvider = new IamOpenidConnectProvider(this, 'OidcProvider', {
        url: this.cluster.identity.get(0).oidc.get(0).issuer,
        clientIdList: ['sts.amazonaws.com'],
      });
    }
    if (props.podCredentials?.podIdentity === true) {
      this.podIdentityAgent = addon('PodIdentityAgent', 'eks-pod-identity-agent', props.podCredentials.podIdentityAgentVersion);
    }

    judgeOwnResources(this, [this.cluster, this.vpcCni, this.kubeProxy, this.coreDns, ...(this.controlPlaneLogGroup ? [this.controlPlaneLogGroup] : [])], PROPS_OF_FIELDS);
    judgeStackAtSynth(this);
  }

  /**
   * The cluster's OIDC issuer without `https://`, the prefix of the `sub` and `aud` condition keys
   * of an IRSA trust policy (a Terraform expression).
   */
  public get oidcIssuerHost(): string {
    return Fn.replace(this.cluster.identity.get(0).oidc.get(0).issuer, 'https://', '');
  }

  /**
   * The node role's access entry in this cluster, created unless the role has one of this type.
   * Every node group of the role waits for it, so EKS finds it instead of creating one of its own
   * (the workaround in aws/containers-roadmap#2327). `EksWindowsNodeGroup` calls it with
   * `EC2_WINDOWS` for its role (it adds the `eks:kube-proxy-windows` group to what `EC2_LINUX`
   * grants). Self-managed nodes need one.
   */
  public addNodeAccessEntry(id: string, role: EksNodeRole, type: NodeAccessEntryType): EksAccessEntry {
    const existing = role.accessEntryIn(this);
    if (existing !== undefined) {
      if (existing.typeInput === type) return existing;
      fail(this, `node role ${role.node.path} already has an ${existing.typeInput} access entry, and a role can have one entry per cluster`,
        'give the Windows node groups a role of their own (leave nodeRole unset, the default)');
    }
    const entry = new EksAccessEntry(this, id, { clusterName: this.cluster.name, principalArn: role.arn, type });
    role.addAccessEntry(this, entry);
    return entry;
  }
}
