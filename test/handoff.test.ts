import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { buildCluster } from '../examples/k0smotron-aws/main';
import { ClusterInfra, HybridCluster, INFRA_OUTPUTS, LinuxWorkerPool, windowsAmiOutputId, WindowsEdition, WindowsVersion } from '../src';
import { crdViolations, describeWithCrds } from './support/crd-schemas';
import { DEPLOYED, withOutputs, writeJson } from './support/infra-outputs';
import { expectOneShape } from './support/message-shape';
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

  test('the cluster must bear the name the stack tagged its network with', () => {
    const outputs = withOutputs((o) => { o[INFRA_OUTPUTS.clusterName] = 'other'; });
    expect(() => synthFromFile(outputs)).toThrow('[k0smotron-aws/aws-test] cluster name "aws-test" differs from "other", the name the AWS stack tagged its network with. Fix: name the cluster "other"');
  });

  test('a region beside the infra must be the infra\'s', () => {
    const infra = ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(DEPLOYED)));
    const app = new App();
    expect(() => new HybridCluster(new Chart(app, 'c'), 'aws-test', { infra, region: 'us-east-1', k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 't3.large' } }))
      .toThrow('[c/aws-test] region us-east-1 differs from the infra\'s region eu-north-1');
  });

  test('instance types must match the architecture of the infra\'s Linux AMI', () => {
    const infra = ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(DEPLOYED)));
    const build = (instanceType: string, poolType: string) => {
      const cluster = new HybridCluster(new Chart(new App(), 'c'), 'aws-test', { infra, k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType } });
      new LinuxWorkerPool(cluster, 'linux', { instanceType: poolType });
    };
    expect(() => build('m7g.large', 't3.large')).toThrow('[c/aws-test] controlPlane: instance type m7g.large is arm64, and the infra\'s Linux AMI ami-0a1b2c3d4e5f60718 is amd64');
    expect(() => build('t3.large', 't4g.large')).toThrow('[c/aws-test/linux] instance type t4g.large is arm64, and the infra\'s Linux AMI ami-0a1b2c3d4e5f60718 is amd64');
    expect(() => build('t3.large', 't3.large')).not.toThrow();
    const arm = ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(withOutputs((o) => { o[INFRA_OUTPUTS.linuxAmiArchitecture] = 'arm64'; }))));
    expect(() => new HybridCluster(new Chart(new App(), 'c'), 'aws-test', { infra: arm, k0sVersion: 'v1.34.10+k0s.0', controlPlane: { instanceType: 'm7g.large' } })).not.toThrow();
  });

  /** The props are checked at construction; the objects as written are the final word (issue 9.1, 9.5). */
  describe('a JSON patch cannot undo what the hand-off checked', () => {
    const patched = (kind: string, namePrefix: string, op: JsonPatch) => {
      const app = new App();
      const chart = buildCluster(app, ClusterInfra.fromOutputsFile(writeJson(JSON.stringify(DEPLOYED))));
      const obj = chart.node.findAll().find((c): c is ApiObject => c instanceof ApiObject && c.kind === kind && c.name.startsWith(namePrefix))!;
      obj.addJsonPatch(op);
      return () => synthObjects(app);
    };
    test.each<[string, string, JsonPatch, string]>([
      ['Cluster', 'aws-test', JsonPatch.replace('/metadata/name', 'other'),
        'Cluster other: the Cluster is named "other", and the AWS stack tagged its network for "aws-test". Fix: keep the name "aws-test"'],
      ['AWSCluster', 'aws-test', JsonPatch.replace('/spec/region', 'us-east-1'),
        'AWSCluster aws-test: spec.region "us-east-1" is not the infra\'s region eu-north-1'],
      ['AWSCluster', 'aws-test', JsonPatch.remove('/spec/network/vpc'),
        'AWSCluster aws-test: spec.network.vpc.id undefined is not the infra\'s VPC vpc-0123456789abcdef0'],
      ['AWSMachineTemplate', 'aws-test-linux-', JsonPatch.replace('/spec/template/spec/instanceType', 'm7g.large'),
        'instance type m7g.large is arm64, and it boots the infra\'s Linux AMI ami-0a1b2c3d4e5f60718, which is amd64'],
    ])('%s %s: %j', (kind, name, op, message) => {
      expect(patched(kind, name, op)).toThrow(message);
      try {
        patched(kind, name, op)();
      } catch (e) {
        expectOneShape((e as Error).message);
      }
    });
    test('a patch that keeps the agreement passes', () => {
      expect(patched('AWSCluster', 'aws-test', JsonPatch.replace('/spec/region', 'eu-north-1'))).not.toThrow();
    });
  });

  test('fromOutputsFile(undefined) is a clear error', () => {
    expect(() => ClusterInfra.fromOutputsFile(undefined as unknown as string))
      .toThrow('[ClusterInfra.fromOutputsFile] the outputs file path is undefined. Fix: pass the path of the file `cdktn deploy --outputs-file <path>` (CDK Terrain; `cdktf deploy` on cdktf) wrote');
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
