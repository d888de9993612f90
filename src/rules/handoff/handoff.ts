import { ClusterInfra } from '../../infra/cluster-infra';
import { InstanceType } from '../../platform/instance-type';
import { KeyPairType, WINDOWS_ED25519_KEY } from '../../platform/aws';
import { AWS_INFRASTRUCTURE } from '../../platform/infrastructures';
import { ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

/**
 * What a cluster's objects, as written (after JSON patches), must agree on with the AWS stack that
 * made the infra their cluster was given (`ManifestSource.infra`): the Cluster's name (the stack
 * tagged the subnets `kubernetes.io/cluster/<name>`, which the AWS cloud provider looks for; CAPA
 * book `topics/bring-your-own-aws-infrastructure.md`, linked from k0smotron `docs/capi-aws.md`),
 * the AWSCluster's region and VPC, the instance type of every machine template that boots the
 * infra's Linux AMI (an AMI runs on one architecture only), the key pair of Windows machines and
 * the zones of the pools. It judges each object beside what it references, so it runs when a
 * construct is built and again at synth.
 */
export const handOff = rule<ManifestGraph>({
  name: 'hand-off',
  scope: 'object',
  description: 'The objects agree with the AWS stack that made the cluster\'s infra: name, region, VPC, AMI architecture, Windows key pair, zones',
  source: 'cluster-api-provider-aws book topics/bring-your-own-aws-infrastructure.md; EC2 RunInstances (ED25519 key pairs and Windows AMIs)',
  check: (graph) => {
    const problems: Finding[] = [];
    for (const source of graph.sources) {
      const infra = source.infra;
      if (!infra) continue;
      problems.push(...objectViolations(infra, source), ...windowsKeyViolations(infra, graph, source), ...zoneViolations(infra, source));
    }
    return problems;
  },
});

function objectViolations(infra: ClusterInfra, source: ManifestSource): Finding[] {
  const problems: Finding[] = [];
  const obj = source.manifest;
  const at = (what: string, fix: string, field: string) => problems.push(violation(source, what, fix, field));
  if (obj.kind === 'Cluster' && String(obj.apiVersion).startsWith('cluster.x-k8s.io/')) {
    const name: unknown = obj.metadata?.name;
    if (infra.clusterName !== undefined && name !== infra.clusterName) {
      at(`the Cluster is named ${JSON.stringify(name)}, and the AWS stack tagged its network for "${infra.clusterName}"`, `keep the name "${infra.clusterName}", or deploy the stack with clusterName ${JSON.stringify(name)}`, 'metadata.name');
    }
  } else if (obj.kind === AWS_INFRASTRUCTURE.clusterKind) {
    const spec = obj.spec ?? {};
    if (spec.region !== infra.region) {
      at(`spec.region ${JSON.stringify(spec.region)} is not the infra's region ${infra.region}`, 'keep the infra\'s region, or use the infra of that region', 'spec.region');
    }
    if (spec.network?.vpc?.id !== infra.vpcId) {
      at(`spec.network.vpc.id ${JSON.stringify(spec.network?.vpc?.id)} is not the infra's VPC ${infra.vpcId}, whose subnets the cluster lists`, 'keep the infra\'s VPC', 'spec.network.vpc.id');
    }
  } else if (obj.kind === AWS_INFRASTRUCTURE.machineTemplateKind) {
    const spec = obj.spec?.template?.spec ?? {};
    if (spec.ami?.id !== infra.linuxAmiId) return problems;
    const type = InstanceType.parse(spec.instanceType);
    if (typeof type !== 'string' && type.arch !== undefined && type.arch !== infra.linuxAmiArchitecture) {
      at(`instance type ${type.name} is ${type.arch}, and it boots the infra's Linux AMI ${infra.linuxAmiId}, which is ${infra.linuxAmiArchitecture}`,
        'pick an instance type of the AMI\'s architecture, or another AMI', 'spec.template.spec.instanceType');
    }
  }
  return problems;
}

/**
 * The stack's ED25519 key on a Windows machine, which EC2 refuses to launch: the machine template
 * of a Windows MachineDeployment (`md`), with its key pair (its own, else its AWSCluster's).
 */
function windowsKeyViolations(infra: ClusterInfra, graph: ManifestGraph, md: ManifestSource): Finding[] {
  if (md.manifest.kind !== 'MachineDeployment' || infra.sshKeyType !== KeyPairType.ED25519 || !infra.sshKeyName) return [];
  const spec = md.manifest.spec ?? {};
  const config = graph.resolve(md, spec.template?.spec?.bootstrap?.configRef);
  const template = graph.resolve(md, spec.template?.spec?.infrastructureRef);
  if (config?.manifest.spec?.template?.spec?.provisioner?.platform !== 'windows' || template?.manifest.kind !== AWS_INFRASTRUCTURE.machineTemplateKind) return [];
  const cluster = graph.cluster(md, spec.clusterName);
  const clusterKey = cluster ? graph.resolve(cluster, cluster.manifest.spec?.infrastructureRef)?.manifest.spec?.sshKeyName : undefined;
  const key = template.manifest.spec?.template?.spec?.sshKeyName ?? clusterKey;
  return key !== infra.sshKeyName ? [] : [violation(template,
    `it boots Windows with the AWS stack's key pair "${infra.sshKeyName}", an ED25519 key: ${WINDOWS_ED25519_KEY}`,
    'import an RSA key in the AWS stack, or give Windows machines sshKeyName "" (none)', 'spec.template.spec.sshKeyName')];
}

/**
 * Failure domains the infra's VPC has no private subnet in: the AWSCluster lists the infra's
 * subnets by id, so only the stack knows their zones, and CAPA never creates a machine in a zone
 * without one (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go, findSubnet).
 */
function zoneViolations(infra: ClusterInfra, md: ManifestSource): Finding[] {
  const zones = infra.privateSubnetZones;
  if (!zones || md.manifest.kind !== 'MachineDeployment') return [];
  const fd = md.manifest.spec?.template?.spec?.failureDomain;
  return fd === undefined || zones.includes(fd) ? [] : [violation(md,
    `failureDomain ${JSON.stringify(fd)} has none of the infra's private subnets (they are in ${[...new Set(zones)].join(', ')}), so CAPA never creates its machines`,
    'use a zone of the infra (leave the pool\'s zones out for all of them)', 'spec.template.spec.failureDomain')];
}
