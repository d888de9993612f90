import { KNOWN_WINDOWS_KUBELET_ROOT, kubeletRootsNamed, namesCsiPluginDir, sameWindowsPath, WINDOWS_KUBELET_ROOT } from '../../platform/csi';
import { LABEL_OS } from '../../platform/windows';
import { Json, list, ManifestGraph, ManifestSource, namespaceOf, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { manifestPath, podTemplatesOf, targetsWindows } from './pod-template';

/**
 * A Windows pod whose volume needs a CSI driver whose node plugin, in these objects, runs on no
 * Windows node: the kubelet finds no plugin registered for the driver, and the pod waits in
 * ContainerCreating ("driver name … not found in the list of registered CSI drivers"). Judged only
 * where the objects show the driver's node plugin (a DaemonSet whose pod spec names
 * `plugins/<driver>` under a kubelet root): a driver installed elsewhere is not judged.
 */

/** Every string of a pod spec (args, env values, host paths), to find the plugin directory it names. */
function stringsOf(value: Json, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsOf(v, out));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => stringsOf(v, out));
  return out;
}

/** The CSI driver a pod volume needs, when the objects say: inline, or through its claim's volume or storage class. */
function driverOf(graph: ManifestGraph, pod: ManifestSource, volume: Json): string | undefined {
  const classDriver = (name: unknown) => graph.ofKind('StorageClass').find((c) => c.manifest.metadata?.name === name)?.manifest.provisioner;
  if (typeof volume?.csi?.driver === 'string') return volume.csi.driver;
  const template = volume?.ephemeral?.volumeClaimTemplate?.spec;
  if (template) return classDriver(template.storageClassName);
  const claimName = volume?.persistentVolumeClaim?.claimName;
  if (claimName === undefined) return undefined;
  const claim = graph.ofKind('PersistentVolumeClaim').find((c) => c.manifest.metadata?.name === claimName && namespaceOf(c.manifest) === namespaceOf(pod.manifest));
  const bound = graph.ofKind('PersistentVolume').find((v) => v.manifest.metadata?.name === claim?.manifest.spec?.volumeName);
  return bound?.manifest.spec?.csi?.driver ?? classDriver(claim?.manifest.spec?.storageClassName);
}

/**
 * A Windows DaemonSet whose paths put a CSI plugin's socket or registration under another kubelet
 * root than the platform's Windows nodes use: the kubelet watches `<its root>\plugins_registry`
 * only, so it never registers the driver, and every pod with its volumes waits in
 * ContainerCreating. Upstream's Windows manifests assume `C:\var\lib\kubelet`, which k0s does not
 * use (`WINDOWS_KUBELET_ROOT`). Judged where the platform, and so its root, is known.
 */
function wrongRootProblems(graph: ManifestGraph): Finding[] {
  const platform = graph.context.platform;
  const root = platform === undefined ? undefined : KNOWN_WINDOWS_KUBELET_ROOT[platform];
  if (root === undefined) return [];
  return graph.ofKind('DaemonSet').flatMap((ds) => podTemplatesOf(ds.manifest).filter((t) => targetsWindows(t.spec)).flatMap((location) => {
    const other = [...new Set(stringsOf(location.spec).flatMap(kubeletRootsNamed))].filter((r) => !sameWindowsPath(r, root));
    if (other.length === 0) return [];
    const field = manifestPath(location, 'spec');
    return [violation(ds,
      `${field} puts a CSI plugin's socket or registration under ${other.join(', ')}, and the kubelet of ${platform}'s Windows nodes keeps its root at ${root}: it never finds the plugin, and pods with its volumes stay in ContainerCreating`,
      `write the plugin's paths under ${root} (WindowsSmbCsi and WindowsEbsCsiNode do with platform: ${platform})`, field,
      `replace ${other[0]} with ${root} in the DaemonSet's args, env and hostPath volumes`)];
  }));
}

export const CSI_WINDOWS_NODE_RULE = rule<ManifestGraph>({
  name: 'csi-windows-node',
  scope: 'graph',
  description: 'A Windows pod\'s volume needs a CSI driver whose node plugin, where the objects show it, runs on Windows nodes too, under the kubelet root of the platform\'s Windows nodes',
  source: 'kubernetes-csi/csi-driver-smb v1.20.3 deploy/csi-smb-node-windows-hostprocess.yaml; kubernetes-sigs/aws-ebs-csi-driver v1.64.0 charts/aws-ebs-csi-driver/templates/_node-windows.tpl; k0sproject/k0s v1.34.4+k0s.0 pkg/constant/constant_windows.go, pkg/config/cfgvars.go (KubeletRootDir)',
  check: (graph) => [...wrongRootProblems(graph), ...missingNodeProblems(graph)],
});

function missingNodeProblems(graph: ManifestGraph): Finding[] {
  const plugins = graph.ofKind('DaemonSet').flatMap((ds) => podTemplatesOf(ds.manifest).map((t) => ({ spec: t.spec, text: stringsOf(t.spec) })));
  // Judged only where the objects show a node plugin, which is a DaemonSet's.
  if (plugins.length === 0) return [];
  return graph.sources.flatMap((source) => podTemplatesOf(source.manifest).filter((t) => targetsWindows(t.spec)).flatMap((location) =>
    list(location.spec.volumes).flatMap((volume, i) => {
      const driver = driverOf(graph, source, volume);
      if (typeof driver !== 'string') return [];
      const nodePlugins = plugins.filter((p) => p.text.some((s) => namesCsiPluginDir(s, driver)));
      if (nodePlugins.length === 0 || nodePlugins.some((p) => p.spec.nodeSelector?.[LABEL_OS] === 'windows' || targetsWindows(p.spec))) return [];
      const field = manifestPath(location, `spec.volumes[${i}]`);
      return [violation(source,
        `${field} (${volume?.name}) needs the CSI driver ${driver}, whose node plugin in these objects runs on Linux nodes only, so the kubelet of a Windows node never mounts it and the pod stays in ContainerCreating`,
        `run the driver's Windows node plugin too (WindowsSmbCsi, WindowsEbsCsiNode, or the chart's Windows DaemonSet), under the Windows kubelet root of the cluster`, field,
        `add the driver's Windows node DaemonSet (spec.template.spec.nodeSelector kubernetes.io/os: windows, its plugin paths under the nodes' kubelet root, ${WINDOWS_KUBELET_ROOT.k0s} on k0s, ${WINDOWS_KUBELET_ROOT.upstream} elsewhere), or remove ${field}`)];
    })));
}
