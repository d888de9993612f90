import { App, Chart } from 'cdk8s';
import { validateManifests, WindowsPlatform } from '../../src';
import { WindowsEbsCsiNode, WindowsSmbCsi, validatePodSpec } from '../../src/workloads';
import { K8sObject, only, synthObjects } from '../support/synth';

function objects(build: (chart: Chart) => void): K8sObject[] {
  const app = new App();
  build(new Chart(app, 'storage'));
  return synthObjects(app);
}
const daemonSet = (objs: K8sObject[]) => only(objs, 'DaemonSet');
const env = (c: K8sObject) => Object.fromEntries((c.env ?? []).map((e: { name: string; value?: string }) => [e.name, e.value]));

// k0sproject/k0s v1.34.4+k0s.0: pkg/constant/constant_windows.go (DataDirDefault C:\var\lib\k0s),
// pkg/config/cfgvars.go (KubeletRootDir = <data dir>\kubelet), pkg/component/worker/kubelet.go (--root-dir).
// kubernetes-csi/csi-driver-smb v1.20.3 deploy/csi-smb-node-windows-hostprocess.yaml assumes C:\var\lib\kubelet
// and tolerates GKE's node.kubernetes.io/os taint only.
describe('WindowsSmbCsi', () => {
  test('on k0s the Windows node plugin registers under k0s\'s kubelet root and tolerates our taint', () => {
    const ds = daemonSet(objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K0SMOTRON_AWS })));
    const spec = ds.spec.template.spec;
    expect(spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(spec.tolerations).toEqual([{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
    expect(spec.securityContext.windowsOptions).toEqual({ hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' });
    const [registrar, plugin] = spec.containers;
    expect(registrar.args).toEqual([
      '--v=2',
      '--csi-address=unix://C:\\var\\lib\\k0s\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock',
      '--kubelet-registration-path=C:\\var\\lib\\k0s\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock',
      '--plugin-registration-path=C:\\var\\lib\\k0s\\kubelet\\plugins_registry\\',
    ]);
    expect(plugin.args).toContain('--endpoint=unix://C:\\var\\lib\\k0s\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock');
    expect(plugin.args).toContain('--enable-windows-host-process=true');
    expect(JSON.stringify(spec)).not.toMatch(/C:\\\\var\\\\lib\\\\kubelet/);
    // deploy/csi-smb-node-windows-hostprocess.yaml's images.
    expect([registrar.image, plugin.image]).toEqual(['registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.17.0', 'registry.k8s.io/sig-storage/smbplugin:v1.20.3-windows-hp']);
  });

  // The plugin listens without creating the socket's directory (pkg/csi-common/server.go serve) and
  // the kubelet makes only plugins\ and plugins_registry\; upstream's init container creates it.
  test('the socket\'s directory under the platform\'s kubelet root exists before the plugin starts', () => {
    const spec = daemonSet(objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K0SMOTRON_AWS }))).spec.template.spec;
    expect(spec.volumes).toEqual([{ name: 'plugin-dir', hostPath: { path: 'C:\\var\\lib\\k0s\\kubelet\\plugins\\smb.csi.k8s.io', type: 'DirectoryOrCreate' } }]);
    expect(spec.containers[1].volumeMounts).toEqual([{ name: 'plugin-dir', mountPath: 'C:\\csi' }]);
  });

  test('on EKS the upstream kubelet root; on GKE GKE\'s taint', () => {
    const eks = daemonSet(objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS })));
    expect(eks.spec.template.spec.containers[0].args[2]).toBe('--kubelet-registration-path=C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock');
    const gke = daemonSet(objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.GKE })));
    expect(gke.spec.template.spec.tolerations).toEqual([{ key: 'node.kubernetes.io/os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }]);
  });

  // rancher/rke2 v1.35.7+rke2r1: a Windows agent registers with the taints of its node-taint option only
  // (pkg/cli/cmds/agent.go; k3s-io/k3s pkg/daemons/agent/agent_windows.go register-with-taints).
  test('on RKE2, whose Windows agents carry no taint, the node plugins tolerate none of the platform\'s and pass RKE2\'s rules', () => {
    const smb = objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.RKE2 }));
    expect(daemonSet(smb).spec.template.spec.tolerations).toBeUndefined();
    expect(daemonSet(smb).spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
    expect(validateManifests(smb, { platform: WindowsPlatform.RKE2 })).toEqual([]);
    const ebs = daemonSet(objects((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.RKE2 })));
    expect(ebs.spec.template.spec.tolerations).toEqual([{ key: 'ebs.csi.aws.com/agent-not-ready', operator: 'Exists' }, ...CHART_DISRUPTION_TOLERATIONS]);
  });

  test('the controller runs on Linux, the CSIDriver needs no attach, and the namespace and replicas are the props\'', () => {
    const objs = objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K0SMOTRON_REMOTE, namespace: 'storage', controllerReplicas: 2 }));
    const controller = only(objs, 'Deployment');
    expect(controller.metadata.namespace).toBe('storage');
    expect(controller.spec.replicas).toBe(2);
    expect(controller.spec.template.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(controller.spec.template.spec.containers[0].args).toContain('--leader-election-namespace=storage');
    expect(only(objs, 'CSIDriver').spec).toEqual({ attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ['Persistent', 'Ephemeral'] });
    expect(objs.filter((o) => o.kind === 'ClusterRoleBinding' && o.metadata.name === 'smb-csi-provisioner-binding')[0].subjects)
      .toEqual([{ kind: 'ServiceAccount', name: 'csi-smb-controller-sa', namespace: 'storage' }]);
    expect(daemonSet(objs).metadata.namespace).toBe('storage');
  });

  // Static volumes (a PersistentVolume naming the share) and inline volumes are mounted by the node
  // plugin alone (csi-driver-smb v1.20.3 pkg/smb/nodeserver.go); the controller only provisions and resizes.
  test('controllerReplicas 0 is accepted (static and inline volumes need no controller); a negative or fractional count is refused, naming it', () => {
    const objs = objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS, controllerReplicas: 0 }));
    expect(only(objs, 'Deployment').spec.replicas).toBe(0);
    expect(validateManifests(objs)).toEqual([]);
    expect(() => objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS, controllerReplicas: -1 }))).toThrow(/\[storage\/smb\] controllerReplicas: -1 .*Fix: give a whole number from 0/);
    expect(() => objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS, controllerReplicas: '2' as unknown as number }))).toThrow(/controllerReplicas: "2" is not a number/);
  });

  /** Whether the RBAC objects let `serviceAccount` (namespace/name) `verb` `resource` of the core group in any namespace (a ClusterRoleBinding). */
  function clusterMay(objs: K8sObject[], serviceAccount: string, verb: string, resource: string): boolean {
    const [namespace, name] = serviceAccount.split('/');
    const roles = new Map(objs.filter((o) => o.kind === 'ClusterRole').map((r) => [r.metadata.name, r]));
    return objs.filter((o) => o.kind === 'ClusterRoleBinding')
      .filter((b) => (b.subjects ?? []).some((s: K8sObject) => s.kind === 'ServiceAccount' && s.name === name && s.namespace === namespace))
      .some((b) => (roles.get(b.roleRef.name)?.rules ?? []).some((r: K8sObject) => r.apiGroups.includes('') && r.resources.includes(resource) && r.verbs.includes(verb)));
  }

  // csi-driver-smb v1.20.3: for an inline volume the node plugin reads the secret itself
  // (pkg/smb/nodeserver.go NodeStageVolume: ephemeralVol → GetUserNamePasswordFromSecret; pkg/smb/smb.go
  // Secrets(secretNamespace).Get), so upstream binds csi-smb-node-sa to csi-smb-node-secret-role
  // (deploy/rbac-csi-smb.yaml). Without it an inline SMB volume fails NodeStageVolume ("forbidden").
  test('the node plugin\'s service account may read secrets, which inline (Ephemeral) volumes need', () => {
    const objs = objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K0SMOTRON_AWS }));
    expect(only(objs, 'CSIDriver').spec.volumeLifecycleModes).toContain('Ephemeral');
    const nodeSa = `kube-system/${daemonSet(objs).spec.template.spec.serviceAccountName}`;
    expect(clusterMay(objs, nodeSa, 'get', 'secrets')).toBe(true);
    expect(clusterMay(objs, nodeSa, 'list', 'secrets')).toBe(false);
    expect(clusterMay(objs, 'kube-system/csi-smb-controller-sa', 'get', 'secrets')).toBe(true);
  });

  // csi-driver-smb v1.20.3 deploy/csi-smb-controller.yaml (csi-resizer v2.2.0) and deploy/rbac-csi-smb.yaml
  // (smb-external-resizer-role); the plugin advertises EXPAND_VOLUME (pkg/smb/smb.go).
  test('the controller runs external-resizer, allowed to update claims\' status, so a PVC expansion is carried out', () => {
    const objs = objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS }));
    const resizer = only(objs, 'Deployment').spec.template.spec.containers.find((c: K8sObject) => c.name === 'csi-resizer');
    expect(resizer.image).toBe('registry.k8s.io/sig-storage/csi-resizer:v2.2.0');
    expect(resizer.args).toEqual(expect.arrayContaining(['-csi-address=/csi/csi.sock', '-leader-election', '--leader-election-namespace=kube-system']));
    expect(clusterMay(objs, 'kube-system/csi-smb-controller-sa', 'patch', 'persistentvolumeclaims/status')).toBe(true);
  });

  test('its objects pass every rule', () => {
    expect(validateManifests(objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K0SMOTRON_AWS })))).toEqual([]);
  });
});

// kubernetes-sigs/aws-ebs-csi-driver helm-chart-aws-ebs-csi-driver-2.64.0 charts/aws-ebs-csi-driver/templates/_helpers.tpl
// (daemonset-tolerations): the plugin stays on a node cluster-autoscaler or Karpenter is draining.
const CHART_DISRUPTION_TOLERATIONS = [
  { key: 'ToBeDeletedByClusterAutoscaler', operator: 'Exists' },
  { key: 'karpenter.sh/disrupted', operator: 'Exists' },
  { key: 'karpenter.sh/disruption', operator: 'Exists' },
];

// kubernetes-sigs/aws-ebs-csi-driver v1.64.0 charts/aws-ebs-csi-driver/templates/_node-windows.tpl: C:\var\lib\kubelet throughout.
describe('WindowsEbsCsiNode', () => {
  // Chart 2.64.0 _node-windows.tpl: the plugin's healthz port 9808 with liveness and readiness probes on /healthz,
  // answered by the liveness-probe sidecar (livenessprobe.exe in HostProcess mode) from the plugin's socket.
  test('the chart\'s probes and liveness-probe sidecar, so a hung plugin is restarted', () => {
    const spec = daemonSet(objects((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.K0SMOTRON_AWS }))).spec.template.spec;
    const plugin = spec.containers.find((c: K8sObject) => c.name === 'ebs-plugin');
    expect(plugin.ports).toEqual([{ name: 'healthz', containerPort: 9808, protocol: 'TCP' }]);
    expect(plugin.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'healthz' });
    expect(plugin.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 'healthz' });
    const probe = spec.containers.find((c: K8sObject) => c.name === 'liveness-probe');
    expect(probe.command).toEqual(['livenessprobe.exe']);
    expect(probe.args).toEqual(['--csi-address=unix://C:\\var\\lib\\k0s\\kubelet\\plugins\\ebs.csi.aws.com\\csi.sock']);
    expect(validatePodSpec(spec)).toEqual([]);
  });

  test('the EBS node plugin under the platform\'s kubelet root, with the chart\'s service account and the agent-not-ready toleration', () => {
    const ds = daemonSet(objects((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.K0SMOTRON_AWS })));
    const spec = ds.spec.template.spec;
    expect(spec.serviceAccountName).toBe('ebs-csi-node-sa');
    expect(spec.tolerations).toEqual([
      { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
      { key: 'ebs.csi.aws.com/agent-not-ready', operator: 'Exists' },
      ...CHART_DISRUPTION_TOLERATIONS,
    ]);
    expect(spec.containers[1].args).toContain('--endpoint=unix://C:\\var\\lib\\k0s\\kubelet\\plugins\\ebs.csi.aws.com\\csi.sock');
    expect(spec.containers[0].args).toContain('--plugin-registration-path=C:\\var\\lib\\k0s\\kubelet\\plugins_registry\\');
    const eks = daemonSet(objects((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.EKS, serviceAccountName: 'sa' })));
    expect(eks.spec.template.spec.serviceAccountName).toBe('sa');
    expect(eks.spec.template.spec.containers[1].args).toContain('--endpoint=unix://C:\\var\\lib\\kubelet\\plugins\\ebs.csi.aws.com\\csi.sock');
    expect(env(eks.spec.template.spec.containers[1])).toEqual({ CSI_NODE_NAME: undefined });
  });

  // Chart 2.64.0 (tag helm-chart-aws-ebs-csi-driver-2.64.0): appVersion 1.64.0, registrar v2.17.0-eksbuild.5;
  // its plugin-dir hostPath (DirectoryOrCreate) makes the socket's directory, which the driver does not (pkg/driver/driver.go Run).
  test('the chart\'s images, and the socket\'s directory created under the platform\'s kubelet root', () => {
    const spec = daemonSet(objects((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.K0SMOTRON_REMOTE }))).spec.template.spec;
    expect(spec.containers.map((c: K8sObject) => c.image)).toEqual(['public.ecr.aws/csi-components/csi-node-driver-registrar:v2.17.0-eksbuild.5', 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.64.0', 'public.ecr.aws/csi-components/livenessprobe:v2.19.0-eksbuild.5']);
    expect(spec.volumes).toEqual([{ name: 'plugin-dir', hostPath: { path: 'C:\\var\\lib\\k0s\\kubelet\\plugins\\ebs.csi.aws.com', type: 'DirectoryOrCreate' } }]);
    expect(spec.containers[1].volumeMounts).toEqual([{ name: 'plugin-dir', mountPath: 'C:\\csi' }]);
  });
});

describe('the csi-windows-node rule', () => {
  const windowsPod = (volume: object) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app', namespace: 'default' },
    spec: {
      os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' },
      tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      containers: [{ name: 'app', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', volumeMounts: [{ name: 'share', mountPath: 'C:\\data' }] }],
      volumes: [{ name: 'share', ...volume }],
    },
  });
  // The shape of the upstream Linux node plugin (deploy/csi-smb-node.yaml): Linux nodes, hostPath under /var/lib/kubelet.
  const linuxNode = {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'csi-smb-node', namespace: 'kube-system' },
    spec: { selector: { matchLabels: { app: 'n' } }, template: { metadata: { labels: { app: 'n' } }, spec: {
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      containers: [{ name: 'smb', image: 'registry.k8s.io/sig-storage/smbplugin:v1.20.3', args: ['--endpoint=unix:///csi/csi.sock'], volumeMounts: [{ name: 'socket-dir', mountPath: '/csi' }] }],
      volumes: [{ name: 'socket-dir', hostPath: { path: '/var/lib/kubelet/plugins/smb.csi.k8s.io', type: 'DirectoryOrCreate' } }],
    } } },
  };
  const storageClass = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'smb' }, provisioner: 'smb.csi.k8s.io' };
  const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'share', namespace: 'default' }, spec: { storageClassName: 'smb', accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } } } };
  const rules = (objs: object[]) => validateManifests(objs).filter((v) => v.rule === 'csi-windows-node');

  test('refuses a Windows pod whose claim\'s driver runs on Linux nodes only', () => {
    const [v] = rules([linuxNode, storageClass, claim, windowsPod({ persistentVolumeClaim: { claimName: 'share' } })]);
    expect(v).toMatchObject({ kind: 'Pod', name: 'app', field: 'spec.volumes[0]' });
    expect(v.message).toMatch(/spec\.volumes\[0\] \(share\) needs the CSI driver smb\.csi\.k8s\.io, whose node plugin in these objects runs on Linux nodes only.*Fix: run the driver's Windows node plugin too/);
    expect(rules([linuxNode, windowsPod({ csi: { driver: 'smb.csi.k8s.io', volumeAttributes: { source: '//srv/share' } } })])).toHaveLength(1);
  });

  test('passes with the Windows node plugin beside it, for Linux pods, and where the objects do not show the driver', () => {
    const withWindows = objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K0SMOTRON_AWS }));
    expect(rules([...withWindows, linuxNode, storageClass, claim, windowsPod({ persistentVolumeClaim: { claimName: 'share' } })])).toEqual([]);
    const linuxPod = { ...windowsPod({ persistentVolumeClaim: { claimName: 'share' } }), spec: { containers: [{ name: 'a', image: 'nginx' }], volumes: [{ name: 'share', persistentVolumeClaim: { claimName: 'share' } }] } };
    expect(rules([linuxNode, storageClass, claim, linuxPod])).toEqual([]);
    expect(rules([storageClass, claim, windowsPod({ persistentVolumeClaim: { claimName: 'share' } })])).toEqual([]);
  });

  test('a Windows pod with an SMB volume on k0s passes beside WindowsSmbCsi, whose DaemonSet uses k0s\'s kubelet root', () => {
    const objs = [...objects((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K0SMOTRON_AWS })), storageClass, claim, windowsPod({ persistentVolumeClaim: { claimName: 'share' } })];
    expect(validateManifests(objs)).toEqual([]);
    expect(JSON.stringify(daemonSet(objs as K8sObject[]).spec.template.spec)).toContain('C:\\\\var\\\\lib\\\\k0s\\\\kubelet\\\\plugins\\\\smb.csi.k8s.io');
  });
});

// kubernetes-csi/csi-driver-smb v1.20.3 deploy/csi-smb-node-windows-hostprocess.yaml (its paths, in env as
// upstream writes them), given the os=windows toleration: registered under C:\var\lib\kubelet, which the
// kubelet of a k0s Windows node never watches (k0sproject/k0s v1.34.4+k0s.0 pkg/constant/constant_windows.go
// DataDirDefault C:\var\lib\k0s, pkg/config/cfgvars.go KubeletRootDir = <data dir>\kubelet).
describe('the csi-windows-node rule compares a Windows node plugin\'s kubelet root with the platform\'s', () => {
  const upstreamSmbWindows = {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'csi-smb-node-win', namespace: 'kube-system' },
    spec: { selector: { matchLabels: { app: 'csi-smb-node-win' } }, template: { metadata: { labels: { app: 'csi-smb-node-win' } }, spec: {
      serviceAccountName: 'csi-smb-node-sa', nodeSelector: { 'kubernetes.io/os': 'windows' },
      tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } }, hostNetwork: true,
      initContainers: [{ name: 'init', image: 'registry.k8s.io/sig-storage/smbplugin:v1.20.3-windows-hp', command: ['powershell.exe', '-c', 'New-Item -ItemType Directory -Path C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\ -Force'] }],
      containers: [
        { name: 'node-driver-registrar', image: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.17.0', command: ['csi-node-driver-registrar.exe'],
          args: ['--v=2', '--csi-address=$(CSI_ENDPOINT)', '--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)', '--plugin-registration-path=$(PLUGIN_REG_DIR)'],
          env: [{ name: 'CSI_ENDPOINT', value: 'unix://C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock' },
            { name: 'DRIVER_REG_SOCK_PATH', value: 'C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock' },
            { name: 'PLUGIN_REG_DIR', value: 'C:\\var\\lib\\kubelet\\plugins_registry\\' }] },
        { name: 'smb', image: 'registry.k8s.io/sig-storage/smbplugin:v1.20.3-windows-hp', command: ['smbplugin.exe'], args: ['--v=5', '--endpoint=$(CSI_ENDPOINT)'],
          env: [{ name: 'CSI_ENDPOINT', value: 'unix://C:\\var\\lib\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock' }] },
      ],
    } } },
  };
  const inlinePod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app', namespace: 'default' },
    spec: { os: { name: 'windows' }, nodeSelector: { 'kubernetes.io/os': 'windows' }, tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      containers: [{ name: 'app', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', volumeMounts: [{ name: 'share', mountPath: 'C:\\data' }] }],
      volumes: [{ name: 'share', csi: { driver: 'smb.csi.k8s.io', volumeAttributes: { source: '//srv/share', secretName: 'smb-creds' } } }] },
  };
  const csiRule = (objs: object[], platform?: WindowsPlatform) => validateManifests(objs, platform === undefined ? {} : { platform }).filter((v) => v.rule === 'csi-windows-node');

  test('upstream\'s SMB Windows DaemonSet is refused on k0smotron-aws and k0smotron-remote, naming both roots, and passes on EKS, AKS and GKE', () => {
    for (const platform of [WindowsPlatform.K0SMOTRON_AWS, WindowsPlatform.K0SMOTRON_REMOTE]) {
      const [v, ...rest] = csiRule([upstreamSmbWindows, inlinePod], platform);
      expect(rest).toEqual([]);
      expect(v).toMatchObject({ kind: 'DaemonSet', name: 'csi-smb-node-win', field: 'spec.template.spec' });
      expect(v.message).toContain(`under C:\\var\\lib\\kubelet, and the kubelet of ${platform}'s Windows nodes keeps its root at C:\\var\\lib\\k0s\\kubelet`);
    }
    for (const platform of [WindowsPlatform.EKS, WindowsPlatform.AKS, WindowsPlatform.GKE]) expect(csiRule([upstreamSmbWindows, inlinePod], platform)).toEqual([]);
    // Without a platform the root is not known: nothing to compare.
    expect(csiRule([upstreamSmbWindows, inlinePod])).toEqual([]);
  });

  test('WindowsSmbCsi and WindowsEbsCsiNode pass on their own platform, and a plugin written for another is refused', () => {
    for (const platform of [WindowsPlatform.K0SMOTRON_AWS, WindowsPlatform.EKS]) {
      expect(csiRule([...objects((c) => new WindowsSmbCsi(c, 'smb', { platform })), inlinePod], platform)).toEqual([]);
      expect(csiRule(objects((c) => new WindowsEbsCsiNode(c, 'ebs', { platform })), platform)).toEqual([]);
    }
    expect(csiRule(objects((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.EKS })), WindowsPlatform.K0SMOTRON_AWS)).toHaveLength(1);
    // Paths differing in case or slashes only name the same directory on Windows.
    const lower = JSON.parse(JSON.stringify(upstreamSmbWindows).replace(/C:\\\\var\\\\lib\\\\kubelet/g, 'c:/var/lib/k0s/kubelet'));
    expect(csiRule([lower], WindowsPlatform.K0SMOTRON_AWS)).toEqual([]);
  });
});

describe('the CSI constructs refuse platforms and roots where they cannot run', () => {
  const build = (make: (c: Chart) => void) => () => objects(make);
  // k3s publishes no Windows agent (src/platform/support.ts K3S_NO_WINDOWS: k3s-io/k3s#114).
  test('no Windows node plugin on k3s, which has no Windows nodes', () => {
    expect(build((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.K3S }))).toThrow(/\[storage\/smb\] platform: "k3s" runs no Windows nodes.*Fix: run it on a cluster with Windows nodes/);
    expect(build((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.K3S }))).toThrow(/platform: "k3s" runs no Windows nodes/);
  });

  // kubernetes-sigs/aws-ebs-csi-driver v1.64.0 pkg/cloud/metadata: the node takes its instance id from EC2
  // instance metadata, and the controller attaches volumes to EC2 instances (pkg/cloud/cloud.go AttachDisk).
  test('no EBS node plugin on AKS or GKE, whose nodes are not EC2 instances; RKE2 and SSH hosts may be', () => {
    for (const platform of [WindowsPlatform.AKS, WindowsPlatform.GKE]) {
      expect(build((c) => new WindowsEbsCsiNode(c, 'ebs', { platform }))).toThrow(new RegExp(`platform: "${platform}": EBS volumes attach to EC2 instances only`));
      expect(build((c) => new WindowsSmbCsi(c, 'smb', { platform }))).not.toThrow();
    }
    expect(build((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.RKE2 }))).not.toThrow();
    expect(build((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.K0SMOTRON_REMOTE }))).not.toThrow();
  });

  test('a relative or Linux kubelet root, an unknown platform and a namespace the API server refuses are refused, naming the prop and the value', () => {
    expect(build((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS, kubeletRootDir: 'var\\lib\\kubelet' }))).toThrow(/kubeletRootDir: "var\\\\lib\\\\kubelet" is not an absolute Windows path.*Fix: give the kubelet's --root-dir on the Windows nodes, e\.g\. C:\\var\\lib\\kubelet/);
    expect(build((c) => new WindowsEbsCsiNode(c, 'ebs', { platform: WindowsPlatform.EKS, kubeletRootDir: '/var/lib/kubelet' }))).toThrow(/kubeletRootDir: "\/var\/lib\/kubelet" is not an absolute Windows path/);
    expect(build((c) => new WindowsSmbCsi(c, 'smb', { platform: 'eks-anywhere' as WindowsPlatform }))).toThrow(/platform: "eks-anywhere" is not a WindowsPlatform/);
    expect(build((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS, namespace: 'Storage' }))).toThrow(/namespace: "Storage" must be lower-case/);
    expect(build((c) => new WindowsSmbCsi(c, 'smb', { platform: WindowsPlatform.EKS, kubeletRootDir: 'D:/kubelet/' }))).not.toThrow();
  });
});

describe('the pool states its kubelet root', () => {
  test('k0s pools report k0s\'s root, and the CSI node plugin takes it from the pool', async () => {
    const { hybridCluster } = await import('../cluster/fixture');
    const { windows, linux, chart } = hybridCluster();
    expect(windows!.kubeletRootDir).toBe('C:\\var\\lib\\k0s\\kubelet');
    expect(linux!.kubeletRootDir).toBe('/var/lib/k0s/kubelet');
    const smb = new WindowsSmbCsi(chart, 'smb', { platform: WindowsPlatform.EKS, kubeletRootDir: windows!.kubeletRootDir });
    expect(smb.nodeDaemonSet.toJson().spec.template.spec.containers[0].args[2]).toBe('--kubelet-registration-path=C:\\var\\lib\\k0s\\kubelet\\plugins\\smb.csi.k8s.io\\csi.sock');
    const custom = new WindowsEbsCsiNode(chart, 'ebs', { platform: WindowsPlatform.EKS, kubeletRootDir: 'D:\\kubelet\\' });
    expect(custom.nodeDaemonSet.toJson().spec.template.spec.containers[0].args).toContain('--plugin-registration-path=D:\\kubelet\\plugins_registry\\');
  });
});
