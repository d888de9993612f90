import { Architecture } from './instance-type';
import { WINDOWS_NODE_TAINT, WindowsEdition, WindowsVersion } from './windows';

/**
 * Facts about Amazon EKS that the EKS constructs write and the Terraform rules judge: AMI types,
 * managed policies, name limits, the Kubernetes versions EKS offers, the AMIs' root snapshots.
 */

/**
 * EKS managed node group AMI types for Windows, one per (release, installation option): the
 * `AMITypes` enum of the EKS API (CreateNodegroup `amiType`, aws/aws-sdk-go-v2
 * service/eks/types/enums.go). "Full" is Desktop Experience. Looking the type up here from the
 * `WindowsEdition` the user chose makes swapping Core and Full (terraform-aws-eks#3736) impossible.
 */
export const EKS_WINDOWS_AMI_TYPES: Readonly<Record<WindowsVersion, Readonly<Record<WindowsEdition, string>>>> = {
  [WindowsVersion.SERVER_2019]: { [WindowsEdition.CORE]: 'WINDOWS_CORE_2019_x86_64', [WindowsEdition.FULL]: 'WINDOWS_FULL_2019_x86_64' },
  [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'WINDOWS_CORE_2022_x86_64', [WindowsEdition.FULL]: 'WINDOWS_FULL_2022_x86_64' },
  [WindowsVersion.SERVER_2025]: { [WindowsEdition.CORE]: 'WINDOWS_CORE_2025_x86_64', [WindowsEdition.FULL]: 'WINDOWS_FULL_2025_x86_64' },
};

/** Amazon Linux 2023 AMI types by CPU architecture (`kubernetes.io/arch`). */
export const EKS_LINUX_AMI_TYPES = { amd64: 'AL2023_x86_64_STANDARD', arm64: 'AL2023_ARM_64_STANDARD' } as const;

/**
 * The node group AMI type of a Windows release and edition.
 * @internal
 */
export function eksWindowsAmiType(version: WindowsVersion, edition: WindowsEdition): string {
  return EKS_WINDOWS_AMI_TYPES[version][edition];
}

/**
 * The Windows release and edition of an AMI type, or undefined when it is not a Windows type.
 * @internal
 */
export function parseEksWindowsAmiType(amiType: unknown): { version: WindowsVersion; edition: WindowsEdition } | undefined {
  for (const version of Object.values(WindowsVersion)) {
    for (const edition of Object.values(WindowsEdition)) {
      if (EKS_WINDOWS_AMI_TYPES[version][edition] === amiType) return { version, edition };
    }
  }
  return undefined;
}

/**
 * The Kubernetes minor of an EKS-optimized AMI release (`release_version`), or why it is not one:
 * Windows AMIs are `<major>.<minor>-<release date>`, e.g. `1.34-2026.01.22` ("AMIs are versioned by
 * Kubernetes version and the release date of the AMI in the following format:
 * k8s_major_version.k8s_minor_version-release_date", awsdocs/amazon-eks-user-guide
 * latest/ug/nodes/eks-ami-versions-windows.adoc; a few old rows write the date with "-"); Amazon
 * Linux AMIs `<major>.<minor>.<patch>-<yyyymmdd>`, e.g. `1.34.4-20260120`. Other AMI types
 * (Bottlerocket) number their releases otherwise, and are not read.
 */
export function eksReleaseMinor(release: string, windows: boolean): { minor: number } | { problem: string } {
  const m = windows ? /^1\.(\d+)-\d{4}[.-]\d{2}[.-]\d{2}$/.exec(release) : /^1\.(\d+)\.\d+-\d{8}$/.exec(release);
  if (m) return { minor: Number(m[1]) };
  return { problem: windows ? `release_version "${release}" is not a Windows AMI release (<major>.<minor>-<date>, e.g. 1.34-2026.01.22)` : `release_version "${release}" is not an Amazon Linux AMI release (<major>.<minor>.<patch>-<yyyymmdd>, e.g. 1.34.4-20260120)` };
}

/** The architecture of an Amazon Linux 2023 AMI type, or undefined for any other type. */
export function eksLinuxAmiArchitecture(amiType: unknown): Architecture | undefined {
  if (amiType === EKS_LINUX_AMI_TYPES.amd64) return Architecture.AMD64;
  if (amiType === EKS_LINUX_AMI_TYPES.arm64) return Architecture.ARM64;
  return undefined;
}

/** The managed policies of the cluster role (EKS User Guide, cluster-iam-role.adoc). */
export const EKS_CLUSTER_POLICIES = ['AmazonEKSClusterPolicy', 'AmazonEKSVPCResourceController'] as const;

/** The type of an access entry for a node role. */
export enum NodeAccessEntryType {
  /** Linux nodes: what EKS gives the role of a Linux managed node group itself. */
  EC2_LINUX = 'EC2_LINUX',
  /** What Linux nodes get plus the `eks:kube-proxy-windows` group Windows nodes need. */
  EC2_WINDOWS = 'EC2_WINDOWS',
}

/**
 * Why one role cannot serve Linux and Windows managed node groups. A role has one access entry per
 * cluster, whose type cannot change (EKS User Guide, awsdocs/amazon-eks-user-guide
 * latest/ug/manage-access/k8s-access/creating-access-entries.adoc: "An IAM principal can't be
 * included in more than one access entry", "You can't change the type after the access entry is
 * created"), and EKS creates `EC2_LINUX` for a Linux group's role. Which group existed first would
 * decide the type: a Windows group added beside an existing Linux group of the role fails at
 * apply, and its nodes would lack the `eks:kube-proxy-windows` group of `EC2_WINDOWS` anyway.
 * @internal
 */
export function sharedNodeRoleProblem(role: string, linuxGroups: readonly string[], windowsGroups: readonly string[]): { what: string; fix: string } {
  return {
    what: `node role ${role} serves Linux node groups (${linuxGroups.join(', ')}) and Windows node groups (${windowsGroups.join(', ')}). `
      + 'A role has one access entry per cluster and its type cannot change: once a Linux group of the role exists, EKS has given it EC2_LINUX, '
      + 'so a Windows group added to the role later fails at apply creating its EC2_WINDOWS entry, and Windows nodes need EC2_WINDOWS (eks:kube-proxy-windows)',
    fix: 'give the Windows node groups a role of their own (leave nodeRole unset, the default)',
  };
}

/** The cluster's IP family for pods and services. */
export enum EksIpFamily {
  /** IPv4 pod and service addresses: the default, and the only family EKS Windows nodes support. */
  IPV4 = 'ipv4',
  /** EKS Windows nodes do not support IPv6; the rules refuse it beside Windows node groups. */
  IPV6 = 'ipv6',
}

/** Kubernetes taint effects as the EKS API spells them (CreateNodegroup `taints[].effect`, `TaintEffect`). */
export const EKS_TAINT_EFFECT: Readonly<Record<string, string>> = { NoSchedule: 'NO_SCHEDULE', NoExecute: 'NO_EXECUTE', PreferNoSchedule: 'PREFER_NO_SCHEDULE' };

/** `WINDOWS_NODE_TAINT`, which the workload constructs tolerate, in EKS's spelling. */
export const EKS_WINDOWS_TAINT = { key: WINDOWS_NODE_TAINT.key, value: WINDOWS_NODE_TAINT.value, effect: EKS_TAINT_EFFECT[WINDOWS_NODE_TAINT.effect] };

/**
 * Limits of what the EKS API and hashicorp/terraform-provider-aws take (provider
 * `internal/service/eks/validate.go` `validClusterName`, `node_group.go` schema; EKS API reference
 * CreateNodegroup and UpdateLabelsPayload).
 */
export const EKS_LIMITS = {
  /** Cluster names: 1 to 100 characters (the provider wants 2: its pattern ends in `+`). */
  clusterName: { max: 100, pattern: /^[0-9A-Za-z][A-Za-z0-9\-_]+$/ },
  /** Node group names: 1 to 63 characters, a letter or digit first. */
  nodeGroupName: { max: 63, pattern: /^[0-9A-Za-z][A-Za-z0-9\-_]*$/ },
  /** Labels: key and value 1 to 63 characters each (the whole key, prefix included; no empty value). */
  labelLength: 63,
  /** Taints: at most 50, key 1 to 63 and value 0 to 63 characters. */
  taints: 50,
  taintLength: 63,
  /** Subnets of a cluster: in at least two availability zones (EKS User Guide, network-reqs.adoc). */
  clusterZones: 2,
} as const;

/**
 * A Kubernetes minor version as EKS offers it: the EKS User Guide's release calendar
 * (awsdocs/amazon-eks-user-guide `latest/ug/versioning/kubernetes-versions.adoc`). A version can
 * be created until its end of extended support ("On the end of extended support date, you can no
 * longer create new Amazon EKS clusters with the unsupported version").
 */
export interface EksKubernetesVersion {
  readonly version: string;
  readonly eksRelease: string;
  /** @default - not yet announced */
  readonly endOfExtendedSupport?: string;
}

/**
 * The versions the calendar lists, oldest first. Older versions are refused; newer ones (released
 * after this table) pass, since nothing here can know them. 1.35: the Windows AMI list
 * (eks-ami-versions-windows.adoc) has its first AMIs as 1.35-2026-01-22.
 */
export const EKS_KUBERNETES_VERSIONS: readonly EksKubernetesVersion[] = [
  { version: '1.29', eksRelease: '2024-01-23', endOfExtendedSupport: '2026-03-23' },
  { version: '1.30', eksRelease: '2024-05-23', endOfExtendedSupport: '2026-07-23' },
  { version: '1.31', eksRelease: '2024-09-26', endOfExtendedSupport: '2026-11-26' },
  { version: '1.32', eksRelease: '2025-01-23', endOfExtendedSupport: '2027-03-23' },
  { version: '1.33', eksRelease: '2025-05-29', endOfExtendedSupport: '2027-07-29' },
  { version: '1.34', eksRelease: '2025-10-02', endOfExtendedSupport: '2027-12-02' },
  { version: '1.35', eksRelease: '2026-01' },
];

const MINOR = /^1\.(\d{1,3})$/;

/**
 * Why `version` is not a Kubernetes version EKS creates clusters of on `day` (`YYYY-MM-DD`), or
 * undefined: not a minor version, older than the calendar, or at or past its end of extended
 * support ("On the end of extended support date, you can no longer create new Amazon EKS clusters
 * with the unsupported version", awsdocs/amazon-eks-user-guide `latest/ug/clusters/kubernetes-versions.adoc`).
 */
export function eksKubernetesVersionProblem(version: unknown, day: string): string | undefined {
  const m = typeof version === 'string' ? MINOR.exec(version) : null;
  if (!m) return `Kubernetes version ${JSON.stringify(version)} is not an EKS Kubernetes version (the minor version, e.g. "1.34")`;
  const oldest = EKS_KUBERNETES_VERSIONS[0];
  if (Number(m[1]) < Number(oldest.version.split('.')[1])) {
    return `Kubernetes ${version} is older than ${oldest.version}, the oldest version EKS's release calendar lists (EKS creates no cluster of a version past its end of extended support)`;
  }
  const end = EKS_KUBERNETES_VERSIONS.find((v) => v.version === version)?.endOfExtendedSupport;
  if (end !== undefined && day >= end) {
    return `Kubernetes ${version} reached the end of EKS extended support on ${end} (the calendar is read on ${day}), and EKS creates no cluster of it from that day`;
  }
  return undefined;
}

/**
 * Root volume snapshots of the EKS-optimized AMIs, in GiB: EC2 refuses a launch whose root
 * volume is smaller than the AMI's snapshot. Amazon Linux 2023: 20 (awslabs/amazon-eks-ami
 * `templates/al2023/variables-default.json` `launch_block_device_mappings_volume_size`, #1581).
 * Windows: the Windows Server base AMIs' 30 the EKS-optimized ones are built on (their own may
 * be larger; EKS's default disk for Windows is 50).
 */
export const EKS_ROOT_SNAPSHOT_GIB = { linux: 20, windows: 30 } as const;

/**
 * Launch template names and `name_prefix` (hashicorp/terraform-provider-aws
 * `internal/verify/validate.go` `ValidLaunchTemplateName`): 3 to 99 characters of letters,
 * digits and `()./_-` for a prefix (Terraform adds a 26-character suffix; names are 125 at most).
 */
export const LAUNCH_TEMPLATE_NAME_PREFIX = { min: 3, max: 99, pattern: /^[0-9A-Za-z()./_-]+$/ } as const;

/**
 * How pods get AWS credentials on EKS. EKS Pod Identity serves pods on Linux EC2 nodes only: "Pods
 * that run on Windows Amazon EC2 instances aren't supported" (EKS User Guide,
 * latest/ug/manage-access/aws-access/pod-identities.adoc, "EKS Pod Identity restrictions"), and its
 * agent is a DaemonSet whose affinity requires `kubernetes.io/os: linux`
 * (aws/eks-pod-identity-agent charts/eks-pod-identity-agent/values.yaml), so nothing answers a
 * Windows pod at 169.254.170.23. IAM roles for service accounts (IRSA) need no node agent: the
 * SDK in the pod exchanges the projected service-account token with STS itself.
 */
export enum PodCredentialMechanism {
  /** IAM roles for service accounts: the cluster's OIDC provider and a role trusting one service account. Linux and Windows pods. */
  IRSA = 'irsa',
  /** EKS Pod Identity: the `eks-pod-identity-agent` add-on and an association. Linux pods only. */
  POD_IDENTITY = 'pod-identity',
}

/** Why Pod Identity is refused for pods on Windows nodes, and what to use instead. */
export const POD_IDENTITY_WINDOWS_PROBLEM = {
  what: 'EKS Pod Identity gives no credentials to pods on Windows nodes ("Pods that run on Windows Amazon EC2 instances aren\'t supported", EKS User Guide, pod-identities.adoc; the agent DaemonSet runs on Linux nodes only)',
  fix: 'use PodCredentialMechanism.IRSA (podCredentials: { irsa: true })',
} as const;

/** The annotation IRSA's pod identity webhook reads on a service account (aws/amazon-eks-pod-identity-webhook, pkg/annotations). */
export const IRSA_ROLE_ANNOTATION = 'eks.amazonaws.com/role-arn';

/** EKS control-plane log types (CreateCluster `logging.clusterLogging[].types`). */
export enum EksControlPlaneLogType {
  /** kube-apiserver's own logs. */
  API = 'api',
  /** The Kubernetes audit log: who did what through the API. */
  AUDIT = 'audit',
  /** aws-iam-authenticator: which IAM principal became which Kubernetes user. */
  AUTHENTICATOR = 'authenticator',
  /** kube-controller-manager. */
  CONTROLLER_MANAGER = 'controllerManager',
  /** kube-scheduler. */
  SCHEDULER = 'scheduler',
}
