import { ApiObject, Size } from 'cdk8s';
import { Construct } from 'constructs';
import { dropChartNamespace } from '../platform/cluster-scope';
import { DNS1123_LABEL } from '../platform/dns';
import { DNS1123_SUBDOMAIN } from '../platform/object-meta';
import { fail } from '../core/errors';
import { choice, mebibytes, optional, propsSpec, record, text, whole } from '../core/props-spec';
import { HYPERV_HANDLER, LABEL_HYPERV, LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_NODE_TAINT, WINDOWS_RELEASES, WindowsVersion } from '../platform/windows';

export { HYPERV_HANDLER } from '../platform/windows';

/** Props of `HyperVRuntimeClass`. */
export interface HyperVRuntimeClassProps {
  /**
   * Name of the cluster-scoped RuntimeClass, referenced by pods' `runtimeClassName`.
   * @default `windows-hyperv`, or `windows-hyperv-ltscYYYY` when `version` is set
   */
  readonly name?: string;

  /**
   * Windows Server release of the hosts that run these pods. Adds the
   * `node.kubernetes.io/windows-build` node selector to the class's scheduling, and is the host
   * release the workloads' images are checked against.
   * @default - any Windows node
   */
  readonly version?: WindowsVersion;

  /**
   * The containerd runtime handler configured on the Windows nodes.
   * @default 'runhcs-wcow-hypervisor'
   */
  readonly handler?: string;

  /**
   * What each pod's utility VM costs beyond its containers (`overhead.podFixed`), which the
   * scheduler and the kubelet add to the pod's requests.
   * @default - memory 1 GiB (hcsshim's default utility-VM size, microsoft/hcsshim
   *   internal/uvm/create.go newDefaultOptions: MemorySizeInMB 1024) and 500m CPU
   */
  readonly overhead?: { readonly cpuMillis?: number; readonly memory?: Size };
}

/**
 * The spec of `HyperVRuntimeClassProps`.
 * @internal
 */
export const HYPERV_RUNTIME_CLASS_PROPS = propsSpec<HyperVRuntimeClassProps>('HyperVRuntimeClass', {
  // An object name (a DNS subdomain); the handler a DNS label (kubernetes v1.34
  // pkg/apis/node/validation/validation.go, ValidateRuntimeClass: ValidateRuntimeClassHandler).
  name: optional(text({ max: 253, pattern: DNS1123_SUBDOMAIN, form: 'a RuntimeClass name (lower-case DNS subdomain)', example: 'windows-hyperv' })),
  version: optional(choice(WindowsVersion, 'WindowsVersion')),
  handler: optional(text({ max: 63, pattern: DNS1123_LABEL, form: 'a runtime handler name (lower-case DNS label)', example: HYPERV_HANDLER })),
  overhead: optional(record(propsSpec<NonNullable<HyperVRuntimeClassProps['overhead']>>('HyperVRuntimeClass overhead', {
    cpuMillis: optional(whole()),
    memory: optional(mebibytes()),
  }))),
});

/**
 * A RuntimeClass (`node.k8s.io/v1`) for Hyper-V isolated Windows pods. **Experimental**: Kubernetes
 * documents Hyper-V isolation on Windows as unsupported, and containerd's runhcs handler for it
 * is experimental.
 *
 * What it takes: Windows nodes with the Hyper-V role (on EC2, metal instances: other types have
 * no nested virtualization), labelled `LABEL_HYPERV` (`WindowsWorkerPool` `hyperV: true`), with
 * containerd configured with the `runhcs-wcow-hypervisor` runtime handler. Its `scheduling` sends
 * pods only to such nodes and tolerates the Windows taint, and `overhead.podFixed` accounts for
 * each pod's utility VM. It does not let a newer host run an older image: containerd's default
 * pull refuses image releases the host could not run in process isolation.
 */
export class HyperVRuntimeClass extends Construct {
  /** The RuntimeClass name pods refer to. */
  public readonly name: string;
  /** Host release the class schedules to, when pinned. */
  public readonly version?: WindowsVersion;

  constructor(scope: Construct, id: string, given?: HyperVRuntimeClassProps) {
    super(scope, id);
    const props = HYPERV_RUNTIME_CLASS_PROPS.parse(this.node.path, given);
    this.version = props.version;
    const cpuMillis = props.overhead?.cpuMillis ?? 500;
    const memoryMebibytes = (props.overhead?.memory ?? Size.gibibytes(1)).toMebibytes();
    this.name = props.name ?? (props.version ? `windows-hyperv-${WINDOWS_RELEASES[props.version].ltscTag}` : 'windows-hyperv');

    // RuntimeClasses are cluster-scoped: a second one of the name would overwrite the first.
    const twin = this.node.root.node.findAll().find((c) => c !== this && c instanceof HyperVRuntimeClass && c.name === this.name);
    if (twin) fail(this, `RuntimeClass ${this.name} is already written by ${twin.node.path}`, 'give one of them another `name`, or share one HyperVRuntimeClass');

    const nodeSelector: Record<string, string> = { [LABEL_OS]: 'windows', [LABEL_HYPERV]: 'true' };
    if (props.version) nodeSelector[LABEL_WINDOWS_BUILD] = WINDOWS_RELEASES[props.version].build;

    const runtimeClass = new ApiObject(this, 'Resource', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: this.name },
      handler: props.handler ?? HYPERV_HANDLER,
      overhead: {
        podFixed: {
          cpu: `${cpuMillis}m`,
          memory: `${memoryMebibytes}Mi`,
        },
      },
      scheduling: {
        nodeSelector,
        tolerations: [{ key: WINDOWS_NODE_TAINT.key, operator: 'Equal', value: WINDOWS_NODE_TAINT.value, effect: WINDOWS_NODE_TAINT.effect }],
      },
    });
    dropChartNamespace(runtimeClass);
  }
}
