import { DataAwsPartition } from '@cdktf/provider-aws/lib/data-aws-partition';
import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksAddon } from '@cdktf/provider-aws/lib/eks-addon';
import { EksCluster } from '@cdktf/provider-aws/lib/eks-cluster';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { Construct } from 'constructs';
import { fail, problem } from '../platform/errors';
import { isUnresolvedToken } from '../platform/tokens';
import { parseEksWindowsAmiType } from './ami-type';
import { EksNodeRole, sharedNodeRoleProblem } from './node-role';
import { Block, blockOf, blocksOf, reference, synthesizedStack } from './synthesized';

/** The cluster's IP family for pods and services. */
export enum EksIpFamily {
  /** IPv4 pod and service addresses: the default, and the only family EKS Windows nodes support. */
  IPV4 = 'ipv4',
  /** EKS Windows nodes do not support IPv6; the checks refuse it beside Windows node groups. */
  IPV6 = 'ipv6',
}

/** The type of an access entry for a node role. */
export enum NodeAccessEntryType {
  /** Linux nodes: what EKS gives the role of a Linux managed node group itself. */
  EC2_LINUX = 'EC2_LINUX',
  /** What Linux nodes get plus the `eks:kube-proxy-windows` group Windows nodes need. */
  EC2_WINDOWS = 'EC2_WINDOWS',
}

/**
 * Versions of the managed add-ons, as `aws eks describe-addon-versions --addon-name <name>` lists
 * them (e.g. `v1.20.4-eksbuild.1`). Pin them to upgrade an add-on on your schedule rather than
 * when the cluster is created or its Kubernetes version changes.
 */
export interface EksAddonVersions {
  /**
   * Version of `vpc-cni` (the Amazon VPC CNI: pod addresses on Linux nodes, and the Windows IPAM
   * setting the VPC resource controller reads).
   * @default - the add-on's default version for the cluster's Kubernetes version
   */
  readonly vpcCni?: string;
  /**
   * Version of `coredns` (cluster DNS; its pods run on Linux nodes only).
   * @default - the add-on's default version for the cluster's Kubernetes version
   */
  readonly coreDns?: string;
  /**
   * Version of `kube-proxy` (Service routing on every node; on Windows nodes it is part of the AMI).
   * @default - the add-on's default version for the cluster's Kubernetes version
   */
  readonly kubeProxy?: string;
}

/** Props of `HybridEksCluster`. */
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
   * CIDR blocks that may reach a public API endpoint.
   * @default - no public endpoint: the API is reachable from the VPC (and networks joined to it) only
   */
  readonly publicAccessCidrs?: readonly string[];
  /**
   * Versions of the `vpc-cni`, `coredns` and `kube-proxy` add-ons.
   * @default - each add-on's default version for `kubernetesVersion`
   */
  readonly addonVersions?: EksAddonVersions;
}

/** The managed policies of the cluster role (EKS User Guide, cluster-iam-role.adoc). */
export const EKS_CLUSTER_POLICIES = ['AmazonEKSClusterPolicy', 'AmazonEKSVPCResourceController'] as const;

const K8S_VERSION = /^1\.(\d{2})$/;
const CIDR = /^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/;
const CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$/;

/**
 * An EKS cluster ready for Windows node groups: access entries (authentication mode `API`),
 * IPv4, a cluster role with `AmazonEKSClusterPolicy` and `AmazonEKSVPCResourceController`, and
 * the managed add-ons `vpc-cni` (Windows IPAM on through its configuration values), `kube-proxy`
 * and `coredns`. Add `EksLinuxNodeGroup`s and `EksWindowsNodeGroup`s to it. Creates no provider.
 */
export class HybridEksCluster extends Construct {
  /** The EKS cluster name (`clusterName`). */
  public readonly clusterName: string;
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

  public constructor(scope: Construct, id: string, props: HybridEksClusterProps) {
    super(scope, id);
    if (!CLUSTER_NAME.test(props.clusterName)) {
      fail(this, `clusterName "${props.clusterName}" is not an EKS cluster name`, 'use 1 to 100 letters, digits, - and _, starting with a letter or digit');
    }
    if (!K8S_VERSION.test(props.kubernetesVersion)) fail(this, `kubernetesVersion "${props.kubernetesVersion}" is not an EKS Kubernetes version`, "write the minor version, e.g. '1.34'");
    if (props.subnetIds.length === 0) fail(this, 'subnetIds is empty', 'give the private subnets of the network (EKS wants two zones or more)');
    const publicCidrs = props.publicAccessCidrs ?? [];
    for (const cidr of publicCidrs) {
      if (!isUnresolvedToken(cidr) && !CIDR.test(cidr)) fail(this, `publicAccessCidrs entry "${cidr}" is not an IPv4 CIDR block`, 'write it like 203.0.113.0/24');
    }
    this.clusterName = props.clusterName;
    this.nodeSubnetIds = [...props.subnetIds];
    this.partition = new DataAwsPartition(this, 'Partition').partition;

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
      dependsOn: attachments,
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

    this.node.addValidation({ validate: () => this.check() });
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

  /** The cluster-wide rules, on the synthesized Terraform JSON (escape hatches included). */
  private check(): string[] {
    const tf = synthesizedStack(this, true);
    const clusterName = reference(this.cluster, 'name');
    const ofThisCluster = (type: string): Block[] => blocksOf(tf, type).filter((b) => b.cluster_name === clusterName);
    const groups = ofThisCluster('aws_eks_node_group');
    const windows = groups.filter((g) => parseEksWindowsAmiType(g.ami_type) !== undefined);
    const linux = groups.filter((g) => !windows.includes(g));
    const names = (list: Block[]): string => list.map((g) => g.node_group_name).join(', ');
    const problems: string[] = [];

    const cluster = blockOf(tf, this.cluster);
    if (cluster?.role_arn === reference(this.role, 'arn')) {
      const attached = blocksOf(tf, 'aws_iam_role_policy_attachment')
        .filter((b) => b.role === reference(this.role, 'name'))
        .map((b) => String(b.policy_arn).split('/').pop());
      for (const policy of EKS_CLUSTER_POLICIES) {
        if (!attached.includes(policy)) {
          problems.push(problem(
            `the cluster role has no ${policy}` + (policy === 'AmazonEKSVPCResourceController' ? ', so the VPC resource controller cannot give Windows pods addresses' : ''),
            `keep the ${policy} attachment (drop the override that removed it)`,
          ));
        }
      }
    }
    const entries = ofThisCluster('aws_eks_access_entry');
    const byPrincipal = new Map<unknown, number>();
    for (const e of entries) byPrincipal.set(e.principal_arn, (byPrincipal.get(e.principal_arn) ?? 0) + 1);
    for (const [principal, count] of byPrincipal) {
      if (count > 1) problems.push(problem(`${count} access entries name ${principal}, and EKS allows one per IAM principal (the second fails to create)`, 'keep one entry per role'));
    }
    if (windows.length === 0) return problems;

    if (!linux.some((g) => Number(g.scaling_config?.min_size) >= 1)) {
      problems.push(problem(
        `Windows node groups (${names(windows)}) need a Linux node for CoreDNS, and the cluster has no Linux node group with minSize >= 1`,
        'add an EksLinuxNodeGroup with minSize >= 1',
      ));
    }
    const ipFamily = cluster?.kubernetes_network_config?.ip_family ?? EksIpFamily.IPV4;
    if (ipFamily !== EksIpFamily.IPV4) {
      problems.push(problem(`ipFamily is ${ipFamily}, and EKS Windows nodes support IPv4 only (node groups ${names(windows)})`, 'use EksIpFamily.IPV4'));
    }
    const vpcCni = ofThisCluster('aws_eks_addon').find((a) => a.addon_name === 'vpc-cni');
    if (windowsIpam(vpcCni) !== 'true') {
      problems.push(problem(
        `Windows IPAM is off: the vpc-cni add-on ${vpcCni === undefined ? 'is missing' : `has configuration values ${JSON.stringify(vpcCni.configuration_values ?? null)}`}, so Windows pods get no IP address`,
        'keep the vpc-cni add-on with configuration values {"enableWindowsIpam":"true"} (not a hand-written amazon-vpc-cni ConfigMap, which the add-on overwrites)',
      ));
    }
    for (const role of new Set(windows.map((g) => g.node_role_arn))) {
      const sharing = linux.filter((g) => g.node_role_arn === role);
      if (sharing.length > 0) {
        const { what, fix } = sharedNodeRoleProblem(String(role), sharing.map((g) => g.node_group_name), windows.filter((g) => g.node_role_arn === role).map((g) => g.node_group_name));
        problems.push(problem(what, fix));
      }
      const types = entries.filter((e) => e.principal_arn === role).map((e) => e.type);
      if (!types.includes(NodeAccessEntryType.EC2_WINDOWS)) {
        problems.push(problem(
          `the node role ${role} of Windows node groups ${names(windows.filter((g) => g.node_role_arn === role))} has ${types.length === 0 ? 'no access entry' : `a ${types.join(', ')} access entry`}, not EC2_WINDOWS; ` +
            'EKS may register it as EC2_LINUX (aws/containers-roadmap#2327), and then its Windows nodes lack the eks:kube-proxy-windows group that kube-proxy on Windows needs',
          'keep the EC2_WINDOWS access entry the Windows node group creates (drop the override that removed or changed it)',
        ));
      }
    }
    return problems;
  }
}

function windowsIpam(addon: Block | undefined): unknown {
  if (typeof addon?.configuration_values !== 'string') return undefined;
  try {
    return (JSON.parse(addon.configuration_values) as Record<string, unknown>).enableWindowsIpam;
  } catch {
    return undefined;
  }
}
