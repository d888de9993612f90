import { Construct } from 'constructs';
import { fail } from '../core/errors';
import { isUnresolvedToken } from '../core/tokens';
import { AKS_LIMITS } from '../platform/aks';
import { except, flag, handedOn, optional, propsSpec, record, stringRecord, text } from '../core/props-spec';
import { networkExclusion } from '../terraform/managed-node-pool';
import { HYBRID_AKS_CLUSTER_PROPS, HybridAksCluster, HybridAksClusterProps } from './aks-cluster';
import { AzurermProvider, ResourceGroup, RoleAssignment, Subnet, TerraformStack, VirtualNetwork } from '../terraform/providers/azurerm';

/** The network `HybridAksStack` creates: a VNet and the nodes' subnet. */
export interface AksNetworkOptions {
  /**
   * The VNet's address space. It must not overlap the pod and Service CIDRs.
   * @default '10.224.0.0/16'
   */
  readonly addressSpace?: string;
  /**
   * The nodes' subnet, inside addressSpace: one address per node with Azure CNI Overlay, surge nodes included.
   * @default '10.224.0.0/20'
   */
  readonly subnetCidr?: string;
}

/** A resource group and subnet that exist. */
export interface ExistingAksNetwork {
  /** The resource group the cluster goes in. */
  readonly resourceGroupName: string;
  /** The nodes' subnet (`/subscriptions/…/subnets/<name>`). */
  readonly subnetId: string;
}

/** Props of `HybridAksStack`: the cluster's, and where it goes. What each prop takes, as the construct checks it: docs/props.md. */
export interface HybridAksStackProps extends Omit<HybridAksClusterProps, 'subnetId' | 'resourceGroupName'> {
  /**
   * The Azure subscription.
   * @default - the provider's environment (ARM_SUBSCRIPTION_ID, or the Azure CLI's)
   */
  readonly subscriptionId?: string;
  /**
   * The resource group to create.
   * @default - `<clusterName>-rg`
   */
  readonly resourceGroupName?: string;
  /**
   * The network to create.
   * @default - a 10.224.0.0/16 VNet with a /20 for the nodes
   */
  readonly network?: AksNetworkOptions;
  /**
   * A resource group and subnet that exist; nothing else is created for the network.
   * @default - create them
   */
  readonly existingNetwork?: ExistingAksNetwork;
  /**
   * Tags of the resource group, the VNet and the cluster.
   * @default - none
   */
  readonly tags?: Record<string, string>;
  /**
   * Whether the stack grants the cluster's identity Network Contributor on the subnet it creates
   * (an `azurerm_role_assignment`): AKS needs it on a subnet of your own VNet ("the cluster identity
   * ... must have at least Network Contributor permissions on the subnet", azure-aks-docs
   * concepts-network-cni-overview.md), and only the Azure CLI adds it by itself
   * (managed-identity-overview.md); without it internal load balancers on the subnet fail. Creating
   * it needs `Microsoft.Authorization/roleAssignments/write` (Owner, User Access Administrator or
   * Role Based Access Control Administrator) on the subnet; set `false` and grant it yourself if
   * the deploying identity lacks it. With `existingNetwork`, grant it yourself.
   * @default true
   */
  readonly subnetRoleAssignment?: boolean;
}

/** A CIDR block of the created network, which the `aks-network` rule judges. */
const NETWORK_CIDR = (example: string) => text({ max: 64, form: 'an IPv4 CIDR block', example, judgedBy: 'aks-network' });

/**
 * The spec of `HybridAksStackProps`: the cluster's props are handed on to `HybridAksCluster`,
 * which parses them.
 * @internal
 */
export const HYBRID_AKS_STACK_PROPS = propsSpec<HybridAksStackProps>('HybridAksStack', {
  ...handedOn(except(HYBRID_AKS_CLUSTER_PROPS.entries, 'subnetId', 'resourceGroupName', 'clusterName', 'location'), 'HybridAksCluster'),
  // Read here too: the resource group, VNet and the stacks' identity are named after them.
  clusterName: HYBRID_AKS_CLUSTER_PROPS.entries.clusterName,
  location: HYBRID_AKS_CLUSTER_PROPS.entries.location,
  subscriptionId: optional(text({ max: 64, form: 'an Azure subscription id', example: '00000000-0000-0000-0000-000000000000' })),
  resourceGroupName: optional(HYBRID_AKS_CLUSTER_PROPS.entries.resourceGroupName.kind),
  network: optional(record(propsSpec<AksNetworkOptions>('AksNetworkOptions', {
    addressSpace: optional(NETWORK_CIDR('10.224.0.0/16')),
    subnetCidr: optional(NETWORK_CIDR('10.224.0.0/20')),
  }))),
  existingNetwork: optional(record(propsSpec<ExistingAksNetwork>('ExistingAksNetwork', {
    resourceGroupName: HYBRID_AKS_CLUSTER_PROPS.entries.resourceGroupName,
    subnetId: HYBRID_AKS_CLUSTER_PROPS.entries.subnetId,
  }))),
  tags: optional(stringRecord()),
  subnetRoleAssignment: optional(flag()),
}, [
  networkExclusion(),
  { props: ['resourceGroupName', 'existingNetwork'], what: 'both resourceGroupName and existingNetwork are set', fix: 'name the resource group in existingNetwork.resourceGroupName' },
]);

/** A stack with an `AzurermProvider`, a resource group and network (created or existing) and a `HybridAksCluster`. */
export class HybridAksStack extends TerraformStack {
  /** The `azurerm` provider. */
  public readonly provider: AzurermProvider;
  /** The created resource group, unless `existingNetwork` was given. */
  public readonly resourceGroup?: ResourceGroup;
  /** The created VNet, unless `existingNetwork` was given. */
  public readonly virtualNetwork?: VirtualNetwork;
  /** The created nodes' subnet, unless `existingNetwork` was given. */
  public readonly subnet?: Subnet;
  /** The AKS cluster; add node pools to it. */
  public readonly cluster: HybridAksCluster;
  /** Network Contributor for the cluster's identity on the created subnet, unless `subnetRoleAssignment` is false or the network exists. */
  public readonly subnetRoleAssignment?: RoleAssignment;
  /** What another stack of the app must not make again; set once the stack is built (one that failed makes nothing). */
  private identity?: { readonly subscription: string; readonly group: string; readonly cluster: string; readonly createsGroup: boolean };

  public constructor(scope: Construct, id: string, given: HybridAksStackProps) {
    super(scope, id);
    const props = HYBRID_AKS_STACK_PROPS.parse(this.node.path, given);
    const { subscriptionId, resourceGroupName, network, existingNetwork, tags, subnetRoleAssignment, ...cluster } = props;
    const rg = existingNetwork?.resourceGroupName ?? resourceGroupName ?? `${props.clusterName}-rg`;
    const identity = { subscription: subscriptionId ?? '', group: rg, cluster: props.clusterName, createsGroup: existingNetwork === undefined };
    // One app deploys its stacks to the same account: a second stack of the same cluster or resource
    // group would try to create what the first one did (AKS clusters are named per resource group).
    for (const other of this.node.root.node.findAll()) {
      if (!(other instanceof HybridAksStack) || other.identity === undefined || other.identity.subscription !== identity.subscription || other.identity.group !== rg) continue;
      if (other.identity.cluster === props.clusterName) fail(this, `clusterName: stack ${other.node.path} already makes AKS cluster ${props.clusterName} in resource group ${rg}`, 'give each stack its own clusterName (or resourceGroupName)');
      if (other.identity.createsGroup && identity.createsGroup) fail(this, `resourceGroupName: stack ${other.node.path} already creates resource group ${rg}`, 'give each stack its own resourceGroupName, or put this cluster in the other stack\'s group with existingNetwork');
    }
    const vnetName = `${props.clusterName}-vnet`;
    if (existingNetwork === undefined && !isUnresolvedToken(props.clusterName) && vnetName.length > AKS_LIMITS.vnetName) {
      fail(this, `clusterName: the VNet is named ${vnetName}, ${vnetName.length} characters, and Azure takes at most ${AKS_LIMITS.vnetName} for a virtual network`, `use a clusterName of at most ${AKS_LIMITS.vnetName - 5} characters, or give existingNetwork`);
    }
    // features {} is required by azurerm even when empty.
    this.provider = new AzurermProvider(this, 'azurerm', { features: [{}], subscriptionId });
    let group: string;
    let subnetId: string;
    if (existingNetwork !== undefined) {
      group = existingNetwork.resourceGroupName;
      subnetId = existingNetwork.subnetId;
    } else {
      this.resourceGroup = new ResourceGroup(this, 'ResourceGroup', { name: resourceGroupName ?? `${props.clusterName}-rg`, location: props.location, tags });
      group = this.resourceGroup.name;
      this.virtualNetwork = new VirtualNetwork(this, 'Network', {
        name: vnetName,
        location: props.location,
        resourceGroupName: group,
        addressSpace: [network?.addressSpace ?? '10.224.0.0/16'],
        tags,
      });
      this.subnet = new Subnet(this, 'Nodes', {
        name: 'nodes',
        resourceGroupName: group,
        virtualNetworkName: this.virtualNetwork.name,
        addressPrefixes: [network?.subnetCidr ?? '10.224.0.0/20'],
      });
      subnetId = this.subnet.id;
    }
    this.cluster = new HybridAksCluster(this, 'Cluster', { ...cluster, resourceGroupName: group, subnetId });
    if (tags) this.cluster.cluster.tags = { ...tags };
    // A system-assigned identity exists only once the cluster does, so the grant follows its creation (managed-identity-overview.md).
    if (this.subnet && subnetRoleAssignment !== false) {
      this.subnetRoleAssignment = new RoleAssignment(this, 'SubnetNetworkContributor', {
        scope: this.subnet.id,
        roleDefinitionName: 'Network Contributor',
        principalId: this.cluster.cluster.identity.principalId,
      });
    }
    this.identity = identity;
  }
}
