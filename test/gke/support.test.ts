import { GKE_WINDOWS_NODE_TAINT, WINDOWS_NODE_TAINTS, WindowsPlatform, windowsNodeTaint } from '../../src';
import { GKE_WINDOWS_OS_VERSIONS } from '../../src/gke';
import { WINDOWS_SUPPORT, runsWindowsNodes, windowsSupport } from '../../src/platform/support';
import { WINDOWS_NODE_TAINT, WindowsVersion } from '../../src/platform/windows';

describe('the support matrix for GKE, k3s and RKE2', () => {
  test('GKE: LTSC 2019 and 2022 from GKE 1.23, the osversion the pools write for each; no 2025', () => {
    for (const version of [WindowsVersion.SERVER_2019, WindowsVersion.SERVER_2022]) {
      expect(windowsSupport(WindowsPlatform.GKE, version)).toMatchObject({ supported: true, minimumVersion: '1.23' });
      expect(windowsSupport(WindowsPlatform.GKE, version).source).toContain(GKE_WINDOWS_OS_VERSIONS[version]);
    }
    expect(windowsSupport(WindowsPlatform.GKE, WindowsVersion.SERVER_2025).supported).toBe(false);
    expect(GKE_WINDOWS_OS_VERSIONS[WindowsVersion.SERVER_2025]).toBeUndefined();
  });

  test('k3s: no release on any Windows Server, citing k3s-io/k3s#114; RKE2: 2019 and 2022, outside Cluster API', () => {
    for (const version of Object.values(WindowsVersion)) {
      expect(windowsSupport(WindowsPlatform.K3S, version)).toMatchObject({ supported: false, source: expect.stringContaining('k3s-io/k3s#114') });
      expect(windowsSupport(WindowsPlatform.RKE2, version)).toMatchObject({ supported: version !== WindowsVersion.SERVER_2025, source: expect.stringContaining('not through Cluster API') });
    }
  });

  test('every platform has a row for every release; GKE nodes carry GKE\'s taint, RKE2\'s, k3s\'s and CAPZ\'s none, the others ours', () => {
    // RKE2: rancher/rke2 v1.35.7+rke2r1 registers Windows agents with the node-taint option's taints only
    // (pkg/cli/cmds/agent.go; k3s-io/k3s pkg/daemons/agent/agent_windows.go); k3s has no Windows nodes;
    // CAPZ's Windows flavor registers them with the cloud provider's taint only (src/platform/support.ts).
    const none: WindowsPlatform[] = [WindowsPlatform.RKE2, WindowsPlatform.K3S, WindowsPlatform.CAPZ];
    for (const platform of Object.values(WindowsPlatform)) {
      expect(Object.keys(WINDOWS_SUPPORT[platform]).sort()).toEqual(Object.values(WindowsVersion).sort());
      expect(windowsNodeTaint(platform)).toEqual(platform === WindowsPlatform.GKE ? GKE_WINDOWS_NODE_TAINT : none.includes(platform) ? undefined : WINDOWS_NODE_TAINT);
      expect(runsWindowsNodes(platform)).toBe(platform !== WindowsPlatform.K3S);
    }
    expect(GKE_WINDOWS_NODE_TAINT).toEqual({ key: 'node.kubernetes.io/os', value: 'windows', effect: 'NoSchedule' });
    expect(WINDOWS_NODE_TAINTS).toEqual([WINDOWS_NODE_TAINT, GKE_WINDOWS_NODE_TAINT]);
  });
});
