import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { choice, flag, optional, propsSpec, stringRecord, text } from '../core/props-spec';
import { dnsLabelProblem } from '../platform/dns';
import { WindowsPlatform } from '../platform/support';
import { PodTemplatePolicy } from './pod-template-policy';

/** Props of `HybridChart`: cdk8s's `ChartProps` and the platform the chart is for. */
export interface HybridChartProps extends ChartProps {
  /**
   * The platform the chart is for; its own pod-template checks are added
   * (`PodTemplatePolicy.checkFor`): Windows pods must tolerate the taint the platform's Windows
   * nodes carry (`windowsNodeTaint`), and on `WindowsPlatform.EKS` a Windows pod gets an address
   * only when its nodeSelector names Windows. `WindowsPlatform.GKE`: the chart's `WindowsPod`s and
   * `WindowsWorkload`s tolerate GKE's taint `node.kubernetes.io/os=windows:NoSchedule`. RKE2's
   * Windows nodes carry no taint; `WindowsPlatform.K3S` has no Windows nodes, so every Windows pod
   * is refused (`windows-nodes`).
   * @default - the checks that hold on every platform (a Windows pod must select Windows, and need
   * tolerate no taint)
   */
  readonly platform?: WindowsPlatform;
}

/**
 * The spec of `HybridChartProps`: cdk8s's `ChartProps` (the namespace it writes into every
 * namespaced object, a DNS label: kubernetes ValidateNamespaceName) and the platform.
 * @internal
 */
export const HYBRID_CHART_PROPS = propsSpec<HybridChartProps>('HybridChart', {
  platform: optional(choice(WindowsPlatform, 'WindowsPlatform')),
  namespace: optional(text({ max: 63, form: 'a namespace name (a DNS label)', example: 'apps', problem: dnsLabelProblem })),
  labels: optional(stringRecord()),
  disableResourceNameHashes: optional(flag()),
});

/**
 * A chart for a cluster with Windows and Linux nodes: every pod template that does not ask for
 * Windows is pinned to Linux (`spec.os.name: linux`, node selector `kubernetes.io/os: linux`),
 * whether it comes from cdk8s-plus, `Include` or a plain `ApiObject`, and every pod template is
 * checked at synth time; LoadBalancer Services of its Linux pods are kept off Windows nodes
 * (`PodTemplatePolicy.targetLinuxNodes`). Same as `PodTemplatePolicy.of(chart).pinLinux()` and
 * `.targetLinuxNodes()` on a plain Chart.
 */
export class HybridChart extends Chart {
  constructor(scope: Construct, id: string, given: HybridChartProps = {}) {
    // Parsed before the chart exists: errors name the path it is about to have.
    const { platform, ...chartProps } = HYBRID_CHART_PROPS.parse(scope.node.path === '' ? id : `${scope.node.path}/${id}`, given);
    super(scope, id, chartProps);
    const policy = PodTemplatePolicy.of(this);
    policy.pinLinux();
    policy.targetLinuxNodes();
    if (platform !== undefined) policy.checkFor(platform);
  }
}
