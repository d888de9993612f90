import { ApiObject } from 'cdk8s';
import { amiIdProblem } from '../platform/aws';
import { CLUSTERAWSADM_INSTANCE_PROFILES } from '../platform/conventions';
import { fail } from '../platform/errors';
import { InstanceType, InstanceTypeInfo } from '../platform/instance-type';
import { integerProblem } from '../platform/numbers';
import type { HybridCluster } from './hybrid-cluster';
import { MachineImage } from './machine-image';
import { hashedMachineTemplate, imageLookup, MachineProps, machineTemplateSpec, requirePinnedImageForSecretsManager } from './machine-template';
import { WorkerInfrastructure, WorkerPool, WorkerPoolProps } from './worker-pool';

/** Props of a worker pool on EC2: those of every pool, and the machines'. */
export interface AwsWorkerPoolProps extends WorkerPoolProps, MachineProps {
  /**
   * Architecture and memory of `instanceType`, for a family this library does not know.
   * @default - derived from the instance type's family (an error for unknown families)
   */
  readonly instanceTypeInfo?: InstanceTypeInfo;
}

/**
 * The EC2 part of a worker pool: its AWSMachineTemplate, from the pool's machine props and the
 * cluster's AWS settings (infra, key pair, tags). Inputs are parsed once, when it is made.
 */
export class AwsMachines implements WorkerInfrastructure {
  /** The EC2 instance type, parsed. */
  public readonly instanceType: InstanceType;

  public constructor(
    private readonly cluster: HybridCluster,
    id: string,
    private readonly props: AwsWorkerPoolProps,
    private readonly os: 'linux' | 'windows',
    private readonly image: MachineImage,
  ) {
    // The pool does not exist yet: errors name the path it will have.
    const path = `${cluster.node.path}/${id}`;
    const ami = image.amiId === undefined ? undefined : amiIdProblem(image.amiId);
    if (ami) fail(path, ami, 'pass an id of the form ami-0123456789abcdef0');
    if (os === 'windows' && props.bootstrapThroughSecretsManager) {
      fail(path, 'bootstrapThroughSecretsManager on a Windows pool: CAPA\'s Secrets Manager hand-off is a cloud-init boothook, which Windows cannot run', 'remove it');
    }
    requirePinnedImageForSecretsManager(path, 'pool', props, image);
    imageLookup(path, '', image, cluster.region.partition);
    const volume = props.rootVolumeSizeGiB === undefined ? undefined : integerProblem(props.rootVolumeSizeGiB, 8, 16384);
    if (volume) fail(path, `rootVolumeSizeGiB ${volume} (CAPA's minimum is 8, gp3's maximum 16384)`, 'choose a whole number of GiB in that range');
    const type = InstanceType.parse(props.instanceType, props.instanceTypeInfo);
    if (typeof type === 'string') fail(path, type, 'use a known type such as m7i.large, or state `instanceTypeInfo: { arch, memoryGiB }`');
    const archIssue = os === 'linux' && props.ami === undefined ? (type.arch && cluster.infra?.linuxArchitectureProblem(props.instanceType, type.arch)) : undefined;
    if (archIssue) fail(path, archIssue, 'pick an instance type of the AMI\'s architecture, or pass an `ami` for this one');
    this.instanceType = type;
  }

  public machineTemplate(pool: WorkerPool): ApiObject {
    return hashedMachineTemplate(pool, 'AWSMachineTemplate', pool.deploymentName, machineTemplateSpec(this.props, {
      os: this.os,
      image: this.image,
      partition: this.cluster.region.partition,
      iamInstanceProfile: this.props.iamInstanceProfile ?? this.cluster.infra?.nodeInstanceProfile ?? CLUSTERAWSADM_INSTANCE_PROFILES.nodes,
      sshKeyName: this.cluster.sshKeyName,
      additionalTags: this.cluster.additionalTags,
    }));
  }
}
