import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdk8s';
import { buildCluster } from '../examples/k0smotron-aws/main';
import { ClusterInfra, INFRA_OUTPUTS, windowsAmiOutputId, WindowsEdition, WindowsVersion } from '../src';
import { crdViolations, describeWithCrds } from './support/crd-schemas';
import { only, synthObjects } from './support/synth';

/** What `cdktf deploy --outputs-file` writes for the example's stack: one key per stack, then the outputs. */
const OUTPUTS = {
  'aws-test-infra': {
    [INFRA_OUTPUTS.region]: 'eu-north-1',
    [INFRA_OUTPUTS.vpcId]: 'vpc-0abc0000000000001',
    [INFRA_OUTPUTS.publicSubnetIds]: ['subnet-0pub00000000000a', 'subnet-0pub00000000000b'],
    [INFRA_OUTPUTS.privateSubnetIds]: ['subnet-0prv00000000000a', 'subnet-0prv00000000000b'],
    [INFRA_OUTPUTS.controlPlaneInstanceProfile]: 'aws-test-control-plane.cluster-api-provider-aws.sigs.k8s.io',
    [INFRA_OUTPUTS.nodeInstanceProfile]: 'aws-test-nodes.cluster-api-provider-aws.sigs.k8s.io',
    [INFRA_OUTPUTS.linuxAmiId]: 'ami-0linux0000000001',
    [windowsAmiOutputId(WindowsVersion.SERVER_2022, WindowsEdition.CORE)]: 'ami-0win2022core0001',
    [INFRA_OUTPUTS.sshKeyName]: 'aws-test',
  },
};

function synthFromFile(outputs: unknown) {
  const file = join(mkdtempSync(join(tmpdir(), 'handoff-')), 'infra.json');
  writeFileSync(file, JSON.stringify(outputs));
  const app = new App();
  buildCluster(app, ClusterInfra.fromOutputsFile(file));
  return synthObjects(app);
}

describe('hand-off from the AWS stack to the cluster objects', () => {
  const objects = synthFromFile(OUTPUTS);
  const template = (prefix: string) => objects.find((o) => o.kind === 'AWSMachineTemplate' && o.metadata.name.startsWith(prefix))!.spec.template.spec;

  test('the deployed VPC and subnets become the AWSCluster network', () => {
    const spec = only(objects, 'AWSCluster').spec;
    expect(spec.region).toBe('eu-north-1');
    expect(spec.sshKeyName).toBe('aws-test');
    expect(spec.network.vpc.id).toBe('vpc-0abc0000000000001');
    expect(spec.network.subnets.map((s: { id: string }) => s.id).sort()).toEqual(
      ['subnet-0prv00000000000a', 'subnet-0prv00000000000b', 'subnet-0pub00000000000a', 'subnet-0pub00000000000b']);
  });

  test('machine templates take the deployed AMIs and instance profiles', () => {
    expect(template('aws-test-cp-')).toMatchObject({ ami: { id: 'ami-0linux0000000001' }, iamInstanceProfile: 'aws-test-control-plane.cluster-api-provider-aws.sigs.k8s.io' });
    expect(template('aws-test-linux-')).toMatchObject({ ami: { id: 'ami-0linux0000000001' }, iamInstanceProfile: 'aws-test-nodes.cluster-api-provider-aws.sigs.k8s.io' });
    expect(template('aws-test-win-')).toMatchObject({ ami: { id: 'ami-0win2022core0001' }, iamInstanceProfile: 'aws-test-nodes.cluster-api-provider-aws.sigs.k8s.io' });
    expect(JSON.stringify(objects)).not.toContain('REPLACE-ME');
  });

  test('a Windows version the stack did not look up is a clear error', () => {
    const outputs = structuredClone(OUTPUTS) as Record<string, Record<string, unknown>>;
    delete outputs['aws-test-infra'][windowsAmiOutputId(WindowsVersion.SERVER_2022, WindowsEdition.CORE)];
    expect(() => synthFromFile(outputs)).toThrow(/\[k0smotron-aws\/aws-test\/win\] no AMI for this pool's Windows Server 2022 Core machines: it has no `ami`, and the cluster's infra has no Windows Server 2022 Core AMI/);
  });

  test('a missing output names itself before anything is synthesized', () => {
    const outputs = structuredClone(OUTPUTS) as Record<string, Record<string, unknown>>;
    delete outputs['aws-test-infra'][INFRA_OUTPUTS.vpcId];
    expect(() => synthFromFile(outputs)).toThrow(/output "vpc_id" is missing/);
  });
});

describeWithCrds('the hand-off output passes strict CRD validation', () => {
  test('no violations', () => {
    expect(synthFromFile(OUTPUTS).flatMap((o) => crdViolations(o))).toEqual([]);
  });
});
