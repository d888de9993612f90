import { ApiObject } from 'cdk8s';
import { AzureMachineTemplate, AzureMachineTemplateSpecTemplateSpec } from '../generated/capz-infrastructure.cluster.x-k8s.io';
import { KubeadmConfigTemplateSpecTemplateSpec } from '../generated/cluster-api-bootstrap.cluster.x-k8s.io';
import { fail } from '../core/errors';
import { contentHash } from '../core/hash';
import { choice, list, optional, PropEntry, PropKind, propsSpec, record, required, text, whole } from '../core/props-spec';
import { typedApiObject } from '../core/typed-api-object';
import { brief, refuse } from '../core/values';
import { CAPZ_IMAGE_ANNOTATIONS, CAPZ_OS_TYPE, KUBELET_SERVICE_ANNOTATION, WindowsKubeletService } from '../platform/capz';
import { LABEL_OS, WINDOWS_NODE_TIMEOUTS } from '../platform/windows';
import { WINDOWS_OPENSSH_KEY_TYPES, windowsOpenSshKeyProblem } from '../platform/windows-openssh';
import { WindowsPlatform, windowsNodeTaint } from '../platform/support';
import type { PropsOfFields } from '../rules/run/judge';
import { MACHINE_DEPLOYMENT_POOL_EXCLUSIONS, MACHINE_DEPLOYMENT_POOL_OPTIONS, MachineDeploymentPool, MachineDeploymentPoolProps, WorkerInfrastructure } from '../capi/machine-deployment-pool';
import { WINDOWS_WORKER_OPTIONS, windowsOs, WindowsWorkerProps } from '../capi/windows-os';
import { CAPZ_VM_SIZE, CapzCluster } from './capz-cluster';
import { azureJsonFile, kubeadmBootstrap, KubeadmOs } from './kubeadm-bootstrap';

/** An image of one's own for a pool's VMs (CAPZ's `image`: one of these). */
export interface CapzImage {
  /**
   * A full image resource id.
   * @default - none
   */
  readonly id?: string;
  /**
   * An Azure Compute Gallery image.
   * @default - none
   */
  readonly computeGallery?: { readonly gallery: string; readonly name: string; readonly version: string };
  /**
   * An Azure Marketplace image.
   * @default - none
   */
  readonly marketplace?: { readonly publisher: string; readonly offer: string; readonly sku: string; readonly version: string };
}

/** Props of every kubeadm pool on Azure. */
export interface CapzWorkerPoolProps extends MachineDeploymentPoolProps {
  /** The VM size, e.g. `Standard_D4s_v3`. */
  readonly vmSize: string;
  /**
   * The machines' Kubernetes version (`vX.Y.Z`).
   * @default - the cluster's `kubernetesVersion`
   */
  readonly kubernetesVersion?: string;
  /**
   * The OS disk's size.
   * @default 128 (CAPZ's flavors)
   */
  readonly osDiskSizeGiB?: number;
  /**
   * The image. A Windows pool without one boots CAPZ's default Windows image for its release and
   * Kubernetes version (the community gallery's `capi-win-<year>-containerd`, version = Kubernetes
   * version); a Linux one CAPZ's default Ubuntu image.
   * @default - CAPZ's default image
   */
  readonly image?: CapzImage;
}

const IMAGE_PART = (form: string, example: string) => required(text({ max: 256, form, example }), `give the image's ${form}`);

/** The spec of `CapzImage`: one reference, as CAPZ's webhook takes it (v1.26.0 internal/webhooks/azureimage_validation.go, ValidateImage). */
const CAPZ_IMAGE_PROPS = propsSpec<CapzImage>('CapzImage', {
  id: optional(text({ max: 1024, form: 'an image resource id', example: '/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/galleries/<gallery>/images/<image>/versions/<version>', pattern: /^\/(?:subscriptions|CommunityGalleries|SharedGalleries)\//i })),
  computeGallery: optional(record(propsSpec<NonNullable<CapzImage['computeGallery']>>('CapzComputeGalleryImage', {
    gallery: IMAGE_PART('gallery', 'ClusterAPI-f72ceb4f-5159-4c26-a0fe-2ea738f0d019'), name: IMAGE_PART('image name', 'capi-win-2022-containerd'), version: IMAGE_PART('version', '1.34.4'),
  }))),
  marketplace: optional(record(propsSpec<NonNullable<CapzImage['marketplace']>>('CapzMarketplaceImage', {
    publisher: IMAGE_PART('publisher', 'cncf-upstream'), offer: IMAGE_PART('offer', 'capi-windows'), sku: IMAGE_PART('SKU', 'windows-2022-containerd-gen1'), version: IMAGE_PART('version', 'latest'),
  }))),
}, [
  { props: ['id', 'computeGallery'], fix: 'give one of id, computeGallery or marketplace' },
  { props: ['id', 'marketplace'], fix: 'give one of id, computeGallery or marketplace' },
  { props: ['computeGallery', 'marketplace'], fix: 'give one of id, computeGallery or marketplace' },
]);

/** `image`: exactly one reference (CAPZ's webhook refuses an image with none: "You must supply an ID, Marketplace or ComputeGallery image details"). */
const CAPZ_IMAGE: PropKind<CapzImage> = ((nested) => ({
  ...nested,
  parse: (at, value) => {
    const image = nested.parse(at, value);
    if (image.id === undefined && image.computeGallery === undefined && image.marketplace === undefined) refuse(at, `${brief(value)} names no image`, 'give one of id, computeGallery or marketplace, or leave image out for CAPZ\'s default image');
    return image;
  },
}))(record(CAPZ_IMAGE_PROPS));

/**
 * The spec entries of `CapzWorkerPoolProps`: those of every pool and Azure's machines. The OS
 * disk's range is CAPZ's webhook's (v1.26.0 internal/webhooks/azuremachine_validation.go, ValidateOSDisk).
 * @internal
 */
export const CAPZ_WORKER_POOL_OPTIONS: { readonly [K in keyof CapzWorkerPoolProps]-?: PropEntry } = {
  ...MACHINE_DEPLOYMENT_POOL_OPTIONS,
  vmSize: required(CAPZ_VM_SIZE, 'give the VM size, e.g. `vmSize: \'Standard_D4s_v3\'`'),
  kubernetesVersion: optional(text({ max: 64, form: 'a Kubernetes version', example: 'v1.34.4', judgedBy: 'machine-deployment' })),
  osDiskSizeGiB: optional(whole(1, 2048)),
  image: optional(CAPZ_IMAGE),
};

/**
 * The spec of `CapzLinuxWorkerPool`'s props.
 * @internal
 */
export const CAPZ_LINUX_WORKER_POOL_PROPS = propsSpec<CapzWorkerPoolProps>('CapzLinuxWorkerPool', CAPZ_WORKER_POOL_OPTIONS, MACHINE_DEPLOYMENT_POOL_EXCLUSIONS);

/** The machines of a kubeadm pool on Azure: an AzureMachineTemplate (v1beta1), named after its content. */
class AzureMachines implements WorkerInfrastructure {
  public readonly propsOfFields: PropsOfFields = {
    'AzureMachineTemplate spec.template.spec.vmSize': 'vmSize',
    'AzureMachineTemplate spec.template.spec.image': 'image',
    'AzureMachineTemplate spec.template.spec.osDisk.osType': 'image',
    'AzureMachineTemplate spec.template.metadata.annotations': 'windowsVersion',
    [`AzureMachineTemplate metadata.annotations.${KUBELET_SERVICE_ANNOTATION}`]: 'kubeletService',
  };

  public constructor(
    private readonly spec: AzureMachineTemplateSpecTemplateSpec,
    private readonly annotations?: { readonly template: Record<string, string>; readonly machine: Record<string, string> },
  ) {}

  public machineTemplate(pool: MachineDeploymentPool): ApiObject {
    const written = AzureMachineTemplate.manifest({ spec: { template: { spec: this.spec } } }).spec?.template.spec;
    // Named after its spec (the content-named-templates rule recomputes it) and the Windows release
    // the annotations ask CAPZ for, so that a change of either rolls the machines out.
    const release = this.annotations?.machine[CAPZ_IMAGE_ANNOTATIONS.windowsServerVersion];
    return typedApiObject(pool, 'AzureMachineTemplate', AzureMachineTemplate, {
      metadata: { name: `${pool.baseName}-${release ? `${release}-` : ''}${contentHash(written)}`, annotations: this.annotations?.template },
      spec: { template: { metadata: Object.keys(this.annotations?.machine ?? {}).length > 0 ? { annotations: this.annotations!.machine } : undefined, spec: this.spec } },
    });
  }
}

function machineSpec(cluster: CapzCluster, props: CapzWorkerPoolProps, osType: string, osDisk: Partial<AzureMachineTemplateSpecTemplateSpec['osDisk']> = {}): AzureMachineTemplateSpecTemplateSpec {
  return { vmSize: props.vmSize, image: props.image, osDisk: { osType, diskSizeGb: props.osDiskSizeGiB ?? 128, ...osDisk }, ...cluster.machineIdentity };
}

/** A Linux kubeadm pool on Azure: the Linux worker CoreDNS and the cluster's Linux add-ons need beside Windows pools. */
export class CapzLinuxWorkerPool extends MachineDeploymentPool {
  public constructor(cluster: CapzCluster, id: string, given: CapzWorkerPoolProps) {
    // The pool does not exist yet: errors name the path it will have.
    const props = CAPZ_LINUX_WORKER_POOL_PROPS.parse(`${cluster.node.path}/${id}`, given);
    const os: KubeadmOs = {
      os: 'linux', taints: [], nodeStartupTimeoutSeconds: 600, nodeReadyTimeoutSeconds: 300, nodeLabels: { [LABEL_OS]: 'linux' },
      bootstrap: (machineTemplate) => ({ files: [azureJsonFile(machineTemplate, '/etc/kubernetes/azure.json')] }),
    };
    super(cluster, id, props, kubeadmBootstrap(props.kubernetesVersion ?? cluster.kubernetesVersion, os), new AzureMachines(machineSpec(cluster, props, CAPZ_OS_TYPE.linux)));
  }
}

/** Props of a Windows kubeadm pool on Azure. */
export interface CapzWindowsWorkerPoolProps extends CapzWorkerPoolProps, WindowsWorkerProps {
  /**
   * How the image runs the kubelet (there is no default: image-builder's changed under CAPZ's own
   * flavor, image-builder#2011). `NSSM`: kubeadm's kubelet flags reach it, and the pool writes
   * them (the cloud provider, the cloud's join taint, node labels, a higher priority class).
   * `WINDOWS_SERVICE` (image-builder v0.1.53 and later): the kubelet reads no kubeadm flag, so the
   * pool writes none and refuses `labels`; its nodes get the pool's label from CAPI
   * (`node.cluster.x-k8s.io/pool`).
   */
  readonly kubeletService: WindowsKubeletService;
  /**
   * SSH keys of the `capi` user (in Administrators): Windows takes keys only from the bootstrap's
   * users, never from the machine template's `sshPublicKey` (CAPZ docs self-managed/windows.md).
   * Each is one public-key line of a type Windows OpenSSH takes (`ssh-ed25519`, `ssh-rsa`, ECDSA,
   * security keys; never DSA, `ssh-dss`), whole as ssh-keygen wrote it. cloudbase-init writes them
   * to the user's `.ssh/authorized_keys`; an image that keeps Win32-OpenSSH's default sshd_config
   * reads an administrator's keys from `administrators_authorized_keys` instead.
   * @default - no SSH access
   */
  readonly sshAuthorizedKeys?: readonly string[];
}

/**
 * The spec of `CapzWindowsWorkerPool`'s props.
 * @internal
 */
export const CAPZ_WINDOWS_WORKER_POOL_PROPS = propsSpec<CapzWindowsWorkerPoolProps>('CapzWindowsWorkerPool', {
  ...CAPZ_WORKER_POOL_OPTIONS,
  ...WINDOWS_WORKER_OPTIONS,
  kubeletService: required(choice(WindowsKubeletService, 'WindowsKubeletService'),
    'set `kubeletService: WindowsKubeletService.NSSM` (images up to image-builder v0.1.52) or `WindowsKubeletService.WINDOWS_SERVICE` (v0.1.53 and later): the image\'s kubelet service decides which kubeadm flags reach the kubelet (image-builder#2011)'),
  sshAuthorizedKeys: optional(list(text({
    max: 16384, form: `an OpenSSH public key line of a type Windows OpenSSH takes (${WINDOWS_OPENSSH_KEY_TYPES.join(', ')})`,
    example: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA admin',
    problem: windowsOpenSshKeyProblem,
  }), { min: 1 })),
}, MACHINE_DEPLOYMENT_POOL_EXCLUSIONS);

/** The Windows Defender exclusions of Calico's binaries that CAPZ's flavor writes (templates/flavors/windows/machine-deployment-windows.yaml). */
const DEFENDER_SCRIPT = { path: 'C:/defender-exclude-calico.ps1', content: 'Add-MpPreference -ExclusionProcess C:/opt/cni/bin/calico.exe\nAdd-MpPreference -ExclusionProcess C:/opt/cni/bin/calico-ipam.exe' };

/**
 * A Windows kubeadm pool on Azure: Windows VMs (`osDisk.osType: Windows`, CAPZ's default Windows
 * image for its release unless `image` is given) joined by cloudbase-init with containerd's named
 * pipe, the kubelet flags its image's kubelet service reads, a MachineHealthCheck that waits 30
 * minutes for a new Windows node, and the Windows add-ons' Defender exclusions.
 */
export class CapzWindowsWorkerPool extends MachineDeploymentPool {
  /** How the pool's image runs the kubelet. */
  public readonly kubeletService: WindowsKubeletService;

  public constructor(cluster: CapzCluster, id: string, given: CapzWindowsWorkerPoolProps) {
    const path = `${cluster.node.path}/${id}`;
    const props = CAPZ_WINDOWS_WORKER_POOL_PROPS.parse(path, given);
    const service = props.kubeletService;
    if (service === WindowsKubeletService.WINDOWS_SERVICE && (props.labels !== undefined || props.hyperV)) {
      fail(path, 'labels (or hyperV\'s label) reach a node only as the kubelet\'s --node-labels, which a native kubelet service never reads', 'remove them, or run an image whose kubelet runs under nssm (`kubeletService: WindowsKubeletService.NSSM`)');
    }
    const windows = windowsOs(path, WindowsPlatform.CAPZ, props, { name: 'CAPZ with Calico', taint: windowsNodeTaint(WindowsPlatform.CAPZ), timeouts: WINDOWS_NODE_TIMEOUTS });
    const os: KubeadmOs = {
      ...windows.os,
      kubeletService: service,
      bootstrap: (machineTemplate): KubeadmConfigTemplateSpecTemplateSpec => ({
        users: props.sshAuthorizedKeys ? [{ name: 'capi', groups: 'Administrators', sshAuthorizedKeys: [...props.sshAuthorizedKeys] }] : undefined,
        files: [azureJsonFile(machineTemplate, 'c:/k/azure.json'), { ...DEFENDER_SCRIPT, permissions: '0744' }],
        // One cmd.exe batch (cloudbase-init runcmd): PowerShell through powershell.
        postKubeadmCommands: [...(service === WindowsKubeletService.NSSM ? ['nssm set kubelet start SERVICE_AUTO_START'] : []), `powershell ${DEFENDER_SCRIPT.path}`],
      }),
    };
    // Without an image, CAPZ reads the release from the AzureMachine's annotations (taken from the template's).
    const imageAnnotations: Record<string, string> = props.image ? {} : { [CAPZ_IMAGE_ANNOTATIONS.runtime]: 'containerd', [CAPZ_IMAGE_ANNOTATIONS.windowsServerVersion]: `windows-${windows.windowsVersion}` };
    const machines = new AzureMachines(
      machineSpec(cluster, props, CAPZ_OS_TYPE.windows, { managedDisk: { storageAccountType: 'Premium_LRS' } }),
      { template: { [KUBELET_SERVICE_ANNOTATION]: service }, machine: imageAnnotations },
    );
    super(cluster, id, windows.props, kubeadmBootstrap(props.kubernetesVersion ?? cluster.kubernetesVersion, os), machines);
    this.kubeletService = service;
  }
}
