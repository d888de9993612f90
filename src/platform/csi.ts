import { WindowsPlatform } from './support';

/**
 * Facts about CSI drivers on Windows nodes: where the kubelet keeps its plugin sockets on each
 * platform, and the drivers' pinned releases.
 */

/**
 * The kubelet's root directory on Windows nodes (`--root-dir`): k0s puts it under its data
 * directory, `C:\var\lib\k0s\kubelet` (k0sproject/k0s v1.34.4+k0s.0 pkg/constant/constant_windows.go
 * DataDirDefault, pkg/config/cfgvars.go KubeletRootDir = <data dir>\kubelet,
 * pkg/component/worker/kubelet.go `--root-dir`); EKS, AKS and GKE keep the kubelet's default,
 * `C:\var\lib\kubelet`, which the drivers' manifests assume. A CSI node plugin registers its socket
 * under `<root>\plugins_registry` and serves it under `<root>\plugins\<driver>`: under another root
 * the kubelet never finds it, and a pod with such a volume never starts.
 */
export const WINDOWS_KUBELET_ROOT = { k0s: 'C:\\var\\lib\\k0s\\kubelet', upstream: 'C:\\var\\lib\\kubelet' } as const;

/** k0s's kubelet root on Linux (pkg/constant/constant_unix.go DataDirDefault /var/lib/k0s, + kubelet). */
export const K0S_LINUX_KUBELET_ROOT = '/var/lib/k0s/kubelet';

/** The kubelet's default root on Linux (`--root-dir`, kubernetes cmd/kubelet/app/options/options.go), which kubeadm keeps. */
export const UPSTREAM_LINUX_KUBELET_ROOT = '/var/lib/kubelet';

/** The Windows kubelet root on a platform. */
export function windowsKubeletRoot(platform: WindowsPlatform): string {
  return KNOWN_WINDOWS_KUBELET_ROOT[platform] ?? WINDOWS_KUBELET_ROOT.upstream;
}

/**
 * The platforms whose Windows kubelet root is read from their source (above), which the
 * `csi-windows-node` rule compares a node plugin's paths with. RKE2's is not read here, and k3s
 * has no Windows nodes.
 */
export const KNOWN_WINDOWS_KUBELET_ROOT: Readonly<Partial<Record<WindowsPlatform, string>>> = {
  [WindowsPlatform.K0SMOTRON_AWS]: WINDOWS_KUBELET_ROOT.k0s,
  [WindowsPlatform.K0SMOTRON_REMOTE]: WINDOWS_KUBELET_ROOT.k0s,
  [WindowsPlatform.EKS]: WINDOWS_KUBELET_ROOT.upstream,
  [WindowsPlatform.AKS]: WINDOWS_KUBELET_ROOT.upstream,
  [WindowsPlatform.GKE]: WINDOWS_KUBELET_ROOT.upstream,
};

/**
 * The kubelet roots a string names as the parent of a CSI plugin's directory or of the plugin
 * registry (`C:\var\lib\kubelet\plugins\smb.csi.k8s.io\csi.sock` → `C:\var\lib\kubelet`), with
 * backslashes, as written: a Windows node plugin's paths (upstream writes them in args, env and
 * host paths).
 */
export function kubeletRootsNamed(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...text.matchAll(/(?<![A-Za-z])([A-Za-z]:[\\/][^\s"';]*?)[\\/]+plugins(?:_registry)?(?=[\\/]|$)/g)].map((m) => m[1]);
}

/** Two Windows paths name the same directory: case-insensitive, either slash, no trailing slash. */
export function sameWindowsPath(a: string, b: string): boolean {
  const norm = (p: string) => p.replace(/[\\/]+/g, '\\').replace(/\\$/, '').toLowerCase();
  return norm(a) === norm(b);
}

/** An absolute Windows path: a drive letter, a colon and a slash (`C:\var\lib\kubelet`). */
export const ABSOLUTE_WINDOWS_PATH = /^[A-Za-z]:[\\/]/;

/** The SMB CSI driver (kubernetes-csi/csi-driver-smb v1.20.3, deploy/). */
export const SMB_CSI = {
  driver: 'smb.csi.k8s.io',
  source: 'kubernetes-csi/csi-driver-smb@v1.20.3 deploy/csi-smb-node-windows-hostprocess.yaml, csi-smb-controller.yaml, csi-smb-driver.yaml',
  images: {
    plugin: 'registry.k8s.io/sig-storage/smbplugin:v1.20.3',
    windowsPlugin: 'registry.k8s.io/sig-storage/smbplugin:v1.20.3-windows-hp',
    provisioner: 'registry.k8s.io/sig-storage/csi-provisioner:v6.3.0',
    resizer: 'registry.k8s.io/sig-storage/csi-resizer:v2.2.0',
    registrar: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.17.0',
  },
} as const;

/**
 * The EBS CSI driver as its chart 2.64.0 installs it (kubernetes-sigs/aws-ebs-csi-driver tag
 * helm-chart-aws-ebs-csi-driver-2.64.0: Chart.yaml appVersion 1.64.0, values.yaml
 * sidecars.nodeDriverRegistrar and sidecars.livenessProbe, templates/_node-windows.tpl). The driver's tag v1.64.0 still
 * carries chart 2.63.1 (appVersion 1.63.1), whose release pairs it with registrar eksbuild.4.
 */
export const EBS_CSI = {
  driver: 'ebs.csi.aws.com',
  /**
   * Where EBS volumes cannot attach: the driver attaches volumes to EC2 instances only (its node
   * reads the instance id from EC2 instance metadata, pkg/cloud/metadata), and AKS and GKE nodes
   * are Azure and Google VMs; k3s has no Windows nodes.
   */
  notOn: [WindowsPlatform.AKS, WindowsPlatform.GKE, WindowsPlatform.K3S] as readonly WindowsPlatform[],
  source: 'kubernetes-sigs/aws-ebs-csi-driver@helm-chart-aws-ebs-csi-driver-2.64.0 charts/aws-ebs-csi-driver/templates/_node-windows.tpl',
  images: {
    plugin: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.64.0',
    registrar: 'public.ecr.aws/csi-components/csi-node-driver-registrar:v2.17.0-eksbuild.5',
    livenessProbe: 'public.ecr.aws/csi-components/livenessprobe:v2.19.0-eksbuild.5',
  },
} as const;

/**
 * Whether a string names a CSI driver's kubelet plugin directory (`plugins/<driver>` or
 * `plugins\<driver>`, under any kubelet root): how a node plugin's pod spec shows its driver.
 */
export function namesCsiPluginDir(text: unknown, driver: string): boolean {
  return typeof text === 'string' && text.replace(/\\+/g, '/').includes(`plugins/${driver}`);
}
