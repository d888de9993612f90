import { fail } from '../core/errors';
import { choice, optional, propsSpec } from '../core/props-spec';
import { WindowsEdition, WindowsVersion } from '../platform/windows';
import { InstanceType } from '../platform/instance-type';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage } from './machine-image';
import { AWS_WORKER_POOL_OPTIONS, AwsMachines, AwsWorkerPoolProps } from './aws-machines';
import { MACHINE_DEPLOYMENT_POOL_EXCLUSIONS } from '../capi/machine-deployment-pool';
import { WorkerPool } from '../k0s/worker-pool';
import { windowsWorker } from '../k0s/windows-pool';
import { WINDOWS_WORKER_OPTIONS, WindowsWorkerProps } from '../capi/windows-os';
import { AWS_INFRASTRUCTURE } from '../platform/infrastructures';

/** Props of `WindowsWorkerPool`: those of every pool on EC2 and of every Windows pool. */
export interface WindowsWorkerPoolProps extends AwsWorkerPoolProps, WindowsWorkerProps {
  /**
   * Windows Server release of the machines: picks the `infra` AMI (else Amazon's newest Windows
   * Server base image of that release) when no `ami` is given, and
   * is checked against the support matrix (`WINDOWS_SUPPORT`) either way, so with an explicit
   * `ami` it must say which release that AMI is.
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
  /**
   * Edition of the image taken from the cluster's `infra` or looked up. Only meaningful without `ami`: giving
   * both is an error, since an explicit AMI already is one edition.
   * @default WindowsEdition.CORE
   */
  readonly edition?: WindowsEdition;
}

/**
 * The spec of `WindowsWorkerPoolProps`.
 * @internal
 */
export const WINDOWS_WORKER_POOL_PROPS = propsSpec<WindowsWorkerPoolProps>('WindowsWorkerPool', {
  ...AWS_WORKER_POOL_OPTIONS,
  ...WINDOWS_WORKER_OPTIONS,
  edition: optional(choice(WindowsEdition, 'WindowsEdition')),
}, MACHINE_DEPLOYMENT_POOL_EXCLUSIONS);

/**
 * Windows Server k0s workers, bootstrapped by k0smotron's PowerShell provisioner through EC2
 * user data. Every node carries the taint `os=windows:NoSchedule` (`WINDOWS_NODE_TAINT`), so
 * only pods that tolerate it (the workload constructs' Windows pods) land there.
 *
 * Bootstrap data reaches Windows machines as plain EC2 user data, not through CAPA's Secrets
 * Manager hand-off (a cloud-init boothook Windows cannot run). The user data holds the worker's
 * join token: anyone who may call `ec2:DescribeInstanceAttribute` on the instance, or any
 * process on the node that can reach the metadata service, can read it until it expires (k0smotron
 * issues it for 24 hours). Keep that permission narrow.
 */
export class WindowsWorkerPool extends WorkerPool {
  /** The machines' Windows Server release. */
  public readonly windowsVersion: WindowsVersion;
  /** The EC2 instance type, parsed. */
  public readonly instanceType: InstanceType;

  public constructor(cluster: HybridCluster, id: string, given: WindowsWorkerPoolProps) {
    // The pool does not exist yet: errors name the path it will have.
    const path = `${cluster.node.path}/${id}`;
    const props = WINDOWS_WORKER_POOL_PROPS.parse(path, given);
    const windows = windowsWorker(path, AWS_INFRASTRUCTURE, props);
    const edition = props.edition ?? WindowsEdition.CORE;
    if (props.ami && props.edition !== undefined) {
      fail(path, `edition ${props.edition} has no effect beside the explicit ami ${props.ami.amiId}`, 'remove `edition` (it picks the infra AMI only when no `ami` is given)');
    }
    const machines = new AwsMachines(cluster, id, props, 'windows', props.ami ?? windowsImage(cluster, windows.windowsVersion, edition));
    super(cluster, id, windows.props, windows.osPart, machines);
    this.windowsVersion = windows.windowsVersion;
    this.instanceType = machines.instanceType;
  }
}

/** The infra's AMI for the release and edition, else Amazon's newest base image of them. */
function windowsImage(cluster: HybridCluster, version: WindowsVersion, edition: WindowsEdition): MachineImage {
  const infraAmi = cluster.infra?.windowsAmiId(version, edition);
  return infraAmi !== undefined ? MachineImage.id(infraAmi) : MachineImage.windowsServer(version, edition);
}
