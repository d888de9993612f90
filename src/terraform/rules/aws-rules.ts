import { Finding, registry, rule } from '../../rules/engine/rule';
import { AWS_TAG_FIX, AvailabilityZone, AwsRegion, awsTagProblems } from '../../platform/aws';
import { AWS_LARGEST_PREFIX, AWS_SMALLEST_PREFIX, parseCidr } from '../../platform/cidr';
import { TerraformGraph, TerraformRule, address, blockViolation, isExpression, single } from '../graph';

/**
 * The AWS rules over the final Terraform JSON of the AWS and EKS stacks: a provider for the
 * stack's resources in a real region, subnets in zones of that region, VPC and subnet blocks
 * the provider takes.
 */

/**
 * A stack whose resources use the AWS provider needs its configuration: Terraform gives a block
 * whose `provider` names no configuration (none, or an alias the stack lacks: a block without
 * `provider` uses the one without alias) an empty default one, whose region only the environment
 * (`AWS_REGION`) can give, and whose default tags and credentials are not the ones meant.
 */
const awsProvider = rule<TerraformGraph>({
  name: 'aws-provider',
  scope: 'graph',
  description: 'A stack whose resources use the AWS provider has its configuration, and each block names a configured one (else only AWS_REGION gives a region)',
  source: 'Terraform: a resource without a configured provider uses an empty default configuration',
  check: (graph) => [...graph.stacks.keys()].flatMap((stack) => {
    const aws = graph.blocks.filter((b) => b.stack === stack && b.mode !== 'provider' && b.type.startsWith('aws_'));
    if (aws.length === 0) return [];
    const configured = graph.ofType('provider.aws').filter((p) => p.stack === stack);
    if (configured.length === 0) {
      return [blockViolation(aws[0], `stack "${stack}" has no AwsProvider, and its AWS resources need one`,
        "add new AwsProvider(stack, 'aws', { region }), or use HybridClusterInfraStack or HybridEksStack")];
    }
    const unbound = aws.filter((b) => !isExpression(b.body.provider) && graph.providerOf(b, 'aws') === undefined);
    if (unbound.length === 0) return [];
    const aliases = configured.map((p) => p.id === 'default' ? 'none' : JSON.stringify(p.id)).join(', ');
    const wanted = typeof unbound[0].body.provider === 'string' ? `the provider ${unbound[0].body.provider}` : 'the AwsProvider without alias';
    return [blockViolation(unbound[0],
      `${unbound.length} AWS block(s) of stack "${stack}" (${address(unbound[0])} first) use ${wanted}, and the stack's AwsProviders have the alias(es) ${aliases}: `
        + 'Terraform would give them an empty configuration, with the region of the environment, not a configured one',
      'add an AwsProvider without alias to the stack for them (or put the foundation in a stack of its own: HybridClusterInfraStack)')];
  }),
});

/** The provider's region: a region name, not a zone, an empty string or a made-up name (the provider's endpoints are per region). */
const providerRegion = rule<TerraformGraph>({
  name: 'aws-provider-region',
  scope: 'object',
  description: 'The AWS provider\'s region is a region name, not a zone or a made-up name',
  source: 'hashicorp/terraform-provider-aws v6.66 internal/conns/config.go; AWS partition data (endpoints.json)',
  check: (graph) => graph.ofType('provider.aws').flatMap((provider) => {
    const region = provider.body.region;
    if (region === undefined || isExpression(region)) return [];
    const p = AwsRegion.problem(region);
    return p ? [blockViolation(provider, p, 'use a region name such as eu-north-1', 'region')] : [];
  }),
});

/**
 * The provider's `default_tags`, which it adds to every resource it creates: judged by the one
 * AWS tag rule of the cluster side (`awsTagProblems`). A key starting with `aws:` or a value
 * over 256 characters fails every create and update at apply (the services' TagResource and
 * Create calls refuse it: Tagging AWS Resources, "Tag naming limits and requirements").
 */
const providerTags = rule<TerraformGraph>({
  name: 'aws-provider-tags',
  scope: 'object',
  description: 'The AWS provider\'s default_tags are tags AWS takes (the cluster side\'s one tag rule)',
  source: 'AWS Tagging AWS Resources, "Tag naming limits and requirements"; cluster-api-provider-aws v2.11.1 api/v1beta2/tags.go',
  check: (graph) => graph.ofType('provider.aws').flatMap((provider) => {
    const tags = single(provider.body.default_tags).tags;
    if (tags === undefined || isExpression(tags)) return [];
    return awsTagProblems(tags).map((p) => blockViolation(provider, `default_tags: ${p}`, AWS_TAG_FIX, 'default_tags.tags'));
  }),
});

/** IPv4 blocks the provider takes (`verify.ValidIPv4CIDRNetworkAddress`: a network address) of a size AWS takes (/16 to /28). */
function cidrProblem(text: unknown): string | undefined {
  try {
    const cidr = parseCidr(String(text));
    return cidr.prefix < AWS_LARGEST_PREFIX || cidr.prefix > AWS_SMALLEST_PREFIX ? `${text} is a /${cidr.prefix}; AWS takes /${AWS_LARGEST_PREFIX} to /${AWS_SMALLEST_PREFIX}` : undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * VPCs and subnets: IPv4 blocks AWS takes, and subnets in availability zones of their provider's
 * region (EC2 CreateSubnet fails for a zone of another region or a made-up one).
 */
const network = rule<TerraformGraph>({
  name: 'aws-vpc',
  scope: 'object',
  description: 'VPC and subnet CIDR blocks are network addresses of /16 to /28, and subnets are in zones of their provider\'s region',
  source: 'hashicorp/terraform-provider-aws v6.66 internal/verify/validate.go (ValidIPv4CIDRNetworkAddress); EC2 CreateSubnet',
  check: (graph) => [
    ...graph.ofType('aws_vpc').flatMap((vpc) => {
      const cidr = vpc.body.cidr_block;
      const p = cidr === undefined || isExpression(cidr) ? undefined : cidrProblem(cidr);
      return p ? [blockViolation(vpc, `VPC CIDR ${p}`, 'use a block such as 10.0.0.0/16', 'cidr_block')] : [];
    }),
    ...graph.ofType('aws_subnet').flatMap((subnet) => {
      const out: Finding[] = [];
      const cidr = subnet.body.cidr_block;
      const p = cidr === undefined || isExpression(cidr) ? undefined : cidrProblem(cidr);
      if (p) out.push(blockViolation(subnet, `subnet CIDR ${p}`, 'use a block inside the VPC\'s, such as 10.0.0.0/19', 'cidr_block'));
      const zone = subnet.body.availability_zone;
      const region = graph.providerOf(subnet, 'aws')?.body.region;
      if (typeof zone === 'string' && !isExpression(zone)) {
        const z = AvailabilityZone.problem(zone, typeof region === 'string' && !isExpression(region) && AwsRegion.problem(region) === undefined ? region : undefined);
        if (z) out.push(blockViolation(subnet, z, `use zones of the stack's region${typeof region === 'string' ? ` ${region}` : ''}, such as ${typeof region === 'string' ? region : 'eu-north-1'}a`, 'availability_zone'));
      }
      return out;
    }),
  ],
});

/** Every AWS rule, in the order messages are reported. */
export const AWS_RULES: readonly TerraformRule[] = registry<TerraformRule>([awsProvider, providerRegion, providerTags, network]);
