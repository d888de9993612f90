import { KARPENTER_GROUPS, KARPENTER_SOURCE, KARPENTER_WINDOWS_LIMITS, KARPENTER_WINDOWS_USER_DATA, karpenterWindowsVersion } from '../../platform/karpenter';
import { LABEL_OS, WINDOWS_NODE_TAINT } from '../../platform/windows';
import { describe, groupOf, isCapi, list, ManifestGraph, ManifestRule, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

/**
 * Rules for Karpenter's Windows pools on EKS (aws/karpenter-provider-aws v1.14.1), over the final
 * NodePool and EC2NodeClass objects. The CRDs' own CEL rules (a Windows alias other than `@latest`
 * among them) are the `crd-cel` rule's; these are what the CRDs accept and Windows nodes cannot do.
 */

/** The EC2NodeClass a NodePool's `spec.template.spec.nodeClassRef` names (cluster-scoped: no namespace). */
function nodeClassOf(all: readonly ManifestSource[], pool: ManifestSource): ManifestSource | undefined {
  const ref = pool.manifest.spec?.template?.spec?.nodeClassRef;
  if (ref?.group !== KARPENTER_GROUPS.nodeClass || ref?.kind !== 'EC2NodeClass') return undefined;
  return all.find((c) => c.manifest.kind === 'EC2NodeClass' && isCapi(c, KARPENTER_GROUPS.nodeClass) && c.manifest.metadata?.name === ref.name);
}

/** Whether a NodePool's requirements allow `kubernetes.io/os: windows` only. */
function requiresWindows(pool: ManifestSource): boolean {
  return list(pool.manifest.spec?.template?.spec?.requirements)
    .some((r) => r?.key === LABEL_OS && r?.operator === 'In' && list(r.values).length > 0 && list(r.values).every((v) => v === 'windows'));
}

/**
 * A Windows EC2NodeClass with more than one network interface: Windows nodes use one ENI
 * (KARPENTER_WINDOWS_LIMITS.oneEni), so the others would carry no pod addresses.
 */
function nodeClassProblems(nodeClass: ManifestSource): Finding[] {
  const version = karpenterWindowsVersion(nodeClass.manifest.spec);
  if (version === undefined) return [];
  const findings: Finding[] = [];
  const interfaces = list(nodeClass.manifest.spec?.networkInterfaces);
  if (interfaces.length > 1) {
    findings.push(violation(nodeClass,
      `${describe(nodeClass)} launches Windows Server ${version} with ${interfaces.length} network interfaces, and Windows nodes use one ENI (${KARPENTER_WINDOWS_LIMITS.oneEni})`,
      'remove spec.networkInterfaces (the default is one primary interface)', 'spec.networkInterfaces'));
  }
  const userData = nodeClass.manifest.spec?.userData;
  if (typeof userData === 'string' && KARPENTER_WINDOWS_USER_DATA.notPowerShell.test(userData)) {
    findings.push(violation(nodeClass,
      `${describe(nodeClass)} launches Windows Server ${version} with spec.userData that is a shell script or a MIME document, and Karpenter runs a Windows node's user data as PowerShell (${KARPENTER_WINDOWS_USER_DATA.source}): none of its commands does what it says`,
      'write spec.userData as PowerShell commands, without <powershell> tags (Karpenter adds them) or a #! line', 'spec.userData'));
  }
  return findings;
}

/**
 * The AMI alias family an EC2NodeClass names when it is not a Windows one (`al2023@latest`), or
 * undefined: such a class launches Linux, whose nodes never meet a Windows NodePool's requirements.
 */
function linuxAliasFamily(nodeClass: ManifestSource | undefined): string | undefined {
  if (nodeClass === undefined || karpenterWindowsVersion(nodeClass.manifest.spec) !== undefined) return undefined;
  const alias = list(nodeClass.manifest.spec?.amiSelectorTerms).map((t) => t?.alias).find((a) => typeof a === 'string');
  return alias?.split('@')[0];
}

/**
 * A NodePool of Windows nodes without a NoSchedule or NoExecute taint: a pod that names no OS
 * (every Linux pod written without a `kubernetes.io/os` selector) fits its requirements, so
 * Karpenter may launch a Windows node for it, where it never starts.
 */
function nodePoolProblems(all: readonly ManifestSource[], pool: ManifestSource): Finding[] {
  const nodeClass = nodeClassOf(all, pool);
  const windows = requiresWindows(pool) || karpenterWindowsVersion(nodeClass?.manifest.spec) !== undefined;
  if (!windows) return [];
  const linuxFamily = requiresWindows(pool) ? linuxAliasFamily(nodeClass) : undefined;
  const mismatch = linuxFamily === undefined ? [] : [violation(pool,
    `${describe(pool)} requires ${LABEL_OS} windows, and its ${describe(nodeClass!)} launches the ${linuxFamily} AMI family, whose nodes are Linux: Karpenter finds no instance that meets both and launches nothing`,
    `give ${describe(nodeClass!)} a Windows alias (windows2019@latest, windows2022@latest, windows2025@latest), or point the NodePool at a Windows EC2NodeClass`, 'spec.template.spec.nodeClassRef')];
  const taints = list(pool.manifest.spec?.template?.spec?.taints);
  if (taints.some((t) => t?.effect === 'NoSchedule' || t?.effect === 'NoExecute')) return mismatch;
  return [...mismatch, violation(pool,
    `${describe(pool)} makes Windows nodes without a NoSchedule taint, so Karpenter also launches them for Linux pods that name no OS, which never start there`,
    `add the taint ${WINDOWS_NODE_TAINT.key}=${WINDOWS_NODE_TAINT.value}:${WINDOWS_NODE_TAINT.effect} to spec.template.spec.taints (KarpenterWindowsNodePool sets it; the workload constructs tolerate it)`,
    'spec.template.spec.taints',
    `add { key: ${WINDOWS_NODE_TAINT.key}, value: ${WINDOWS_NODE_TAINT.value}, effect: ${WINDOWS_NODE_TAINT.effect} } to spec.template.spec.taints, and the matching toleration to the Windows pods' spec.tolerations`)];
}

const karpenterWindows = rule<ManifestGraph>({
  name: 'karpenter-windows',
  scope: 'object',
  description: 'A Windows EC2NodeClass has one network interface and PowerShell user data; a Windows NodePool carries a NoSchedule taint and names a Windows EC2NodeClass',
  source: `${KARPENTER_SOURCE} website/content/en/docs/concepts/nodeclasses.md (Windows Support Notice); pkg/providers/amifamily/bootstrap/windows.go (Script); pkg/providers/amifamily/resolver.go (alias families)`,
  check: (graph) => {
    const classes = graph.ofKind('EC2NodeClass').filter((c) => groupOf(c.manifest.apiVersion) === KARPENTER_GROUPS.nodeClass);
    const pools = graph.ofKind('NodePool').filter((p) => groupOf(p.manifest.apiVersion) === KARPENTER_GROUPS.nodePool);
    return [...classes.flatMap(nodeClassProblems), ...pools.flatMap((p) => nodePoolProblems(classes, p))];
  },
});

/** The Karpenter rules, part of `CLUSTER_RULES`. */
export const KARPENTER_RULES: readonly ManifestRule[] = [karpenterWindows];
