import { Testing } from 'cdktn';
import { WindowsEdition, WindowsVersion, windowsAmiOutputId } from '../../src';
import { ClusterImagesProps, HybridClusterInfraStack, UbuntuRelease, ubuntuAmiParameter, windowsAmiParameter } from '../../src/aws';
import { TfJson, all, synthTf } from '../support/tf';

function synth(images?: ClusterImagesProps): TfJson {
  return synthTf(new HybridClusterInfraStack(Testing.app(), 'infra', { region: 'eu-north-1', clusterName: 'aws-test', images }));
}

const WINDOWS_TABLE: [WindowsVersion, WindowsEdition, string][] = [
  [WindowsVersion.SERVER_2019, WindowsEdition.CORE, '/aws/service/ami-windows-latest/Windows_Server-2019-English-Core-Base'],
  [WindowsVersion.SERVER_2019, WindowsEdition.FULL, '/aws/service/ami-windows-latest/Windows_Server-2019-English-Full-Base'],
  [WindowsVersion.SERVER_2022, WindowsEdition.CORE, '/aws/service/ami-windows-latest/Windows_Server-2022-English-Core-Base'],
  [WindowsVersion.SERVER_2022, WindowsEdition.FULL, '/aws/service/ami-windows-latest/Windows_Server-2022-English-Full-Base'],
  [WindowsVersion.SERVER_2025, WindowsEdition.CORE, '/aws/service/ami-windows-latest/Windows_Server-2025-English-Core-Base'],
  [WindowsVersion.SERVER_2025, WindowsEdition.FULL, '/aws/service/ami-windows-latest/Windows_Server-2025-English-Full-Base'],
];

/** SSM parameter name behind an output's value, e.g. `${data.aws_ssm_parameter.X.insecure_value}`. */
function parameterBehind(tf: TfJson, value: string): string | undefined {
  const id = /^\$\{data\.aws_ssm_parameter\.([^.]+)\.insecure_value\}$/.exec(value)?.[1];
  return id === undefined ? undefined : tf.data?.aws_ssm_parameter?.[id]?.name;
}

describe('Windows AMI lookups', () => {
  test('the table covers every version and edition', () => {
    expect(WINDOWS_TABLE).toHaveLength(Object.values(WindowsVersion).length * Object.values(WindowsEdition).length);
  });

  test.each(WINDOWS_TABLE)('Windows Server %s %s reads %s', (version, edition, parameter) => {
    expect(windowsAmiParameter({ version, edition })).toBe(parameter);
    const tf = synth({ windows: [{ version, edition }] });
    const output = tf.output?.[windowsAmiOutputId(version, edition)];
    // Not `value`: the provider marks it sensitive and Terraform would refuse the output.
    expect(parameterBehind(tf, output.value)).toBe(parameter);
    expect(all(tf, 'aws_ssm_parameter', 'data').map((p) => p.name)).toContain(parameter);
  });

  test('default: Windows Server 2022 Core only', () => {
    const tf = synth();
    const windowsOutputs = Object.keys(tf.output ?? {}).filter((k) => k.startsWith('windows_ami_id_'));
    expect(windowsOutputs).toEqual(['windows_ami_id_2022_core']);
  });

  test('all six at once, duplicates looked up once', () => {
    const images = WINDOWS_TABLE.map(([version, edition]) => ({ version, edition }));
    const tf = synth({ windows: [...images, images[0]] });
    expect(all(tf, 'aws_ssm_parameter', 'data')).toHaveLength(7);
    for (const [version, edition, parameter] of WINDOWS_TABLE) {
      expect(parameterBehind(tf, tf.output?.[windowsAmiOutputId(version, edition)].value)).toBe(parameter);
    }
  });
});

describe('Linux AMI lookup', () => {
  test.each([
    [UbuntuRelease.JAMMY_22_04, '/aws/service/canonical/ubuntu/server/22.04/stable/current/amd64/hvm/ebs-gp2/ami-id'],
    [UbuntuRelease.NOBLE_24_04, '/aws/service/canonical/ubuntu/server/24.04/stable/current/amd64/hvm/ebs-gp3/ami-id'],
  ])('Ubuntu %s reads %s', (release, parameter) => {
    expect(ubuntuAmiParameter(release)).toBe(parameter);
    const tf = synth({ linux: release });
    expect(parameterBehind(tf, tf.output?.linux_ami_id.value)).toBe(parameter);
  });

  test('default: Ubuntu 24.04', () => {
    const tf = synth();
    expect(parameterBehind(tf, tf.output?.linux_ami_id.value)).toBe(ubuntuAmiParameter(UbuntuRelease.NOBLE_24_04));
  });
});

describe('pinned AMIs', () => {
  test('replace the lookups and add images not otherwise requested', () => {
    const tf = synth({
      linuxAmiId: 'ami-0123456789abcdef0',
      windowsAmiIds: {
        [WindowsVersion.SERVER_2022]: { [WindowsEdition.CORE]: 'ami-0aaaaaaaaaaaaaaaa' },
        [WindowsVersion.SERVER_2019]: { [WindowsEdition.FULL]: 'ami-0bbbbbbb' },
      },
    });
    expect(all(tf, 'aws_ssm_parameter', 'data')).toEqual([]);
    expect(tf.output?.linux_ami_id.value).toBe('ami-0123456789abcdef0');
    expect(tf.output?.windows_ami_id_2022_core.value).toBe('ami-0aaaaaaaaaaaaaaaa');
    expect(tf.output?.windows_ami_id_2019_full.value).toBe('ami-0bbbbbbb');
  });

  test.each([
    [{ linuxAmiId: 'ubuntu' }, '[infra/Infra/Images] images.linuxAmiId: AMI "ubuntu" is not an AMI id (ami- and 8 or 17 lower-case hex digits). Fix: give ami- and 8 or 17 hex digits'],
    [{ windowsAmiIds: { [WindowsVersion.SERVER_2025]: { [WindowsEdition.FULL]: 'ami-XYZ' } } }, 'images.windowsAmiIds.2025.Full: AMI "ami-XYZ" is not an AMI id'],
    [{ windows: [{ version: '2016' as WindowsVersion, edition: WindowsEdition.CORE }] }, 'Windows image {"version":"2016","edition":"Core"} is not supported. Fix: use a WindowsVersion (2019, 2022, 2025)'],
  ])('rejects %j', (images, message) => {
    expect(() => synth(images)).toThrow(message);
  });
});
