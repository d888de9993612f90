import { K0sVersion } from '../../src/platform/k0s-version';
import { CMD_MAX_COMMAND_LINE, decodePowerShell, encodedPowerShell, psQuote } from '../../src/platform/powershell';
import { windowsCleanupScript, windowsHostPreparationScript } from '../../src/remote/windows-host-scripts';
import { synthObjects } from '../support/synth';
import { parsePowerShell } from '../support/powershell';
import { remoteApp } from './fixture';

// The generated PowerShell is parsed with a real PowerShell grammar (tree-sitter-powershell).

describe('the grammar check itself', () => {
  test('reports a broken script, so a clean parse means something', () => {
    expect(parsePowerShell('if ($x { Stop-Service k0sworker').errors).not.toEqual([]);
    expect(parsePowerShell("Remove-Item -LiteralPath 'C:\\k0s").errors).not.toEqual([]);
  });

  test('psQuote keeps quotes, typographic ones included, inside one literal', () => {
    for (const text of ["it's", 'a\u2019b', "''", '$env:x "y"']) {
      const parsed = parsePowerShell(`Write-Output ${psQuote(text)}`);
      expect(parsed.errors).toEqual([]);
      expect(parsed.commandTexts).toEqual([`Write-Output ${psQuote(text)}`]);
    }
  });
});

describe('cleanup script (cleanUpCommands of Windows hosts)', () => {
  const before = windowsCleanupScript(K0sVersion.of('v1.34.4+k0s.0'), 'C:\\k0s');
  const after = windowsCleanupScript(K0sVersion.of('v1.35.1+k0s.0'), 'C:\\k0s');

  test.each([['v1.34.4+k0s.0', before], ['v1.35.1+k0s.0', after]])('%s parses without errors', (_, script) => {
    expect(parsePowerShell(script).errors).toEqual([]);
  });

  test('stops and removes the k0sworker service, the scheduled task, the sentinel and the folders', () => {
    // k0s pkg/install/service.go names the service "k0s" + role; k0smotron v2.1.0 getWindowsCommands
    // registers the "k0s-bootstrap" task, writes C:\bootstrap\k0s_install.ps1 and exits at once
    // while C:\run\cluster-api\bootstrap-success.complete exists.
    for (const script of [before, after]) {
      const { commandTexts } = parsePowerShell(script);
      expect(commandTexts).toEqual(expect.arrayContaining([
        "Stop-Service -Name 'k0sworker' -Force -ErrorAction SilentlyContinue",
        "Unregister-ScheduledTask -TaskName 'k0s-bootstrap' -Confirm:$false -ErrorAction SilentlyContinue",
        expect.stringMatching(/^sc\.exe delete 'k0sworker'/),
      ]));
      const removal = commandTexts.find((t) => t.startsWith('Remove-Item'))!;
      for (const path of ['C:\\run\\cluster-api', 'C:\\bootstrap', 'C:\\etc\\k0s.token', 'C:\\var\\lib\\k0s', 'C:\\k0s']) {
        expect(removal).toContain(`'${path}'`);
      }
      // Stopped first: k0s reset refuses while k0s runs (k0s cmd/reset/reset.go, ErrK0sStillRunning).
      expect(parsePowerShell(script).commands[0]).toBe('Stop-Service');
    }
  });

  test('k0s reset only from v1.35.1+k0s.0, the first Windows build that has it (k0s commit 4499c941)', () => {
    expect(parsePowerShell(after).commandTexts).toContain("& 'C:\\k0s\\k0s.exe' reset");
    expect(parsePowerShell(before).commandTexts.some((t) => t.includes('reset'))).toBe(false);
    expect(parsePowerShell(windowsCleanupScript(K0sVersion.of('v1.34.10+k0s.0'), 'C:\\k0s')).commandTexts.some((t) => t.includes('reset'))).toBe(false);
  });

  test('the pool writes it as one encoded command that cmd.exe and PowerShell pass through alike', () => {
    for (const [version, script] of [['v1.34.4+k0s.0', before], ['v1.35.1+k0s.0', after]]) {
      const objects = synthObjects(remoteApp({ cluster: { k0sVersion: version } }).app);
      const hosts = objects.filter((o) => o.kind === 'PooledRemoteMachine' && o.spec.pool === 'edge-win');
      expect(hosts).toHaveLength(2);
      for (const host of hosts) {
        const [command, ...rest] = host.spec.machine.cleanUpCommands;
        expect(rest).toEqual([]);
        expect(command.startsWith('powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ')).toBe(true);
        expect(decodePowerShell(command)).toBe(script);
        expect(command.length).toBeLessThan(CMD_MAX_COMMAND_LINE);
      }
    }
  });

  test('encoding round-trips any text, non-ASCII included', () => {
    const text = "Write-Output 'Grüße ✓'";
    expect(decodePowerShell(encodedPowerShell(text))).toBe(text);
    expect(decodePowerShell('k0s reset')).toBeUndefined();
  });
});

describe('host preparation script', () => {
  const script = windowsHostPreparationScript({ publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE admin's key", additionalTcpPorts: [9182] });
  const { errors, commands, commandTexts } = parsePowerShell(script);

  test('parses without errors', () => {
    expect(errors).toEqual([]);
  });

  test('installs, starts and enables the OpenSSH server', () => {
    expect(commandTexts).toEqual(expect.arrayContaining([
      "Add-WindowsCapability -Online -Name 'OpenSSH.Server~~~~0.0.1.0' ",
      "Set-Service -Name 'sshd' -StartupType Automatic",
      "Start-Service -Name 'sshd'",
    ]));
  });

  test('authorizes the key for Administrators, locked to Administrators and SYSTEM by SID', () => {
    expect(script).toContain("$publicKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE admin''s key'");
    expect(script).toContain("Join-Path $env:ProgramData 'ssh\\administrators_authorized_keys'");
    expect(commandTexts).toContain("icacls.exe $authorizedKeys /inheritance:r /grant '*S-1-5-32-544:F' '*S-1-5-18:F' ");
  });

  test('opens inbound TCP 22, 10250 and the additional ports', () => {
    const rules = commandTexts.filter((t) => t.startsWith('New-NetFirewallRule'));
    expect(rules.map((r) => /-LocalPort (\d+)/.exec(r)![1])).toEqual(['22', '10250', '9182']);
    for (const r of rules) expect(r).toMatch(/-Direction Inbound -Protocol TCP .* -Action Allow/);
  });

  test('enables the Containers feature and reboots last, only when it enabled it', () => {
    expect(commands.slice(-3)).toEqual(['Enable-WindowsOptionalFeature', 'Out-Null', 'Restart-Computer']);
    expect(script).toMatch(/if \(\$containers\.State -ne 'Enabled'\) \{\n {2}Enable-WindowsOptionalFeature[^\n]*\n {2}Restart-Computer -Force\n\}/);
  });
});

// Issue 24 point 6. rig v0.21.11 pkg/powershell/powershell.go (EncodeCmd) prefixes its commands with
// $ProgressPreference='SilentlyContinue': over SSH, progress records reach stderr as CLIXML and read as failure.
// k0smotron v2.1.0 getWindowsCommands exits at once while C:\run\cluster-api\bootstrap-success.complete exists.
describe('progress output, and a host prepared again', () => {
  test('the cleanup script silences progress before anything runs', () => {
    const script = windowsCleanupScript(K0sVersion.of('v1.35.1+k0s.0'), 'C:\\k0s');
    const lines = script.split('\n');
    expect(lines.indexOf("$ProgressPreference = 'SilentlyContinue'")).toBeGreaterThan(-1);
    expect(lines.indexOf("$ProgressPreference = 'SilentlyContinue'")).toBeLessThan(lines.findIndex((l) => l.startsWith('Stop-Service')));
  });

  test('resetPreviousNode: the preparation removes the previous node\'s service and bootstrap marker first, and parses', () => {
    const { windows } = remoteApp();
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGk0c0k0c0k0c0k0c0k0c0k0c0k0c0k0c0k0c0k0c0k0 ops';
    const plain = windows!.hostPreparationScript({ publicKey: key });
    const reset = windows!.hostPreparationScript({ publicKey: key, resetPreviousNode: true });
    expect(plain).not.toContain('bootstrap-success');
    expect(parsePowerShell(reset).errors).toEqual([]);
    const texts = parsePowerShell(reset).commandTexts;
    expect(texts).toEqual(expect.arrayContaining([expect.stringMatching(/^Remove-Item -LiteralPath 'C:\\run\\cluster-api'/), "Stop-Service -Name 'k0sworker' -Force -ErrorAction SilentlyContinue"]));
    expect(reset.indexOf("Stop-Service -Name 'k0sworker'")).toBeLessThan(reset.indexOf("$ErrorActionPreference = 'Stop'"));
  });
});
