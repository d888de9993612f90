import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOG_MONITOR_DEFAULT_CONFIG, LOG_MONITOR_EXE, WindowsIsolation, WindowsVersion, imageIncompatibility, imageRelease, withLogMonitor } from '../../src';

describe('imageRelease', () => {
  test.each([
    ['mcr.microsoft.com/windows/servercore:ltsc2022', 'ltsc2022', WindowsVersion.SERVER_2022],
    ['mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019', 'ltsc2019', WindowsVersion.SERVER_2019],
    ['mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2025', 'ltsc2025', WindowsVersion.SERVER_2025],
    ['mcr.microsoft.com/windows/nanoserver:LTSC2022@sha256:abc', 'ltsc2022', WindowsVersion.SERVER_2022],
    ['mcr.microsoft.com/windows/servercore:ltsc2016', 'ltsc2016', undefined],
    // Every form Microsoft publishes a release in.
    ['mcr.microsoft.com/windows/nanoserver:1809', 'ltsc2019', WindowsVersion.SERVER_2019],
    ['mcr.microsoft.com/powershell:lts-nanoserver-1809', 'ltsc2019', WindowsVersion.SERVER_2019],
    ['mcr.microsoft.com/windows/servercore:10.0.17763.6532', 'ltsc2019', WindowsVersion.SERVER_2019],
    ['mcr.microsoft.com/windows/nanoserver:10.0.20348.2849', 'ltsc2022', WindowsVersion.SERVER_2022],
    ['mcr.microsoft.com/windows/server:10.0.26100.2314', 'ltsc2025', WindowsVersion.SERVER_2025],
    ['mcr.microsoft.com/dotnet/aspnet:8.0-nanoserver-ltsc2022', 'ltsc2022', WindowsVersion.SERVER_2022],
    ['mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2019', 'ltsc2019', WindowsVersion.SERVER_2019],
    ['mcr.microsoft.com/dotnet/runtime:8.0-nanoserver-1809', 'ltsc2019', WindowsVersion.SERVER_2019],
  ])('%s names %s', (image, ltscTag, version) => {
    expect(imageRelease(image)).toEqual({ ltscTag, version });
  });

  // Retired releases (issue 24 point 12): the Semi-Annual Channel tags and builds Microsoft
  // published (src/platform/windows.ts RETIRED_WINDOWS_RELEASES), read where they are known to be
  // Windows releases; LTSC 2016 by its build too.
  test.each([
    ['mcr.microsoft.com/windows/servercore:1909', '1909'],
    ['mcr.microsoft.com/windows/nanoserver:20H2', '20h2'],
    ['mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-2004', '2004'],
    ['mcr.microsoft.com/powershell:lts-nanoserver-1903', '1903'],
    ['mcr.microsoft.com/windows/servercore:10.0.18363.1556', '1909'],
    ['mcr.microsoft.com/windows/servercore:10.0.14393.7515', 'ltsc2016'],
  ])('%s names the retired release %s', (image, tag) => {
    expect(imageRelease(image)).toEqual({ ltscTag: tag, retired: expect.any(String) });
    expect(imageIncompatibility(image, WindowsVersion.SERVER_2022, WindowsIsolation.PROCESS)).toMatch(/no supported Windows node runs|a release Kubernetes does not support/);
  });

  test('a retired release named by a bare tag elsewhere is not a Windows release', () => {
    expect(imageRelease('registry.example.com/shop:2004')).toBeUndefined();
    expect(imageRelease('registry.example.com/shop:release-1909')).toBeUndefined();
    expect(imageIncompatibility('mcr.microsoft.com/windows/servercore:1909', WindowsVersion.SERVER_2022, WindowsIsolation.PROCESS))
      .toBe('image mcr.microsoft.com/windows/servercore:1909 names Windows Server, version 1909, a retired Semi-Annual Channel release no supported Windows node runs; use an image tagged ltsc2022');
  });

  test.each([
    'mcr.microsoft.com/dotnet/framework/aspnet:4.8',
    'registry.example.com:5000/ltsc2022/app',
    'registry.example.com/app-ltsc2022:latest',
    'mcr.microsoft.com/windows/servercore@sha256:ltsc2022',
    'mcr.microsoft.com/windows/servercore:ltsc20222',
  ])('%s names no LTSC release', (image) => {
    expect(imageRelease(image)).toBeUndefined();
  });
});

describe('imageIncompatibility', () => {
  const img = (tag: string) => `mcr.microsoft.com/windows/servercore:${tag}`;

  // containerd/platforms v0.2.1 platform_compat_windows.go (checkHostAndContainerCompat) and
  // v1.0.0-rc.4 (with ltsc2025); Microsoft's "Windows container version compatibility": before
  // Windows Server 2022 an exact match; from 2022 on, the previous stable-ABI LTSC (2022) up to
  // the host's own release. containerd's default pull applies it, so Hyper-V isolation fares no better.
  test.each([
    [WindowsVersion.SERVER_2019, 'ltsc2019', true], [WindowsVersion.SERVER_2019, 'ltsc2022', false], [WindowsVersion.SERVER_2019, 'ltsc2025', false],
    [WindowsVersion.SERVER_2022, 'ltsc2019', false], [WindowsVersion.SERVER_2022, 'ltsc2022', true], [WindowsVersion.SERVER_2022, 'ltsc2025', false],
    [WindowsVersion.SERVER_2025, 'ltsc2019', false], [WindowsVersion.SERVER_2025, 'ltsc2022', true], [WindowsVersion.SERVER_2025, 'ltsc2025', true],
  ])('Windows Server %s host, %s image: runs %s', (host, tag, runs) => {
    for (const isolation of [WindowsIsolation.PROCESS, WindowsIsolation.HYPER_V]) {
      const problem = imageIncompatibility(img(tag), host, isolation);
      if (runs) expect(problem).toBeUndefined();
      else expect(problem).toMatch(new RegExp(`built for ${tag}, which a Windows Server ${host} host .* cannot run`));
    }
  });

  test('the message names what to use, and that Hyper-V does not help', () => {
    expect(imageIncompatibility(img('ltsc2019'), WindowsVersion.SERVER_2025, WindowsIsolation.PROCESS)).toMatch(/use ltsc2022 or ltsc2025$/);
    expect(imageIncompatibility(img('ltsc2019'), WindowsVersion.SERVER_2022, WindowsIsolation.HYPER_V)).toMatch(/Hyper-V isolation does not help.*; use ltsc2022$/);
  });

  test('multi-arch tags are not checked; unsupported releases always fail', () => {
    expect(imageIncompatibility('mcr.microsoft.com/dotnet/framework/aspnet:4.8', WindowsVersion.SERVER_2019, WindowsIsolation.PROCESS)).toBeUndefined();
    expect(imageIncompatibility(img('ltsc2016'), WindowsVersion.SERVER_2019, WindowsIsolation.HYPER_V)).toMatch(/ltsc2016, a release Kubernetes does not support .* use an image tagged ltsc2019/);
  });
});

describe('withLogMonitor', () => {
  // microsoft/windows-container-tools LogMonitor/src/LogMonitor/Parser/LoggerSettings.h:
  // DEFAULT_CONFIG_FILENAME L"C:\\LogMonitor\\LogMonitorConfig.json", a fixed path (issue 24 point 12).
  test('the default configuration is a fixed path, and the docs say so', () => {
    expect(LOG_MONITOR_DEFAULT_CONFIG).toBe('C:\\LogMonitor\\LogMonitorConfig.json');
    const source = readFileSync(join(__dirname, '..', '..', 'src', 'workloads', 'log-monitor.ts'), 'utf8');
    expect(source).not.toMatch(/beside the executable/);
    expect(source).toContain('@default - LogMonitor\'s own default, the fixed path `C:\\LogMonitor\\LogMonitorConfig.json`');
    expect(readFileSync(join(__dirname, '..', '..', 'docs', 'workloads.md'), 'utf8')).toContain('LogMonitor reads `C:\\LogMonitor\\LogMonitorConfig.json` (a fixed path, wherever the executable is');
  });

  test('puts LogMonitor in front of the entrypoint', () => {
    expect(withLogMonitor(['C:\\ServiceMonitor.exe', 'w3svc'])).toEqual([LOG_MONITOR_EXE, 'C:\\ServiceMonitor.exe', 'w3svc']);
    expect(LOG_MONITOR_EXE).toBe('C:\\LogMonitor\\LogMonitor.exe');
  });

  test('passes a config file name with /Config and accepts another executable location', () => {
    expect(withLogMonitor(['app.exe'], { config: 'lm.json', executable: 'D:\\lm\\LogMonitor.exe' }))
      .toEqual(['D:\\lm\\LogMonitor.exe', '/Config', 'lm.json', 'app.exe']);
  });

  // LogMonitor v2.2.1 LogMonitor/src/LogMonitor/Main.cpp refuses a /Config value containing "..",
  // "/", "\\" or ":" ("Invalid configuration file name.") and exits 0 without starting the app.
  test.each(['C:\\cfg\\lm.json', 'cfg/lm.json', '..lm.json', 'C:lm.json', ''])('refuses the config path %j', (config) => {
    expect(() => withLogMonitor(['app.exe'], { config }))
      .toThrow(/^\[withLogMonitor\] config .* is a path; LogMonitor 2\.2\+ takes only a file name in LogMonitor\.exe's directory.*Fix: copy the file next to LogMonitor\.exe/);
  });

  test('needs a command to start', () => {
    expect(() => withLogMonitor([])).toThrow(/\[withLogMonitor\] no command for LogMonitor to start\. Fix: pass the entrypoint/);
  });
});
