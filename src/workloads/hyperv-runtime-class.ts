import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_NODE_TAINT, WINDOWS_RELEASES, WindowsVersion } from '../platform/windows';

/** containerd's runhcs handler that starts each Windows pod in its own utility VM. */
export const HYPERV_HANDLER = 'runhcs-wcow-hypervisor';

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
}

/**
 * A RuntimeClass (`node.k8s.io/v1`) for Hyper-V isolated Windows pods. Create one per cluster and
 * pass it to Windows workloads as `hyperV`. Its `scheduling` block sends pods to Windows nodes and
 * tolerates the Windows taint; the workloads still carry their own explicit node selection, which
 * DaemonSets need (their controller places pods without looking at RuntimeClass scheduling).
 */
export class HyperVRuntimeClass extends Construct {
  /** The RuntimeClass name pods refer to. */
  public readonly name: string;
  /** Host release the class schedules to, when pinned. */
  public readonly version?: WindowsVersion;

  constructor(scope: Construct, id: string, props: HyperVRuntimeClassProps = {}) {
    super(scope, id);
    this.version = props.version;
    this.name = props.name ?? (props.version ? `windows-hyperv-${WINDOWS_RELEASES[props.version].ltscTag}` : 'windows-hyperv');

    const nodeSelector: Record<string, string> = { [LABEL_OS]: 'windows' };
    if (props.version) nodeSelector[LABEL_WINDOWS_BUILD] = WINDOWS_RELEASES[props.version].build;

    new ApiObject(this, 'Resource', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: this.name },
      handler: props.handler ?? HYPERV_HANDLER,
      scheduling: {
        nodeSelector,
        tolerations: [{ key: WINDOWS_NODE_TAINT.key, operator: 'Equal', value: WINDOWS_NODE_TAINT.value, effect: WINDOWS_NODE_TAINT.effect }],
      },
    });
  }
}
