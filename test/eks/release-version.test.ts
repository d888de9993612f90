import { EksLinuxNodeGroup, EksWindowsNodeGroup } from '../../src/eks';
import { eksStack, hybridStack, synthError } from './fixture';
import { thrownMessage } from '../support/tf';

// An EKS-optimized AMI release belongs to one Kubernetes minor: Windows AMIs are versioned
// "k8s_major_version.k8s_minor_version-release_date", e.g. 1.34-2026.01.22 (awsdocs/amazon-eks-user-guide
// latest/ug/nodes/eks-ami-versions-windows.adoc), Amazon Linux AMIs 1.34.4-20260120. docs/day2.md's
// patch step (raise releaseVersion) then its upgrade step (raise kubernetesVersion) led to a group of
// 1.35 with a 1.34 release, which EKS refuses (issue 33, point 13).
describe('eks-node-group: release_version against the group\'s Kubernetes minor and the Windows release form', () => {
  test('a Windows release of another minor than the group\'s, or not <minor>-<date>, is refused naming releaseVersion', () => {
    const windows = (releaseVersion: string, kubernetesVersion = '1.34') => thrownMessage(() => new EksWindowsNodeGroup(eksStack({ kubernetesVersion }).cluster, 'windows', { instanceTypes: ['m6i.xlarge'], releaseVersion }));
    expect(windows('1.34-2026.01.22')).toBe('');
    expect(windows('1.34-2026.01.22', '1.35')).toMatch(/^\[eks-test\/Cluster\/windows\] releaseVersion: .*release_version 1\.34-2026\.01\.22 is an AMI of Kubernetes 1\.34, and the node group runs 1\.35/);
    expect(windows('1.34.4-20260120')).toMatch(/releaseVersion: .*release_version "1\.34\.4-20260120" is not a Windows AMI release \(<major>\.<minor>-<date>/);
    // A few old rows of the list write the date with "-" (1.28-2025-01-01).
    expect(windows('1.34-2025-01-01')).toBe('');
  });

  test('an Amazon Linux release of another minor is refused; a Linux group without one passes', () => {
    const linux = (releaseVersion?: string) => thrownMessage(() => new EksLinuxNodeGroup(eksStack({ kubernetesVersion: '1.35' }).cluster, 'linux', { instanceTypes: ['t3.large'], releaseVersion }));
    expect(linux('1.35.0-20260301')).toBe('');
    expect(linux('1.34.4-20260120')).toMatch(/releaseVersion: .*release_version 1\.34\.4-20260120 is an AMI of Kubernetes 1\.34, and the node group runs 1\.35/);
    expect(linux()).toBe('');
  });

  test('at synth, an override of the version that leaves the release behind is refused', () => {
    const { stack } = hybridStack({ kubernetesVersion: '1.34' });
    const group = new EksWindowsNodeGroup(stack.cluster, 'patched', { instanceTypes: ['m6i.xlarge'], releaseVersion: '1.34-2026.01.22' });
    expect(synthError(stack)).toBe('');
    group.parts.nodeGroup.addOverride('version', '1.33');
    expect(synthError(stack)).toMatch(/release_version 1\.34-2026\.01\.22 is an AMI of Kubernetes 1\.34, and the node group runs 1\.33/);
  });
});
