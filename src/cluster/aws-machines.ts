import { ApiObject } from 'cdk8s';
import { AvailabilityZone } from '../platform/aws';
import { LABEL_ARCH, LABEL_REGION, LABEL_ZONE } from '../platform/windows';
import { CLUSTERAWSADM_INSTANCE_PROFILES } from '../platform/conventions';
import { fail } from '../core/errors';
import { InstanceType, InstanceTypeInfo, instanceTypeInfoProblem, windowsInstanceTypeProblem } from '../platform/instance-type';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage } from './machine-image';
import { hashedMachineTemplate, INSTANCE_TYPE_INFO, machineOptions, MachineProps, machineTemplateSpec, rootVolumeSizeGiB } from './machine-template';
import { list, optional, PropEntry, text } from '../core/props-spec';
import { AWS_INFRASTRUCTURE } from '../platform/infrastructures';
import { FailureDomain, MachineDeploymentPool, WorkerInfrastructure } from '../capi/machine-deployment-pool';
import { WORKER_POOL_OPTIONS, WorkerPoolProps } from '../k0s/worker-pool';

/** Props of a worker pool on EC2: those of every pool, and the machines'. */
export interface AwsWorkerPoolProps extends WorkerPoolProps, MachineProps {
  /**
   * The availability zones of the pool's machines: some of the cluster's `zones`. The pool has
   * one MachineDeployment per zone, its replicas divided over them, and its nodes carry the
   * `topology.kubernetes.io/zone` and `topology.kubernetes.io/region` labels.
   * @default - every zone of the cluster
   */
  readonly zones?: readonly string[];
  /**
   * Architecture and memory of `instanceType`, for a family this library does not know.
   * @default - derived from the instance type's family (an error for unknown families)
   */
  readonly instanceTypeInfo?: InstanceTypeInfo;
}

/**
 * The spec entries of `AwsWorkerPoolProps`: every k0s pool's and the machines'. Which zones the
 * cluster has, and whether the instance type is one, are judged when the machines are made.
 * @internal
 */
export const AWS_WORKER_POOL_OPTIONS: { readonly [K in keyof AwsWorkerPoolProps]-?: PropEntry } = {
  ...WORKER_POOL_OPTIONS,
  ...machineOptions('machine-deployment'),
  zones: optional(list(text({ max: 64, form: 'an availability zone name', example: 'eu-north-1a' }))),
  instanceTypeInfo: optional(INSTANCE_TYPE_INFO),
};

/**
 * The EC2 part of a worker pool: its AWSMachineTemplate, from the pool's machine props and the
 * cluster's AWS settings (infra, key pair, tags). Inputs are parsed once, when it is made.
 */
export class AwsMachines implements WorkerInfrastructure {
  public readonly infrastructure = AWS_INFRASTRUCTURE;
  /** The EC2 instance type, parsed. */
  public readonly instanceType: InstanceType;
  /** The pool's availability zones, as CAPI failure domains. */
  public readonly failureDomains: readonly FailureDomain[];
  /** One machine's vCPUs, memory and architecture, from the instance type (or what `instanceTypeInfo` states). */
  public readonly capacity: { readonly cpu?: number; readonly memoryGiB?: number; readonly ephemeralDiskGiB?: number; readonly labels?: Readonly<Record<string, string>> };
  public readonly propsOfFields = {
    'AWSMachineTemplate spec.template.spec.ami.id': 'ami',
    'AWSMachineTemplate spec.template.spec.instanceType': 'instanceType',
    'AWSMachineTemplate spec.template.spec.imageLookupOrg': 'ami',
    'AWSMachineTemplate spec.template.spec.sshKeyName': 'sshKeyName (of the cluster)',
    'AWSMachineTemplate spec.template.spec.cloudInit.insecureSkipSecretsManager': 'bootstrapThroughSecretsManager',
    'MachineDeployment spec.template.spec.failureDomain': 'zones',
    'AWSMachineTemplate spec.template.spec.rootVolume.size': 'rootVolumeSizeGiB',
  };

  public constructor(
    private readonly cluster: HybridCluster,
    id: string,
    private readonly props: AwsWorkerPoolProps,
    private readonly os: 'linux' | 'windows',
    private readonly image: MachineImage,
  ) {
    // The pool does not exist yet: errors name the path it will have.
    const path = `${cluster.node.path}/${id}`;
    // No object shows it: a Windows template always writes plain user data (machineTemplateSpec).
    if (os === 'windows' && props.bootstrapThroughSecretsManager) {
      fail(path, 'bootstrapThroughSecretsManager on a Windows pool: CAPA\'s Secrets Manager hand-off is a cloud-init boothook, which Windows cannot run', 'remove it');
    }
    const infoProblem = instanceTypeInfoProblem(props.instanceTypeInfo);
    if (infoProblem) fail(path, `instanceTypeInfo of instance type ${JSON.stringify(props.instanceType)}: ${infoProblem}`, `state { arch: Architecture.AMD64, memoryGiB: 16 } for ${props.instanceType}, or leave it out for a known family`);
    const type = InstanceType.parse(props.instanceType, props.instanceTypeInfo);
    if (typeof type === 'string') fail(path, type, 'use a known type such as m7i.large, or state `instanceTypeInfo: { arch, memoryGiB }`');
    // A family the rules cannot read from the template's name is judged by what the props state about it.
    const stated = os === 'windows' && typeof InstanceType.parse(props.instanceType) === 'string' ? windowsInstanceTypeProblem(type) : undefined;
    if (stated) fail(path, `instanceTypeInfo: ${stated.what}`, stated.fix);
    this.instanceType = type;
    this.capacity = { cpu: type.vcpus, memoryGiB: type.memoryGiB, ephemeralDiskGiB: rootVolumeSizeGiB(props, os === 'windows'), labels: type.arch ? { [LABEL_ARCH]: type.arch } : {} };
    this.failureDomains = poolZones(path, cluster, props.zones).map((zone) => ({
      name: zone.name,
      suffix: zone.suffix,
      nodeLabels: { [LABEL_ZONE]: zone.name, [LABEL_REGION]: zone.region.name },
    }));
  }

  public machineTemplate(pool: MachineDeploymentPool): ApiObject {
    return hashedMachineTemplate(pool, 'AWSMachineTemplate', pool.baseName, machineTemplateSpec(this.props, {
      os: this.os,
      image: this.image,
      partition: this.cluster.partition,
      iamInstanceProfile: this.props.iamInstanceProfile ?? this.cluster.infra?.nodeInstanceProfile ?? CLUSTERAWSADM_INSTANCE_PROFILES.nodes,
      sshKeyName: this.cluster.sshKeyName,
    }));
  }
}

/** The pool's zones: the cluster's, or the ones the props pin, which must be among them. */
function poolZones(path: string, cluster: HybridCluster, pinned: readonly string[] | undefined): readonly AvailabilityZone[] {
  if (pinned === undefined) return cluster.zones;
  if (pinned.length === 0) fail(path, 'zones is empty', 'leave `zones` out for every zone of the cluster, or name some of them');
  return pinned.map((name) => {
    const zone = cluster.zones.find((z) => z.name === name);
    // CAPA finds no subnet for a failure domain the cluster has none in (instances.go, findSubnet).
    if (!zone) fail(path, `zones: "${name}" is not one of the cluster's zones (${cluster.zones.join(', ')}), so CAPA would find no subnet for its machines`, 'pin zones of the cluster, or add the zone to the cluster\'s `zones`');
    if (pinned.indexOf(name) !== pinned.lastIndexOf(name)) fail(path, `zones names ${name} twice`, 'name each zone once');
    return zone;
  });
}
