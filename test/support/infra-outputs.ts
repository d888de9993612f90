import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What `cdktf deploy --outputs-file infra.json` writes for the example's stack, `aws-test-infra`. */
export const DEPLOYED = {
  'aws-test-infra': {
    cluster_name: 'aws-test',
    control_plane_instance_profile: 'control-plane.cluster-api-provider-aws.sigs.k8s.io',
    linux_ami_id: 'ami-0a1b2c3d4e5f60718',
    linux_ami_architecture: 'amd64',
    node_instance_profile: 'nodes.cluster-api-provider-aws.sigs.k8s.io',
    private_subnet_ids: ['subnet-0aaa0000000000001', 'subnet-0aaa0000000000002'],
    private_subnet_zones: ['eu-north-1a', 'eu-north-1b'],
    public_subnet_ids: ['subnet-0bbb0000000000001', 'subnet-0bbb0000000000002'],
    region: 'eu-north-1',
    ssh_key_name: 'aws-test',
    ssh_key_type: 'rsa',
    vpc_id: 'vpc-0123456789abcdef0',
    vpc_cidr_block: '10.0.0.0/16',
    windows_ami_id_2022_core: 'ami-0c0c0c0c0c0c0c0c0',
    windows_ami_id_2019_full: 'ami-0f0f0f0f0f0f0f0f0',
  },
};

/** Writes text to a fresh `infra.json` and returns its path. */
export function writeJson(content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'infra-')), 'infra.json');
  writeFileSync(file, content);
  return file;
}

/** A copy of DEPLOYED with the stack's outputs changed. */
export function withOutputs(change: (outputs: Record<string, unknown>) => void): typeof DEPLOYED {
  const copy = structuredClone(DEPLOYED) as { 'aws-test-infra': Record<string, unknown> };
  change(copy['aws-test-infra']);
  return copy as typeof DEPLOYED;
}
