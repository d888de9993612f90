import {
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform,
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType,
} from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { fail, problem } from '../core/errors';
import { oneOf } from '../core/values';
import { windowsSupport, WindowsPlatform } from '../platform/support';
import { LABEL_ARCH, LABEL_HYPERV, LABEL_OS, LABEL_WINDOWS_BUILD, WINDOWS_KUBELET_FIREWALL_RULE, WINDOWS_RELEASES, WINDOWS_NODE_TAINT, WINDOWS_NODE_TIMEOUTS, WindowsEdition, WindowsVersion } from '../platform/windows';
import { InstanceType, windowsInstanceTypeProblem } from '../platform/instance-type';
import { WINDOWS_K0S_INSTALL_DIR } from '../platform/conventions';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage } from './machine-image';
import { AwsMachines, AwsWorkerPoolProps } from './aws-machines';
import { WorkerPool } from './worker-pool';

/** Props of `WindowsWorkerPool`. */
export interface WindowsWorkerPoolProps extends AwsWorkerPoolProps {
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
  /**
   * Run a Windows Server release that k0s does not document as supported (Windows Server 2025:
   * k0s documents 2019 and 2022 and bundles Calico for Windows 3.29). Set it to say you accept
   * that upstream does not test it.
   * @default false
   */
  readonly acknowledgeUnsupportedWindowsVersion?: boolean;
  /**
   * The machines have the Hyper-V role for Hyper-V isolated pods (`HyperVRuntimeClass`,
   * experimental): the nodes get the `LABEL_HYPERV` label the RuntimeClass schedules onto. The AMI
   * must have the Hyper-V role installed and containerd the `runhcs-wcow-hypervisor` handler, and
   * on EC2 that takes a metal instance type (others have no nested virtualization).
   * @default false
   */
  readonly hyperV?: boolean;
}

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

  public constructor(cluster: HybridCluster, id: string, props: WindowsWorkerPoolProps) {
    // The pool does not exist yet: errors name the path it will have.
    const at = (prop: string) => ({ path: `${cluster.node.path}/${id}`, prop });
    const windowsVersion = oneOf(at('windowsVersion'), props.windowsVersion, WindowsVersion, 'WindowsVersion') ?? WindowsVersion.SERVER_2022;
    const edition = oneOf(at('edition'), props.edition, WindowsEdition, 'WindowsEdition') ?? WindowsEdition.CORE;
    const machines = new AwsMachines(cluster, id, props, 'windows', props.ami ?? windowsImage(cluster, windowsVersion, edition));
    super(cluster, id, props.hyperV ? { ...props, labels: { ...props.labels, [LABEL_HYPERV]: 'true' } } : props, {
      os: 'windows',
      bootstrap: {
        provisioner: { platform: Platform.WINDOWS, type: ProvisionerType.POWERSHELL_HYPHEN_XML },
        k0SInstallDir: WINDOWS_K0S_INSTALL_DIR,
        // k0smotron v2.1.0 internal/controller/bootstrap/worker_bootstrap_controller.go
        // (getWindowsCommands) writes preK0sCommands into C:\bootstrap\k0s_install.ps1 before
        // `k0s install worker`; powershell.exe runs it under $ErrorActionPreference = "Stop", and a
        // scheduled task reruns it from the top after the Containers feature's reboot until it
        // completes: the command is PowerShell, and a rerun finds the rule and does nothing.
        preK0SCommands: [WINDOWS_KUBELET_FIREWALL_RULE],
      },
      taints: [WINDOWS_NODE_TAINT],
      nodeStartupTimeoutSeconds: WINDOWS_NODE_TIMEOUTS.startupSeconds,
      nodeReadyTimeoutSeconds: WINDOWS_NODE_TIMEOUTS.readySeconds,
      nodeLabels: { [LABEL_OS]: 'windows', [LABEL_ARCH]: 'amd64', [LABEL_WINDOWS_BUILD]: WINDOWS_RELEASES[windowsVersion].build },
    }, machines);
    this.windowsVersion = windowsVersion;
    this.instanceType = machines.instanceType;

    if (props.ami && props.edition !== undefined) {
      fail(this, `edition ${props.edition} has no effect beside the explicit ami ${props.ami.amiId}`, 'remove `edition` (it picks the infra AMI only when no `ami` is given)');
    }
    // The support matrix (src/platform/support.ts) is the one place that says which releases k0s runs.
    const support = windowsSupport(WindowsPlatform.K0SMOTRON_AWS, windowsVersion);
    if (!support.supported && !props.acknowledgeUnsupportedWindowsVersion) {
      fail(this, `Windows Server ${windowsVersion} is not supported by k0s (${support.source})`,
        'use WindowsVersion.SERVER_2022, or set `acknowledgeUnsupportedWindowsVersion: true` to run it untested upstream');
    }
  }

  protected platformProblems(): string[] {
    // A family the rules cannot read from the name is judged by what the props state about it.
    if (typeof InstanceType.parse(this.instanceType.name) !== 'string') return [];
    const stated = windowsInstanceTypeProblem(this.instanceType);
    return stated ? [problem(stated.what, stated.fix)] : [];
  }
}

/** The infra's AMI for the release and edition, else Amazon's newest base image of them. */
function windowsImage(cluster: HybridCluster, version: WindowsVersion, edition: WindowsEdition): MachineImage {
  const infraAmi = cluster.infra?.windowsAmiId(version, edition);
  return infraAmi !== undefined ? MachineImage.id(infraAmi) : MachineImage.windowsServer(version, edition);
}
