import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import {
  AwsMachineTemplate,
  AwsMachineTemplateSpecTemplateSpec,
  AwsMachineTemplateSpecTemplateSpecInstanceMetadataOptionsHttpEndpoint as HttpEndpoint,
  AwsMachineTemplateSpecTemplateSpecInstanceMetadataOptionsHttpTokens as HttpTokens,
} from '../generated/capa-infrastructure.cluster.x-k8s.io';
import { MachineImage } from './machine-image';
import { contentHash } from './names';
import { typedApiObject } from './typed-api-object';

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
}

/** What differs between the roles that use {@link machineTemplateSpec}. */
export interface MachineRoleDefaults {
  readonly os: 'linux' | 'windows';
  /** Undefined when neither the props nor the infra name one: the checks report it. */
  readonly amiId?: string;
  readonly iamInstanceProfile: string;
  readonly sshKeyName?: string;
  readonly additionalTags?: Record<string, string>;
}

/** The AWSMachineTemplate spec for a role, with the library's secure defaults applied. */
export function machineTemplateSpec(props: MachineProps, role: MachineRoleDefaults): AwsMachineTemplateSpecTemplateSpec {
  const windows = role.os === 'windows';
  return {
    instanceType: props.instanceType,
    ami: role.amiId ? { id: role.amiId } : undefined,
    iamInstanceProfile: role.iamInstanceProfile,
    sshKeyName: role.sshKeyName,
    additionalTags: role.additionalTags,
    rootVolume: { size: props.rootVolumeSizeGiB ?? (windows ? 100 : 40), type: 'gp3', encrypted: true },
    instanceMetadataOptions: {
      httpEndpoint: HttpEndpoint.ENABLED,
      httpTokens: props.requireImdsV2 === false ? HttpTokens.OPTIONAL : HttpTokens.REQUIRED,
      // 1 keeps pods (which sit one hop further away) from reaching the node's credentials.
      httpPutResponseHopLimit: 1,
    },
    // CAPA's Secrets Manager hand-off is a cloud-init boothook, which Windows cannot run: Windows
    // machines get their bootstrap data (join token included) in plain EC2 user data. EC2Launch
    // does not gunzip user data either, so it must also go uncompressed.
    ...(windows ? { cloudInit: { insecureSkipSecretsManager: true }, uncompressedUserData: true } : {}),
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
