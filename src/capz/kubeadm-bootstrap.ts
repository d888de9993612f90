import { ApiObject } from 'cdk8s';
import { KubeadmConfigTemplate, KubeadmConfigTemplateSpecTemplateSpec } from '../generated/cluster-api-bootstrap.cluster.x-k8s.io';
import { contentHash } from '../core/hash';
import { typedApiObject } from '../core/typed-api-object';
import { capzAzureJsonSecret, WINDOWS_CRI_SOCKET, WindowsKubeletService } from '../platform/capz';
import { UPSTREAM_LINUX_KUBELET_ROOT, WINDOWS_KUBELET_ROOT } from '../platform/csi';
import { taintArgument } from '../platform/windows';
import { BootstrapPart, BootstrapTemplate, MachineDeploymentPool, WorkerOs } from '../capi/machine-deployment-pool';

/** The node name kubeadm registers: the VM's host name, from the Azure metadata cloud-init and cloudbase-init render (CAPZ's flavors). */
const NODE_NAME = '{{ ds.meta_data["local_hostname"] }}';
/** The cloud provider's taint, which cloud-node-manager removes once it has set the node's providerID (CAPZ PR #6293). */
const CLOUD_TAINT = { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' };

/** What a kubeadm pool's operating system adds to its KubeadmConfigTemplate. */
export interface KubeadmOs extends WorkerOs {
  /**
   * How the image runs the kubelet, on Windows (`WindowsKubeletService`): with a native service the
   * bootstrap hands the kubelet no flags, which it would drop.
   * @default - Linux: systemd reads kubeadm's flags
   */
  readonly kubeletService?: WindowsKubeletService;
  /** The rest of the KubeadmConfigTemplate's spec: users, files, commands. */
  readonly bootstrap: (machineTemplate: ApiObject) => KubeadmConfigTemplateSpecTemplateSpec;
}

/**
 * Cluster API's kubeadm bootstrap (CABPK) as a pool's bootstrap part: one KubeadmConfigTemplate
 * (bootstrap.cluster.x-k8s.io/v1beta2) per MachineDeployment that joins the node with the kubelet
 * on Azure's external cloud provider, its node labels and (on Windows) the cloud's taint as
 * kubelet flags in v1beta2's `{name, value}` list, unless the image's kubelet service reads none.
 */
export function kubeadmBootstrap(version: string, platform: KubeadmOs): BootstrapPart {
  const { kubeletService, bootstrap, ...os } = platform;
  return {
    ...os,
    version,
    kubeletRootDir: platform.os === 'windows' ? WINDOWS_KUBELET_ROOT.upstream : UPSTREAM_LINUX_KUBELET_ROOT,
    labelArgument: 'the kubelet\'s --node-labels',
    propsOfFields: {
      'MachineDeployment spec.template.spec.version': 'kubernetesVersion',
      'KubeadmConfigTemplate spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs': 'labels',
    },
    configTemplate: (pool: MachineDeploymentPool, template: BootstrapTemplate): ApiObject => {
      const taints = [...(platform.os === 'windows' ? [CLOUD_TAINT] : []), ...platform.taints];
      const flags = kubeletService === WindowsKubeletService.WINDOWS_SERVICE ? [] : [
        { name: 'cloud-provider', value: 'external' },
        // kubeadm join turns nodeRegistration.taints into this flag too; written once, here. CAPZ's
        // Windows flavor states the cloud's taint (CAPZ PR #6293: Windows nodes registered without it,
        // and cloud-node-manager never set their providerID); its Linux flavor leaves it to the kubelet.
        ...(taints.length > 0 ? [{ name: 'register-with-taints', value: taints.map(taintArgument).join(',') }] : []),
        { name: 'node-labels', value: Object.entries(template.nodeLabels).map(([k, v]) => `${k}=${v}`).join(',') },
        ...(platform.os === 'windows' ? [{ name: 'windows-priorityclass', value: 'ABOVE_NORMAL_PRIORITY_CLASS' }] : []),
      ];
      const spec: KubeadmConfigTemplateSpecTemplateSpec = {
        // The pool builds its machine template first: the bootstrap's azure.json names it.
        ...bootstrap(pool.machineTemplate),
        joinConfiguration: {
          nodeRegistration: {
            name: NODE_NAME,
            criSocket: platform.os === 'windows' ? WINDOWS_CRI_SOCKET : undefined,
            kubeletExtraArgs: flags.length > 0 ? flags : undefined,
          },
        },
      };
      // Hashed as written (JSON field names), so that the rules can recompute it on the final object.
      const written = KubeadmConfigTemplate.manifest({ spec: { template: { spec } } }).spec?.template.spec;
      return typedApiObject(pool, template.domain ? `KubeadmConfigTemplate-${template.domain.suffix}` : 'KubeadmConfigTemplate', KubeadmConfigTemplate, {
        metadata: { name: `${template.name}-${contentHash(written)}` },
        spec: { template: { spec } },
      });
    },
  };
}

/** The azure.json file of a pool's machines: CAPZ writes it into `<machine template>-azure-json` (`capzAzureJsonSecret`). */
export function azureJsonFile(machineTemplate: ApiObject, path: string): NonNullable<KubeadmConfigTemplateSpecTemplateSpec['files']>[number] {
  return { path, permissions: '0644', contentFrom: { secret: { name: capzAzureJsonSecret(machineTemplate.name), key: 'worker-node-azure.json' } } };
}
