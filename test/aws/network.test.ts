import { Testing } from 'cdktn';
import { HybridClusterInfraProps, HybridClusterInfraStack, NatGateways } from '../../src/aws';
import { TfJson, all, dataRef, refTo, synthTf } from '../support/tf';

function synth(props: Partial<HybridClusterInfraProps> = {}): TfJson {
  return synthTf(new HybridClusterInfraStack(Testing.app(), 'infra', { region: 'eu-north-1', clusterName: 'aws-test', ...props }));
}

describe('created network', () => {
  const tf = synth();
  const subnets = all(tf, 'aws_subnet');
  const publicSubnets = subnets.filter((s) => s.tags['kubernetes.io/role/elb'] === '1');
  const privateSubnets = subnets.filter((s) => s.tags['kubernetes.io/role/internal-elb'] === '1');
  const ZONE = (i: number): string => dataRef(tf, 'aws_availability_zones', 'names').replace('}', `.${i}}`);

  test('a DNS-enabled VPC with the default block', () => {
    expect(all(tf, 'aws_vpc')).toEqual([
      expect.objectContaining({ cidr_block: '10.0.0.0/16', enable_dns_hostnames: true, enable_dns_support: true }),
    ]);
  });

  test('one public and one private subnet in each of two zones, tagged for CAPA and the cloud provider', () => {
    expect(subnets).toHaveLength(4);
    expect(publicSubnets.map((s) => [s.availability_zone, s.cidr_block])).toEqual([
      [ZONE(0), '10.0.64.0/21'],
      [ZONE(1), '10.0.72.0/21'],
    ]);
    expect(privateSubnets.map((s) => [s.availability_zone, s.cidr_block])).toEqual([
      [ZONE(0), '10.0.0.0/19'],
      [ZONE(1), '10.0.32.0/19'],
    ]);
    for (const s of subnets) {
      expect(s.tags['kubernetes.io/cluster/aws-test']).toBe('shared');
      expect(s.vpc_id).toBe(refTo(tf, 'aws_vpc', () => true));
    }
    for (const s of publicSubnets) {
      expect(s.tags['kubernetes.io/role/internal-elb']).toBeUndefined();
      expect(s.map_public_ip_on_launch).toBe(false);
    }
    for (const s of privateSubnets) expect(s.tags['kubernetes.io/role/elb']).toBeUndefined();
  });

  test('zones come from the region, without opt-in local zones', () => {
    expect(all(tf, 'aws_availability_zones', 'data')).toEqual([
      { state: 'available', filter: [{ name: 'opt-in-status', values: ['opt-in-not-required'] }] },
    ]);
  });

  test('public subnets route to the internet gateway', () => {
    const igw = refTo(tf, 'aws_internet_gateway', () => true);
    const publicTable = refTo(tf, 'aws_route_table', (t) => (t.tags as Record<string, string>).Name === 'aws-test-public');
    expect(all(tf, 'aws_route').filter((r) => r.gateway_id === igw)).toEqual([
      expect.objectContaining({ route_table_id: publicTable, destination_cidr_block: '0.0.0.0/0' }),
    ]);
    for (const cidr of ['10.0.64.0/21', '10.0.72.0/21']) {
      const subnet = refTo(tf, 'aws_subnet', (s) => s.cidr_block === cidr);
      expect(all(tf, 'aws_route_table_association').filter((a) => a.subnet_id === subnet)).toEqual([{ subnet_id: subnet, route_table_id: publicTable }]);
    }
  });

  test('a NAT gateway per zone, each private subnet routed through its own zone\'s', () => {
    const nats = all(tf, 'aws_nat_gateway');
    expect(nats).toHaveLength(2);
    expect(all(tf, 'aws_eip')).toHaveLength(2);
    ['10.0.64.0/21', '10.0.72.0/21'].forEach((cidr, i) => {
      const nat = refTo(tf, 'aws_nat_gateway', (n) => n.subnet_id === refTo(tf, 'aws_subnet', (s) => s.cidr_block === cidr));
      const privateSubnet = refTo(tf, 'aws_subnet', (s) => s.cidr_block === privateSubnets[i].cidr_block);
      const table = all(tf, 'aws_route_table_association').find((a) => a.subnet_id === privateSubnet).route_table_id;
      expect(all(tf, 'aws_route').filter((r) => r.route_table_id === table)).toEqual([
        expect.objectContaining({ destination_cidr_block: '0.0.0.0/0', nat_gateway_id: nat }),
      ]);
    });
    for (const nat of nats) expect(nat.depends_on).toEqual([expect.stringMatching(/^aws_internet_gateway\./)]);
  });

  test('no VPC endpoints and no security groups by default', () => {
    expect(all(tf, 'aws_vpc_endpoint')).toEqual([]);
    expect(all(tf, 'aws_security_group')).toEqual([]);
  });
});

describe('network options', () => {
  test('a single NAT gateway serves every zone', () => {
    const tf = synth({ network: { natGateways: NatGateways.SINGLE, availabilityZoneCount: 3 } });
    expect(all(tf, 'aws_nat_gateway')).toHaveLength(1);
    expect(all(tf, 'aws_eip')).toHaveLength(1);
    const nat = refTo(tf, 'aws_nat_gateway', () => true);
    expect(all(tf, 'aws_route').filter((r) => r.nat_gateway_id === nat)).toHaveLength(3);
    expect(all(tf, 'aws_subnet')).toHaveLength(6);
  });

  test('named zones and explicit blocks', () => {
    const tf = synth({
      network: {
        vpcCidr: '172.20.0.0/20',
        availabilityZones: ['eu-north-1a', 'eu-north-1b', 'eu-north-1c'],
        publicSubnetCidrs: ['172.20.0.0/26', '172.20.0.64/26', '172.20.0.128/26'],
        privateSubnetCidrs: ['172.20.4.0/22', '172.20.8.0/22', '172.20.12.0/22'],
      },
    });
    expect(all(tf, 'aws_availability_zones', 'data')).toEqual([]);
    expect(all(tf, 'aws_subnet').map((s) => `${s.availability_zone} ${s.cidr_block}`).sort()).toEqual([
      'eu-north-1a 172.20.0.0/26',
      'eu-north-1a 172.20.4.0/22',
      'eu-north-1b 172.20.0.64/26',
      'eu-north-1b 172.20.8.0/22',
      'eu-north-1c 172.20.0.128/26',
      'eu-north-1c 172.20.12.0/22',
    ]);
  });

  test('VPC endpoints for SSM and S3, reachable over HTTPS from the VPC only', () => {
    const tf = synth({ network: { vpcEndpoints: true } });
    const region = dataRef(tf, 'aws_region', 'region');
    const endpoints = all(tf, 'aws_vpc_endpoint');
    expect(endpoints.map((e) => [e.service_name, e.vpc_endpoint_type])).toEqual([
      [`com.amazonaws.${region}.ec2messages`, 'Interface'],
      [`com.amazonaws.${region}.s3`, 'Gateway'],
      [`com.amazonaws.${region}.ssm`, 'Interface'],
      [`com.amazonaws.${region}.ssmmessages`, 'Interface'],
    ]);
    const sg = refTo(tf, 'aws_security_group', () => true);
    const privateSubnetIds = ['10.0.0.0/19', '10.0.32.0/19'].map((c) => refTo(tf, 'aws_subnet', (s) => s.cidr_block === c));
    for (const e of endpoints.filter((x) => x.vpc_endpoint_type === 'Interface')) {
      expect(e).toMatchObject({ private_dns_enabled: true, subnet_ids: privateSubnetIds, security_group_ids: [sg] });
    }
    expect(endpoints.find((e) => e.vpc_endpoint_type === 'Gateway').route_table_ids).toHaveLength(2);
    expect(all(tf, 'aws_vpc_security_group_ingress_rule')).toEqual([
      expect.objectContaining({ security_group_id: sg, cidr_ipv4: '10.0.0.0/16', ip_protocol: 'tcp', from_port: 443, to_port: 443 }),
    ]);
  });

  test('nothing anywhere admits traffic from the internet', () => {
    const tf = synth({ network: { vpcEndpoints: true }, sshPublicKey: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ me' });
    const ingress = [
      ...all(tf, 'aws_vpc_security_group_ingress_rule').map((r) => [r.cidr_ipv4, r.cidr_ipv6]),
      ...all(tf, 'aws_security_group_rule').filter((r) => r.type === 'ingress').map((r) => [r.cidr_blocks, r.ipv6_cidr_blocks]),
      ...all(tf, 'aws_security_group').flatMap((g) => (g.ingress ?? []).map((r: { cidr_blocks?: string[]; ipv6_cidr_blocks?: string[] }) => [r.cidr_blocks, r.ipv6_cidr_blocks])),
    ].flat(2);
    expect(ingress.length).toBeGreaterThan(0);
    expect(ingress).not.toContain('0.0.0.0/0');
    expect(ingress).not.toContain('::/0');
  });
});

describe('bring your own network', () => {
  const existingNetwork = {
    vpcId: 'vpc-0123456789abcdef0',
    publicSubnetIds: ['subnet-0aaaaaaaaaaaaaaa1', 'subnet-0aaaaaaaaaaaaaaa2'],
    privateSubnetIds: ['subnet-0bbbbbbbbbbbbbbb1', 'subnet-0bbbbbbbbbbbbbbb2'],
  };

  test('creates no network, tags the given subnets and outputs their ids', () => {
    const tf = synth({ existingNetwork });
    for (const type of ['aws_vpc', 'aws_subnet', 'aws_internet_gateway', 'aws_nat_gateway', 'aws_route_table', 'aws_eip']) {
      expect(all(tf, type)).toEqual([]);
    }
    const tags = all(tf, 'aws_ec2_tag').map((t) => `${t.resource_id} ${t.key}=${t.value}`).sort();
    expect(tags).toEqual([
      'subnet-0aaaaaaaaaaaaaaa1 kubernetes.io/cluster/aws-test=shared',
      'subnet-0aaaaaaaaaaaaaaa1 kubernetes.io/role/elb=1',
      'subnet-0aaaaaaaaaaaaaaa2 kubernetes.io/cluster/aws-test=shared',
      'subnet-0aaaaaaaaaaaaaaa2 kubernetes.io/role/elb=1',
      'subnet-0bbbbbbbbbbbbbbb1 kubernetes.io/cluster/aws-test=shared',
      'subnet-0bbbbbbbbbbbbbbb1 kubernetes.io/role/internal-elb=1',
      'subnet-0bbbbbbbbbbbbbbb2 kubernetes.io/cluster/aws-test=shared',
      'subnet-0bbbbbbbbbbbbbbb2 kubernetes.io/role/internal-elb=1',
    ]);
    expect(tf.output?.vpc_id.value).toBe('vpc-0123456789abcdef0');
    expect(tf.output?.public_subnet_ids.value).toEqual(existingNetwork.publicSubnetIds);
    expect(tf.output?.private_subnet_ids.value).toEqual(existingNetwork.privateSubnetIds);
  });

  test('tagging can be left to someone else', () => {
    expect(all(synth({ existingNetwork: { ...existingNetwork, tagSubnets: false } }), 'aws_ec2_tag')).toEqual([]);
  });

  test.each([
    [{ ...existingNetwork, vpcId: 'my-vpc' }, '[infra/Infra/ExistingNetwork] existingNetwork.vpcId "my-vpc" is not a VPC id'],
    [{ ...existingNetwork, publicSubnetIds: [] }, 'existingNetwork.publicSubnetIds [] is empty. Fix: list at least one subnet'],
    [{ ...existingNetwork, privateSubnetIds: ['subnet-1'] }, 'existingNetwork.privateSubnetIds[0] "subnet-1" is not a subnet id'],
    [
      { ...existingNetwork, privateSubnetIds: ['subnet-0aaaaaaaaaaaaaaa1'] },
      'existingNetwork.privateSubnetIds ["subnet-0aaaaaaaaaaaaaaa1"] also appear in publicSubnetIds',
    ],
  ])('rejects %j', (bad, message) => {
    expect(() => synth({ existingNetwork: bad })).toThrow(message);
  });

  test('is exclusive with a created network', () => {
    expect(() => synth({ existingNetwork, network: { vpcCidr: '10.1.0.0/16' } })).toThrow(
      '[infra/Infra] network and existingNetwork are both given. Fix: give either network (to create one) or existingNetwork (to use yours), not both',
    );
  });
});
