import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { PodTemplatePolicy } from './pod-template-policy';

/**
 * A chart for a cluster with Windows and Linux nodes: every pod template that does not ask for
 * Windows is pinned to Linux (`spec.os.name: linux`, node selector `kubernetes.io/os: linux`),
 * whether it comes from cdk8s-plus, `Include` or a plain `ApiObject`, and every pod template is
 * checked at synth time (see `PodTemplatePolicy`).
 */
export class HybridChart extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    PodTemplatePolicy.of(this).pinLinux();
  }

  /** Pins before rendering too, so that paths which skip validation (`Testing.synth`) get pinned manifests. */
  public override toJson(): any[] {
    PodTemplatePolicy.of(this).prepare();
    return super.toJson();
  }
}
