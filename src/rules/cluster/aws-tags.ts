import { AWS_TAG_FIX, awsTagProblems } from '../../platform/aws';
import { isCapi, ManifestViolation, rule, violation } from '../engine/graph';

/**
 * AWS tags as CAPA's webhooks validate them (`awsTagProblems`): the AWSCluster's `additionalTags`
 * (cluster-api-provider-aws v2.11.1 webhooks/awscluster_webhook.go) and each
 * AWSMachineTemplate's (webhooks/awsmachinetemplate_webhook.go). A refused map stops the object at
 * `kubectl apply`.
 */
export const awsTags = rule('aws-tags', (graph) => {
  const out: ManifestViolation[] = [];
  const fix = AWS_TAG_FIX;
  for (const aws of graph.ofKind('AWSCluster').filter((a) => isCapi(a, 'infrastructure.cluster.x-k8s.io'))) {
    for (const p of awsTagProblems(aws.manifest.spec?.additionalTags)) out.push(violation('aws-tags', aws, `additionalTags: ${p}`, fix, 'spec.additionalTags'));
  }
  for (const template of graph.ofKind('AWSMachineTemplate').filter((a) => isCapi(a, 'infrastructure.cluster.x-k8s.io'))) {
    for (const p of awsTagProblems(template.manifest.spec?.template?.spec?.additionalTags)) {
      out.push(violation('aws-tags', template, `additionalTags: ${p}`, fix, 'spec.template.spec.additionalTags'));
    }
  }
  return out;
});
