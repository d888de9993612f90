import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The parse of a script by a real PowerShell grammar: its syntax errors and the commands it runs. */
export interface PowerShellParse {
  /** `ERROR` and `MISSING` nodes, as `line:column text`. */
  readonly errors: string[];
  /** Every command's name, in order (`Stop-Service`, `sc.exe`, `&` calls as their target). */
  readonly commands: string[];
  /** The full text of every command, in order. */
  readonly commandTexts: string[];
}

/**
 * Parses `script` with tree-sitter-powershell (airbus-cert's grammar) through tree-sitter's node
 * bindings, both from their prebuilt linux-x64 binaries, in a child process (powershell-parse.cjs
 * says why).
 */
export function parsePowerShell(script: string): PowerShellParse {
  return JSON.parse(execFileSync(process.execPath, [join(__dirname, 'powershell-parse.cjs')], { input: script, encoding: 'utf8' })) as PowerShellParse;
}
