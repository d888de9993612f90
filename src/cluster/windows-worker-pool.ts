import {
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerPlatform as Platform,
  K0SWorkerConfigTemplateSpecTemplateSpecProvisionerType as ProvisionerType,
} from '../generated/k0smotron-bootstrap.cluster.x-k8s.io';
import { WINDOWS_NODE_TAINT, WindowsEdition, WindowsVersion } from '../platform/windows';
import type { HybridCluster } from './hybrid-cluster';
import { describeInstanceType } from './instance-type';
import { K0sVersion } from './k0s-version';
import { CAPI_RANDOM_LENGTH, dnsLabelProblem, WINDOWS_COMPUTER_NAME_MAX } from './names';
import { WorkerPool, WorkerPoolProps } from './worker-pool';

/**
 * Windows Server reserves about 3.5 GiB for itself; below 8 GiB a node has too little left for
 * pods to be worth scheduling.
 */
export const WINDOWS_MIN_MEMORY_GIB = 8;

/** Where k0s is installed on Windows workers. k0smotron does not quote the path: no spaces. */
export const WINDOWS_K0S_INSTALL_DIR = 'C:\\k0s';

const MAX_COMPUTER_NAME_PREFIX = WINDOWS_COMPUTER_NAME_MAX - CAPI_RANDOM_LENGTH - 1;

export interface WindowsWorkerPoolProps extends WorkerPoolProps {
  /**
   * Windows Server release of the AMI. Pods of Windows workloads pin to it through the node's
   * `node.kubernetes.io/windows-build` label, and process-isolated containers must match it.
   * @default WindowsVersion.SERVER_2022
   */
  readonly windowsVersion?: WindowsVersion;
  /**
   * Edition of the AMI taken from the cluster's `infra` when no `ami` is given.
   * @default WindowsEdition.CORE
   */
  readonly edition?: WindowsEdition;
  /**
   * Prefix of the pool's machine names, at most 9 characters: machines are named
   * `<prefix>-<5 random characters>` so that the name fits Windows' 15-character computer
   * names, past which Windows cuts names off and two machines' names would collide.
   * @default - the pool's name
   */
  readonly computerNamePrefix?: string;
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
  public readonly windowsVersion: WindowsVersion;
  public readonly computerNamePrefix: string;

  public constructor(cluster: HybridCluster, id: string, props: WindowsWorkerPoolProps) {
    const windowsVersion = props.windowsVersion ?? WindowsVersion.SERVER_2022;
    const edition = props.edition ?? WindowsEdition.CORE;
    const prefix = props.computerNamePrefix ?? props.name ?? id;
    super(cluster, id, props, {
      os: 'windows',
      amiId: props.ami?.amiId ?? cluster.infra?.windowsAmiId(windowsVersion, edition),
      image: `Windows Server ${windowsVersion} ${edition}`,
      bootstrap: {
        provisioner: { platform: Platform.WINDOWS, type: ProvisionerType.POWERSHELL_HYPHEN_XML },
        k0SInstallDir: WINDOWS_K0S_INSTALL_DIR,
      },
      taints: [WINDOWS_NODE_TAINT],
      machineNamingTemplate: `${prefix}-{{ .random }}`,
      // Windows bootstrap enables the Containers feature and reboots before k0s starts.
      nodeStartupTimeoutSeconds: 1800,
    });
    this.windowsVersion = windowsVersion;
    this.computerNamePrefix = prefix;
  }

  protected platformProblems(): string[] {
    const problems: string[] = [];
    const version = K0sVersion.parse(this.k0sVersion);
    if (version && version.compare(K0sVersion.MIN_WINDOWS) < 0) {
      problems.push(`k0s ${this.k0sVersion} cannot run Windows workers. Fix: use k0s ${K0sVersion.MIN_WINDOWS} or newer for this pool (k0sVersion).`);
    }

    const type = describeInstanceType(this.instanceType);
    if (type?.arch === 'arm64') {
      problems.push(`instance type ${this.instanceType} is arm64 (AWS Graviton), and Windows Server on EC2 is amd64 only. Fix: pick an x86 type such as ${amd64Sibling(this.instanceType)}.`);
    } else if (type?.memoryGiB !== undefined && type.memoryGiB < WINDOWS_MIN_MEMORY_GIB) {
      problems.push(`instance type ${this.instanceType} has ${type.memoryGiB} GiB of memory; Windows workers need at least ${WINDOWS_MIN_MEMORY_GIB} GiB (the OS takes about 3.5). Fix: pick a larger type, e.g. t3.large or m6i.large.`);
    }

    const prefixProblem = dnsLabelProblem(this.computerNamePrefix, MAX_COMPUTER_NAME_PREFIX);
    if (prefixProblem) {
      problems.push(`computer name prefix "${this.computerNamePrefix}" ${prefixProblem} (machine names must fit Windows' ${WINDOWS_COMPUTER_NAME_MAX}-character computer names). Fix: set \`computerNamePrefix\` to a short lower-case name such as "win".`);
    }

    // Read the final objects, so that a JSON patch cannot quietly undo what Windows needs.
    const bootstrap = this.workerConfigTemplate.toJson().spec?.template?.spec ?? {};
    if (bootstrap.provisioner?.platform !== Platform.WINDOWS || bootstrap.provisioner?.type !== ProvisionerType.POWERSHELL_HYPHEN_XML) {
      problems.push(`K0sWorkerConfigTemplate provisioner is ${JSON.stringify(bootstrap.provisioner)}; Windows workers on AWS need {"platform":"windows","type":"powershell-xml"}. Fix: remove the patch that changes it.`);
    }
    if (typeof bootstrap.k0sInstallDir !== 'string' || !/^[A-Za-z]:\\\S*$/.test(bootstrap.k0sInstallDir)) {
      problems.push(`k0sInstallDir ${JSON.stringify(bootstrap.k0sInstallDir)} is not a Windows path without spaces. Fix: use ${JSON.stringify(WINDOWS_K0S_INSTALL_DIR)}.`);
    }
    const machine = this.machineTemplate.toJson().spec?.template?.spec ?? {};
    if (machine.cloudInit?.insecureSkipSecretsManager !== true || machine.uncompressedUserData !== true) {
      problems.push('AWSMachineTemplate must keep cloudInit.insecureSkipSecretsManager and uncompressedUserData true: Windows can run neither the Secrets Manager boothook nor gzipped user data. Fix: remove the patch that changes them.');
    }
    return problems;
  }
}

/** The x86 type of the same shape as a Graviton one, for the error message. */
function amd64Sibling(instanceType: string): string {
  const [family, size] = instanceType.split('.');
  if (family === 't4g') return `t3.${size}`;
  if (family === 'a1') return `m5.${size}`;
  return `${family.replace(/^([a-z]+\d+)g[a-z]*$/, '$1i')}.${size}`;
}
