import { Testing } from 'cdktf';
import { WindowsEdition, WindowsVersion } from '../../src';
import { Architecture } from '../../src/platform/instance-type';
import { HybridClusterInfraStack, HybridClusterInfraStackProps, NatGateways, UbuntuRelease } from '../../src/aws';
import { all, synthTf, TfJson } from '../support/tf';

const BASE: HybridClusterInfraStackProps = { region: 'eu-north-1', clusterName: 'aws-test' };
const KEY = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQCVDUcg5SppP6M9grM10BLxTVUlrt2yFt6L2KjFZRld9fdBLpcgCDnMtsT56u/7y5ky+bgN9Xpf3VfeoFY2wFEi/g+VKtAJ5cBIPfzKRnz6uvcRMCoPjU0CO+o4rq4+DnnuygoFxNLAJ10KF6MA0JBOvazD2hyEiY8ZD8jfr23NVQ== me@laptop';
const EXISTING = { vpcId: 'vpc-0123456789abcdef0', publicSubnetIds: ['subnet-0bbb0000000000001'], privateSubnetIds: ['subnet-0aaa0000000000001'] };

function synth(change: Partial<HybridClusterInfraStackProps>): TfJson {
  return synthTf(new HybridClusterInfraStack(Testing.app(), 'infra', { ...BASE, ...change }));
}

const cidrs = (tf: TfJson, kind: string) => all(tf, 'aws_subnet').filter((s) => s.tags?.['kubernetes.io/role/' + (kind === 'public' ? 'elb' : 'internal-elb')]).map((s) => s.cidr_block);
const output = (tf: TfJson, id: string): unknown => tf.output?.[id]?.value;
const ssmNames = (tf: TfJson) => all(tf, 'aws_ssm_parameter', 'data').map((p) => p.name);

/**
 * Every prop of the AWS stack, with a value other than its default and the part of the Terraform
 * JSON it must change: each case fails if its prop stops mattering (issue 9.4).
 */
const CASES: Array<[string, Partial<HybridClusterInfraStackProps>, (tf: TfJson) => unknown]> = [
  ['region', { region: 'eu-west-1' }, (tf) => tf.provider?.aws[0].region],
  ['defaultTags', { defaultTags: { team: 'platform' } }, (tf) => tf.provider?.aws[0].default_tags],
  ['clusterName', { clusterName: 'other' }, (tf) => Object.keys(all(tf, 'aws_subnet')[0].tags).filter((k) => k.startsWith('kubernetes.io/cluster/'))],
  ['network.vpcCidr', { network: { vpcCidr: '10.8.0.0/16' } }, (tf) => all(tf, 'aws_vpc')[0].cidr_block],
  ['network.availabilityZones', { network: { availabilityZones: ['eu-north-1b', 'eu-north-1c'] } }, (tf) => all(tf, 'aws_subnet').map((s) => s.availability_zone)],
  ['network.availabilityZoneCount', { network: { availabilityZoneCount: 3 } }, (tf) => all(tf, 'aws_subnet').length],
  ['network.publicSubnetPrefixLength', { network: { publicSubnetPrefixLength: 24 } }, (tf) => cidrs(tf, 'public')],
  ['network.privateSubnetPrefixLength', { network: { privateSubnetPrefixLength: 20 } }, (tf) => cidrs(tf, 'private')],
  ['network.publicSubnetCidrs and privateSubnetCidrs', { network: { publicSubnetCidrs: ['10.0.100.0/24', '10.0.101.0/24'], privateSubnetCidrs: ['10.0.0.0/20', '10.0.16.0/20'] } },
    (tf) => [cidrs(tf, 'public'), cidrs(tf, 'private')]],
  ['network.natGateways', { network: { natGateways: NatGateways.SINGLE } }, (tf) => all(tf, 'aws_nat_gateway').length],
  ['network.vpcEndpoints', { network: { vpcEndpoints: true } }, (tf) => all(tf, 'aws_vpc_endpoint').length],
  ['existingNetwork', { existingNetwork: EXISTING }, (tf) => [all(tf, 'aws_vpc').length, output(tf, 'vpc_id')]],
  ['iamNamePrefix', { iamNamePrefix: 'x-' }, (tf) => all(tf, 'aws_iam_role').map((r) => r.name).sort()],
  ['selfHostedManagement', { selfHostedManagement: true }, (tf) => all(tf, 'aws_iam_role_policy_attachment').length],
  ['images.linux', { images: { linux: UbuntuRelease.JAMMY_22_04 } }, ssmNames],
  ['images.linuxAmiId', { images: { linuxAmiId: 'ami-0a1b2c3d4e5f60718' } }, (tf) => output(tf, 'linux_ami_id')],
  ['images.windows', { images: { windows: [{ version: WindowsVersion.SERVER_2019, edition: WindowsEdition.FULL }] } }, ssmNames],
  ['images.windowsAmiIds', { images: { windowsAmiIds: { [WindowsVersion.SERVER_2025]: { [WindowsEdition.CORE]: 'ami-0c0c0c0c0c0c0c0c0' } } } }, (tf) => output(tf, 'windows_ami_id_2025_core')],
  ['sshPublicKey', { sshPublicKey: KEY }, (tf) => all(tf, 'aws_key_pair').length],
  ['sshKeyName', { sshKeyName: 'ops' }, (tf) => output(tf, 'ssh_key_name')],
];

describe('every prop of the AWS stack changes what is written', () => {
  const baseline = synth({});

  test.each(CASES)('%s', (_name, change, part) => {
    expect(part(synth(change))).not.toEqual(part(baseline));
  });

  test('existingNetwork.tagSubnets', () => {
    const tags = (tagSubnets?: boolean) => all(synth({ existingNetwork: { ...EXISTING, tagSubnets } }), 'aws_ec2_tag').length;
    expect(tags(false)).not.toEqual(tags(undefined));
  });

  test('images.linuxAmiArchitecture', () => {
    const arch = (linuxAmiArchitecture?: Architecture) => output(synth({ images: { linuxAmiId: 'ami-0a1b2c3d4e5f60718', linuxAmiArchitecture } }), 'linux_ami_architecture');
    expect(arch(Architecture.ARM64)).not.toEqual(arch(undefined));
  });
});

/** `{ x: undefined }` means the default of x, never a TypeError (aws-cdk DESIGN_GUIDELINES; issue 9.4). */
describe('an optional prop given as undefined means its default', () => {
  const baseline = JSON.stringify(synth({}));
  test.each<[string, Partial<HybridClusterInfraStackProps>]>([
    ['top level', { defaultTags: undefined, network: undefined, existingNetwork: undefined, iamNamePrefix: undefined, selfHostedManagement: undefined, images: undefined, sshPublicKey: undefined, sshKeyName: undefined }],
    ['network', { network: { vpcCidr: undefined, availabilityZones: undefined, availabilityZoneCount: undefined, publicSubnetPrefixLength: undefined, privateSubnetPrefixLength: undefined, publicSubnetCidrs: undefined, privateSubnetCidrs: undefined, natGateways: undefined, vpcEndpoints: undefined } }],
    ['images', { images: { linux: undefined, linuxAmiId: undefined, linuxAmiArchitecture: undefined, windows: undefined, windowsAmiIds: undefined } }],
  ])('%s', (_name, change) => {
    expect(JSON.stringify(synth(change))).toEqual(baseline);
  });

  test('existingNetwork.tagSubnets', () => {
    expect(JSON.stringify(synth({ existingNetwork: { ...EXISTING, tagSubnets: undefined } }))).toEqual(JSON.stringify(synth({ existingNetwork: EXISTING })));
  });
});
