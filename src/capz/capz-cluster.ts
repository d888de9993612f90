import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import {
  AzureCluster, AzureClusterIdentity, AzureClusterIdentitySpecType, AzureClusterSpecNetworkSpecSubnetsRole as SubnetRole, AzureMachineTemplate, AzureMachineTemplateSpecTemplateSpec, AzureMachineTemplateSpecTemplateSpecIdentity,
} from '../generated/capz-infrastructure.cluster.x-k8s.io';
import { KubeadmControlPlane } from '../generated/cluster-api-controlplane.cluster.x-k8s.io';
import { contentHash } from '../core/hash';
import { typedApiObject } from '../core/typed-api-object';
import { choice, judgedNumber, list, optional, propsSpec, record, required, text } from '../core/props-spec';
import { capzAzureJsonSecret, CapzCloudProviderInstall, CAPZ_OS_TYPE, CLOUD_PROVIDER_ANNOTATION, CLOUD_PROVIDER_AZURE } from '../platform/capz';
import { parseCidr } from '../platform/cidr';
import { apiGroupOf } from '../platform/conventions';
import { dnsLabelProblem } from '../platform/dns';
import { markContentNamed, PropsOfFields } from '../rules/run/judge';
import { CAPI_CLUSTER_OPTIONS, CapiCluster, CapiClusterInfrastructure, CapiClusterProps, ControlPlanePart } from '../capi/cluster';

/** The kinds of identity CAPZ authenticates with that take no file on the management cluster (`AzureClusterIdentity` `spec.type`). */
export enum CapzIdentityType {
  /** Workload identity federation (CAPZ's flavors' default). */
  WORKLOAD_IDENTITY = 'WorkloadIdentity',
  /** A user-assigned managed identity of the management cluster's nodes. */
  USER_ASSIGNED_MSI = 'UserAssignedMSI',
  /** A service principal whose password is in a Secret (`clientSecret`). */
  SERVICE_PRINCIPAL = 'ServicePrincipal',
}

/** How CAPZ authenticates to Azure for the cluster (`AzureClusterIdentity`); secrets only by reference. */
export interface CapzClusterIdentity {
  /** The kind of identity. */
  readonly type: CapzIdentityType;
  /** The identity's client (application) id. */
  readonly clientId: string;
  /** The Entra tenant id. */
  readonly tenantId: string;
  /**
   * A service principal's password: the Secret (key `clientSecret`) that holds it, by name; the
   * library never writes a secret's value.
   * @default - none (workload and managed identities have none)
   */
  readonly clientSecret?: { readonly name: string; readonly namespace?: string };
  /**
   * The namespaces whose AzureClusters may use the identity. CAPZ allows none when the field is
   * absent (cluster-api-provider-azure v1.26.0 azure/scope/identity.go, IsClusterNamespaceAllowed).
   * @default - the chart's namespace, or every namespace when the chart has none
   */
  readonly allowedNamespaces?: readonly string[];
}

/** Props of a kubeadm cluster on Azure (`CapzCluster`). */
export interface CapzClusterProps extends CapiClusterProps {
  /**
   * The Kubernetes version, `vX.Y.Z`: of the control plane and, by default, of the pools. CAPZ's
   * default images are published per Kubernetes version (the gallery image version is this one).
   */
  readonly kubernetesVersion: string;
  /** The Azure region, e.g. `westeurope`. */
  readonly location: string;
  /** The Azure subscription id. */
  readonly subscriptionId: string;
  /**
   * The resource group CAPZ creates the cluster's resources in.
   * @default - the cluster's name
   */
  readonly resourceGroup?: string;
  /** How CAPZ authenticates to Azure. */
  readonly identity: CapzClusterIdentity;
  /**
   * How cloud-provider-azure (its cloud-controller-manager and node managers) gets into the
   * cluster. Every kubelet runs the external cloud provider, so a node takes no pod until the node
   * manager has initialized it, and the library writes no chart (docs/capz.md, "The cloud
   * provider"). `HELM_CHART_PROXY` labels the Cluster `cloud-provider: azure` for CAPZ's
   * HelmChartProxy; `HELM_INSTALL` annotates it that you run `helm install` of the chart.
   */
  readonly cloudProvider: CapzCloudProviderInstall;
  /**
   * A user-assigned managed identity every VM of the cluster carries, by resource id
   * (`/subscriptions/…/resourceGroups/…/providers/Microsoft.ManagedIdentity/userAssignedIdentities/…`):
   * CAPZ then writes it into the nodes' azure.json (`useManagedIdentityExtension`,
   * `userAssignedIdentityID`), which the cloud-controller-manager authenticates with (CAPZ's
   * flavors: `cloud-provider-user-identity`). Give it Contributor on the cluster's resource group.
   * Required with CAPZ's HelmChartProxy unless `identity` is a service principal: otherwise
   * azure.json holds no credential (workload and managed identities of the management cluster have
   * no secret to copy), and the cloud provider cannot reach Azure.
   * @default - none: azure.json carries the service principal's secret (CAPZ warns), or nothing
   */
  readonly machineIdentity?: string;
  /**
   * The control plane's machines.
   * @default - one Standard_D2s_v3 machine
   */
  readonly controlPlane?: {
    /**
     * Odd, for etcd's quorum (stacked etcd).
     * @default 1
     */
    readonly replicas?: number;
    /**
     * The VM size.
     * @default 'Standard_D2s_v3'
     */
    readonly vmSize?: string;
  };
  /**
   * The networks.
   * @default - pods 192.168.0.0/16, services 10.96.0.0/12, virtual network 10.0.0.0/8
   */
  readonly network?: {
    /** @default '192.168.0.0/16' (CAPZ's flavors) */
    readonly podCidr?: string;
    /** @default '10.96.0.0/12' (kubeadm's default) */
    readonly serviceCidr?: string;
    /** @default '10.0.0.0/8' (CAPZ's default virtual network) */
    readonly vnetCidr?: string;
  };
}

/** A GUID, the form of Azure's subscription and client ids. */
const GUID = /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;
/** A user-assigned managed identity's resource id, which CAPZ parses from `userAssignedIdentities[0].providerID` (v1.26.0 controllers/azurejson_machinetemplate_controller.go, Reconcile: azureutil.ParseResourceID). */
const USER_ASSIGNED_IDENTITY = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.ManagedIdentity\/userAssignedIdentities\/[^/]+$/i;
/** The name of a Kubernetes object in one namespace (a DNS subdomain) and of a namespace (a DNS label). */
const K8S_NAME = (form: string, max: number) => text({ max, form, example: 'default', problem: (v) => dnsLabelProblem(v.replace(/\./g, '-'), max) });

/**
 * The VM size of CAPZ's machines: Azure's names (`Standard_D4s_v3`). Which sizes a region has is
 * Azure's to say when CAPZ creates the VM.
 * @internal
 */
export const CAPZ_VM_SIZE = text({ max: 64, form: 'an Azure VM size', example: 'Standard_D4s_v3', pattern: /^[A-Za-z][A-Za-z0-9_]*$/ });

/**
 * The spec of `CapzClusterIdentity`. Client ids are GUIDs; a tenant may also be named by its
 * domain, which Entra takes.
 * @internal
 */
export const CAPZ_CLUSTER_IDENTITY_PROPS = propsSpec<CapzClusterIdentity>('CapzClusterIdentity', {
  type: required(choice(CapzIdentityType, 'CapzIdentityType'), 'give `type: CapzIdentityType.WORKLOAD_IDENTITY`, as CAPZ\'s flavors do'),
  clientId: required(text({ max: 36, form: 'a client (application) id, a GUID', example: '11111111-1111-1111-1111-111111111111', pattern: GUID }), 'give the identity\'s client id'),
  tenantId: required(text({ max: 253, form: 'an Entra tenant id', example: '22222222-2222-2222-2222-222222222222', pattern: /^[A-Za-z0-9][-A-Za-z0-9.]*$/ }), 'give the Entra tenant id'),
  clientSecret: optional(record(propsSpec<NonNullable<CapzClusterIdentity['clientSecret']>>('CapzSecretRef', {
    name: required(K8S_NAME('a Secret name', 253), 'name the Secret that holds the service principal\'s password'),
    namespace: optional(K8S_NAME('a namespace name', 63)),
  }))),
  allowedNamespaces: optional(list(K8S_NAME('a namespace name', 63), { unique: String })),
});

/**
 * The spec of `CapzClusterProps`: those of every Cluster API cluster and Azure's.
 * @internal
 */
export const CAPZ_CLUSTER_PROPS = propsSpec<CapzClusterProps>('CapzCluster', {
  ...CAPI_CLUSTER_OPTIONS,
  kubernetesVersion: required(text({ max: 64, form: 'a Kubernetes version', example: 'v1.34.4', judgedBy: 'control-plane' }), 'give the Kubernetes version, e.g. `kubernetesVersion: \'v1.34.4\'`'),
  // A region's name, not its display name: CAPZ puts it, lower-cased, in the API server's DNS name
  // `<cluster>-<hash>.<location>.cloudapp.azure.com` (v1.26.0 azure/scope/cluster.go, GenerateFQDN).
  location: required(text({ max: 64, form: 'an Azure region name', example: 'westeurope', pattern: /^[A-Za-z][A-Za-z0-9]*$/ }), 'give the Azure region, e.g. `location: \'westeurope\'`'),
  subscriptionId: required(text({ max: 36, form: 'an Azure subscription id, a GUID', example: '00000000-0000-0000-0000-000000000000', pattern: GUID }), 'give the Azure subscription id'),
  // Azure's rule for resource group names: letters (any script), digits, "_", "-", ".", "(", ")", not ending in ".".
  resourceGroup: optional(text({ max: 90, form: 'an Azure resource group name', example: 'azwin', pattern: /^[-\p{L}\p{N}_.()]*[-\p{L}\p{N}_()]$/u })),
  identity: required(record(CAPZ_CLUSTER_IDENTITY_PROPS), 'pass how CAPZ authenticates, e.g. `identity: { type: CapzIdentityType.WORKLOAD_IDENTITY, clientId, tenantId }`'),
  cloudProvider: required(choice(CapzCloudProviderInstall, 'CapzCloudProviderInstall'),
    'set `cloudProvider: CapzCloudProviderInstall.HELM_CHART_PROXY` (CAPZ\'s HelmChartProxy installs cloud-provider-azure) or `CapzCloudProviderInstall.HELM_INSTALL` (you run helm install): without its node manager no node is initialized'),
  machineIdentity: optional(text({ max: 1024, form: 'a user-assigned managed identity\'s resource id', example: '/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.ManagedIdentity/userAssignedIdentities/<name>', pattern: USER_ASSIGNED_IDENTITY })),
  controlPlane: optional(record(propsSpec<NonNullable<CapzClusterProps['controlPlane']>>('CapzControlPlane', {
    replicas: optional(judgedNumber('control-plane')),
    vmSize: optional(CAPZ_VM_SIZE),
  }))),
  network: optional(record(propsSpec<NonNullable<CapzClusterProps['network']>>('CapzNetwork', {
    podCidr: optional(text({ max: 64, form: 'an IPv4 CIDR', example: '192.168.0.0/16', judgedBy: 'cluster-network' })),
    serviceCidr: optional(text({ max: 64, form: 'an IPv4 CIDR', example: '10.96.0.0/12', judgedBy: 'cluster-network' })),
    // No rule reads the virtual network's range: CAPZ's webhook would refuse a malformed one.
    vnetCidr: optional(text({ max: 64, form: 'an IPv4 CIDR', example: '10.0.0.0/8', problem: (v) => cidrProblem(v) })),
  }))),
});

function cidrProblem(value: string): string | undefined {
  try {
    parseCidr(value);
    return undefined;
  } catch (e) {
    return `is not an IPv4 CIDR (${(e as Error).message})`;
  }
}

const NODE_NAME = '{{ ds.meta_data["local_hostname"] }}';
const EXTERNAL_CLOUD = [{ name: 'cloud-provider', value: 'external' }];

/**
 * A kubeadm cluster on Azure through Cluster API Provider Azure (CAPZ v1.26.0): the Cluster, a
 * KubeadmControlPlane (v1beta2) on Linux machines, the AzureCluster with its network, the
 * AzureClusterIdentity CAPZ authenticates with, and the control plane's AzureMachineTemplate
 * (CAPZ's kinds serve `infrastructure.cluster.x-k8s.io/v1beta1` only: the v1beta1 contract, which
 * Cluster API v1.14 still accepts). Pools: `CapzLinuxWorkerPool`, `CapzWindowsWorkerPool`; the
 * Windows add-ons: `CapzWindowsAddons`.
 */
export class CapzCluster extends CapiCluster {
  /** The Kubernetes version of the control plane, the pools' default. */
  public readonly kubernetesVersion: string;
  /** The AzureClusterIdentity. */
  public readonly identity: ApiObject;
  /**
   * The VM identity of every machine template (`machineIdentity`), as AzureMachineTemplate fields.
   * @internal
   */
  public readonly machineIdentity: Pick<AzureMachineTemplateSpecTemplateSpec, 'identity' | 'userAssignedIdentities'>;

  public constructor(scope: Construct, id: string, given: CapzClusterProps) {
    // The cluster does not exist yet: errors name the path it will have.
    const props = CAPZ_CLUSTER_PROPS.parse(scope.node.path ? `${scope.node.path}/${id}` : id, given);
    const name = props.name ?? id;
    const network = { podCidr: props.network?.podCidr ?? '192.168.0.0/16', serviceCidr: props.network?.serviceCidr ?? '10.96.0.0/12' };
    const infrastructure = new AzureClusterPart(props, name);
    super(scope, id, props, new KubeadmControlPlanePart(props, network), infrastructure);
    this.kubernetesVersion = props.kubernetesVersion;
    this.identity = infrastructure.identity!;
    this.machineIdentity = infrastructure.machineIdentity;
  }
}

/** CAPZ as the cluster's infrastructure: the AzureClusterIdentity, the AzureCluster, the control plane's AzureMachineTemplate. */
class AzureClusterPart implements CapiClusterInfrastructure {
  public readonly defaultReplicas = 1;
  public identity?: ApiObject;
  public machineIdentity: CapzCluster['machineIdentity'] = {};
  public readonly propsOfFields: PropsOfFields = {
    'AzureCluster spec.location': 'location',
    'AzureCluster spec.subscriptionID': 'subscriptionId',
    'AzureClusterIdentity spec.type': 'identity.type',
    'AzureMachineTemplate spec.template.spec.vmSize': 'controlPlane.vmSize',
    'AzureMachineTemplate spec.template.spec.userAssignedIdentities': 'machineIdentity',
    // capz-cloud-provider-credential: the control plane's azure.json without a credential.
    'AzureMachineTemplate spec.template.spec.identity': 'machineIdentity',
  };
  /** How cloud-provider-azure is installed, where rules and CAPZ's HelmChartProxy read it. */
  public readonly clusterMetadata: CapiClusterInfrastructure['clusterMetadata'];

  public constructor(private readonly props: CapzClusterProps, private readonly name: string) {
    const { key, value } = CLOUD_PROVIDER_AZURE.helmChartProxyLabel;
    this.clusterMetadata = props.cloudProvider === CapzCloudProviderInstall.HELM_CHART_PROXY ? { labels: { [key]: value } } : { annotations: { [CLOUD_PROVIDER_ANNOTATION]: props.cloudProvider } };
  }

  public infrastructureCluster(cluster: CapiCluster): ApiObject {
    const { identity } = this.props;
    const namespace = Chart.of(cluster).namespace;
    const allowed = identity.allowedNamespaces ?? (namespace ? [namespace] : undefined);
    this.identity = typedApiObject(cluster, 'AzureClusterIdentity', AzureClusterIdentity, {
      metadata: { name: `${this.name}-identity` },
      spec: {
        type: identity.type as string as AzureClusterIdentitySpecType,
        clientId: identity.clientId,
        tenantId: identity.tenantId,
        clientSecret: identity.clientSecret,
        // An empty object allows every namespace; CAPZ allows none without it.
        allowedNamespaces: allowed ? { list: [...allowed] } : {},
      },
    });
    return typedApiObject(cluster, 'AzureCluster', AzureCluster, {
      metadata: { name: this.name },
      spec: {
        location: this.props.location,
        subscriptionId: this.props.subscriptionId,
        resourceGroup: this.props.resourceGroup ?? this.name,
        identityRef: { apiVersion: this.identity.apiVersion, kind: this.identity.kind, name: this.identity.name },
        networkSpec: {
          vnet: { name: `${this.name}-vnet`, cidrBlocks: [this.props.network?.vnetCidr ?? '10.0.0.0/8'] },
          subnets: [{ name: 'control-plane-subnet', role: SubnetRole.CONTROL_HYPHEN_PLANE }, { name: 'node-subnet', role: SubnetRole.NODE }],
        },
      },
    });
  }

  public controlPlaneMachineTemplate(cluster: CapiCluster): ApiObject {
    this.machineIdentity = machineIdentityOf(this.props.machineIdentity);
    const spec = { vmSize: this.props.controlPlane?.vmSize ?? 'Standard_D2s_v3', osDisk: { osType: CAPZ_OS_TYPE.linux, diskSizeGb: 128 }, ...this.machineIdentity };
    const written = AzureMachineTemplate.manifest({ spec: { template: { spec } } }).spec?.template.spec;
    const template = typedApiObject(cluster, 'ControlPlaneMachineTemplate', AzureMachineTemplate, {
      metadata: { name: `${this.name}-control-plane-${contentHash(written)}` },
      spec: { template: { spec } },
    });
    markContentNamed(template);
    return template;
  }
}

/** The machine templates' fields for `machineIdentity`: CAPZ writes the identity into azure.json when the VM identity is UserAssigned (v1.26.0 controllers/helpers.go, GetCloudProviderSecret). */
function machineIdentityOf(id: string | undefined): CapzCluster['machineIdentity'] {
  if (id === undefined) return {};
  return { identity: AzureMachineTemplateSpecTemplateSpecIdentity.USER_ASSIGNED, userAssignedIdentities: [{ providerId: `azure://${id}` }] };
}

/** Cluster API's kubeadm control plane (KubeadmControlPlane v1beta2) with Azure's external cloud provider. */
class KubeadmControlPlanePart implements ControlPlanePart {
  public readonly version: string;
  public readonly propsOfFields: PropsOfFields = {
    'KubeadmControlPlane spec.version': 'kubernetesVersion',
    'KubeadmControlPlane spec.replicas': 'controlPlane.replicas',
    'Cluster spec.clusterNetwork.pods': 'network.podCidr',
    'Cluster spec.clusterNetwork.services': 'network.serviceCidr',
  };

  public constructor(private readonly props: CapzClusterProps, public readonly network: { podCidr: string; serviceCidr: string }) {
    this.version = props.kubernetesVersion;
  }

  public controlPlane(cluster: CapiCluster, machineTemplate: ApiObject): ApiObject {
    const registration = { name: NODE_NAME, kubeletExtraArgs: EXTERNAL_CLOUD };
    return typedApiObject(cluster, 'KubeadmControlPlane', KubeadmControlPlane, {
      metadata: { name: `${cluster.clusterName}-control-plane` },
      spec: {
        replicas: this.props.controlPlane?.replicas ?? 1,
        version: this.props.kubernetesVersion,
        machineTemplate: { spec: { infrastructureRef: { apiGroup: apiGroupOf(machineTemplate.apiVersion), kind: machineTemplate.kind, name: machineTemplate.name } } },
        kubeadmConfigSpec: {
          clusterConfiguration: {
            // Calico's IPAM assigns pod addresses (CAPZ's flavors: allocate-node-cidrs false).
            controllerManager: { extraArgs: [...EXTERNAL_CLOUD, { name: 'allocate-node-cidrs', value: 'false' }, { name: 'cluster-name', value: cluster.clusterName }] },
          },
          initConfiguration: { nodeRegistration: registration },
          joinConfiguration: { nodeRegistration: registration },
          files: [{
            path: '/etc/kubernetes/azure.json', owner: 'root:root', permissions: '0644',
            contentFrom: { secret: { name: capzAzureJsonSecret(machineTemplate.name), key: 'control-plane-azure.json' } },
          }],
        },
      },
    });
  }
}
