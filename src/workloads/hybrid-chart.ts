import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { PodTemplatePolicy } from './pod-template-policy';

/**
 * A chart for a cluster with Windows and Linux nodes: every pod template that does not ask for
 * Windows is pinned to Linux (`spec.os.name: linux`, node selector `kubernetes.io/os: linux`),
 * whether it comes from cdk8s-plus, `Include` or a plain `ApiObject`, and every pod template is
 * checked at synth time. Same as `PodTemplatePolicy.of(chart).pinLinux()` on a plain Chart.
 */
export class HybridChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    PodTemplatePolicy.of(this).pinLinux();
  }
}
