import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { problem } from '../platform/errors';
import { rendered } from '../platform/render';
import { InstanceType } from '../platform/instance-type';
import { ClusterInfra } from './cluster-infra';

/**
 * What the cluster objects under `cluster`, as written (after JSON patches), must agree on with
 * the AWS stack that made `infra`, as validation messages: the Cluster's name (the stack tagged
 * the subnets `kubernetes.io/cluster/<name>`, which the AWS cloud provider looks for; CAPA book
 * `topics/bring-your-own-aws-infrastructure.md`, linked from k0smotron `docs/capi-aws.md`), the
 * AWSCluster's region and VPC, and the instance type of every machine
 * template that boots the infra's Linux AMI (an AMI runs on one architecture only). The cluster
 * also checks its props when constructed, for a message that names the prop; this is the final
 * word, so a patch cannot slip past it.
 */
export function handOffProblems(infra: ClusterInfra, cluster: IConstruct): string[] {
  const problems: string[] = [];
  for (const obj of cluster.node.findAll()) {
    if (!(obj instanceof ApiObject)) continue;
    const at = (what: string, fix: string) => problems.push(`${obj.kind} ${obj.name}: ${problem(what, fix)}`);
    if (obj.kind === 'Cluster' && obj.apiVersion.startsWith('cluster.x-k8s.io/')) {
      const name: unknown = rendered(obj).metadata?.name;
      if (infra.clusterName !== undefined && name !== infra.clusterName) {
        at(`the Cluster is named ${JSON.stringify(name)}, and the AWS stack tagged its network for "${infra.clusterName}"`, `keep the name "${infra.clusterName}", or deploy the stack with clusterName ${JSON.stringify(name)}`);
      }
    } else if (obj.kind === 'AWSCluster') {
      const spec = rendered(obj).spec ?? {};
      if (spec.region !== infra.region) {
        at(`spec.region ${JSON.stringify(spec.region)} is not the infra's region ${infra.region}`, 'keep the infra\'s region, or use the infra of that region');
      }
      if (spec.network?.vpc?.id !== infra.vpcId) {
        at(`spec.network.vpc.id ${JSON.stringify(spec.network?.vpc?.id)} is not the infra's VPC ${infra.vpcId}, whose subnets the cluster lists`, 'keep the infra\'s VPC');
      }
    } else if (obj.kind === 'AWSMachineTemplate') {
      const spec = rendered(obj).spec?.template?.spec ?? {};
      if (spec.ami?.id !== infra.linuxAmiId) continue;
      const type = InstanceType.parse(spec.instanceType);
      if (typeof type !== 'string' && type.arch !== undefined && type.arch !== infra.linuxAmiArchitecture) {
        at(`instance type ${type.name} is ${type.arch}, and it boots the infra's Linux AMI ${infra.linuxAmiId}, which is ${infra.linuxAmiArchitecture}`,
          'pick an instance type of the AMI\'s architecture, or another AMI');
      }
    }
  }
  return problems;
}
