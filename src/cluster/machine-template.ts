import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import {
  AwsMachineTemplate,
  AwsMachineTemplateSpecTemplateSpec,
  AwsMachineTemplateSpecTemplateSpecInstanceMetadataOptionsHttpEndpoint as HttpEndpoint,
  AwsMachineTemplateSpecTemplateSpecInstanceMetadataOptionsHttpTokens as HttpTokens,
} from '../generated/capa-infrastructure.cluster.x-k8s.io';
import { MachineImage, machineImage } from './machine-image';
import { data, flag, judgedNumber, optional, PropEntry, required, text } from '../core/props-spec';
import type { InstanceTypeInfo } from '../platform/instance-type';
import { AwsPartitionId } from '../platform/aws';
import { contentHash } from '../core/hash';
import { typedApiObject } from '../core/typed-api-object';

/** EC2 settings shared by the control plane and every worker pool. */
export interface MachineProps {
  /** EC2 instance type, e.g. `t3.large`. */
  readonly instanceType: string;
  /**
   * The AMI to boot.
   * @default - the matching AMI of the cluster's `infra` (an error when there is none)
   */
  readonly ami?: MachineImage;
  /**
   * IAM instance profile of the machines.
   * @default - from the cluster's `infra`, else the profile `clusterawsadm` creates for the role
   */
  readonly iamInstanceProfile?: string;
  /**
   * Size of the encrypted gp3 root volume in GiB.
   * @default 40 on Linux, 100 on Windows (Windows images alone take tens of GiB)
   */
  readonly rootVolumeSizeGiB?: number;
  /**
   * Require IMDSv2 session tokens for the instance metadata service. Every current Amazon Linux,
   * Ubuntu and Windows Server AMI supports them (cloud-init; EC2Launch v2, or EC2Launch v1 from
   * 1.3.2002730 on older Windows images); turn this off only for a custom image whose agent
   * predates IMDSv2.
   * @default true
   */
  readonly requireImdsV2?: boolean;
  /**
   * Hand the bootstrap data to Linux machines through AWS Secrets Manager (CAPA's default) instead
   * of plain user data. CAPA then boots the machine with a `#cloud-boothook` that fetches and
   * deletes the secret with the AWS CLI, which needs an image that has the AWS CLI and a cloud-init
   * patched for it (images built by kubernetes-sigs/image-builder); stock Ubuntu has neither, and
   * the machine never bootstraps (CAPA `docs/book/src/topics/userdata-privacy.md`). Requires a
   * pinned `ami`; Windows cannot run the boothook at all.
   * @default false - plain, gzipped user data (readable through IMDS on the host and through
   *   `ec2:DescribeInstanceAttribute`: see docs/cluster.md)
   */
  readonly bootstrapThroughSecretsManager?: boolean;
}

/**
 * The spec entries of `MachineProps`, which the controllers' and every EC2 pool's spec spread. The
 * root volume's size is judged on the AWSMachineTemplate by `judgedBy` (the rule over the role's
 * machines); an IAM instance profile name is 1 to 128 of `[\w+=,.@-]` (AWS IAM API Reference,
 * CreateInstanceProfile, InstanceProfileName).
 * @internal
 */
export function machineOptions(judgedBy: string): { readonly [K in keyof MachineProps]-?: PropEntry } {
  return {
    instanceType: required(text({ max: 64, form: 'an EC2 instance type', example: 't3.large' }), 'give the EC2 instance type, e.g. `instanceType: \'t3.large\'`'),
    ami: optional(machineImage()),
    iamInstanceProfile: optional(text({ max: 128, pattern: /^[\w+=,.@-]+$/, form: 'an IAM instance profile name', example: 'nodes.cluster-api-provider-aws.sigs.k8s.io' })),
    rootVolumeSizeGiB: optional(judgedNumber(judgedBy)),
    requireImdsV2: optional(flag()),
    bootstrapThroughSecretsManager: optional(flag()),
  };
}

/**
 * The kind of an `instanceTypeInfo` prop: a plain object, copied; its fields are judged with the
 * instance type it describes (`instanceTypeInfoProblem`).
 * @internal
 */
export const INSTANCE_TYPE_INFO = data<InstanceTypeInfo>('an InstanceTypeInfo ({ arch, memoryGiB })', (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  'state { arch: Architecture.AMD64, memoryGiB: 16 }, or leave it out for a known family');

/** What differs between the roles that use {@link machineTemplateSpec}. */
export interface MachineRoleDefaults {
  readonly os: 'linux' | 'windows';
  /** The image: the props', else the infra's, else the OS's default lookup. */
  readonly image: MachineImage;
  /** The partition of the cluster's region, where a public image lookup finds its publisher's account. */
  readonly partition: AwsPartitionId;
  readonly iamInstanceProfile: string;
  /** The EC2 key pair; "" for none (CAPA launches with the key pair `default` when it is absent everywhere). */
  readonly sshKeyName: string;
}

/** The root volume's size in GiB: the prop, else 40 on Linux and 100 on Windows. */
export function rootVolumeSizeGiB(props: Pick<MachineProps, 'rootVolumeSizeGiB'>, windows: boolean): number {
  return props.rootVolumeSizeGiB ?? (windows ? 100 : 40);
}

/** The AWSMachineTemplate spec for a role, with the library's secure defaults applied. */
export function machineTemplateSpec(props: MachineProps, role: MachineRoleDefaults): AwsMachineTemplateSpecTemplateSpec {
  const windows = role.os === 'windows';
  const lookup = role.image.lookupIn(role.partition);
  return {
    instanceType: props.instanceType,
    ami: role.image.amiId !== undefined ? { id: role.image.amiId } : undefined,
    imageLookupOrg: lookup?.owner,
    imageLookupFormat: lookup?.namePattern,
    iamInstanceProfile: role.iamInstanceProfile,
    sshKeyName: role.sshKeyName,
    // No additionalTags: CAPA tags each instance and its volumes with the AWSCluster's tags merged
    // with the AWSMachine's, at launch and again on every reconcile (cluster-api-provider-aws
    // v2.11.1 pkg/cloud/scope/machine.go AdditionalTags, pkg/cloud/services/ec2/instances.go
    // CreateInstance, controllers/awsmachine_controller.go ensureTags and ensureStorageTags). Copied
    // here, a change of cluster-wide tags would rename every template and replace every machine.
    rootVolume: { size: rootVolumeSizeGiB(props, windows), type: 'gp3', encrypted: true },
    instanceMetadataOptions: {
      httpEndpoint: HttpEndpoint.ENABLED,
      httpTokens: props.requireImdsV2 === false ? HttpTokens.OPTIONAL : HttpTokens.REQUIRED,
      // 1 keeps pods (which sit one hop further away) from reaching the node's credentials.
      httpPutResponseHopLimit: 1,
    },
    // CAPA's Secrets Manager hand-off is a cloud-init boothook that needs the AWS CLI and a patched
    // cloud-init (CAPA docs/book/src/topics/userdata-privacy.md): stock images cannot run it, and
    // Windows cannot run a boothook at all. So the bootstrap data goes in plain user data unless a
    // Linux role opts in. CAPA gzips only when uncompressedUserData is false, not when it is unset
    // (pkg/cloud/scope/machine.go, CompressUserData): Linux says false for headroom under EC2's
    // 16 KiB (the first controller's cloud-config, with four CA and service-account key pairs,
    // fits but comes close), and cloud-init gunzips; EC2Launch does not, so Windows says true.
    ...(props.bootstrapThroughSecretsManager && !windows ? {} : { cloudInit: { insecureSkipSecretsManager: true } }),
    uncompressedUserData: windows,
  };
}

/**
 * An AWSMachineTemplate named `<baseName>-<hash of its spec>`. CAPA rejects changes to a
 * template's spec; a new name per content makes a change roll out as a new template instead.
 */
export function hashedMachineTemplate(scope: Construct, id: string, baseName: string, spec: AwsMachineTemplateSpecTemplateSpec): ApiObject {
  // Hashed as written (JSON field names), so that the manifest rules can recompute it on the final object.
  const written = AwsMachineTemplate.manifest({ spec: { template: { spec } } }).spec?.template.spec;
  return typedApiObject(scope, id, AwsMachineTemplate, {
    metadata: { name: `${baseName}-${contentHash(written)}` },
    spec: { template: { spec } },
  });
}
