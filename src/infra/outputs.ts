import { WindowsEdition, WindowsVersion } from '../platform/windows';

/**
 * Names of the Terraform outputs the AWS stack writes and `ClusterInfra.fromOutputs` reads.
 *
 * `cdktf deploy --outputs-file` keys each value by the output's construct path inside its stack,
 * so the stack creates these outputs directly under the stack with exactly these ids: the file
 * then reads `{ "<stackName>": { "vpc_id": ..., ... } }`. Plain TypeScript on purpose: the cdk8s
 * side imports this file and must not load cdktf.
 */
export const INFRA_OUTPUTS = {
  clusterName: 'cluster_name',
  region: 'region',
  vpcId: 'vpc_id',
  vpcCidrBlock: 'vpc_cidr_block',
  publicSubnetIds: 'public_subnet_ids',
  privateSubnetIds: 'private_subnet_ids',
  privateSubnetZones: 'private_subnet_zones',
  controlPlaneInstanceProfile: 'control_plane_instance_profile',
  nodeInstanceProfile: 'node_instance_profile',
  linuxAmiId: 'linux_ami_id',
  linuxAmiArchitecture: 'linux_ami_architecture',
  sshKeyName: 'ssh_key_name',
  sshKeyType: 'ssh_key_type',
} as const;

/** Output id of the Windows AMI for one version and edition, e.g. `windows_ami_id_2022_core`. */
export function windowsAmiOutputId(version: WindowsVersion, edition: WindowsEdition): string {
  return `windows_ami_id_${version}_${edition.toLowerCase()}`;
}
