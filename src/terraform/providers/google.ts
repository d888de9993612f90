/**
 * The Google provider's facade, for `cdk-hybrid-windows/gke`: the one module that knows how the
 * `google_*` blocks are written. `@cdktn/provider-google` is not published, and the deprecated
 * `@cdktf/provider-google` 16 (307 MB, frozen at hashicorp/google 6.50.0 with an exact version
 * pin) runs under `cdktn` only through a `cdktf -> cdktn` npm alias in the user's project
 * (docs/gke.md, "Which provider binding"). So this module is a small typed layer over CDK Terrain's
 * generic `TerraformResource`: one class per resource the GKE constructs write, with the fields
 * they write, each checked against hashicorp/terraform-provider-google v7.45.0
 * (`google/services/container/resource_container_cluster.go`, `resource_container_node_pool.go`,
 * `node_config.go`; `google/services/compute/resource_compute_network.go`,
 * `resource_compute_subnetwork.go`, `resource_compute_router.go`, `resource_compute_router_nat.go`;
 * `google/services/resourcemanager/resource_google_service_account.go`,
 * `google/services/resourcemanager/iam_project.go` with `tpgiamresource` for `google_project_iam_member`).
 * Every other field stays reachable with `addOverride`. When `@cdktn/provider-google` is
 * published, these classes become one re-export per line from `@cdktn/provider-google/lib/<resource>`
 * (like `./aws.ts`), and nothing else changes.
 *
 * Users install nothing beyond CDK Terrain's core for it.
 */
import type { Construct } from 'constructs';
import { TerraformProvider, TerraformResource, Tokenization } from '../cdktn';
import type { TerraformMetaArguments } from '../cdktn';

export * from '../cdktn';

/**
 * The hashicorp/google releases the fields below were checked against. Override the constraint
 * with `stack.addOverride('terraform.required_providers.google.version', '…')`.
 */
export const GOOGLE_PROVIDER_VERSION = '~> 7.0';

const METADATA = { providerName: 'google', providerVersionConstraint: GOOGLE_PROVIDER_VERSION };

/** Attributes whose keys are data (label keys, metadata keys), not field names: written as given. */
const MAPS = new Set(['labels', 'resourceLabels', 'metadata', 'defaultLabels']);

/** camelCase to the provider's snake_case, through nested blocks; tokens and map keys stay as they are. */
function snake(value: unknown, map = false): unknown {
  if (value === null || typeof value !== 'object' || Tokenization.isResolvable(value)) return value;
  if (Array.isArray(value)) return value.map((v) => snake(v));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => map ? [k, v] : [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snake(v, MAPS.has(k))]));
}

/** One argument as CDK Terrain's HCL writer takes it (the shape generated bindings return from `synthesizeHclAttributes`). */
interface HclArgument {
  readonly value: unknown;
  readonly isBlock: boolean;
  readonly type: 'simple' | 'list' | 'map';
  readonly storageClassType: string;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object' || Tokenization.isResolvable(value);
}

/**
 * The typed fields that are lists of nested blocks in the provider's schema (`Elem` a
 * `schema.Resource`): `cidr_blocks` (resource_container_cluster.go `masterAuthorizedNetworksConfig`),
 * `secondary_ip_range` (resource_compute_subnetwork.go), `taint` (node_config.go). An empty one is
 * zero blocks, which HCL writes as nothing: `cidr_blocks = []` is an argument the schema does not
 * have ("Unsupported argument"), while JSON's `"cidr_blocks": []` means zero blocks.
 */
const BLOCK_LISTS = new Set(['cidrBlocks', 'secondaryIpRange', 'taint']);

/**
 * The config as HCL arguments: scalars, lists of scalars and maps as attributes, nested objects and
 * lists of objects as blocks (`node_config { … }`, one `taint { … }` per element), as the
 * generated bindings write them for `cdktn synth --hcl`.
 */
function hclArguments(config: object): Record<string, HclArgument> {
  // Attributes, then blocks, each sorted by name, as the generated bindings list them.
  return Object.fromEntries(Object.entries(config).filter(([k, v]) => v !== undefined && !(BLOCK_LISTS.has(k) && Array.isArray(v) && v.length === 0)).map(([k, v]): [string, HclArgument] => {
    const name = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (MAPS.has(k)) return [name, { value: v, isBlock: false, type: 'map', storageClassType: 'stringMap' }];
    if (isScalar(v)) return [name, { value: v, isBlock: false, type: 'simple', storageClassType: typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string' }];
    if (Array.isArray(v) && v.every(isScalar)) return [name, { value: v, isBlock: false, type: 'list', storageClassType: 'stringList' }];
    const value = Array.isArray(v) ? v.map((e) => hclArguments(e)) : hclArguments(v as object);
    return [name, { value, isBlock: true, type: 'list', storageClassType: `${name}List` }];
  }).sort(([a, x], [b, y]) => Number(x.isBlock) - Number(y.isBlock) || a.localeCompare(b)));
}

/** A `google_*` resource whose arguments are its typed config, snake-cased. */
abstract class GoogleResource<C extends object> extends TerraformResource {
  private readonly attributes: C;

  protected constructor(scope: Construct, id: string, type: string, config: C & TerraformMetaArguments) {
    const { dependsOn, count, provider, lifecycle, forEach, provisioners, connection, ...attributes } = config;
    super(scope, id, { terraformResourceType: type, terraformGeneratorMetadata: METADATA, dependsOn, count, provider, lifecycle, forEach, provisioners, connection });
    this.attributes = attributes as C;
  }

  /** The resource's `id`. */
  public get id(): string {
    return this.getStringAttribute('id');
  }

  /** The arguments as the provider names them. */
  protected override synthesizeAttributes(): { [name: string]: unknown } {
    return snake(this.attributes) as { [name: string]: unknown };
  }

  /** The arguments for `cdktn synth --hcl`. */
  protected override synthesizeHclAttributes(): { [name: string]: unknown } {
    return hclArguments(this.attributes);
  }
}

/** `provider "google"`: `project`, `region`, `default_labels`. */
export interface GoogleProviderConfig {
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
  /** The provider's `region`. @default - the provider's default */
  readonly region?: string;
  /** The provider's `zone`. @default - the provider's default */
  readonly zone?: string;
  /** The provider's `default_labels`. @default - the provider's default */
  readonly defaultLabels?: Record<string, string>;
  /** The provider's `alias`. @default - the provider's default */
  readonly alias?: string;
}

/** The `google` provider configuration. */
export class GoogleProvider extends TerraformProvider {
  private readonly attributes: GoogleProviderConfig;

  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: GoogleProviderConfig = {}) {
    super(scope, id, { terraformResourceType: 'google', terraformGeneratorMetadata: METADATA, terraformProviderSource: 'hashicorp/google' });
    this.attributes = config;
    this.alias = config.alias;
  }

  /** The arguments as the provider names them. */
  protected override synthesizeAttributes(): { [name: string]: unknown } {
    const { alias, ...rest } = this.attributes;
    return { ...(snake(rest) as object), alias };
  }

  /** The arguments for `cdktn synth --hcl`. */
  protected override synthesizeHclAttributes(): { [name: string]: unknown } {
    const { alias, ...rest } = this.attributes;
    return { ...hclArguments(rest), ...(alias === undefined ? {} : { alias: { value: alias, isBlock: false, type: 'simple', storageClassType: 'string' } }) };
  }
}

/** `google_compute_network` (resource_compute_network.go). */
export interface ComputeNetworkConfig {
  /** The provider's `name`. */
  readonly name: string;
  /** The provider's `auto_create_subnetworks`. @default - the provider's default */
  readonly autoCreateSubnetworks?: boolean;
  /** The provider's `routing_mode`. @default - the provider's default */
  readonly routingMode?: string;
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
}
/** The `google_compute_network` resource. */
export class ComputeNetwork extends GoogleResource<ComputeNetworkConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ComputeNetworkConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_network', config);
  }
  /** The `name` attribute, known after apply. */
  public get name(): string { return this.getStringAttribute('name'); }
  /** The `self_link` attribute, known after apply. */
  public get selfLink(): string { return this.getStringAttribute('self_link'); }
}

/** A `secondary_ip_range` block of a subnetwork. */
export interface ComputeSubnetworkSecondaryIpRange {
  /** The provider's `range_name`. */
  readonly rangeName: string;
  /** The provider's `ip_cidr_range`. */
  readonly ipCidrRange: string;
}
/** `google_compute_subnetwork` (resource_compute_subnetwork.go). */
export interface ComputeSubnetworkConfig {
  /** The provider's `name`. */
  readonly name: string;
  /** The provider's `network`. */
  readonly network: string;
  /** The provider's `region`. @default - the provider's default */
  readonly region?: string;
  /** The provider's `ip_cidr_range`. */
  readonly ipCidrRange: string;
  /** The provider's `secondary_ip_range`. @default - the provider's default */
  readonly secondaryIpRange?: ComputeSubnetworkSecondaryIpRange[];
  /** The provider's `private_ip_google_access`. @default - the provider's default */
  readonly privateIpGoogleAccess?: boolean;
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
}
/** The `google_compute_subnetwork` resource. */
export class ComputeSubnetwork extends GoogleResource<ComputeSubnetworkConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ComputeSubnetworkConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_subnetwork', config);
  }
  /** The `name` attribute, known after apply. */
  public get name(): string { return this.getStringAttribute('name'); }
  /** The `self_link` attribute, known after apply. */
  public get selfLink(): string { return this.getStringAttribute('self_link'); }
}

/** `google_compute_router` (resource_compute_router.go). */
export interface ComputeRouterConfig {
  /** The provider's `name`. */
  readonly name: string;
  /** The provider's `network`. */
  readonly network: string;
  /** The provider's `region`. @default - the provider's default */
  readonly region?: string;
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
}
/** The `google_compute_router` resource. */
export class ComputeRouter extends GoogleResource<ComputeRouterConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ComputeRouterConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_router', config);
  }
  /** The `name` attribute, known after apply. */
  public get name(): string { return this.getStringAttribute('name'); }
}

/** `google_compute_router_nat` (resource_compute_router_nat.go). */
export interface ComputeRouterNatConfig {
  /** The provider's `name`. */
  readonly name: string;
  /** The provider's `router`. */
  readonly router: string;
  /** The provider's `region`. @default - the provider's default */
  readonly region?: string;
  /** The provider's `nat_ip_allocate_option`. */
  readonly natIpAllocateOption: string;
  /** The provider's `source_subnetwork_ip_ranges_to_nat`. */
  readonly sourceSubnetworkIpRangesToNat: string;
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
}
/** The `google_compute_router_nat` resource. */
export class ComputeRouterNat extends GoogleResource<ComputeRouterNatConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ComputeRouterNatConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_router_nat', config);
  }
}

/** `google_service_account` (resource_google_service_account.go). */
export interface ServiceAccountConfig {
  /** The provider's `account_id`. */
  readonly accountId: string;
  /** The provider's `display_name`. @default - the provider's default */
  readonly displayName?: string;
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
}
/** The google_service_account resource. */
export class ServiceAccount extends GoogleResource<ServiceAccountConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ServiceAccountConfig & TerraformMetaArguments) {
    super(scope, id, 'google_service_account', config);
  }
  /** The `email` attribute, known after apply. */
  public get email(): string { return this.getStringAttribute('email'); }
}

/** `google_project_iam_member` (iam_project.go): one role for one member, non-authoritative. */
export interface ProjectIamMemberConfig {
  /** The provider's `project`. */
  readonly project: string;
  /** The provider's `role`. */
  readonly role: string;
  /** The provider's `member`. */
  readonly member: string;
}
/** The google_project_iam_member resource. */
export class ProjectIamMember extends GoogleResource<ProjectIamMemberConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ProjectIamMemberConfig & TerraformMetaArguments) {
    super(scope, id, 'google_project_iam_member', config);
  }
}

/** A node taint as the provider writes it (node_config.go `taint`: effect `NO_SCHEDULE`, `PREFER_NO_SCHEDULE`, `NO_EXECUTE`). */
export interface ContainerNodePoolNodeConfigTaint {
  /** The provider's `key`. */
  readonly key: string;
  /** The provider's `value`. */
  readonly value: string;
  /** The provider's `effect`. */
  readonly effect: string;
}

/** `google_container_cluster` (resource_container_cluster.go), the fields the GKE constructs write. */
export interface ContainerClusterConfig {
  /** The provider's `name`. */
  readonly name: string;
  /** The provider's `location`. */
  readonly location: string;
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
  /** The provider's `network`. */
  readonly network: string;
  /** The provider's `subnetwork`. */
  readonly subnetwork: string;
  /** The provider's `networking_mode`. @default - the provider's default */
  readonly networkingMode?: string;
  /** The provider's `ip_allocation_policy`. @default - the provider's default */
  readonly ipAllocationPolicy?: { readonly clusterSecondaryRangeName?: string; readonly servicesSecondaryRangeName?: string };
  /** The provider's `remove_default_node_pool`. @default - the provider's default */
  readonly removeDefaultNodePool?: boolean;
  /** The provider's `initial_node_count`. @default - the provider's default */
  readonly initialNodeCount?: number;
  /** The provider's `min_master_version`. @default - the provider's default */
  readonly minMasterVersion?: string;
  /** The provider's `release_channel`. @default - the provider's default */
  readonly releaseChannel?: { readonly channel: string };
  /** The provider's `workload_identity_config`. @default - the provider's default */
  readonly workloadIdentityConfig?: { readonly workloadPool: string };
  /** The provider's `maintenance_policy`. @default - the provider's default */
  readonly maintenancePolicy?: {
    /** The provider's `daily_maintenance_window`. @default - the provider's default */
    readonly dailyMaintenanceWindow?: { readonly startTime: string };
    /** The provider's `recurring_window`. @default - the provider's default */
    readonly recurringWindow?: { readonly startTime: string; readonly endTime: string; readonly recurrence: string };
  };
  /** The provider's `private_cluster_config`. @default - the provider's default */
  readonly privateClusterConfig?: { readonly enablePrivateNodes?: boolean; readonly enablePrivateEndpoint?: boolean };
  /** The provider's `master_authorized_networks_config`. @default - the provider's default */
  readonly masterAuthorizedNetworksConfig?: { readonly cidrBlocks?: Array<{ readonly cidrBlock: string; readonly displayName?: string }>; readonly gcpPublicCidrsAccessEnabled?: boolean };
  /** The provider's `deletion_protection`. @default - the provider's default */
  readonly deletionProtection?: boolean;
  /** The provider's `enable_autopilot`. @default - the provider's default */
  readonly enableAutopilot?: boolean;
  /** The provider's `resource_labels`. @default - the provider's default */
  readonly resourceLabels?: Record<string, string>;
}
/** The google_container_cluster resource. */
export class ContainerCluster extends GoogleResource<ContainerClusterConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ContainerClusterConfig & TerraformMetaArguments) {
    super(scope, id, 'google_container_cluster', config);
  }
  /** The `name` attribute, known after apply. */
  public get name(): string { return this.getStringAttribute('name'); }
  /** The `location` attribute, known after apply. */
  public get location(): string { return this.getStringAttribute('location'); }
  /** The `endpoint` attribute, known after apply. */
  public get endpoint(): string { return this.getStringAttribute('endpoint'); }
}

/** `node_config` of a node pool (node_config.go), the fields the GKE constructs write. */
export interface ContainerNodePoolNodeConfig {
  /** The provider's `machine_type`. */
  readonly machineType: string;
  /** The provider's `image_type`. */
  readonly imageType: string;
  /** The provider's `disk_size_gb`. @default - the provider's default */
  readonly diskSizeGb?: number;
  /** The provider's `disk_type`. @default - the provider's default */
  readonly diskType?: string;
  /** The provider's `service_account`. @default - the provider's default */
  readonly serviceAccount?: string;
  /** The provider's `oauth_scopes`. @default - the provider's default */
  readonly oauthScopes?: string[];
  /** The provider's `labels`. @default - the provider's default */
  readonly labels?: Record<string, string>;
  /** The provider's `taint`. @default - the provider's default */
  readonly taint?: ContainerNodePoolNodeConfigTaint[];
  /** The provider's `metadata`. @default - the provider's default */
  readonly metadata?: Record<string, string>;
  /** The provider's `workload_metadata_config`. @default - the provider's default */
  readonly workloadMetadataConfig?: { readonly mode: string };
  /** The provider's `shielded_instance_config`. @default - the provider's default */
  readonly shieldedInstanceConfig?: { readonly enableSecureBoot?: boolean; readonly enableIntegrityMonitoring?: boolean };
  /** The provider's `windows_node_config`. @default - the provider's default */
  readonly windowsNodeConfig?: { readonly osversion: string };
}

/** `google_container_node_pool` (resource_container_node_pool.go), the fields the GKE constructs write. */
export interface ContainerNodePoolConfig {
  /** The provider's `name`. */
  readonly name: string;
  /** The provider's `cluster`. */
  readonly cluster: string;
  /** The provider's `location`. @default - the provider's default */
  readonly location?: string;
  /** The provider's `project`. @default - the provider's default */
  readonly project?: string;
  /** The provider's `initial_node_count`. @default - the provider's default */
  readonly initialNodeCount?: number;
  /** The provider's `autoscaling`. @default - the provider's default */
  readonly autoscaling?: { readonly minNodeCount?: number; readonly maxNodeCount?: number; readonly locationPolicy?: string };
  /** The provider's `management`. @default - the provider's default */
  readonly management?: { readonly autoRepair?: boolean; readonly autoUpgrade?: boolean };
  /** The provider's `node_config`. */
  readonly nodeConfig: ContainerNodePoolNodeConfig;
}
/** The google_container_node_pool resource. */
export class ContainerNodePool extends GoogleResource<ContainerNodePoolConfig> {
  /** A resource of this type in `scope`. */
  public constructor(scope: Construct, id: string, config: ContainerNodePoolConfig & TerraformMetaArguments) {
    super(scope, id, 'google_container_node_pool', config);
  }
  /** The `name` attribute, known after apply. */
  public get name(): string { return this.getStringAttribute('name'); }
}
