/**
 * How a PowerShell script reaches a Windows host as one command line. OpenSSH for Windows runs
 * an exec request through the account's default shell (cmd.exe unless changed), so quoting
 * differs from host to host; `-EncodedCommand` (Base64 of UTF-16LE) passes through cmd.exe and
 * PowerShell alike, which is why rig builds its own commands this way (k0sproject/rig v0.21.11
 * pkg/powershell/powershell.go, `Cmd`).
 */

/** cmd.exe's longest command line (Microsoft: "Command prompt line string limitation", 8191 characters). */
export const CMD_MAX_COMMAND_LINE = 8191;

/** `powershell.exe … -EncodedCommand <Base64 of the UTF-16LE script>`. */
export function encodedPowerShell(script: string): string {
  return `powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ${Buffer.from(script, 'utf16le').toString('base64')}`;
}

/** The script inside an `encodedPowerShell` command line, or undefined for any other command. */
export function decodePowerShell(command: string): string | undefined {
  const m = /-EncodedCommand ([A-Za-z0-9+/=]+)$/.exec(command);
  return m ? Buffer.from(m[1], 'base64').toString('utf16le') : undefined;
}

/** A PowerShell single-quoted string literal: nothing inside is expanded, `'` is doubled. */
export function psQuote(text: string): string {
  // PowerShell also closes a single-quoted string on the typographic quotes, so each is doubled too.
  return `'${text.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}
