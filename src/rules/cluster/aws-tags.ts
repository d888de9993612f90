import { AWS_TAG_FIX, awsTagProblems } from '../../platform/aws';
import { AWS_INFRASTRUCTURE } from '../../platform/infrastructures';
import { isCapi, ManifestGraph, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

/**
 * AWS tags as CAPA's webhooks validate them (`awsTagProblems`): the AWSCluster's `additionalTags`
 * (cluster-api-provider-aws v2.11.1 webhooks/awscluster_webhook.go) and each
 * AWSMachineTemplate's (webhooks/awsmachinetemplate_webhook.go). A refused map stops the object at
 * `kubectl apply`.
 */
export const awsTags = rule<ManifestGraph>({
  name: 'aws-tags',
  scope: 'object',
  description: 'AWS tags on the AWSCluster and AWSMachineTemplates as CAPA\'s webhooks validate them',
  source: 'cluster-api-provider-aws v2.11.1 webhooks/awscluster_webhook.go, webhooks/awsmachinetemplate_webhook.go',
  check: (graph) => {
    const out: Finding[] = [];
    const fix = AWS_TAG_FIX;
    for (const aws of graph.ofKind(AWS_INFRASTRUCTURE.clusterKind).filter((a) => isCapi(a, 'infrastructure.cluster.x-k8s.io'))) {
      for (const p of awsTagProblems(aws.manifest.spec?.additionalTags)) out.push(violation(aws, `additionalTags: ${p}`, fix, 'spec.additionalTags'));
    }
    for (const template of graph.ofKind(AWS_INFRASTRUCTURE.machineTemplateKind).filter((a) => isCapi(a, 'infrastructure.cluster.x-k8s.io'))) {
      for (const p of awsTagProblems(template.manifest.spec?.template?.spec?.additionalTags)) {
        out.push(violation(template, `additionalTags: ${p}`, fix, 'spec.template.spec.additionalTags'));
      }
    }
    return out;
  },
});
