import { CAPI_AUTOSCALER_ANNOTATIONS } from '../../platform/cluster-autoscaler';
import { WINDOWS_K0S_INSTALL_DIR } from '../../platform/conventions';
import { K0sVersion } from '../../platform/k0s-version';
import { KUBELET_PORT } from '../../platform/kubernetes';
import { CALICO_WINDOWS_VXLAN, CalicoMode, NetworkProvider } from '../../platform/network';
import { WINDOWS_SUPPORT, WindowsPlatform } from '../../platform/support';
import { opensInboundPort } from '../../platform/windows';
import { list, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { windowsMachineProblems } from './aws-machines';
import { k0sControlPlaneOf, Pool, pools } from './pools';

/**
 * The rules of Windows pools and the clusters that have them, judged by what each pool's
 * infrastructure declares it needs (`K0smotronInfrastructure`): its provisioner, who opens the
 * kubelet port, the support matrix of its platform.
 */

/** What a Windows pool needs of its own objects: a k0s that runs Windows, its provisioner, its user data, its instance type. */
export const windowsPools = rule<ManifestGraph>({
  name: 'windows-pool',
  scope: 'object',
  description: 'A Windows pool: a k0s that runs Windows, the provisioner its infrastructure needs, the kubelet port opened, a Windows install path, Windows user data and instance type',
  source: 'k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go (getWindowsCommands); api/bootstrap/v1beta2/k0s_types.go',
  check: (graph) => {
    const out: Finding[] = [];
    const all = pools(graph);
    const minimumOf = (platform: WindowsPlatform) => Object.values(WINDOWS_SUPPORT[platform])
      .filter((s) => s.supported && s.minimumVersion)
      .map((s) => K0sVersion.of(s.minimumVersion!))
      .sort((a, b) => a.compare(b))[0];
    // k0s pools; kubeadm's are judged by their own family.
    for (const pool of all.filter((p) => p.windows && p.bootstrap === 'k0s')) {
      const { md } = pool;
      const v = (source: ManifestSource, what: string, fix: string, field?: string) => out.push(violation(source, what, fix, field));
      const version = K0sVersion.parse(md.manifest.spec?.template?.spec?.version ?? pool.config?.manifest.spec?.template?.spec?.version);
      // What Windows needs here, as the machines' infrastructure declares it (`K0smotronInfrastructure`).
      const infrastructure = pool.infrastructure;
      const minimum = minimumOf(infrastructure?.platform ?? WindowsPlatform.K0SMOTRON_AWS);
      if (version && minimum && version.compare(minimum) < 0) {
      // k0smotron v2.1.0 refuses Windows below v1.34.2 (api/bootstrap/v1beta2/k0s_types.go); k0s
      // gives Windows pods a network from v1.34.4 (src/platform/support.ts says why).
        v(md, `k0s ${version} cannot run Windows workers: k0smotron refuses them below v1.34.2+k0s.0, and below ${minimum} Windows pods stay in ContainerCreating (k0s's Calico for Windows CNI kubeconfig path, fixed in v1.34.3; the pause image from the frozen k8s.gcr.io, fixed in v1.34.4)`,
          `use k0s ${minimum} or newer for this pool (k0sVersion)`, 'spec.template.spec.version');
      }
      const bootstrap = pool.config!.manifest.spec?.template?.spec ?? {};
      // k0smotron's provisioner default is cloud-config (api/bootstrap/v1beta2 ProvisionerSpec).
      const type = bootstrap.provisioner?.type ?? 'cloud-config';
      if (infrastructure && (type !== infrastructure.windowsProvisioner || bootstrap.provisioner?.platform !== 'windows')) {
        v(pool.config!, `K0sWorkerConfigTemplate provisioner is ${JSON.stringify(bootstrap.provisioner)}; Windows workers on ${infrastructure.name} need {"platform":"windows","type":"${infrastructure.windowsProvisioner}"}: ${infrastructure.windowsProvisionerReason}`,
          `use type "${infrastructure.windowsProvisioner}" (remove the patch that changes it)`, 'spec.template.spec.provisioner');
      }
      // k0smotron v2.1.0 worker_bootstrap_controller.go (getWindowsCommands) runs preK0sCommands in
      // its PowerShell install script; nothing else opens the kubelet's port in the Windows firewall,
      // unless the infrastructure's hosts are prepared to (the remote hosts' preparation script).
      if (infrastructure?.kubeletPortOpenedBy === 'bootstrap' && !list(bootstrap.preK0sCommands).some((c) => opensInboundPort(c, KUBELET_PORT))) {
        v(pool.config!, `preK0sCommands open no inbound TCP ${KUBELET_PORT} in the Windows firewall, which drops it: kubectl logs, exec and port-forward and the metrics of Windows pods time out`,
          'keep the pool\'s preK0sCommands (WINDOWS_KUBELET_FIREWALL_RULE), or add a New-NetFirewallRule for 10250 to yours', 'spec.template.spec.preK0sCommands');
      }
      // k0smotron's Windows script always downloads k0s.exe from get.k0sproject.io, whatever these say
      // (k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go, getWindowsCommands;
      // only getLinuxCommands reads them): an air-gapped pool that relies on them never boots.
      const ignored = [bootstrap.downloadURL ? 'downloadURL' : '', bootstrap.preInstalledK0s === true ? 'preInstalledK0s' : ''].filter(Boolean);
      if (ignored.length > 0) {
        v(pool.config!, `${ignored.join(' and ')} on a Windows worker config: k0smotron's Windows bootstrap ignores ${ignored.length > 1 ? 'them' : 'it'} and downloads k0s.exe from get.k0sproject.io`,
          `remove ${ignored.length > 1 ? 'them' : 'it'}, and let the Windows machines reach get.k0sproject.io (through the NAT gateways or a proxy)`, `spec.template.spec.${ignored[0]}`);
      }
      if (typeof bootstrap.k0sInstallDir !== 'string' || !/^[A-Za-z]:\\\S*$/.test(bootstrap.k0sInstallDir)) {
        v(pool.config!, `k0sInstallDir ${JSON.stringify(bootstrap.k0sInstallDir)} is not a Windows path without spaces`, `use ${JSON.stringify(WINDOWS_K0S_INSTALL_DIR)}`, 'spec.template.spec.k0sInstallDir');
      }
      if (pool.machine) out.push(...windowsMachineProblems(infrastructure, pool.machine));
    }

    return out;
  },
});

/** What a cluster with Windows pools needs: a Linux worker for CoreDNS, and Calico in VXLAN mode. */
export const windowsClusters = rule<ManifestGraph>({
  name: 'windows-cluster',
  scope: 'graph',
  description: 'A cluster with Windows pools has a Linux worker for CoreDNS and Calico in VXLAN mode on port 4789, VNI 4096',
  source: 'k0s docs/networking.md (Windows: Calico VXLAN); kubernetes docs: Windows in Kubernetes (CoreDNS runs on Linux)',
  check: (graph) => {
    const out: Finding[] = [];
    const all = pools(graph);
    const byCluster = new Map<ManifestSource, Pool[]>();
    for (const pool of all.filter((p) => p.windows && p.bootstrap === 'k0s' && p.cluster)) byCluster.set(pool.cluster!, [...(byCluster.get(pool.cluster!) ?? []), pool]);

    for (const [cluster, windows] of byCluster) {
      const names = windows.map((p) => p.md.manifest.metadata?.name).join(', ');
      const kcp = k0sControlPlaneOf(graph, cluster);
      const kcpSpec = kcp?.manifest.spec ?? {};
      const controllersWork = list(kcpSpec.k0sConfigSpec?.args).some((a) => a === '--enable-worker' || a === '--enable-worker=true');
      const linuxWorkers = all.some((p) => p.cluster === cluster && !p.windows && p.replicas >= 1);
      if (!linuxWorkers && !controllersWork) {
      // An autoscaled Linux pool counts by its min (cluster-autoscaler may take it to 0): name it and its min.
        const atZero = all.filter((p) => p.cluster === cluster && !p.windows && p.md.manifest.metadata?.annotations?.[CAPI_AUTOSCALER_ANNOTATIONS.minSize] !== undefined);
        const because = atZero.length === 0 ? 'no Linux MachineDeployment with replicas >= 1'
          : `the autoscaled Linux MachineDeployments (${atZero.map((p) => `${p.md.manifest.metadata?.name}: min ${p.md.manifest.metadata?.annotations?.[CAPI_AUTOSCALER_ANNOTATIONS.minSize]}`).join(', ')}) may scale to 0`;
        out.push(violation(cluster, `Windows pools (${names}) need a Linux worker for CoreDNS, and the cluster has none: ${because}, and the controllers run without --enable-worker`,
          atZero.length === 0 ? 'add a LinuxWorkerPool with replicas >= 1, or set controlPlane.enableWorker' : 'give the Linux pool autoscaling.min >= 1, or set controlPlane.enableWorker', undefined,
          atZero.length === 0 ? 'add a Linux MachineDeployment for this cluster with spec.replicas >= 1, or add --enable-worker to the K0sControlPlane\'s spec.k0sConfigSpec.args'
          : `set ${CAPI_AUTOSCALER_ANNOTATIONS.minSize} to 1 or more on a Linux MachineDeployment, or add --enable-worker to the K0sControlPlane's spec.k0sConfigSpec.args`));
      }
      if (!kcp) continue;
      const network = kcpSpec.k0sConfigSpec?.k0s?.spec?.network ?? {};
      if (network.provider !== NetworkProvider.CALICO) {
        out.push(violation(kcp, `network provider "${network.provider}" has no Windows support, and the cluster has Windows pools (${names})`, 'use NetworkProvider.CALICO', 'spec.k0sConfigSpec.k0s.spec.network.provider', 'set spec.k0sConfigSpec.k0s.spec.network.provider: calico'));
      } else {
        const calico = network.calico ?? {};
        if (calico.mode !== CalicoMode.VXLAN) {
          out.push(violation(kcp, `Calico mode "${calico.mode}" does not work on Windows nodes (pools: ${names})`, 'use CalicoMode.VXLAN', 'spec.k0sConfigSpec.k0s.spec.network.calico.mode', 'set spec.k0sConfigSpec.k0s.spec.network.calico.mode: vxlan'));
        } else if ((calico.vxlanPort ?? CALICO_WINDOWS_VXLAN.port) !== CALICO_WINDOWS_VXLAN.port || (calico.vxlanVNI ?? CALICO_WINDOWS_VXLAN.vni) !== CALICO_WINDOWS_VXLAN.vni) {
          out.push(violation(kcp, `Calico VXLAN port ${calico.vxlanPort} / VNI ${calico.vxlanVNI}: Calico on Windows supports only port ${CALICO_WINDOWS_VXLAN.port} and VNI ${CALICO_WINDOWS_VXLAN.vni}`, 'remove the override'));
        }
      }
    }
    return out;
  },
});
