import { Construct } from 'constructs';
import { judgeOwnResources } from '../terraform/judge';
import { handedOn, optional, propsSpec, required, stringRecord, text } from '../core/props-spec';
import { HYBRID_CLUSTER_INFRA_PROPS, HybridClusterInfra, HybridClusterInfraProps } from './hybrid-cluster-infra';
import { AwsProvider, TerraformStack } from '../terraform/providers/aws';

/** `HybridClusterInfraProps` plus the provider's region and default tags. */
export interface HybridClusterInfraStackProps extends HybridClusterInfraProps {
  /** AWS region to deploy to, e.g. `eu-north-1`. */
  readonly region: string;
  /**
   * Tags the provider adds to every resource it creates.
   * @default - none
   */
  readonly defaultTags?: Record<string, string>;
}

/**
 * The spec of `HybridClusterInfraStackProps`: the infrastructure's props are handed on to
 * `HybridClusterInfra`, which parses them.
 * @internal
 */
export const HYBRID_CLUSTER_INFRA_STACK_PROPS = propsSpec<HybridClusterInfraStackProps>('HybridClusterInfraStack', {
  ...handedOn(HYBRID_CLUSTER_INFRA_PROPS.entries, 'HybridClusterInfra'),
  region: required(text({ max: 64, form: 'an AWS region', example: 'eu-north-1', judgedBy: 'aws-provider-region' }), 'give region, e.g. "eu-north-1"'),
  defaultTags: optional(stringRecord()),
});

/** A standalone stack: an `AwsProvider` for `region` and one `HybridClusterInfra`. */
export class HybridClusterInfraStack extends TerraformStack {
  /** The stack's AWS provider, for `region`. */
  public readonly provider: AwsProvider;
  /** The cluster's infrastructure. */
  public readonly infra: HybridClusterInfra;

  public constructor(scope: Construct, id: string, given: HybridClusterInfraStackProps) {
    super(scope, id);
    const { region, defaultTags: tags, ...infra } = HYBRID_CLUSTER_INFRA_STACK_PROPS.parse(this.node.path, given);
    this.provider = new AwsProvider(this, 'aws', { region, defaultTags: tags ? [{ tags: { ...tags } }] : undefined });
    judgeOwnResources(this, [this.provider], { 'provider region': 'region', 'provider default_tags.tags': 'defaultTags' });
    this.infra = new HybridClusterInfra(this, 'Infra', infra);
  }
}
