import { WINDOWS_RELEASES, WindowsVersion } from './windows';

/**
 * Facts about Karpenter on EKS (aws/karpenter-provider-aws v1.14.1) that the Karpenter constructs
 * write and the rules judge: the Windows AMI aliases and what Karpenter cannot do on Windows.
 */

/** Where the Windows facts below are read: the EC2NodeClass type, the Windows AMI family, the docs. */
export const KARPENTER_SOURCE = 'aws/karpenter-provider-aws@v1.14.1';

/**
 * The alias family of each Windows release (`spec.amiSelectorTerms[].alias`, `family@version`):
 * pkg/apis/v1/ec2nodeclass.go (`Alias`), resolved by pkg/providers/amifamily/resolver.go to
 * `Windows{Version, Build}`, whose image is the SSM parameter
 * `/aws/service/ami-windows-latest/Windows_Server-<year>-English-Core-EKS_Optimized-<k8s>` (windows.go):
 * Server Core only.
 */
export const KARPENTER_WINDOWS_ALIAS_FAMILIES: Readonly<Record<WindowsVersion, string>> = {
  [WindowsVersion.SERVER_2019]: 'windows2019',
  [WindowsVersion.SERVER_2022]: 'windows2022',
  [WindowsVersion.SERVER_2025]: 'windows2025',
};

/**
 * The only version a Windows alias takes: the EC2NodeClass CRD's CEL rule "windows families may
 * only specify version 'latest'" (pkg/apis/v1/ec2nodeclass.go, `Alias`), since the Windows AMIs are
 * found through an SSM parameter of the newest image only.
 */
export const KARPENTER_WINDOWS_ALIAS_VERSION = 'latest';

/** The alias of a Windows release's EKS-optimized Server Core AMI: `windows2022@latest`. */
export function karpenterWindowsAlias(version: WindowsVersion): string {
  return `${KARPENTER_WINDOWS_ALIAS_FAMILIES[version]}@${KARPENTER_WINDOWS_ALIAS_VERSION}`;
}

/** The `spec.amiFamily` values of Windows (`Windows2019`…), from pkg/apis/v1/ec2nodeclass.go's enum. */
export const KARPENTER_WINDOWS_AMI_FAMILIES: Readonly<Record<WindowsVersion, string>> = {
  [WindowsVersion.SERVER_2019]: 'Windows2019',
  [WindowsVersion.SERVER_2022]: 'Windows2022',
  [WindowsVersion.SERVER_2025]: 'Windows2025',
};

/**
 * The Windows release an EC2NodeClass spec launches, from its alias or its `amiFamily`, or
 * undefined when it launches no Windows AMI family.
 */
export function karpenterWindowsVersion(spec: { amiFamily?: unknown; amiSelectorTerms?: unknown } | undefined): WindowsVersion | undefined {
  const terms = Array.isArray(spec?.amiSelectorTerms) ? spec.amiSelectorTerms : [];
  for (const version of Object.values(WindowsVersion)) {
    if (spec?.amiFamily === KARPENTER_WINDOWS_AMI_FAMILIES[version]) return version;
    if (terms.some((t) => typeof t?.alias === 'string' && t.alias.split('@')[0] === KARPENTER_WINDOWS_ALIAS_FAMILIES[version])) return version;
  }
  return undefined;
}

/** The `node.kubernetes.io/windows-build` Karpenter gives a release's nodes (pkg/apis/v1/labels.go, Windows20NNBuild). */
export function karpenterWindowsBuild(version: WindowsVersion): string {
  return WINDOWS_RELEASES[version].build;
}

/**
 * What Karpenter cannot do on Windows nodes, each with where it says so
 * (website/content/en/docs at the tag).
 */
export const KARPENTER_WINDOWS_LIMITS = {
  /** faq.md ("Windows nodes do not support IPv6"). */
  ipv6: `${KARPENTER_SOURCE} website/content/en/docs/faq.md: "Windows nodes do not support IPv6"`,
  /** concepts/nodeclasses.md, Pod Density ("not possible to specify custom networking with Windows nodes"). */
  customNetworking: `${KARPENTER_SOURCE} website/content/en/docs/concepts/nodeclasses.md: "It's currently not possible to specify custom networking with Windows nodes"`,
  /** concepts/nodeclasses.md, Max Pods ("Windows worker nodes do not support using more than one ENI"). */
  oneEni: `${KARPENTER_SOURCE} website/content/en/docs/concepts/nodeclasses.md: "Windows worker nodes do not support using more than one ENI"`,
  /** The alias CEL rule (pkg/apis/v1/ec2nodeclass.go). */
  aliasVersion: `${KARPENTER_SOURCE} pkg/apis/v1/ec2nodeclass.go (Alias): "windows families may only specify version 'latest'"`,
} as const;

/** Karpenter's API groups: NodePool (`karpenter.sh`) and EC2NodeClass (`karpenter.k8s.aws`). */
export const KARPENTER_GROUPS = { nodePool: 'karpenter.sh', nodeClass: 'karpenter.k8s.aws' } as const;

/**
 * Karpenter's controller as its getting-started guide installs it (v1.14.1
 * website/content/en/docs/getting-started/getting-started-with-karpenter): the controller's IAM role
 * is `<cluster>-karpenter` (scripts/step02-create-cluster.sh, eksctl `podIdentityAssociations`
 * `roleName`), and its IAM integration policy passes the node role to EC2 only
 * (cloudformation.yaml, `AllowPassingInstanceRole`: `iam:PassedToService` `ec2.amazonaws.com`,
 * `ec2.amazonaws.com.cn`).
 */
export const KARPENTER_CONTROLLER = {
  roleName: (clusterName: string) => `${clusterName}-karpenter`,
  passedToServices: ['ec2.amazonaws.com', 'ec2.amazonaws.com.cn'],
} as const;

/**
 * What the pinned CRDs (pkg/apis/crds at the tag) accept in the fields the pool writes from props,
 * their `pattern`s as the API server applies them: a budget's `nodes`
 * (karpenter.sh_nodepools.yaml, `spec.disruption.budgets[].nodes`) and a resource quantity
 * (`spec.limits`, the Kubernetes quantity grammar).
 */
export const KARPENTER_PATTERNS = {
  budgetNodes: /^((100|[0-9]{1,2})%|[0-9]+)$/,
  quantity: /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/,
} as const;

/**
 * The values of `karpenter.sh/capacity-type` Karpenter knows (website/content/en/docs/concepts/nodepools.md,
 * "Capacity Type"): a requirement of any other value matches no offering, and no node launches.
 */
export const KARPENTER_CAPACITY_TYPES = ['on-demand', 'spot', 'reserved'] as const;

/**
 * Karpenter writes a Windows node's user data as one PowerShell block: `<powershell>`, then
 * `spec.userData` as it is, then the EKS bootstrap (pkg/providers/amifamily/bootstrap/windows.go,
 * `Script`). A shell script there (`#!/bin/bash`) or a MIME multi-part document (what the Linux
 * families merge) is handed to PowerShell as it is: none of its commands does what it says, and
 * nothing reports it (PowerShell reads `#!` as a comment and goes on).
 */
export const KARPENTER_WINDOWS_USER_DATA = {
  notPowerShell: /^\s*(#!|MIME-Version:|Content-Type:\s*multipart\/)/i,
  source: `${KARPENTER_SOURCE} pkg/providers/amifamily/bootstrap/windows.go (Script)`,
} as const;
