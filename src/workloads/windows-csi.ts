import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ABSOLUTE_WINDOWS_PATH, EBS_CSI, SMB_CSI, windowsKubeletRoot } from '../platform/csi';
import { dnsLabelProblem } from '../platform/dns';
import { runsWindowsNodes, windowsNodeTaint, WindowsPlatform } from '../platform/support';
import { LABEL_OS, WINDOWS_SYSTEM_USER } from '../platform/windows';
import { choice, optional, PropEntry, PropKind, propsSpec, required, text, whole } from '../core/props-spec';
import { brief, refuse } from '../core/values';
import { dnsSubdomainProblem } from '../platform/object-meta';

/** What the CSI constructs share: where they run. */
export interface WindowsCsiProps {
  /**
   * The platform of the cluster: it decides the kubelet root the node plugin registers under (k0s:
   * `C:\var\lib\k0s\kubelet`; EKS, AKS, GKE: `C:\var\lib\kubelet`) and the Windows taint it tolerates.
   */
  readonly platform: WindowsPlatform;
  /**
   * The Windows kubelet root, where it differs from the platform's (a pool's `kubeletRootDir`).
   * @default - the platform's: k0s's on K0SMOTRON_AWS and K0SMOTRON_REMOTE, `C:\var\lib\kubelet` elsewhere
   */
  readonly kubeletRootDir?: string;
  /**
   * Namespace of the driver's objects.
   * @default 'kube-system'
   */
  readonly namespace?: string;
}

/**
 * A platform a CSI node plugin for Windows can run on: one with Windows nodes (`WINDOWS_SUPPORT`),
 * else the plugin would never be scheduled, and none of `notOn`, where `why` says what fails.
 */
function csiPlatform(notOn: readonly WindowsPlatform[], why: string): PropKind<WindowsPlatform> {
  const platforms = choice(WindowsPlatform, 'WindowsPlatform');
  const without = Object.values(WindowsPlatform).filter((p) => !runsWindowsNodes(p));
  return {
    parse: (at, value) => {
      const platform = platforms.parse(at, value);
      if (!runsWindowsNodes(platform)) refuse(at, `${brief(platform)} runs no Windows nodes (WINDOWS_SUPPORT), so the Windows node plugin would never be scheduled`, 'run it on a cluster with Windows nodes');
      if (notOn.includes(platform)) refuse(at, `${brief(platform)}: ${why}`, `use the CSI driver of ${platform}'s own disks, or run this on ${WindowsPlatform.EKS} or ${WindowsPlatform.K0SMOTRON_AWS}`);
      return platform;
    },
    constraint: `${platforms.constraint}, but not ${[...new Set([...without, ...notOn])].map((p) => `\`${p}\``).join(', ')}${notOn.length > 0 ? ` (${why})` : ' (no Windows nodes)'}`,
    edges: platforms.edges,
  };
}

/**
 * The props every CSI construct takes: a platform with Windows nodes, an absolute Windows kubelet
 * root (a relative one would be resolved against the plugin's working directory, never the
 * kubelet's), a namespace name.
 */
function csiOptions(notOn: readonly WindowsPlatform[], why: string): { readonly [K in keyof WindowsCsiProps]-?: PropEntry } {
  return {
    platform: required(csiPlatform(notOn, why), 'give the platform of the cluster, e.g. WindowsPlatform.EKS'),
    kubeletRootDir: optional(text({
      max: 260, pattern: ABSOLUTE_WINDOWS_PATH, form: 'an absolute Windows path', example: 'C:\\var\\lib\\kubelet',
      fix: 'give the kubelet\'s --root-dir on the Windows nodes, e.g. C:\\var\\lib\\kubelet (C:\\var\\lib\\k0s\\kubelet on k0s), or leave it unset for the platform\'s',
    })),
    namespace: optional(text({ max: 63, form: 'a namespace name (a DNS label)', example: 'kube-system', problem: dnsLabelProblem, fix: 'give a namespace name such as kube-system' })),
  };
}

/** The kubelet paths of a node plugin on Windows: its directory and socket, and the registration directory. */
function pluginPaths(props: WindowsCsiProps, driver: string): { dir: string; socket: string; registry: string } {
  const root = (props.kubeletRootDir ?? windowsKubeletRoot(props.platform)).replace(/[\\/]+$/, '');
  const dir = `${root}\\plugins\\${driver}`;
  return { dir, socket: `${dir}\\csi.sock`, registry: `${root}\\plugins_registry\\` };
}

/**
 * The pod spec every Windows node plugin shares: a HostProcess pod (no csi-proxy needed; the
 * plugin works on the host's filesystem and SMB mappings as SYSTEM) on the host network, on
 * Windows nodes only, tolerating the platform's Windows taint (RKE2's carry none), with the node-driver-registrar
 * telling the kubelet where the plugin's socket is under this platform's kubelet root.
 */
function windowsNodePodSpec(props: WindowsCsiProps, driver: string, registrarImage: string, serviceAccountName: string, plugin: object, extraTolerations: object[] = [], extraContainers: object[] = []): object {
  const taint = windowsNodeTaint(props.platform);
  const { dir, socket, registry } = pluginPaths(props, driver);
  const tolerations = [...(taint === undefined ? [] : [{ key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect }]), ...extraTolerations];
  return {
    serviceAccountName,
    nodeSelector: { [LABEL_OS]: 'windows' },
    ...(tolerations.length > 0 ? { tolerations } : {}),
    priorityClassName: 'system-node-critical',
    hostNetwork: true,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: WINDOWS_SYSTEM_USER } },
    containers: [
      {
        name: 'node-driver-registrar',
        image: registrarImage,
        command: ['csi-node-driver-registrar.exe'],
        args: ['--v=2', `--csi-address=unix://${socket}`, `--kubelet-registration-path=${socket}`, `--plugin-registration-path=${registry}`],
        resources: { requests: { cpu: '10m', memory: '40Mi' }, limits: { memory: '150Mi' } },
      },
      { ...plugin, volumeMounts: [{ name: 'plugin-dir', mountPath: 'C:\\csi' }] },
      ...extraContainers,
    ],
    // The plugins listen on the socket without creating its directory (csi-driver-smb v1.20.3
    // pkg/csi-common/server.go serve; aws-ebs-csi-driver v1.64.0 pkg/driver/driver.go Run), and the
    // kubelet creates only plugins\ and plugins_registry\ (kubernetes pkg/kubelet/kubelet.go
    // setupDataDirs): without this volume, which the kubelet creates before the containers start
    // (the EBS chart's plugin-dir; the SMB manifest's init container does the same), the plugin
    // exits on a fresh node.
    volumes: [{ name: 'plugin-dir', hostPath: { path: dir, type: 'DirectoryOrCreate' } }],
  };
}

function daemonSet(scope: Construct, name: string, namespace: string, spec: object): ApiObject {
  return new ApiObject(scope, 'NodeDaemonSet', {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: { metadata: { labels: { app: name } }, spec },
    },
  });
}

/** Props of `WindowsSmbCsi`. */
export interface WindowsSmbCsiProps extends WindowsCsiProps {
  /**
   * Replicas of the controller (it creates subdirectories of the share for dynamically provisioned
   * volumes and resizes them). 0 where only static volumes (a PersistentVolume naming the share)
   * and inline volumes are used: the node plugin mounts those without it.
   * @default 1
   */
  readonly controllerReplicas?: number;
}

/**
 * The SMB CSI driver (`smb.csi.k8s.io`, kubernetes-csi/csi-driver-smb v1.20.3) for Windows pods:
 * its CSIDriver, the controller (external-provisioner, external-resizer and the plugin, on Linux
 * nodes only, as the upstream manifests pin it) with its RBAC, the node plugin's right to read
 * secrets (an inline volume's credentials), and the Windows node plugin as a HostProcess DaemonSet
 * whose kubelet paths are the platform's (upstream assumes `C:\var\lib\kubelet`, which k0s does not
 * use) and which tolerates the platform's Windows taint (upstream tolerates GKE's only). Linux
 * pods with SMB volumes need the upstream Linux node DaemonSet beside it.
 */
export class WindowsSmbCsi extends Construct {
  /** The Windows node plugin DaemonSet (`csi-smb-node-win`). */
  public readonly nodeDaemonSet: ApiObject;
  /** The controller Deployment (`csi-smb-controller`), on Linux nodes. */
  public readonly controller: ApiObject;

  public constructor(scope: Construct, id: string, given: WindowsSmbCsiProps) {
    super(scope, id);
    const props = WINDOWS_SMB_CSI_PROPS.parse(this.node.path, given);
    const namespace = props.namespace ?? 'kube-system';
    const replicas = props.controllerReplicas ?? 1;
    const driver = SMB_CSI.driver;

    new ApiObject(this, 'CSIDriver', {
      apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: driver },
      // No attach step; the pod's identity reaches the plugin; PVCs and inline volumes both work.
      spec: { attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ['Persistent', 'Ephemeral'] },
    });
    const controllerSa = new ApiObject(this, 'ControllerServiceAccount', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'csi-smb-controller-sa', namespace } });
    const nodeSa = new ApiObject(this, 'NodeServiceAccount', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'csi-smb-node-sa', namespace } });
    // What external-provisioner reads and writes (kubernetes-csi/external-provisioner deploy/kubernetes/rbac.yaml).
    const role = new ApiObject(this, 'ProvisionerRole', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'smb-external-provisioner-role' },
      rules: [
        { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
        { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'watch', 'update'] },
        { apiGroups: ['storage.k8s.io'], resources: ['storageclasses', 'csinodes'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      ],
    });
    const bind = (id: string, name: string, clusterRole: ApiObject, serviceAccount: ApiObject) => new ApiObject(this, id, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount.name, namespace }],
      roleRef: { kind: 'ClusterRole', name: clusterRole.name, apiGroup: 'rbac.authorization.k8s.io' },
    });
    bind('ProvisionerBinding', 'smb-csi-provisioner-binding', role, controllerSa);
    // What external-resizer reads and writes (csi-driver-smb v1.20.3 deploy/rbac-csi-smb.yaml,
    // smb-external-resizer-role): the plugin answers ControllerExpandVolume (pkg/smb/controllerserver.go).
    const resizerRole = new ApiObject(this, 'ResizerRole', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'smb-external-resizer-role' },
      rules: [
        { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
        { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['persistentvolumeclaims/status'], verbs: ['update', 'patch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['list', 'watch', 'create', 'update', 'patch'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
      ],
    });
    bind('ResizerBinding', 'smb-csi-resizer-role', resizerRole, controllerSa);
    // The node plugin reads an inline (ephemeral) volume's credentials itself: the kubelet passes no
    // stage secrets for it, so NodeStageVolume gets the secret named in its attributes through the
    // plugin's own client (csi-driver-smb v1.20.3 pkg/smb/nodeserver.go, ephemeralVol →
    // GetUserNamePasswordFromSecret; pkg/smb/smb.go, Secrets(ns).Get). Upstream binds the node's
    // service account to this role (deploy/rbac-csi-smb.yaml, csi-smb-node-secret-role).
    const nodeSecretRole = new ApiObject(this, 'NodeSecretRole', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'csi-smb-node-secret-role' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
    });
    bind('NodeSecretBinding', 'csi-smb-node-secret-binding', nodeSecretRole, nodeSa);

    this.controller = new ApiObject(this, 'Controller', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'csi-smb-controller', namespace },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'csi-smb-controller' } },
        template: {
          metadata: { labels: { app: 'csi-smb-controller' } },
          spec: {
            serviceAccountName: controllerSa.name,
            // The controller image is Linux only.
            nodeSelector: { [LABEL_OS]: 'linux' },
            priorityClassName: 'system-cluster-critical',
            containers: [
              {
                name: 'csi-provisioner',
                image: SMB_CSI.images.provisioner,
                args: ['-v=2', '--csi-address=/csi/csi.sock', '--leader-election', `--leader-election-namespace=${namespace}`, '--extra-create-metadata=true'],
                volumeMounts: [{ name: 'socket-dir', mountPath: '/csi' }],
                resources: { requests: { cpu: '10m', memory: '20Mi' }, limits: { memory: '400Mi' } },
              },
              {
                name: 'csi-resizer',
                image: SMB_CSI.images.resizer,
                args: ['-v=2', '-csi-address=/csi/csi.sock', '-leader-election', `--leader-election-namespace=${namespace}`, '-handle-volume-inuse-error=false'],
                volumeMounts: [{ name: 'socket-dir', mountPath: '/csi' }],
                resources: { requests: { cpu: '10m', memory: '20Mi' }, limits: { memory: '400Mi' } },
              },
              {
                name: 'smb',
                image: SMB_CSI.images.plugin,
                args: ['--v=5', '--endpoint=unix:///csi/csi.sock'],
                // It mounts the share to create and delete volume directories.
                securityContext: { privileged: true },
                volumeMounts: [{ name: 'socket-dir', mountPath: '/csi' }],
                resources: { requests: { cpu: '10m', memory: '20Mi' }, limits: { memory: '200Mi' } },
              },
            ],
            volumes: [{ name: 'socket-dir', emptyDir: {} }],
          },
        },
      },
    });

    const { socket } = pluginPaths(props, driver);
    this.nodeDaemonSet = daemonSet(this, 'csi-smb-node-win', namespace, windowsNodePodSpec(props, driver, SMB_CSI.images.registrar, nodeSa.name, {
      name: 'smb',
      image: SMB_CSI.images.windowsPlugin,
      command: ['smbplugin.exe'],
      args: ['--v=5', `--endpoint=unix://${socket}`, '--nodeid=$(KUBE_NODE_NAME)', '--enable-windows-host-process=true', '--remove-smb-mapping-during-unmount=true'],
      env: [{ name: 'KUBE_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
      resources: { requests: { cpu: '10m', memory: '40Mi' }, limits: { memory: '600Mi' } },
    }));
  }
}

/**
 * The spec of `WindowsSmbCsiProps`.
 * @internal
 */
export const WINDOWS_SMB_CSI_PROPS = propsSpec<WindowsSmbCsiProps>('WindowsSmbCsi', {
  ...csiOptions([], ''),
  controllerReplicas: optional(whole(0)),
});

/** Props of `WindowsEbsCsiNode`. */
export interface WindowsEbsCsiNodeProps extends WindowsCsiProps {
  /**
   * The node service account the EBS CSI chart (or EKS add-on) created.
   * @default 'ebs-csi-node-sa'
   */
  readonly serviceAccountName?: string;
}

/**
 * The spec of `WindowsEbsCsiNodeProps`: EBS volumes attach to EC2 instances only.
 * @internal
 */
export const WINDOWS_EBS_CSI_NODE_PROPS = propsSpec<WindowsEbsCsiNodeProps>('WindowsEbsCsiNode', {
  ...csiOptions(EBS_CSI.notOn, 'EBS volumes attach to EC2 instances only, and this platform\'s Windows nodes are not EC2 instances'),
  // A pod's serviceAccountName is a service account's name (kubernetes pkg/apis/core/validation ValidatePodSpec: ValidateServiceAccountName).
  serviceAccountName: optional(text({ max: 253, form: 'a service account name (a DNS subdomain)', example: 'ebs-csi-node-sa', problem: dnsSubdomainProblem })),
});

/**
 * The EBS CSI driver's Windows node plugin (`ebs.csi.aws.com`, kubernetes-sigs/aws-ebs-csi-driver
 * chart 2.64.0) as a HostProcess DaemonSet under the platform's kubelet root, tolerating the
 * platform's Windows taint: install the chart (or the EKS add-on) with `node.enableWindows=false`
 * for the controller and the Linux nodes, and this beside it. On k0s the chart's Windows
 * DaemonSet registers under `C:\var\lib\kubelet`, where the kubelet never looks. The chart's
 * default Windows node needs csi-proxy on each node; this one runs the driver's HostProcess mode
 * (`--windows-host-process`, alpha in pkg/driver/options.go; the chart's `node.windowsHostProcess`,
 * which upstream's `e2e/external-windows-hostprocess` tests), which needs none.
 */
export class WindowsEbsCsiNode extends Construct {
  /** The DaemonSet (`ebs-csi-node-windows`). */
  public readonly nodeDaemonSet: ApiObject;

  public constructor(scope: Construct, id: string, given: WindowsEbsCsiNodeProps) {
    super(scope, id);
    const props = WINDOWS_EBS_CSI_NODE_PROPS.parse(this.node.path, given);
    const driver = EBS_CSI.driver;
    const { socket } = pluginPaths(props, driver);
    this.nodeDaemonSet = daemonSet(this, 'ebs-csi-node-windows', props.namespace ?? 'kube-system', windowsNodePodSpec(props, driver, EBS_CSI.images.registrar, props.serviceAccountName ?? 'ebs-csi-node-sa', {
      name: 'ebs-plugin',
      image: EBS_CSI.images.plugin,
      command: ['aws-ebs-csi-driver.exe'],
      args: ['node', `--endpoint=unix://${socket}`, '--windows-host-process=true', '--v=2'],
      env: [{ name: 'CSI_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
      resources: { requests: { cpu: '10m', memory: '40Mi' }, limits: { memory: '256Mi' } },
      // The chart's probes (_node-windows.tpl): the liveness-probe sidecar answers /healthz on 9808
      // from the plugin's socket, so a hung plugin is restarted.
      ports: [{ name: 'healthz', containerPort: 9808, protocol: 'TCP' }],
      livenessProbe: { httpGet: { path: '/healthz', port: 'healthz' }, initialDelaySeconds: 10, timeoutSeconds: 3, periodSeconds: 10, failureThreshold: 5 },
      readinessProbe: { httpGet: { path: '/healthz', port: 'healthz' }, timeoutSeconds: 3, periodSeconds: 5, failureThreshold: 3 },
    }, [
      // The driver removes this taint once it reports the node's attach limit; the others keep the
      // plugin on a node that cluster-autoscaler or Karpenter is draining, so that the node's
      // volumes can still be unmounted and detached (chart _helpers.tpl, daemonset-tolerations).
      { key: 'ebs.csi.aws.com/agent-not-ready', operator: 'Exists' },
      { key: 'ToBeDeletedByClusterAutoscaler', operator: 'Exists' },
      { key: 'karpenter.sh/disrupted', operator: 'Exists' },
      { key: 'karpenter.sh/disruption', operator: 'Exists' },
    ], [{
      name: 'liveness-probe',
      image: EBS_CSI.images.livenessProbe,
      command: ['livenessprobe.exe'],
      args: [`--csi-address=unix://${socket}`],
      volumeMounts: [{ name: 'plugin-dir', mountPath: 'C:\\csi' }],
      resources: { requests: { cpu: '10m', memory: '150Mi' }, limits: { memory: '150Mi' } },
    }]));
  }
}
