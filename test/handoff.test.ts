import { App } from 'cdk8s';
import { buildCluster } from '../examples/k0smotron-aws/main';
import { ClusterInfra, INFRA_OUTPUTS, windowsAmiOutputId, WindowsEdition, WindowsVersion } from '../src';
import { crdViolations, describeWithCrds } from './support/crd-schemas';
import { DEPLOYED, withOutputs, writeJson } from './support/infra-outputs';
import { only, synthObjects } from './support/synth';

const OUTPUTS = DEPLOYED['aws-test-infra'];

function synthFromFile(outputs: unknown) {
  const app = new App();
  buildCluster(app, ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(outputs))));
  return synthObjects(app);
}

describe('hand-off from the AWS stack to the cluster objects', () => {
  const objects = synthFromFile(DEPLOYED);
  const template = (prefix: string) => objects.find((o) => o.kind === 'AWSMachineTemplate' && o.metadata.name.startsWith(prefix))!.spec.template.spec;

  test('the deployed VPC and subnets become the AWSCluster network', () => {
    const spec = only(objects, 'AWSCluster').spec;
    expect(spec.region).toBe(OUTPUTS.region);
    expect(spec.sshKeyName).toBe(OUTPUTS.ssh_key_name);
    expect(spec.network.vpc.id).toBe(OUTPUTS.vpc_id);
    expect(spec.network.subnets.map((s: { id: string }) => s.id).sort()).toEqual(
      [...OUTPUTS.private_subnet_ids, ...OUTPUTS.public_subnet_ids].sort());
  });

  test('machine templates take the deployed AMIs and instance profiles', () => {
    expect(template('aws-test-cp-')).toMatchObject({ ami: { id: OUTPUTS.linux_ami_id }, iamInstanceProfile: OUTPUTS.control_plane_instance_profile });
    expect(template('aws-test-linux-')).toMatchObject({ ami: { id: OUTPUTS.linux_ami_id }, iamInstanceProfile: OUTPUTS.node_instance_profile });
    expect(template('aws-test-win-')).toMatchObject({ ami: { id: OUTPUTS.windows_ami_id_2022_core }, iamInstanceProfile: OUTPUTS.node_instance_profile });
    expect(JSON.stringify(objects)).not.toContain('REPLACE-ME');
  });

  test('a Windows release the stack did not look up falls back to CAPA\'s lookup of Amazon\'s image', () => {
    const outputs = withOutputs((o) => delete o[windowsAmiOutputId(WindowsVersion.SERVER_2022, WindowsEdition.CORE)]);
    const win = synthFromFile(outputs).find((o) => o.kind === 'AWSMachineTemplate' && o.metadata.name.startsWith('aws-test-win-'))!.spec.template.spec;
    expect(win.ami).toBeUndefined();
    expect(win).toMatchObject({ imageLookupOrg: '801119661308', imageLookupFormat: 'Windows_Server-2022-English-Core-Base-*' });
  });

  test('a missing output names itself before anything is synthesized', () => {
    const outputs = withOutputs((o) => delete o[INFRA_OUTPUTS.vpcId]);
    expect(() => synthFromFile(outputs)).toThrow(/output "vpc_id" is missing/);
  });
});

describeWithCrds('the hand-off output passes strict CRD validation', () => {
  test('no violations', () => {
    expect(synthFromFile(DEPLOYED).flatMap((o) => crdViolations(o))).toEqual([]);
  });
});
