import { ApiObject } from 'cdk8s';
import { K0sWorkerConfigTemplate, K0SWorkerConfigTemplateSpecTemplateSpec } from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { contentHash } from '../core/hash';
import { optional, PropEntry, text } from '../core/props-spec';
import { typedApiObject } from '../core/typed-api-object';
import { K0S_LINUX_KUBELET_ROOT, WINDOWS_KUBELET_ROOT } from '../platform/csi';
import { taintArgument } from '../platform/windows';
import type { PropsOfFields } from '../rules/run/judge';
import {
  BootstrapPart, BootstrapTemplate, IMachineDeploymentPoolCluster, MACHINE_DEPLOYMENT_POOL_OPTIONS, MachineDeploymentPool, MachineDeploymentPoolProps, WorkerInfrastructure, WorkerOs,
} from '../capi/machine-deployment-pool';

export { POOL_LABEL } from '../platform/labels';

/** What a k0s worker pool takes from its cluster, whatever infrastructure the machines run on. */
export interface IWorkerPoolCluster extends IMachineDeploymentPoolCluster {
  /** The pools' default k0s version. */
  readonly k0sVersion: string;
}

/** Props every k0s worker pool has, whatever infrastructure its machines run on. */
export interface WorkerPoolProps extends MachineDeploymentPoolProps {
  /**
   * k0s version of the pool's workers (`vX.Y.Z+k0s.N`).
   * @default - the cluster's
   */
  readonly k0sVersion?: string;
}

/**
 * The spec entries of `WorkerPoolProps`: every pool's (`MACHINE_DEPLOYMENT_POOL_OPTIONS`) and the
 * k0s version, whose form the `machine-deployment` rule judges on the MachineDeployment.
 * @internal
 */
export const WORKER_POOL_OPTIONS: { readonly [K in keyof WorkerPoolProps]-?: PropEntry } = {
  ...MACHINE_DEPLOYMENT_POOL_OPTIONS,
  k0sVersion: optional(text({ max: 256, form: 'a k0s version', example: 'v1.34.4+k0s.0', judgedBy: 'machine-deployment' })),
};

/**
 * The OS part of a k0s pool (docs/architecture.md, "Words"): its operating system's facts
 * (`WorkerOs`) and that OS's part of the K0sWorkerConfigTemplate (`K0S_LINUX_OS_PART`,
 * `windowsWorker()`).
 */
export interface K0sOsPart extends WorkerOs {
  /** The OS's part of the K0sWorkerConfigTemplate spec (provisioner, install dir). */
  readonly bootstrap: K0SWorkerConfigTemplateSpecTemplateSpec;
}

/**
 * The OS part of a k0s pool.
 * @deprecated Use `K0sOsPart`: "platform" names a `WindowsPlatform` (where Windows nodes run) only.
 */
export type WorkerPlatform = K0sOsPart;

/**
 * A MachineDeployment pool of k0s workers (`MachineDeploymentPool` with k0smotron's bootstrap:
 * a K0sWorkerConfigTemplate per failure domain), on any infrastructure. Use `LinuxWorkerPool` or
 * `WindowsWorkerPool` (EC2 machines), `RemoteLinuxWorkerPool` or `RemoteWindowsWorkerPool`
 * (hosts over SSH).
 */
export abstract class WorkerPool extends MachineDeploymentPool {
  /** The cluster the pool belongs to. */
  declare public readonly cluster: IWorkerPoolCluster;

  protected constructor(cluster: IWorkerPoolCluster, id: string, props: WorkerPoolProps, os: K0sOsPart, infrastructure: WorkerInfrastructure) {
    super(cluster, id, props, new K0sWorkerBootstrap(props.k0sVersion ?? cluster.k0sVersion, os), infrastructure);
  }

  /** k0s version of the pool's workers (`version`, known to the infrastructure part while the base builds). */
  public get k0sVersion(): string {
    return this.version;
  }

  /** The K0sWorkerConfigTemplates, one per failure domain (their node labels differ), named after their content. */
  public get workerConfigTemplates(): readonly ApiObject[] {
    return this.bootstrapConfigTemplates;
  }
}

/**
 * k0smotron's bootstrap: a K0sWorkerConfigTemplate whose k0s arguments carry the node labels and
 * taints, the OS part's provisioner and install dir, and the k0s version; k0s's kubelet root.
 */
class K0sWorkerBootstrap implements BootstrapPart {
  public readonly os: 'linux' | 'windows';
  public readonly taints: K0sOsPart['taints'];
  public readonly nodeStartupTimeoutSeconds: number;
  public readonly nodeReadyTimeoutSeconds: number;
  public readonly nodeLabels: Readonly<Record<string, string>>;
  public readonly windowsBuild?: string;
  public readonly kubeletRootDir: string;
  public readonly labelArgument = 'k0s\'s --labels';
  public readonly propsOfFields = K0S_WORKER_PROPS_OF_FIELDS;

  public constructor(public readonly version: string, private readonly osPart: K0sOsPart) {
    this.os = osPart.os;
    this.taints = osPart.taints;
    this.nodeStartupTimeoutSeconds = osPart.nodeStartupTimeoutSeconds;
    this.nodeReadyTimeoutSeconds = osPart.nodeReadyTimeoutSeconds;
    this.nodeLabels = osPart.nodeLabels;
    this.windowsBuild = osPart.windowsBuild;
    this.kubeletRootDir = osPart.os === 'windows' ? WINDOWS_KUBELET_ROOT.k0s : K0S_LINUX_KUBELET_ROOT;
  }

  public configTemplate(pool: MachineDeploymentPool, template: BootstrapTemplate): ApiObject {
    const osPart = this.osPart;
    const bootstrap: K0SWorkerConfigTemplateSpecTemplateSpec = {
      version: this.version,
      args: [
        `--labels=${Object.entries(template.nodeLabels).map(([k, v]) => `${k}=${v}`).join(',')}`,
        ...(osPart.taints.length > 0 ? [`--taints=${osPart.taints.map(taintArgument).join(',')}`] : []),
      ],
      ...osPart.bootstrap,
    };
    // Hashed as written (JSON field names), so that the rules can recompute it on the final object.
    const written = K0sWorkerConfigTemplate.manifest({ spec: { template: { spec: bootstrap } } }).spec?.template.spec;
    return typedApiObject(pool, template.domain ? `K0sWorkerConfigTemplate-${template.domain.suffix}` : 'K0sWorkerConfigTemplate', K0sWorkerConfigTemplate, {
      metadata: { name: `${template.name}-${contentHash(written)}` },
      spec: { template: { spec: bootstrap } },
    });
  }
}

/** The props behind the k0s fields of a pool that the rules name, for messages at construction. */
const K0S_WORKER_PROPS_OF_FIELDS: PropsOfFields = {
  'MachineDeployment spec.template.spec.version': 'k0sVersion',
  'K0sWorkerConfigTemplate spec.template.spec.args': 'labels',
};
