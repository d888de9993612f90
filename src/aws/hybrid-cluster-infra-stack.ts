import { Construct } from 'constructs';
import { judgeOwnResources } from '../terraform/judge';
import { stringMap } from '../core/values';
import { HybridClusterInfra, HybridClusterInfraProps } from './hybrid-cluster-infra';
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

/** A standalone stack: an `AwsProvider` for `region` and one `HybridClusterInfra`. */
export class HybridClusterInfraStack extends TerraformStack {
  /** The stack's AWS provider, for `region`. */
  public readonly provider: AwsProvider;
  /** The cluster's infrastructure. */
  public readonly infra: HybridClusterInfra;

  public constructor(scope: Construct, id: string, props: HybridClusterInfraStackProps) {
    super(scope, id);
    const { region, defaultTags, ...infra } = props;
    const tags = stringMap({ path: this.node.path, prop: 'defaultTags' }, defaultTags);
    this.provider = new AwsProvider(this, 'aws', { region, defaultTags: tags ? [{ tags: { ...tags } }] : undefined });
    judgeOwnResources(this, [this.provider], { 'provider region': 'region', 'provider default_tags.tags': 'defaultTags' });
    this.infra = new HybridClusterInfra(this, 'Infra', infra);
  }
}
