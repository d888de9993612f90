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

/** A `google_*` resource whose arguments are its typed config, snake-cased. */
abstract class GoogleResource<C extends object> extends TerraformResource {
  private readonly attributes: C;

  protected constructor(scope: Construct, id: string, type: string, config: C & TerraformMetaArguments) {
    const { dependsOn, count, provider, lifecycle, forEach, provisioners, connection, ...attributes } = config;
    super(scope, id, { terraformResourceType: type, terraformGeneratorMetadata: METADATA, dependsOn, count, provider, lifecycle, forEach, provisioners, connection });
    this.attributes = attributes as C;
  }

  /** The config as given (read-only): the constructs and tests read what they wrote. */
  public get config(): C {
    return this.attributes;
  }

  /** The resource's `id`. */
  public get id(): string {
    return this.getStringAttribute('id');
  }

  protected override synthesizeAttributes(): { [name: string]: unknown } {
    return snake(this.attributes) as { [name: string]: unknown };
  }
}

/** `provider "google"`: `project`, `region`, `default_labels`. */
export interface GoogleProviderConfig {
  readonly project?: string;
  readonly region?: string;
  readonly zone?: string;
  readonly defaultLabels?: Record<string, string>;
  readonly alias?: string;
}

/** The `google` provider configuration. */
export class GoogleProvider extends TerraformProvider {
  private readonly attributes: GoogleProviderConfig;

  public constructor(scope: Construct, id: string, config: GoogleProviderConfig = {}) {
    super(scope, id, { terraformResourceType: 'google', terraformGeneratorMetadata: METADATA, terraformProviderSource: 'hashicorp/google' });
    this.attributes = config;
    this.alias = config.alias;
  }

  protected override synthesizeAttributes(): { [name: string]: unknown } {
    const { alias, ...rest } = this.attributes;
    return { ...(snake(rest) as object), alias };
  }
}

/** `google_compute_network` (resource_compute_network.go). */
export interface ComputeNetworkConfig {
  readonly name: string;
  readonly autoCreateSubnetworks?: boolean;
  readonly routingMode?: string;
  readonly project?: string;
}
export class ComputeNetwork extends GoogleResource<ComputeNetworkConfig> {
  public constructor(scope: Construct, id: string, config: ComputeNetworkConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_network', config);
  }
  public get name(): string { return this.getStringAttribute('name'); }
  public get selfLink(): string { return this.getStringAttribute('self_link'); }
}

/** A `secondary_ip_range` block of a subnetwork. */
export interface ComputeSubnetworkSecondaryIpRange {
  readonly rangeName: string;
  readonly ipCidrRange: string;
}
/** `google_compute_subnetwork` (resource_compute_subnetwork.go). */
export interface ComputeSubnetworkConfig {
  readonly name: string;
  readonly network: string;
  readonly region?: string;
  readonly ipCidrRange: string;
  readonly secondaryIpRange?: ComputeSubnetworkSecondaryIpRange[];
  readonly privateIpGoogleAccess?: boolean;
  readonly project?: string;
}
export class ComputeSubnetwork extends GoogleResource<ComputeSubnetworkConfig> {
  public constructor(scope: Construct, id: string, config: ComputeSubnetworkConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_subnetwork', config);
  }
  public get name(): string { return this.getStringAttribute('name'); }
  public get selfLink(): string { return this.getStringAttribute('self_link'); }
}

/** `google_compute_router` (resource_compute_router.go). */
export interface ComputeRouterConfig {
  readonly name: string;
  readonly network: string;
  readonly region?: string;
  readonly project?: string;
}
export class ComputeRouter extends GoogleResource<ComputeRouterConfig> {
  public constructor(scope: Construct, id: string, config: ComputeRouterConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_router', config);
  }
  public get name(): string { return this.getStringAttribute('name'); }
}

/** `google_compute_router_nat` (resource_compute_router_nat.go). */
export interface ComputeRouterNatConfig {
  readonly name: string;
  readonly router: string;
  readonly region?: string;
  readonly natIpAllocateOption: string;
  readonly sourceSubnetworkIpRangesToNat: string;
  readonly project?: string;
}
export class ComputeRouterNat extends GoogleResource<ComputeRouterNatConfig> {
  public constructor(scope: Construct, id: string, config: ComputeRouterNatConfig & TerraformMetaArguments) {
    super(scope, id, 'google_compute_router_nat', config);
  }
}

/** `google_service_account` (resource_google_service_account.go). */
export interface ServiceAccountConfig {
  readonly accountId: string;
  readonly displayName?: string;
  readonly project?: string;
}
export class ServiceAccount extends GoogleResource<ServiceAccountConfig> {
  public constructor(scope: Construct, id: string, config: ServiceAccountConfig & TerraformMetaArguments) {
    super(scope, id, 'google_service_account', config);
  }
  public get email(): string { return this.getStringAttribute('email'); }
}

/** `google_project_iam_member` (iam_project.go): one role for one member, non-authoritative. */
export interface ProjectIamMemberConfig {
  readonly project: string;
  readonly role: string;
  readonly member: string;
}
export class ProjectIamMember extends GoogleResource<ProjectIamMemberConfig> {
  public constructor(scope: Construct, id: string, config: ProjectIamMemberConfig & TerraformMetaArguments) {
    super(scope, id, 'google_project_iam_member', config);
  }
}

/** A node taint as the provider writes it (node_config.go `taint`: effect `NO_SCHEDULE`, `PREFER_NO_SCHEDULE`, `NO_EXECUTE`). */
export interface ContainerNodeTaint {
  readonly key: string;
  readonly value: string;
  readonly effect: string;
}

/** `google_container_cluster` (resource_container_cluster.go), the fields the GKE constructs write. */
export interface ContainerClusterConfig {
  readonly name: string;
  readonly location: string;
  readonly project?: string;
  readonly network: string;
  readonly subnetwork: string;
  readonly networkingMode?: string;
  readonly ipAllocationPolicy?: { readonly clusterSecondaryRangeName?: string; readonly servicesSecondaryRangeName?: string };
  readonly removeDefaultNodePool?: boolean;
  readonly initialNodeCount?: number;
  readonly minMasterVersion?: string;
  readonly releaseChannel?: { readonly channel: string };
  readonly workloadIdentityConfig?: { readonly workloadPool: string };
  readonly maintenancePolicy?: {
    readonly dailyMaintenanceWindow?: { readonly startTime: string };
    readonly recurringWindow?: { readonly startTime: string; readonly endTime: string; readonly recurrence: string };
  };
  readonly privateClusterConfig?: { readonly enablePrivateNodes?: boolean; readonly enablePrivateEndpoint?: boolean };
  readonly masterAuthorizedNetworksConfig?: { readonly cidrBlocks?: Array<{ readonly cidrBlock: string; readonly displayName?: string }> };
  readonly deletionProtection?: boolean;
  readonly enableAutopilot?: boolean;
  readonly resourceLabels?: Record<string, string>;
}
export class ContainerCluster extends GoogleResource<ContainerClusterConfig> {
  public constructor(scope: Construct, id: string, config: ContainerClusterConfig & TerraformMetaArguments) {
    super(scope, id, 'google_container_cluster', config);
  }
  public get name(): string { return this.getStringAttribute('name'); }
  public get location(): string { return this.getStringAttribute('location'); }
  public get endpoint(): string { return this.getStringAttribute('endpoint'); }
}

/** `node_config` of a node pool (node_config.go), the fields the GKE constructs write. */
export interface ContainerNodePoolNodeConfig {
  readonly machineType: string;
  readonly imageType: string;
  readonly diskSizeGb?: number;
  readonly diskType?: string;
  readonly serviceAccount?: string;
  readonly oauthScopes?: string[];
  readonly labels?: Record<string, string>;
  readonly taint?: ContainerNodeTaint[];
  readonly metadata?: Record<string, string>;
  readonly workloadMetadataConfig?: { readonly mode: string };
  readonly shieldedInstanceConfig?: { readonly enableSecureBoot?: boolean; readonly enableIntegrityMonitoring?: boolean };
  readonly windowsNodeConfig?: { readonly osversion: string };
}

/** `google_container_node_pool` (resource_container_node_pool.go), the fields the GKE constructs write. */
export interface ContainerNodePoolConfig {
  readonly name: string;
  readonly cluster: string;
  readonly location?: string;
  readonly project?: string;
  readonly initialNodeCount?: number;
  readonly autoscaling?: { readonly minNodeCount?: number; readonly maxNodeCount?: number; readonly locationPolicy?: string };
  readonly management?: { readonly autoRepair?: boolean; readonly autoUpgrade?: boolean };
  readonly nodeConfig: ContainerNodePoolNodeConfig;
}
export class ContainerNodePool extends GoogleResource<ContainerNodePoolConfig> {
  public constructor(scope: Construct, id: string, config: ContainerNodePoolConfig & TerraformMetaArguments) {
    super(scope, id, 'google_container_node_pool', config);
  }
  public get name(): string { return this.getStringAttribute('name'); }
}
