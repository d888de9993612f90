import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { ClusterResourceSet, ClusterResourceSetSpecResourcesKind, ClusterResourceSetSpecStrategy } from '../generated/cluster-api-addons.cluster.x-k8s.io';
import { flag, optional, propsSpec, text } from '../core/props-spec';
import { typedApiObject } from '../core/typed-api-object';
import { CALICO_WINDOWS, WINDOWS_KUBE_PROXY_IMAGE, windowsKubeProxyTag } from '../platform/capz';
import { LABEL_OS, WINDOWS_SYSTEM_USER } from '../platform/windows';
import type { CapzCluster } from './capz-cluster';

/** Props of `CapzWindowsAddons`. */
export interface CapzWindowsAddonsProps {
  /**
   * The API server's host name as Windows nodes reach it, for Calico for Windows, which cannot
   * use the kubernetes Service before kube-proxy runs (CAPZ's add-ons: `kubernetesServiceEndpoint`,
   * "required for windows"). Written as the tigera operator's `kubernetes-services-endpoint`
   * ConfigMap.
   * @default - none: give the operator the endpoint yourself
   */
  readonly apiServerHost?: string;
  /**
   * Install csi-proxy on Windows nodes (CSI node plugins on Windows need it).
   * @default true
   */
  readonly csiProxy?: boolean;
}

/**
 * The spec of `CapzWindowsAddonsProps`.
 * @internal
 */
export const CAPZ_WINDOWS_ADDONS_PROPS = propsSpec<CapzWindowsAddonsProps>('CapzWindowsAddons', {
  apiServerHost: optional(text({ max: 253, form: 'a host name or IP address', example: 'azwin-4f2a.westeurope.cloudapp.azure.com', pattern: /^[A-Za-z0-9](?:[-A-Za-z0-9.:]*[A-Za-z0-9])?$/ })),
  csiProxy: optional(flag()),
});

/** The csi-proxy release CAPZ v1.26.0's Windows add-ons run (templates/addons/windows/csi-proxy/csi-proxy.yaml). */
const CSI_PROXY_IMAGE = 'ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.0.2';

/**
 * The Windows add-ons of a `CapzCluster`, as ClusterResourceSets in the management cluster that
 * apply ConfigMaps' objects to the workload cluster, selected by a label this construct puts on
 * the Cluster: Calico for Windows (the tigera operator's Installation with the HNS dataplane,
 * VXLAN and BGP off, and IPAM's strict affinity), the HostProcess kube-proxy at the cluster's
 * Kubernetes version (kubeadm's kube-proxy runs on Linux only), and csi-proxy, as CAPZ v1.26.0's
 * templates/addons/windows do. The tigera operator itself (and its CRDs) must be installed in the
 * workload cluster (CAPZ's flavors install it with a HelmChartProxy); kube-proxy and csi-proxy are
 * reconciled, so a new Kubernetes version re-applies kube-proxy.
 */
export class CapzWindowsAddons extends Construct {
  /** The label on the Cluster that the ClusterResourceSets select. */
  public readonly selector: Readonly<Record<string, string>>;
  /** The ClusterResourceSets (addons.cluster.x-k8s.io/v1beta2). */
  public readonly resourceSets: readonly ApiObject[];

  public constructor(cluster: CapzCluster, id: string, given: CapzWindowsAddonsProps = {}) {
    const props = CAPZ_WINDOWS_ADDONS_PROPS.parse(`${cluster.node.path}/${id}`, given);
    super(cluster, id);
    this.selector = { 'windows-addons.cdk-hybrid-windows.io/cluster': cluster.clusterName };
    Object.entries(this.selector).forEach(([k, v]) => cluster.cluster.metadata.addLabel(k, v));
    const network = cluster.cluster.toJson().spec.clusterNetwork;
    const calico = [
      {
        apiVersion: 'operator.tigera.io/v1', kind: 'Installation', metadata: { name: 'default' },
        spec: {
          calicoNetwork: {
            bgp: CALICO_WINDOWS.bgp,
            windowsDataplane: CALICO_WINDOWS.dataplane,
            mtu: CALICO_WINDOWS.mtu,
            ipPools: network.pods.cidrBlocks.map((cidr: string, i: number) => ({ name: `default-ipv4-ippool${i === 0 ? '' : `-${i}`}`, cidr, encapsulation: CALICO_WINDOWS.encapsulations[0], natOutgoing: 'Enabled' })),
          },
          // The Service range, which Calico for Windows needs to route Services (CAPZ's values: "must match cluster service CIDR").
          serviceCIDRs: network.services.cidrBlocks,
        },
      },
      // Windows nodes need each IPAM block affine to one node (CAPZ templates/addons/windows/calico/calico.yaml).
      { apiVersion: 'crd.projectcalico.org/v1', kind: 'IPAMConfig', metadata: { name: 'default' }, spec: { autoAllocateBlocks: true, strictAffinity: true } },
      ...(props.apiServerHost ? [{
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kubernetes-services-endpoint', namespace: 'tigera-operator' },
        data: { KUBERNETES_SERVICE_HOST: props.apiServerHost, KUBERNETES_SERVICE_PORT: '6443' },
      }] : []),
    ];
    const hostProcess = { windowsOptions: { hostProcess: true, runAsUserName: WINDOWS_SYSTEM_USER } };
    const kubeProxy = {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kube-proxy-windows', namespace: 'kube-system', labels: { 'k8s-app': 'kube-proxy' } },
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy-windows' } },
        updateStrategy: { type: 'RollingUpdate' },
        template: {
          metadata: { labels: { 'k8s-app': 'kube-proxy-windows' } },
          spec: {
            // kubeadm's kube-proxy ServiceAccount and ConfigMap.
            serviceAccountName: 'kube-proxy',
            securityContext: hostProcess,
            hostNetwork: true,
            priorityClassName: 'system-node-critical',
            nodeSelector: { [LABEL_OS]: 'windows' },
            tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, { operator: 'Exists' }],
            containers: [{
              name: 'kube-proxy',
              image: `${WINDOWS_KUBE_PROXY_IMAGE}:${windowsKubeProxyTag(cluster.kubernetesVersion)}`,
              args: ['$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/start.ps1'],
              workingDir: '$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/',
              env: [
                { name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
                { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
              ],
              volumeMounts: [{ mountPath: '/var/lib/kube-proxy', name: 'kube-proxy' }],
            }],
            volumes: [{ name: 'kube-proxy', configMap: { name: 'kube-proxy' } }],
          },
        },
      },
    };
    const csiProxy = {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'csi-proxy', namespace: 'kube-system', labels: { 'k8s-app': 'csi-proxy' } },
      spec: {
        selector: { matchLabels: { 'k8s-app': 'csi-proxy' } },
        template: {
          metadata: { labels: { 'k8s-app': 'csi-proxy' } },
          spec: { nodeSelector: { [LABEL_OS]: 'windows' }, securityContext: hostProcess, hostNetwork: true, containers: [{ name: 'csi-proxy', image: CSI_PROXY_IMAGE }] },
        },
      },
    };
    const sets: Array<[string, object[], ClusterResourceSetSpecStrategy]> = [
      // The operator owns the Installation once applied.
      ['calico-windows', calico, ClusterResourceSetSpecStrategy.APPLY_ONCE],
      ['kube-proxy-windows', [kubeProxy], ClusterResourceSetSpecStrategy.RECONCILE],
      ...(props.csiProxy ?? true ? [['csi-proxy', [csiProxy], ClusterResourceSetSpecStrategy.RECONCILE] as [string, object[], ClusterResourceSetSpecStrategy]] : []),
    ];
    this.resourceSets = sets.map(([name, objects, strategy]) => {
      const holder = new ApiObject(this, `${name}-resources`, {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${cluster.clusterName}-${name}` },
        data: { [`${name}.yaml`]: objects.map((o) => stringify(o)).join('---\n') },
      });
      return typedApiObject(this, name, ClusterResourceSet, {
        metadata: { name: `${cluster.clusterName}-${name}` },
        spec: { clusterSelector: { matchLabels: { ...this.selector } }, resources: [{ kind: ClusterResourceSetSpecResourcesKind.CONFIG_MAP, name: holder.name }], strategy },
      });
    });
  }
}
