import { Construct } from 'constructs';
import { judgeOwnResources, judgeStackAtSynth } from '../terraform/judge';
import { choice, flag, list, optional, propsSpec, record, required, text, whole } from '../core/props-spec';
import { namedFields, namedOf, vocabularySpec } from '../terraform/managed-node-pool';
import { isUnresolvedToken } from '../core/tokens';
import { AKS_LIMITS, AksNetworkPlugin, aksDnsPrefix, AksNetworkPolicy, AksNodeOsUpgradeChannel, AksSkuTier, AksSupportPlan, AksWindowsLicense } from '../platform/aks';
import { PropsOfFields } from '../rules/engine/refusal';
import { formatCidr, parseCidr } from '../platform/cidr';
import { KubernetesCluster, TerraformVariable } from '../terraform/providers/azurerm';

/** The cluster's System pool: Linux, the pool AKS runs its system pods (CoreDNS, metrics-server, konnectivity) on. */
export interface AksSystemPoolOptions {
  /**
   * The VM size.
   * @default 'Standard_D4ds_v5'
   */
  readonly machineType?: string;
  /**
   * The fewest nodes (autoscaling); AKS keeps at least one on a System pool.
   * @default 2
   */
  readonly minNodes?: number;
  /**
   * The most nodes.
   * @default - the larger of minNodes and 3
   */
  readonly maxNodes?: number;
  /**
   * Pods per node: 30 to 250 on a System pool.
   * @default - AKS's: 250 with Azure CNI Overlay
   */
  readonly maxPods?: number;
  /**
   * Availability zones, e.g. `['1', '2', '3']`.
   * @default - no zones
   */
  readonly zones?: readonly string[];
  /**
   * The former name of `machineType`, which takes the same values; giving both is refused.
   * @deprecated use `machineType`.
   * @default - machineType
   */
  readonly vmSize?: string;
  /**
   * The former name of `minNodes`, which takes the same values; giving both is refused.
   * @deprecated use `minNodes`.
   * @default - minNodes
   */
  readonly minCount?: number;
  /**
   * The former name of `maxNodes`, which takes the same values; giving both is refused.
   * @deprecated use `maxNodes`.
   * @default - maxNodes
   */
  readonly maxCount?: number;
}

/** The weekly window in which AKS may reimage nodes with a new node image. */
export interface AksMaintenanceWindow {
  /**
   * The day, e.g. `Sunday`.
   * @default 'Sunday'
   */
  readonly dayOfWeek?: string;
  /**
   * Start, `HH:mm`.
   * @default '00:00'
   */
  readonly startTime?: string;
  /**
   * Hours, 4 to 24 (AKS's minimum window).
   * @default 4
   */
  readonly durationHours?: number;
  /**
   * Offset of startTime from UTC, e.g. `+01:00`.
   * @default '+00:00'
   */
  readonly utcOffset?: string;
}

/** Props of `HybridAksCluster`. What each prop takes, as the construct checks it: docs/props.md. */
export interface HybridAksClusterProps {
  /** The AKS cluster name; also the DNS prefix of its API server (with "-" for "_", at most 54 characters). */
  readonly clusterName: string;
  /**
   * Kubernetes version, `1.NN` (AKS's latest patch) or `1.NN.P`, e.g. `1.35`: one in AKS community
   * support on the day of the synth, or in long-term support with `supportPlan`
   * `AKS_LONG_TERM_SUPPORT` (AKS's release calendar; `SOURCE_DATE_EPOCH` pins the day).
   */
  readonly kubernetesVersion: string;
  /**
   * The Kubernetes support plan. Long-term support (LTS) keeps a version creatable and patched one
   * year after its community support ends, and needs the Premium tier (`az aks create --tier
   * premium --k8s-support-plan AKSLongTermSupport`).
   * @default AksSupportPlan.KUBERNETES_OFFICIAL (azurerm's default: community support only)
   */
  readonly supportPlan?: AksSupportPlan;
  /**
   * The cluster management tier: Free (no uptime SLA), Standard (uptime SLA) or Premium (Standard's
   * SLA and long-term support).
   * @default - AksSkuTier.PREMIUM with supportPlan AKS_LONG_TERM_SUPPORT, else AksSkuTier.FREE (azurerm's default)
   */
  readonly skuTier?: AksSkuTier;
  /** Azure region, e.g. `westeurope`. */
  readonly location: string;
  /** The resource group of the cluster. */
  readonly resourceGroupName: string;
  /** The subnet of the nodes (one address per node with Azure CNI Overlay). */
  readonly subnetId: string;
  /**
   * The network policy engine; Cilium runs no Windows nodes, so it is refused beside Windows pools.
   * @default AksNetworkPolicy.CALICO
   */
  readonly networkPolicy?: AksNetworkPolicy;
  /**
   * The pod CIDR of Azure CNI Overlay (a /24 per node; not routable outside the cluster, so it may
   * overlap other clusters' but not the VNet's).
   * @default '10.244.0.0/16'
   */
  readonly podCidr?: string;
  /**
   * The Service CIDR; the DNS service gets its tenth address.
   * @default '10.0.0.0/16'
   */
  readonly serviceCidr?: string;
  /**
   * The System pool.
   * @default - Standard_D4ds_v5, 2 to 3 nodes
   */
  readonly systemPool?: AksSystemPoolOptions;
  /**
   * The Windows nodes' administrator.
   * @default 'aksadmin'
   */
  readonly windowsAdminUsername?: string;
  /**
   * The Windows nodes' administrator password, as a reference to a secret (a Key Vault secret's
   * value, a variable of yours). A literal is refused: it would sit in the JSON and the state.
   * @default - a sensitive Terraform variable `windows_admin_password` (set `TF_VAR_windows_admin_password`; 14 to 123 characters, checked by Terraform)
   */
  readonly windowsAdminPassword?: string;
  /**
   * The Windows license of the nodes.
   * @default AksWindowsLicense.PAY_AS_YOU_GO
   */
  readonly windowsLicense?: AksWindowsLicense;
  /**
   * How AKS patches node images.
   * @default AksNodeOsUpgradeChannel.NODE_IMAGE
   */
  readonly nodeOsUpgradeChannel?: AksNodeOsUpgradeChannel;
  /**
   * When node images may be applied.
   * @default - Sundays 00:00 UTC, 4 hours
   */
  readonly maintenanceWindow?: AksMaintenanceWindow;
  /**
   * Whether Terraform refuses to destroy or replace the cluster and its node pools
   * (`lifecycle.prevent_destroy` on each). Edits that azurerm can only apply by replacing them (the
   * cluster: `windowsAdminUsername`, `podCidr`, `serviceCidr`, `networkPolicy` between Calico and
   * Azure; a pool: `windowsVersion`, its name) then fail at plan instead of destroying every pool
   * and workload (docs/aks.md, "Day 2"). Removing a pool's construct still deletes that pool:
   * `prevent_destroy` guards only resources that stay in the configuration. Set it to `false` to
   * accept a replacement, or before `cdktn destroy`.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/**
 * The deprecated names of the AKS pools' props (the System pool's too), each to its prop.
 * @internal
 */
export const AKS_FORMER_NAMES = { vmSize: 'machineType', minCount: 'minNodes', maxCount: 'maxNodes' } as const;

/**
 * The VM size, node counts and pods per node of a pool, the user pools' and the System pool's.
 * azurerm's min_count, max_count and max_pods are integers (kubernetes_cluster_node_pool_resource.go,
 * TypeInt); `aks-node-pool` and `aks-max-pods` judge their ranges.
 * @internal
 */
export const AKS_POOL_SIZE = {
  machineType: required(text({ max: 128, form: 'an Azure VM size', example: 'Standard_D4ds_v5' }), 'give machineType, e.g. "Standard_D4ds_v5"'),
  minNodes: optional(whole(0, undefined, 'aks-node-pool')),
  maxNodes: optional(whole(0, undefined, 'aks-node-pool')),
  maxPods: optional(whole(0, undefined, 'aks-max-pods')),
  zones: optional(list(text({ max: 16, form: 'an availability zone', example: '1', judgedBy: 'aks-node-pool' }))),
};

/**
 * A pool's size as azurerm writes it, the user pools' and the System pool's: autoscaled from
 * `minNodes` to `maxNodes` (at least 3 unless given), on `machineType`.
 * @internal
 */
export function aksPoolSize(size: Pick<AksSystemPoolOptions, 'machineType' | 'minNodes' | 'maxNodes' | 'maxPods' | 'zones'>, machineType: string, minNodes: number) {
  const minCount = size.minNodes ?? minNodes;
  return { vmSize: size.machineType ?? machineType, autoScalingEnabled: true, minCount, maxCount: size.maxNodes ?? Math.max(minCount, 3), maxPods: size.maxPods, zones: size.zones ? [...size.zones] : undefined };
}

/** A CIDR block the `aks-network` rule judges. */
const CIDR = text({ max: 64, form: 'an IPv4 CIDR block', example: '10.244.0.0/16', judgedBy: 'aks-network' });
/** A field of the maintenance window the `aks-maintenance-window` rule judges. */
const WINDOW_TEXT = (example: string) => text({ max: 64, form: 'text', example, judgedBy: 'aks-maintenance-window' });

/**
 * The spec of `AksSystemPoolOptions`, its former names taken as aliases.
 * @internal
 */
export const AKS_SYSTEM_POOL_PROPS = vocabularySpec<AksSystemPoolOptions, typeof AKS_FORMER_NAMES>('AksSystemPoolOptions', {
  ...AKS_POOL_SIZE,
  machineType: optional(AKS_POOL_SIZE.machineType.kind),
}, AKS_FORMER_NAMES, [], 'systemPool.');

/**
 * The spec of `HybridAksClusterProps`; the Terraform rules judge the values further (the names'
 * forms, the versions AKS offers on the day, the CIDR blocks, the window, the password).
 * @internal
 */
export const HYBRID_AKS_CLUSTER_PROPS = propsSpec<HybridAksClusterProps>('HybridAksCluster', {
  clusterName: required(text({ max: 1024, form: 'an AKS cluster name', example: 'shop', judgedBy: 'aks-cluster-name' }), 'give clusterName, e.g. "shop"'),
  kubernetesVersion: required(text({ max: 64, form: 'a Kubernetes version', example: '1.35', judgedBy: 'aks-kubernetes-version' }), 'give kubernetesVersion, e.g. "1.35"'),
  supportPlan: optional(choice(AksSupportPlan, 'AksSupportPlan')),
  skuTier: optional(choice(AksSkuTier, 'AksSkuTier')),
  location: required(text({ max: 64, form: 'an Azure region', example: 'westeurope' }), 'give location, e.g. "westeurope"'),
  // Azure takes resource group names of 1 to 90 characters (Azure "Naming rules and restrictions", Microsoft.Resources/resourcegroups).
  resourceGroupName: required(text({ max: 90, form: 'a resource group name', example: 'shop-rg' }), 'give resourceGroupName, e.g. "shop-rg"'),
  subnetId: required(text({ max: 1024, form: 'a subnet id', example: '/subscriptions/…/subnets/nodes' }), 'give the nodes\' subnet id'),
  networkPolicy: optional(choice(AksNetworkPolicy, 'AksNetworkPolicy')),
  podCidr: optional(CIDR),
  serviceCidr: optional(CIDR),
  systemPool: optional(record(AKS_SYSTEM_POOL_PROPS)),
  windowsAdminUsername: optional(text({ max: 64, form: 'a Windows user name', example: 'aksadmin', judgedBy: 'aks-windows-password' })),
  windowsAdminPassword: optional(text({ max: 1024, form: 'a reference to a secret', example: '${var.windows_admin_password}', judgedBy: 'aks-windows-password' })),
  windowsLicense: optional(choice(AksWindowsLicense, 'AksWindowsLicense')),
  nodeOsUpgradeChannel: optional(choice(AksNodeOsUpgradeChannel, 'AksNodeOsUpgradeChannel')),
  maintenanceWindow: optional(record(propsSpec<AksMaintenanceWindow>('AksMaintenanceWindow', {
    dayOfWeek: optional(WINDOW_TEXT('Sunday')),
    startTime: optional(WINDOW_TEXT('00:00')),
    durationHours: optional(whole(0, undefined, 'aks-maintenance-window')),
    utcOffset: optional(WINDOW_TEXT('+00:00')),
  }))),
  deletionProtection: optional(flag()),
});

/** Which prop sets which field of the cluster, for messages at construction. */
const PROPS_OF_FIELDS: PropsOfFields = {
  'azurerm_kubernetes_cluster name': 'clusterName',
  'azurerm_kubernetes_cluster kubernetes_version': 'kubernetesVersion',
  'azurerm_kubernetes_cluster support_plan': 'supportPlan',
  'azurerm_kubernetes_cluster sku_tier': 'skuTier',
  'azurerm_kubernetes_cluster network_profile.pod_cidr': 'podCidr',
  'azurerm_kubernetes_cluster network_profile.service_cidr': 'serviceCidr',
  'azurerm_kubernetes_cluster network_profile.dns_service_ip': 'serviceCidr',
  'azurerm_kubernetes_cluster network_profile.network_policy': 'networkPolicy',
  'azurerm_kubernetes_cluster maintenance_window_node_os.day_of_week': 'maintenanceWindow.dayOfWeek',
  'azurerm_kubernetes_cluster maintenance_window_node_os.start_time': 'maintenanceWindow.startTime',
  'azurerm_kubernetes_cluster maintenance_window_node_os.duration': 'maintenanceWindow.durationHours',
  'azurerm_kubernetes_cluster maintenance_window_node_os.utc_offset': 'maintenanceWindow.utcOffset',
  'azurerm_kubernetes_cluster default_node_pool.max_pods': 'systemPool.maxPods',
  'azurerm_kubernetes_cluster default_node_pool.min_count': 'systemPool.minNodes',
  'azurerm_kubernetes_cluster default_node_pool.max_count': 'systemPool.minNodes and systemPool.maxNodes',
  'azurerm_kubernetes_cluster default_node_pool.zones': 'systemPool.zones',
  'azurerm_kubernetes_cluster default_node_pool.vnet_subnet_id': 'systemPool.maxNodes',
  'azurerm_kubernetes_cluster windows_profile.admin_username': 'windowsAdminUsername',
  'azurerm_kubernetes_cluster windows_profile.admin_password': 'windowsAdminPassword',
};

/** The Terraform variable of the Windows admin password the cluster creates unless given one. */
export const WINDOWS_ADMIN_PASSWORD_VARIABLE = 'windows_admin_password';

/**
 * An AKS cluster ready for Windows node pools: Azure CNI Overlay with a network policy (Windows
 * pools need Azure CNI; without a network profile azurerm creates kubenet), a Linux System pool
 * that autoscales, a Windows profile whose password comes from a sensitive variable or a secret,
 * never a literal, a system-assigned managed identity, the OIDC issuer and workload identity,
 * node images in a weekly maintenance window. Add `AksLinuxNodePool`s and `AksWindowsNodePool`s
 * to it. Creates no provider.
 */
export class HybridAksCluster extends Construct {
  /** The AKS cluster name (`clusterName`). */
  public readonly clusterName: string;
  /** The subnet pools use unless they name their own. */
  public readonly subnetId: string;
  /** The `azurerm_kubernetes_cluster` resource: its id, kubeconfig and OIDC issuer URL, and the escape hatch. */
  public readonly cluster: KubernetesCluster;
  /** The sensitive variable of the Windows admin password, unless `windowsAdminPassword` was given. */
  public readonly windowsAdminPassword?: TerraformVariable;
  /** The control plane's Kubernetes version (`kubernetesVersion`): node pools run it unless they hold back. */
  public readonly kubernetesVersion: string;
  /** Whether the cluster and its pools carry `prevent_destroy` (`deletionProtection`). */
  public readonly deletionProtection: boolean;

  public constructor(scope: Construct, id: string, given: HybridAksClusterProps) {
    super(scope, id);
    const props = HYBRID_AKS_CLUSTER_PROPS.parse(this.node.path, given);
    this.clusterName = props.clusterName;
    this.subnetId = props.subnetId;
    this.kubernetesVersion = props.kubernetesVersion;
    this.deletionProtection = props.deletionProtection ?? true;
    const { min, max } = AKS_LIMITS.password;
    if (props.windowsAdminPassword === undefined) {
      this.windowsAdminPassword = new TerraformVariable(this, 'WindowsAdminPassword', {
        type: 'string',
        sensitive: true,
        nullable: false,
        description: `Administrator password of the Windows nodes of AKS cluster ${props.clusterName} (${min} to ${max} characters)`,
        // AKS refuses fewer than 14 characters at apply; azurerm checks only 8. Terraform checks it at plan.
        validation: [{
          condition: `\${length(var.${WINDOWS_ADMIN_PASSWORD_VARIABLE}) >= ${min} && length(var.${WINDOWS_ADMIN_PASSWORD_VARIABLE}) <= ${max}}`,
          errorMessage: `The Windows admin password must be ${min} to ${max} characters (AKS).`,
        }],
      });
      this.windowsAdminPassword.overrideLogicalId(WINDOWS_ADMIN_PASSWORD_VARIABLE);
    }
    const system = props.systemPool ?? {};
    const window = props.maintenanceWindow ?? {};

    this.cluster = new KubernetesCluster(this, 'Cluster', {
      name: props.clusterName,
      location: props.location,
      resourceGroupName: props.resourceGroupName,
      dnsPrefix: isUnresolvedToken(props.clusterName) ? props.clusterName : aksDnsPrefix(props.clusterName),
      kubernetesVersion: props.kubernetesVersion,
      supportPlan: props.supportPlan,
      // AKS enables long-term support on the Premium tier only (azure-aks-docs long-term-support.md).
      skuTier: props.skuTier ?? (props.supportPlan === AksSupportPlan.AKS_LONG_TERM_SUPPORT ? AksSkuTier.PREMIUM : undefined),
      identity: { type: 'SystemAssigned' },
      // Workload identity: pods get Entra tokens by federation, no secrets on the nodes.
      oidcIssuerEnabled: true,
      workloadIdentityEnabled: true,
      networkProfile: {
        // Azure CNI Overlay: one VNet address per node (pods take theirs from podCidr), so Windows
        // pools, which need Azure CNI, do not exhaust the subnet as flat Azure CNI would.
        networkPlugin: AksNetworkPlugin.AZURE,
        networkPluginMode: 'overlay',
        networkPolicy: props.networkPolicy ?? AksNetworkPolicy.CALICO,
        podCidr: props.podCidr ?? '10.244.0.0/16',
        serviceCidr: props.serviceCidr ?? '10.0.0.0/16',
        dnsServiceIp: serviceAddress(props.serviceCidr ?? '10.0.0.0/16', 10) ?? props.serviceCidr,
        loadBalancerSku: 'standard',
      },
      defaultNodePool: {
        name: 'system',
        // A change of vmSize, zones or maxPods rotates the pool through this temporary one (without
        // it azurerm's update fails: kubernetes_cluster_resource.go, cycleNodePoolProperties).
        temporaryNameForRotation: 'systemtmp',
        // The System pool follows the control plane: azurerm upgrades the control plane, then this
        // pool, in one update (kubernetes_cluster_resource.go update: kubernetes_version, then
        // default_node_pool); without it only the control plane moves.
        orchestratorVersion: props.kubernetesVersion,
        vnetSubnetId: props.subnetId,
        ...aksPoolSize(system, 'Standard_D4ds_v5', 2),
        upgradeSettings: { maxSurge: '10%' },
      },
      windowsProfile: {
        adminUsername: props.windowsAdminUsername ?? 'aksadmin',
        adminPassword: props.windowsAdminPassword ?? this.windowsAdminPassword!.stringValue,
        license: props.windowsLicense === AksWindowsLicense.WINDOWS_SERVER ? AksWindowsLicense.WINDOWS_SERVER : undefined,
      },
      nodeOsUpgradeChannel: props.nodeOsUpgradeChannel ?? AksNodeOsUpgradeChannel.NODE_IMAGE,
      maintenanceWindowNodeOs: {
        frequency: 'Weekly',
        interval: 1,
        dayOfWeek: window.dayOfWeek ?? 'Sunday',
        startTime: window.startTime ?? '00:00',
        duration: window.durationHours ?? 4,
        utcOffset: window.utcOffset ?? '+00:00',
      },
      // The cluster autoscaler sets the node count; the next apply should not reset it.
      lifecycle: { ignoreChanges: ['default_node_pool[0].node_count'], preventDestroy: this.deletionProtection || undefined },
    });
    judgeOwnResources(this, [this.cluster], namedFields(PROPS_OF_FIELDS, namedOf(props.systemPool)));
    judgeStackAtSynth(this);
  }
}

/**
 * The `n`th address of an IPv4 block (`10.0.0.0/16`, 10 → `10.0.0.10`; `172.16.0.248/29`, 10 →
 * `172.16.1.2`, outside the block, which `aks-network` refuses), or undefined for what is not a
 * block (a token, a typo: the rule names it).
 */
function serviceAddress(cidr: string, n: number): string | undefined {
  let block;
  try {
    block = parseCidr(cidr);
  } catch {
    return undefined;
  }
  return formatCidr({ network: block.network + n, prefix: 32 }).replace(/\/32$/, '');
}
