import { brief } from '../core/values';
import { K0sVersion } from '../platform/k0s-version';
import { psQuote } from '../platform/powershell';
import { KUBELET_PORT } from '../platform/kubernetes';
import { K0S_WINDOWS_RESET_SINCE, SSH_PORT, WINDOWS_BOOTSTRAP } from '../platform/remote';
import { windowsOpenSshKeyProblem } from '../platform/windows-openssh';

/**
 * The PowerShell k0smotron runs (as a RemoteMachine's `cleanUpCommands`) when a Windows machine
 * of a remote pool is deleted, so that its host can join again. k0smotron's own cleanup is
 * Linux shell (`systemctl stop`, `k0s reset`: internal/controller/infrastructure/ssh_provisioner.go,
 * Cleanup) and fails on Windows, leaving the k0sworker service installed, on which the next
 * `k0s install worker` fails, and the bootstrap sentinel, on which the next bootstrap script
 * exits at once. Every step tolerates what is already gone: a host whose bootstrap failed
 * half-way is cleaned too.
 *
 * @param k0sVersion the pool's k0s version: `k0s reset` runs from v1.35.1+k0s.0, the first
 *   Windows build that has it; older versions get the folders removed by hand.
 * @param installDir the folder k0s.exe was installed to (the pool's `k0sInstallDir`).
 */
export function windowsCleanupScript(k0sVersion: K0sVersion, installDir: string): string {
  const b = WINDOWS_BOOTSTRAP;
  const reset = k0sVersion.compare(K0sVersion.of(K0S_WINDOWS_RESET_SINCE)) >= 0;
  const k0s = `${installDir}\\k0s.exe`;
  return [
    '$ErrorActionPreference = \'Continue\'',
    // Progress records go to stderr as CLIXML over SSH and read as a failure; rig sets the same
    // before its own commands (k0sproject/rig v0.21.11 pkg/powershell/powershell.go, EncodeCmd).
    '$ProgressPreference = \'SilentlyContinue\'',
    `# Stop the worker first: k0s reset refuses to run while k0s runs.`,
    `Stop-Service -Name ${psQuote(b.service)} -Force -ErrorAction SilentlyContinue`,
    `Unregister-ScheduledTask -TaskName ${psQuote(b.scheduledTask)} -Confirm:$false -ErrorAction SilentlyContinue`,
    ...(reset
      ? [
        `# k0s ${k0sVersion} resets on Windows: containers, the service, the data folders, Calico's networks.`,
        `if (Test-Path -LiteralPath ${psQuote(k0s)}) { & ${psQuote(k0s)} reset }`,
      ]
      : [`# k0s ${k0sVersion} has no reset on Windows (from ${K0S_WINDOWS_RESET_SINCE}): the service and folders go by hand.`]),
    `if (Get-Service -Name ${psQuote(b.service)} -ErrorAction SilentlyContinue) { sc.exe delete ${psQuote(b.service)} | Out-Null }`,
    `Remove-Item -LiteralPath ${[b.sentinelDir, b.scriptDir, b.tokenFile, b.dataDir, installDir].map(psQuote).join(', ')} -Recurse -Force -ErrorAction SilentlyContinue`,
    '',
  ].join('\n');
}

/** Options of `windowsHostPreparationScript`. */
export interface WindowsHostPreparationOptions {
  /** The OpenSSH public key whose private key the pool's Secret holds (`ssh-ed25519 AAAA…`). */
  readonly publicKey: string;
  /**
   * Further inbound TCP ports to open, e.g. 9182 for windows_exporter.
   * @default - none
   */
  readonly additionalTcpPorts?: readonly number[];
  /**
   * PowerShell that removes what a previous node left on the host (`windowsCleanupScript`), run
   * before anything else.
   * @default - none
   */
  readonly previousNodeCleanup?: string;
}

/** SIDs of BUILTIN\Administrators and SYSTEM: group names are translated on localized Windows. */
const ADMINISTRATORS_SID = '*S-1-5-32-544';
const SYSTEM_SID = '*S-1-5-18';

/**
 * The PowerShell to run once, elevated, on each Windows host before its pool uses it: from then
 * on k0smotron reaches it over SSH with the pool's key, and no reboot happens while k0smotron's
 * bootstrap runs (k0smotron's script reboots the host itself when it must enable the Containers
 * feature, in the middle of its SSH session). The script ends by rebooting when it enabled the
 * feature. k0smotron installs nothing of this (docs/capi-remotemachine-windows.md, v2.1.0).
 */
export function windowsHostPreparationScript(options: WindowsHostPreparationOptions): string {
  const ports = [
    { port: SSH_PORT, name: 'cdk-hybrid-windows-ssh', display: 'OpenSSH server (k0smotron)' },
    { port: KUBELET_PORT, name: 'cdk-hybrid-windows-kubelet', display: 'kubelet API (k0s)' },
    ...(options.additionalTcpPorts ?? []).map((port) => ({ port, name: `cdk-hybrid-windows-tcp-${port}`, display: `TCP ${port}` })),
  ];
  return [
    '#Requires -RunAsAdministrator',
    ...(options.previousNodeCleanup ? ['# What a previous node left: the service, the bootstrap marker, the token, the folders.', '& {', options.previousNodeCleanup.trimEnd(), '}', ''] : []),
    '$ErrorActionPreference = \'Stop\'',
    '',
    '# OpenSSH server, started now and at every boot.',
    'if (-not (Get-Service -Name \'sshd\' -ErrorAction SilentlyContinue)) {',
    '  Add-WindowsCapability -Online -Name \'OpenSSH.Server~~~~0.0.1.0\' | Out-Null',
    '}',
    'Set-Service -Name \'sshd\' -StartupType Automatic',
    'Start-Service -Name \'sshd\'',
    '',
    '# Members of Administrators log in with the keys in administrators_authorized_keys, which',
    '# sshd reads only while Administrators and SYSTEM alone may access it.',
    '$authorizedKeys = Join-Path $env:ProgramData \'ssh\\administrators_authorized_keys\'',
    'New-Item -ItemType Directory -Force -Path (Split-Path -Parent $authorizedKeys) | Out-Null',
    `$publicKey = ${psQuote(options.publicKey)}`,
    '$present = (Test-Path -LiteralPath $authorizedKeys) -and ((Get-Content -LiteralPath $authorizedKeys) -contains $publicKey)',
    'if (-not $present) { Add-Content -LiteralPath $authorizedKeys -Value $publicKey -Encoding ascii }',
    `icacls.exe $authorizedKeys /inheritance:r /grant ${psQuote(`${ADMINISTRATORS_SID}:F`)} ${psQuote(`${SYSTEM_SID}:F`)} | Out-Null`,
    'if ($LASTEXITCODE -ne 0) { throw "icacls failed on $authorizedKeys" }',
    '',
    '# Inbound ports: the Windows firewall drops what no rule opens.',
    ...ports.map(({ port, name, display }) =>
      `if (-not (Get-NetFirewallRule -Name ${psQuote(name)} -ErrorAction SilentlyContinue)) { New-NetFirewallRule -Name ${psQuote(name)} -DisplayName ${psQuote(display)} -Direction Inbound -Protocol TCP -LocalPort ${port} -Action Allow | Out-Null }`),
    '',
    '# The Containers feature, then the reboot it needs, before k0smotron connects.',
    '$containers = Get-WindowsOptionalFeature -Online -FeatureName \'Containers\'',
    'if ($containers.State -ne \'Enabled\') {',
    '  Enable-WindowsOptionalFeature -Online -FeatureName \'Containers\' -All -NoRestart | Out-Null',
    '  Restart-Computer -Force',
    '}',
    '',
  ].join('\n');
}

/**
 * Why `key` is not a public-key line the host's sshd takes (the one fact of Windows OpenSSH's keys,
 * which the CAPZ Windows pool's `sshAuthorizedKeys` reads too), or undefined when it is one.
 */
export function publicKeyProblem(key: string): { readonly what: string; readonly fix: string } | undefined {
  const problem = windowsOpenSshKeyProblem(key);
  return problem && { what: `publicKey: ${brief(key)} ${problem.what}`, fix: problem.fix };
}
