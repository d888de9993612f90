import { Construct } from 'constructs';
import { INFRA_OUTPUTS, windowsAmiOutputId } from '../infra/outputs';
import { dnsLabelProblem, MAX_CLUSTER_NAME } from '../platform/dns';
import { ClusterApiIam } from './cluster-api-iam';
import { CLUSTER_IMAGES_PROPS, ClusterImages, ClusterImagesProps } from './cluster-images';
import { CLUSTER_NETWORK_OPTIONS, ClusterNetwork, ClusterNetworkOptions } from './cluster-network';
import { EXISTING_NETWORK, ExistingClusterNetwork, ExistingNetwork } from './existing-network';
import { fail } from '../core/errors';
import { flag, optional, propsSpec, record, required, text } from '../core/props-spec';
import { KeyPairType, keyPairTypeOf, WINDOWS_ED25519_KEY } from '../platform/aws';
import { judgeStackAtSynth } from '../terraform/judge';
import { DataAwsPartition, DataAwsRegion, KeyPair, TerraformOutput, TerraformStack } from '../terraform/providers/aws';

/** What `HybridClusterInfra` creates: every field is optional except the cluster name. What each prop takes, as the construct checks it: docs/props.md. */
export interface HybridClusterInfraProps {
  /** The Cluster API cluster name (a DNS label), used in subnet tags and resource names. */
  readonly clusterName: string;
  /**
   * The network to create.
   * @default - a 10.0.0.0/16 VPC over two zones with a NAT gateway per zone and no VPC endpoints
   */
  readonly network?: ClusterNetworkOptions;
  /**
   * Use this VPC and these subnets instead of creating a network (`network` must then be unset).
   * @default - create a network
   */
  readonly existingNetwork?: ExistingNetwork;
  /**
   * Prefix for the IAM roles, policies and instance profiles, so several clusters can share an
   * account, e.g. `aws-test-` gives `aws-test-nodes.cluster-api-provider-aws.sigs.k8s.io`.
   * @default '' - the names clusterawsadm uses
   */
  readonly iamNamePrefix?: string;
  /**
   * Give the control-plane role the CAPA controllers policy, for a cluster that will host its own
   * Cluster API controllers after `clusterctl move` (`ClusterApiIam` `selfHostedManagement`).
   * @default false
   */
  readonly selfHostedManagement?: boolean;
  /**
   * Which images to look up or pin.
   * @default - Ubuntu 24.04 and Windows Server 2022 Core, looked up
   */
  readonly images?: ClusterImagesProps;
  /**
   * OpenSSH public key (`ssh-rsa ...` or `ssh-ed25519 ...`) to import as an EC2 key pair. An
   * ED25519 key is refused while the stack looks up Windows images: EC2 refuses to launch Windows
   * AMIs with one.
   * @default - no key pair is imported
   */
  readonly sshPublicKey?: string;
  /**
   * Name of the imported key pair; without `sshPublicKey`, the name of an existing key pair to
   * hand on to the cluster.
   * @default - the cluster name when `sshPublicKey` is set, otherwise none
   */
  readonly sshKeyName?: string;
}

/**
 * The spec of `HybridClusterInfraProps`.
 * @internal
 */
export const HYBRID_CLUSTER_INFRA_PROPS = propsSpec<HybridClusterInfraProps>('HybridClusterInfra', {
  // The same limit as HybridCluster's, which must bear this name (the subnets are tagged with it).
  clusterName: required(text({
    max: 1024, form: `a lower-case DNS label of at most ${MAX_CLUSTER_NAME} characters`, example: 'shop',
    problem: (name) => dnsLabelProblem(name, MAX_CLUSTER_NAME),
    fix: `use a lower-case DNS label of at most ${MAX_CLUSTER_NAME} characters, the name the HybridCluster will have`,
  }), 'give clusterName, the name the HybridCluster will have, e.g. "shop"'),
  network: optional(record(CLUSTER_NETWORK_OPTIONS, 'Network')),
  existingNetwork: optional(record(EXISTING_NETWORK, 'ExistingNetwork')),
  // ClusterApiIam judges the names it makes.
  iamNamePrefix: optional(text({ max: 64, min: 0, form: 'an IAM name prefix', example: 'aws-test-' })),
  selfHostedManagement: optional(flag()),
  images: optional(record(CLUSTER_IMAGES_PROPS, 'Images')),
  // A file's contents, line break and all; the construct judges the key's form.
  sshPublicKey: optional(text({ max: 16384, form: 'an OpenSSH public key', example: 'ssh-rsa AAAA... me@laptop', multiline: true })),
  // EC2 key pair names: up to 255 ASCII characters (EC2 API reference, ImportKeyPair KeyName).
  sshKeyName: optional(text({ max: 255, form: 'an EC2 key pair name', example: 'ops' })),
}, [{ props: ['network', 'existingNetwork'], what: 'network and existingNetwork are both given', fix: 'give either network (to create one) or existingNetwork (to use yours), not both' }]);

/**
 * The AWS foundation of a hybrid Linux/Windows Cluster API cluster: network, clusterawsadm-style
 * IAM, AMI lookups and an optional key pair, plus stack outputs named by `INFRA_OUTPUTS` that
 * `ClusterInfra.fromOutputsFile` reads back. Creates no provider: put it in a stack that has an
 * `AwsProvider` (or use `HybridClusterInfraStack`). One per stack, because the output names are
 * fixed. Opens nothing to the internet; CAPA creates the cluster's own security groups.
 */
export class HybridClusterInfra extends Construct {
  /** The cluster name the subnets are tagged for; the HybridCluster must bear it. */
  public readonly clusterName: string;
  /** Prefix of the IAM names ('' for clusterawsadm's own). */
  public readonly iamNamePrefix: string;
  /** The region of the stack's AWS provider. */
  public readonly region: string;
  /** The VPC the cluster uses, created or given. */
  public readonly vpcId: string;
  /** Public subnets (load balancers, NAT), one per zone. */
  public readonly publicSubnetIds: string[];
  /** Private subnets (machines), one per zone. */
  public readonly privateSubnetIds: string[];
  /** The availability zone of each private subnet: the cluster's pools spread over them. */
  public readonly privateSubnetZones: string[];
  /** The created network, unless `existingNetwork` was given. */
  public readonly network?: ClusterNetwork;
  /** The clusterawsadm-style roles, policies and instance profiles. */
  public readonly iam: ClusterApiIam;
  /** The Linux and Windows AMIs, looked up or pinned. */
  public readonly images: ClusterImages;
  /** The imported key pair, when `sshPublicKey` is given. */
  public readonly keyPair?: KeyPair;
  /** The key pair handed on to the cluster, if any. */
  public readonly sshKeyName?: string;
  /** The type of the imported key pair; unknown for a key pair named by `sshKeyName` alone. */
  public readonly sshKeyType?: KeyPairType;

  public constructor(scope: Construct, id: string, given: HybridClusterInfraProps) {
    super(scope, id);
    const stack = TerraformStack.of(this);
    const props = HYBRID_CLUSTER_INFRA_PROPS.parse(this.node.path, given);
    const taken = Object.values(INFRA_OUTPUTS).find((o) => stack.node.tryFindChild(o) !== undefined);
    if (taken !== undefined) {
      fail(this, `stack "${stack.node.id}" already has a construct "${taken}", the name of one of this construct's outputs`, 'put each cluster\'s HybridClusterInfra in its own stack');
    }
    const prefix = props.iamNamePrefix ?? '';
    // IAM names are account-wide (every region) and "not distinguished by case" (IAM API reference,
    // CreateRole RoleName): "X-" and "x-" make the same roles. (A construct whose constructor
    // threw stays in the tree without a prefix.)
    const sharing = this.node.root.node.findAll().find((c): c is HybridClusterInfra => c !== this && c instanceof HybridClusterInfra && c.iamNamePrefix?.toLowerCase() === prefix.toLowerCase());
    if (sharing) {
      fail(this, `iamNamePrefix "${prefix}" is already used by ${sharing.node.path}${sharing.iamNamePrefix === prefix ? '' : ` (as "${sharing.iamNamePrefix}": IAM names ignore case)`}, so both stacks would create the same IAM roles and instance profiles`, 'give each HybridClusterInfra its own iamNamePrefix');
    }
    if (props.existingNetwork !== undefined && props.network?.vpcEndpoints) {
      fail(this, 'network.vpcEndpoints beside existingNetwork: it only applies to a created network', 'drop network.vpcEndpoints');
    }
    const keyType = props.sshPublicKey === undefined ? undefined : keyPairTypeOf(props.sshPublicKey);
    if (props.sshPublicKey !== undefined && keyType === undefined) {
      fail(this, `sshPublicKey ${JSON.stringify(`${props.sshPublicKey.slice(0, 24)}...`)} is not an OpenSSH RSA or ED25519 public key`, 'paste the contents of e.g. ~/.ssh/id_rsa.pub');
    }
    // The Terraform rules judge the stack's final JSON at synth: a provider may be added to the
    // stack after this construct, and an override may change what is written.
    judgeStackAtSynth(this);

    this.clusterName = props.clusterName;
    this.iamNamePrefix = prefix;
    this.region = new DataAwsRegion(this, 'Region').region;
    const partition = new DataAwsPartition(this, 'Partition').partition;

    if (props.existingNetwork) {
      const existing = new ExistingClusterNetwork(this, 'ExistingNetwork', { ...props.existingNetwork, clusterName: props.clusterName });
      this.vpcId = existing.vpcId;
      this.publicSubnetIds = existing.publicSubnetIds;
      this.privateSubnetIds = existing.privateSubnetIds;
      this.privateSubnetZones = existing.privateSubnetZones;
    } else {
      this.network = new ClusterNetwork(this, 'Network', { ...props.network, clusterName: props.clusterName, region: this.region });
      this.vpcId = this.network.vpc.id;
      this.publicSubnetIds = this.network.publicSubnets.map((s) => s.id);
      this.privateSubnetIds = this.network.privateSubnets.map((s) => s.id);
      this.privateSubnetZones = this.network.privateSubnets.map((s) => s.availabilityZone);
    }

    this.iam = new ClusterApiIam(this, 'Iam', { namePrefix: props.iamNamePrefix, partition, selfHostedManagement: props.selfHostedManagement });
    this.images = new ClusterImages(this, 'Images', props.images);
    if (keyType === KeyPairType.ED25519 && this.images.windowsAmis.length > 0) {
      fail(this, `sshPublicKey is an ED25519 key, and the stack looks up Windows images (${this.images.windowsAmis.map((a) => `${a.version} ${a.edition}`).join(', ')}) whose machines would get it: ${WINDOWS_ED25519_KEY}`,
        'import an RSA key (ssh-keygen -t rsa -b 4096), or set images: { windows: [] } for a Linux-only cluster');
    }

    if (props.sshPublicKey !== undefined) {
      this.keyPair = new KeyPair(this, 'KeyPair', { keyName: props.sshKeyName ?? props.clusterName, publicKey: props.sshPublicKey.trim() });
      this.sshKeyName = this.keyPair.keyName;
      this.sshKeyType = keyType;
    } else {
      this.sshKeyName = props.sshKeyName;
    }

    // Directly under the stack: `cdktf deploy --outputs-file` keys values by construct path, and
    // ClusterInfra.fromOutputs reads `{ <stack>: { <output id>: value } }`.
    const output = (outputId: string, value: unknown, description: string): void => {
      new TerraformOutput(stack, outputId, { value, description }).overrideLogicalId(outputId);
    };
    output(INFRA_OUTPUTS.clusterName, this.clusterName, 'Name the HybridCluster must have (the subnets are tagged with it)');
    output(INFRA_OUTPUTS.region, this.region, 'AWS region of the cluster');
    output(INFRA_OUTPUTS.vpcId, this.vpcId, 'VPC for AWSCluster.spec.network.vpc.id');
    if (this.network) output(INFRA_OUTPUTS.vpcCidrBlock, this.network.vpc.cidrBlock, 'The VPC\'s IPv4 block: NodePorts are opened to it only');
    output(INFRA_OUTPUTS.publicSubnetIds, this.publicSubnetIds, 'Public subnets (load balancers, NAT)');
    output(INFRA_OUTPUTS.privateSubnetIds, this.privateSubnetIds, 'Private subnets (machines)');
    output(INFRA_OUTPUTS.privateSubnetZones, this.privateSubnetZones, 'Availability zone of each private subnet: the pools spread over them');
    output(INFRA_OUTPUTS.controlPlaneInstanceProfile, this.iam.controlPlaneInstanceProfile.name, 'Instance profile for control-plane machines');
    output(INFRA_OUTPUTS.nodeInstanceProfile, this.iam.nodesInstanceProfile.name, 'Instance profile for worker machines');
    output(INFRA_OUTPUTS.linuxAmiId, this.images.linuxAmiId, 'AMI for the control plane and Linux workers');
    output(INFRA_OUTPUTS.linuxAmiArchitecture, this.images.linuxAmiArchitecture, 'Architecture of the Linux AMI');
    for (const ami of this.images.windowsAmis) {
      output(windowsAmiOutputId(ami.version, ami.edition), ami.amiId, `AMI for Windows Server ${ami.version} ${ami.edition} workers`);
    }
    if (this.sshKeyName !== undefined) output(INFRA_OUTPUTS.sshKeyName, this.sshKeyName, 'EC2 key pair for the machines');
    if (this.sshKeyType !== undefined) output(INFRA_OUTPUTS.sshKeyType, this.sshKeyType, 'Type of the imported key pair (Windows machines need rsa)');
  }
}
