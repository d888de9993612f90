import { LOG_MONITOR_EXE, WindowsIsolation, WindowsVersion, imageIncompatibility, imageRelease, withLogMonitor } from '../../src';

describe('imageRelease', () => {
  test.each([
    ['mcr.microsoft.com/windows/servercore:ltsc2022', 'ltsc2022', WindowsVersion.SERVER_2022],
    ['mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019', 'ltsc2019', WindowsVersion.SERVER_2019],
    ['mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2025', 'ltsc2025', WindowsVersion.SERVER_2025],
    ['mcr.microsoft.com/windows/nanoserver:LTSC2022@sha256:abc', 'ltsc2022', WindowsVersion.SERVER_2022],
    ['mcr.microsoft.com/windows/servercore:ltsc2016', 'ltsc2016', undefined],
  ])('%s names %s', (image, ltscTag, version) => {
    expect(imageRelease(image)).toEqual({ ltscTag, version });
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

  test('process isolation: exact match only', () => {
    expect(imageIncompatibility(img('ltsc2022'), WindowsVersion.SERVER_2022, WindowsIsolation.PROCESS)).toBeUndefined();
    expect(imageIncompatibility(img('ltsc2019'), WindowsVersion.SERVER_2022, WindowsIsolation.PROCESS)).toMatch(/built for ltsc2019 .* needs ltsc2022; use the ltsc2022 tag/);
    expect(imageIncompatibility(img('ltsc2025'), WindowsVersion.SERVER_2022, WindowsIsolation.PROCESS)).toMatch(/built for ltsc2025/);
  });

  test('Hyper-V: older or equal images on a newer host', () => {
    expect(imageIncompatibility(img('ltsc2019'), WindowsVersion.SERVER_2025, WindowsIsolation.HYPER_V)).toBeUndefined();
    expect(imageIncompatibility(img('ltsc2025'), WindowsVersion.SERVER_2025, WindowsIsolation.HYPER_V)).toBeUndefined();
    expect(imageIncompatibility(img('ltsc2025'), WindowsVersion.SERVER_2022, WindowsIsolation.HYPER_V)).toMatch(/use ltsc2019 or ltsc2022$/);
  });

  test('multi-arch tags are not checked; unsupported releases always fail', () => {
    expect(imageIncompatibility('mcr.microsoft.com/dotnet/framework/aspnet:4.8', WindowsVersion.SERVER_2019, WindowsIsolation.PROCESS)).toBeUndefined();
    expect(imageIncompatibility(img('ltsc2016'), WindowsVersion.SERVER_2019, WindowsIsolation.HYPER_V)).toMatch(/ltsc2016, a release Kubernetes does not support .* use an image tagged ltsc2019/);
  });
});

describe('withLogMonitor', () => {
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
