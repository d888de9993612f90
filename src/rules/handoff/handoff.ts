import { ClusterInfra } from '../../infra/cluster-infra';
import { InstanceType } from '../../platform/instance-type';
import { KeyPairType, WINDOWS_ED25519_KEY } from '../../platform/aws';
import { ManifestGraph, ManifestSource, ManifestViolation, violation } from '../engine/graph';

/**
 * What a cluster's objects, as written (after JSON patches), must agree on with
 * the AWS stack that made `infra`, as validation messages: the Cluster's name (the stack tagged
 * the subnets `kubernetes.io/cluster/<name>`, which the AWS cloud provider looks for; CAPA book
 * `topics/bring-your-own-aws-infrastructure.md`, linked from k0smotron `docs/capi-aws.md`), the
 * AWSCluster's region and VPC, and the instance type of every machine
 * template that boots the infra's Linux AMI (an AMI runs on one architecture only). The cluster
 * also checks its props when constructed, for a message that names the prop; this is the final
 * word, so a patch cannot slip past it.
 */
export function handOffViolations(infra: ClusterInfra, objects: readonly ManifestSource[]): ManifestViolation[] {
  const problems: ManifestViolation[] = [];
  for (const source of objects) {
    const obj = source.manifest;
    const at = (what: string, fix: string, field: string) => problems.push(violation('hand-off', source, what, fix, field));
    if (obj.kind === 'Cluster' && String(obj.apiVersion).startsWith('cluster.x-k8s.io/')) {
      const name: unknown = obj.metadata?.name;
      if (infra.clusterName !== undefined && name !== infra.clusterName) {
        at(`the Cluster is named ${JSON.stringify(name)}, and the AWS stack tagged its network for "${infra.clusterName}"`, `keep the name "${infra.clusterName}", or deploy the stack with clusterName ${JSON.stringify(name)}`, 'metadata.name');
      }
    } else if (obj.kind === 'AWSCluster') {
      const spec = obj.spec ?? {};
      if (spec.region !== infra.region) {
        at(`spec.region ${JSON.stringify(spec.region)} is not the infra's region ${infra.region}`, 'keep the infra\'s region, or use the infra of that region', 'spec.region');
      }
      if (spec.network?.vpc?.id !== infra.vpcId) {
        at(`spec.network.vpc.id ${JSON.stringify(spec.network?.vpc?.id)} is not the infra's VPC ${infra.vpcId}, whose subnets the cluster lists`, 'keep the infra\'s VPC', 'spec.network.vpc.id');
      }
    } else if (obj.kind === 'AWSMachineTemplate') {
      const spec = obj.spec?.template?.spec ?? {};
      if (spec.ami?.id !== infra.linuxAmiId) continue;
      const type = InstanceType.parse(spec.instanceType);
      if (typeof type !== 'string' && type.arch !== undefined && type.arch !== infra.linuxAmiArchitecture) {
        at(`instance type ${type.name} is ${type.arch}, and it boots the infra's Linux AMI ${infra.linuxAmiId}, which is ${infra.linuxAmiArchitecture}`,
          'pick an instance type of the AMI\'s architecture, or another AMI', 'spec.template.spec.instanceType');
      }
    }
  }
  problems.push(...windowsKeyViolations(infra, objects), ...zoneViolations(infra, objects));
  return problems;
}

/** Windows pools' machine templates, with their effective key pair (theirs, else the AWSCluster's). */
function windowsTemplates(objects: readonly ManifestSource[]): Array<{ template: ManifestSource; key: unknown }> {
  const graph = new ManifestGraph(objects);
  const clusterKey = graph.ofKind('AWSCluster')[0]?.manifest.spec?.sshKeyName;
  return graph.ofKind('MachineDeployment').flatMap((md) => {
    const template = md.manifest.spec?.template?.spec ?? {};
    const config = graph.resolve(md, template.bootstrap?.configRef);
    const machine = graph.resolve(md, template.infrastructureRef);
    if (config?.manifest.spec?.template?.spec?.provisioner?.platform !== 'windows' || machine?.manifest.kind !== 'AWSMachineTemplate') return [];
    return [{ template: machine, key: machine.manifest.spec?.template?.spec?.sshKeyName ?? clusterKey }];
  });
}

/** The stack's ED25519 key on a Windows machine, which EC2 refuses to launch. */
function windowsKeyViolations(infra: ClusterInfra, objects: readonly ManifestSource[]): ManifestViolation[] {
  if (infra.sshKeyType !== KeyPairType.ED25519 || !infra.sshKeyName) return [];
  return windowsTemplates(objects).filter(({ key }) => key === infra.sshKeyName).map(({ template }) => violation('hand-off', template,
    `it boots Windows with the AWS stack's key pair "${infra.sshKeyName}", an ED25519 key: ${WINDOWS_ED25519_KEY}`,
    'import an RSA key in the AWS stack, or give Windows machines sshKeyName "" (none)', 'spec.template.spec.sshKeyName'));
}

/**
 * Failure domains the infra's VPC has no private subnet in: the AWSCluster lists the infra's
 * subnets by id, so only the stack knows their zones, and CAPA never creates a machine in a zone
 * without one (cluster-api-provider-aws v2.11.1 pkg/cloud/services/ec2/instances.go, findSubnet).
 */
function zoneViolations(infra: ClusterInfra, objects: readonly ManifestSource[]): ManifestViolation[] {
  const zones = infra.privateSubnetZones;
  if (!zones) return [];
  return objects.filter((s) => s.manifest.kind === 'MachineDeployment').flatMap((md) => {
    const fd = md.manifest.spec?.template?.spec?.failureDomain;
    return fd === undefined || zones.includes(fd) ? [] : [violation('hand-off', md,
      `failureDomain ${JSON.stringify(fd)} has none of the infra's private subnets (they are in ${[...new Set(zones)].join(', ')}), so CAPA never creates its machines`,
      'use a zone of the infra (leave the pool\'s zones out for all of them)', 'spec.template.spec.failureDomain')];
  });
}
