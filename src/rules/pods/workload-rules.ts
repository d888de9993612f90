import { HYPERV_HANDLER, LABEL_HYPERV } from '../../platform/windows';
import { WINDOWS_SUPPORT, WindowsPlatform, runsWindowsNodes } from '../../platform/support';
import { manifestPath, podTemplatesOf } from './pod-template';
import { noWindowsNodesIssues } from './windows-pod-rules';
import { POD_RULES, podViolation, runtimeClassesOf } from './pod-rules';
import { Json, list, ManifestGraph, ManifestRule, violation } from '../engine/graph';
import { Finding, registry, rule } from '../engine/rule';
import { eksPodIssues } from './eks-pod-rules';
import { CSI_WINDOWS_NODE_RULE } from './csi-rules';
import { OBJECT_META_RULE } from '../meta/object-meta';
import { GMSA_RULE } from './gmsa-rules';
import { LOAD_BALANCER_TARGETS_RULE } from './load-balancer-rules';
import { WORKLOAD_SELECTOR_RULE } from './selector-rules';
import { CRONJOB_SCHEDULE_RULE, JOB_INDEXED_RULE, ROLLOUT_STRATEGY_RULE, WORKLOAD_COUNTS_RULE, WORKLOAD_RESTART_POLICY_RULE } from './workload-spec-rules';

/**
 * A Service's ports: the API server refuses two of one port and protocol (kubernetes
 * pkg/apis/core/validation/validation.go, ValidateService: "Duplicate value" for a repeated
 * `ServicePort{Port, Protocol}`), and two of one name.
 */
export const SERVICE_PORTS_RULE = rule<ManifestGraph>({
  name: 'service-ports',
  scope: 'graph',
  description: 'A Service lists each port and protocol once, and each port name once',
  source: 'kubernetes v1.34 pkg/apis/core/validation/validation.go (ValidateService)',
  check: (graph) => graph.ofKind('Service').filter((s) => s.manifest.apiVersion === 'v1').flatMap((service) => {
    const out: Finding[] = [];
    const seen = new Map<string, number>();
    const names = new Map<string, number>();
    list(service.manifest.spec?.ports).forEach((p, i) => {
      const key = `${p?.port}/${p?.protocol ?? 'TCP'}`;
      if (seen.has(key)) out.push(violation(service, `spec.ports[${i}] repeats port ${key} of spec.ports[${seen.get(key)}], which the API server refuses`, `remove spec.ports[${i}], or change its port or protocol`, `spec.ports[${i}]`));
      seen.set(key, i);
      if (typeof p?.name === 'string') {
        if (names.has(p.name)) out.push(violation(service, `spec.ports[${i}] repeats the name "${p.name}" of spec.ports[${names.get(p.name)}], which the API server refuses`, `rename spec.ports[${i}].name`, `spec.ports[${i}].name`));
        names.set(p.name, i);
      }
    });
    return out;
  }),
});

/** The platforms that run no Windows nodes (`runsWindowsNodes`). */
const NO_WINDOWS = Object.values(WindowsPlatform).filter((p) => !runsWindowsNodes(p));

/**
 * Windows pod templates on a platform that runs no Windows nodes (`noWindowsNodesIssues`, read from
 * the support matrix and the engine's `context.platform`): on k3s a Windows pod lacks no
 * toleration, it has no node at all.
 */
export const WINDOWS_NODES_RULE = rule<ManifestGraph>({
  name: 'windows-nodes',
  scope: 'graph',
  description: `A pod template aimed at Windows is for a platform that runs Windows nodes (${NO_WINDOWS.join(', ')} runs none)`,
  source: `WINDOWS_SUPPORT (src/platform/support.ts): ${[...new Set(NO_WINDOWS.flatMap((p) => Object.values(WINDOWS_SUPPORT[p]).map((row) => row.source)))].join('; ')}`,
  check: (graph) => {
    const platform = graph.context.platform;
    // Only on a platform without Windows nodes is there anything to find: no need to read every template.
    if (platform === undefined || runsWindowsNodes(platform)) return [];
    const classes = runtimeClassesOf(graph);
    return graph.sources.flatMap((source) => podTemplatesOf(source.manifest).flatMap((location) =>
      noWindowsNodesIssues(location.spec, graph.context.platform, (name) => classes.get(name)?.os).map((v) => podViolation(source, location, v))));
  },
});

/** Every workload rule. */
export const WORKLOAD_RULES: readonly ManifestRule[] = registry<ManifestRule>([...POD_RULES, SERVICE_PORTS_RULE, WORKLOAD_SELECTOR_RULE, WORKLOAD_COUNTS_RULE, ROLLOUT_STRATEGY_RULE, CRONJOB_SCHEDULE_RULE, JOB_INDEXED_RULE, WORKLOAD_RESTART_POLICY_RULE, GMSA_RULE, OBJECT_META_RULE, CSI_WINDOWS_NODE_RULE, WINDOWS_NODES_RULE]);

/** Windows pods on Amazon EKS get an address only when their nodeSelector names Windows (`eksPodIssues`). */
export const EKS_POD_ADDRESS_RULE = rule<ManifestGraph>({
  name: 'eks-pod-address',
  scope: 'graph',
  description: 'On Amazon EKS, a Windows pod\'s nodeSelector names Windows, or the VPC resource controller gives it no address',
  source: 'aws/amazon-vpc-resource-controller-k8s v1.7.19 webhooks/core/pod_webhook.go (WhichPod)',
  check: (graph) => {
    const classes = runtimeClassesOf(graph);
    return graph.sources.flatMap((source) => podTemplatesOf(source.manifest).flatMap((location) =>
      eksPodIssues(location.spec, (name) => classes.get(name)?.os).map((v) => podViolation(source, location, v))));
  },
});

/**
 * Hyper-V isolated pods on Amazon EKS: no node can run them. The pods select `LABEL_HYPERV`
 * (their own selector or their RuntimeClass's) or name a RuntimeClass of containerd's
 * `runhcs-wcow-hypervisor` handler; an EKS managed node group runs the EKS-optimized Windows AMI,
 * whose containerd is set up with no Hyper-V runtime handler (EKS User Guide
 * `latest/ug/nodes/eks-optimized-windows-ami.adoc`: the AMI's components; the runhcs
 * Hyper-V handler is not among them), on EC2 instances without nested virtualization (the
 * Hyper-V role needs a metal instance). They stay Pending, or fail with "no runtime for handler".
 */
export const EKS_HYPERV_RULE = rule<ManifestGraph>({
  name: 'eks-hyperv',
  scope: 'graph',
  description: 'On Amazon EKS, no Hyper-V isolated pods or RuntimeClasses: no EKS node runs them',
  source: 'awsdocs/amazon-eks-user-guide latest/ug/nodes/eks-optimized-windows-ami.adoc (the Windows AMI\'s components)',
  check: (graph) => {
    const classes = new Map(graph.ofKind('RuntimeClass').map((s) => [String(s.manifest.metadata?.name), s]));
    const hyperVClass = (c: { manifest: Json } | undefined) => c !== undefined && (c.manifest.handler === HYPERV_HANDLER || c.manifest.scheduling?.nodeSelector?.[LABEL_HYPERV] !== undefined);
    const fix = 'run Hyper-V isolated pods on a k0smotron cluster (WindowsWorkerPool hyperV: true on a metal instance), or drop the isolation on EKS';
    const yamlFix = (field: string) => `remove ${field} on EKS (process isolation), or run these pods on a cluster whose Windows nodes have containerd's ${HYPERV_HANDLER} handler on a metal instance`;
    const out: Finding[] = [...classes.values()].filter(hyperVClass).map((c) => violation(c,
      `RuntimeClass ${c.manifest.metadata?.name} (handler ${c.manifest.handler}) is for Hyper-V isolated pods, which no EKS node runs: the EKS-optimized Windows AMI's containerd has no Hyper-V runtime handler, and EC2 gives nested virtualization to metal instances only`, fix, 'handler',
      'delete this RuntimeClass on EKS, and remove spec.runtimeClassName from the pods that name it'));
    for (const source of graph.sources) {
      for (const location of podTemplatesOf(source.manifest)) {
        const own = location.spec?.nodeSelector?.[LABEL_HYPERV] !== undefined;
        const runtimeClass = typeof location.spec?.runtimeClassName === 'string' ? location.spec.runtimeClassName : undefined;
        if (!own && !hyperVClass(runtimeClass === undefined ? undefined : classes.get(runtimeClass))) continue;
        const field = own ? `nodeSelector.${LABEL_HYPERV}` : 'runtimeClassName';
        out.push(violation(source, `${manifestPath(location, `spec.${field}`)}: the pod asks for Hyper-V isolation (${own ? `nodeSelector ${LABEL_HYPERV}` : `RuntimeClass ${runtimeClass}`}), and no EKS node can run it, so it stays Pending`,
          fix, manifestPath(location, `spec.${field}`), yamlFix(manifestPath(location, `spec.${field}`))));
      }
    }
    return out;
  },
});

/**
 * The workload rules that hold on Amazon EKS only (`validateManifests` `platform: WindowsPlatform.EKS`):
 * Windows pod addresses, Hyper-V isolation (`EKS_HYPERV_RULE`), and load balancers kept off Windows nodes (`LOAD_BALANCER_TARGETS_RULE`,
 * which holds wherever AWS load balancers serve Services, so on `K0SMOTRON_AWS` too: `platformRules`).
 */
export const EKS_WORKLOAD_RULES: readonly ManifestRule[] = registry<ManifestRule>([EKS_POD_ADDRESS_RULE, LOAD_BALANCER_TARGETS_RULE, EKS_HYPERV_RULE]);
export { LOAD_BALANCER_TARGETS_RULE } from './load-balancer-rules';
