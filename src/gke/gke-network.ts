import { Construct } from 'constructs';
import { judgeOwnResources } from '../terraform/judge';
import { optional, propsSpec, required, text } from '../core/props-spec';
import { GKE_LIMITS } from '../platform/gke';
import { parseCidr } from '../platform/cidr';
import { ComputeNetwork, ComputeRouter, ComputeRouterNat, ComputeSubnetwork } from '../terraform/providers/google';

/** Address ranges of the network `HybridGkeStack` creates. */
export interface GkeNetworkOptions {
  /**
   * The subnetwork's primary range: the nodes' addresses.
   * @default '10.0.0.0/20'
   */
  readonly nodesCidr?: string;
  /**
   * The secondary range for pod addresses (VPC-native: alias IPs). GKE gives each node a /24 of it
   * by default (110 pods per node), so a /14 holds 1,024 nodes.
   * @default '10.16.0.0/14'
   */
  readonly podsCidr?: string;
  /**
   * The secondary range for Service cluster IPs.
   * @default '10.20.0.0/20'
   */
  readonly servicesCidr?: string;
}

/**
 * A VPC network and subnetwork that exist, with the two secondary ranges a VPC-native cluster
 * uses (one for pods, one for Services). Their nodes need a way out (Cloud NAT or external
 * addresses) to pull images: Windows images come from mcr.microsoft.com.
 */
export interface ExistingGkeNetwork {
  /** The network's name or self link. */
  readonly network: string;
  /** The subnetwork's name or self link, in the cluster's region. */
  readonly subnetwork: string;
  /** The name of the subnetwork's secondary range for pods. */
  readonly podsRangeName: string;
  /** The name of the subnetwork's secondary range for Services. */
  readonly servicesRangeName: string;
}

/** Props of `GkeNetwork`. */
export interface GkeNetworkProps extends GkeNetworkOptions {
  /** Prefix of the resources' names: the cluster name. */
  readonly name: string;
  /** The region of the subnetwork, router and NAT. */
  readonly region: string;
}

/** A range of the subnetwork, which the provider takes only as a CIDR block (resource_compute_subnetwork.go `ip_cidr_range`: `verify.ValidateIpCidrRange`). */
const CIDR = (example: string) => text({ max: 64, form: 'an IPv4 CIDR block', example, problem: (value) => {
  try {
    parseCidr(value);
    return undefined;
  } catch {
    return 'is not an IPv4 CIDR block';
  }
} });

/**
 * The spec of `GkeNetworkOptions`, the address ranges `HybridGkeStack` takes as `network`.
 * @internal
 */
export const GKE_NETWORK_OPTIONS = propsSpec<GkeNetworkOptions>('GkeNetworkOptions', {
  nodesCidr: optional(CIDR('10.0.0.0/20')),
  podsCidr: optional(CIDR('10.16.0.0/14')),
  servicesCidr: optional(CIDR('10.20.0.0/20')),
});

/**
 * The spec of `GkeNetworkProps`; `gke-network-names` judges the names made from `name`.
 * @internal
 */
export const GKE_NETWORK_PROPS = propsSpec<GkeNetworkProps>('GkeNetwork', {
  ...GKE_NETWORK_OPTIONS.entries,
  name: required(text({ max: 1024, form: 'a network name', example: 'shop', judgedBy: 'gke-network-names' }), 'give name, e.g. "shop"'),
  region: required(text({ max: 64, form: 'a Google Cloud region', example: 'europe-north1', pattern: GKE_LIMITS.region, fix: 'write a region such as europe-north1 or us-central1' }), 'give region, e.g. "europe-north1"'),
});

/**
 * The spec of `ExistingGkeNetwork`.
 * @internal
 */
export const EXISTING_GKE_NETWORK = propsSpec<ExistingGkeNetwork>('ExistingGkeNetwork', {
  network: required(text({ max: 1024, form: 'a network name or self link', example: 'shop' }), 'give the network\'s name or self link'),
  subnetwork: required(text({ max: 1024, form: 'a subnetwork name or self link', example: 'shop' }), 'give the subnetwork\'s name or self link'),
  podsRangeName: required(text({ max: 63, form: 'a secondary range name', example: 'pods' }), 'give the name of the subnetwork\'s secondary range for pods'),
  servicesRangeName: required(text({ max: 63, form: 'a secondary range name', example: 'services' }), 'give the name of the subnetwork\'s secondary range for Services'),
});

/** Which prop sets which field of the network's resources, for messages at construction. */
const PROPS_OF_FIELDS = {
  'google_compute_network name': 'clusterName',
  'google_compute_subnetwork ip_cidr_range': 'network.nodesCidr',
  'google_compute_subnetwork secondary_ip_range.ip_cidr_range': 'network.podsCidr and network.servicesCidr',
};

/**
 * A custom-mode VPC network for a VPC-native GKE cluster: one subnetwork with the nodes' range,
 * a secondary range for pods and one for Services, Private Google Access, and a Cloud Router
 * with Cloud NAT so that nodes without external addresses reach image registries
 * (mcr.microsoft.com for Windows images).
 */
export class GkeNetwork extends Construct implements ExistingGkeNetwork {
  /** The `google_compute_network` resource (custom mode: no automatic subnetworks). */
  public readonly vpc: ComputeNetwork;
  /** The `google_compute_subnetwork` resource with the two secondary ranges. */
  public readonly subnet: ComputeSubnetwork;
  /** The network's name, as the cluster refers to it. */
  public readonly network: string;
  /** The subnetwork's name, as the cluster refers to it. */
  public readonly subnetwork: string;
  /** The secondary range for pods. */
  public readonly podsRangeName = 'pods';
  /** The secondary range for Services. */
  public readonly servicesRangeName = 'services';

  public constructor(scope: Construct, id: string, given: GkeNetworkProps) {
    super(scope, id);
    const props = GKE_NETWORK_PROPS.parse(this.node.path, given);
    this.vpc = new ComputeNetwork(this, 'Network', { name: props.name, autoCreateSubnetworks: false });
    this.subnet = new ComputeSubnetwork(this, 'Subnetwork', {
      name: props.name,
      network: this.vpc.id,
      region: props.region,
      ipCidrRange: props.nodesCidr ?? '10.0.0.0/20',
      secondaryIpRange: [
        { rangeName: this.podsRangeName, ipCidrRange: props.podsCidr ?? '10.16.0.0/14' },
        { rangeName: this.servicesRangeName, ipCidrRange: props.servicesCidr ?? '10.20.0.0/20' },
      ],
      privateIpGoogleAccess: true,
    });
    const router = new ComputeRouter(this, 'Router', { name: props.name, network: this.vpc.id, region: props.region });
    new ComputeRouterNat(this, 'Nat', {
      name: props.name,
      router: router.name,
      region: props.region,
      natIpAllocateOption: 'AUTO_ONLY',
      sourceSubnetworkIpRangesToNat: 'ALL_SUBNETWORKS_ALL_IP_RANGES',
    });
    this.network = this.vpc.name;
    this.subnetwork = this.subnet.name;
    judgeOwnResources(this, [this.vpc, this.subnet], PROPS_OF_FIELDS);
  }
}
