import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Parser from 'tree-sitter';

/**
 * A real PowerShell grammar (tree-sitter-powershell, airbus-cert) through tree-sitter's node
 * bindings, both loaded from their prebuilt linux-x64 binaries. The grammar's entry point is an
 * ES module with top-level await, which jest's CommonJS cannot require, so its native binding is
 * loaded the way that entry point loads it (node-gyp-build on the package root).
 */
const root = dirname(require.resolve('tree-sitter-powershell/package.json'));
const language = createRequire(join(root, 'package.json'))('node-gyp-build')(root);
language.nodeTypeInfo = require(join(root, 'src', 'node-types.json'));
const parser = new Parser();
parser.setLanguage(language);

/** The parse of a script: its syntax errors and the names of the commands it runs. */
export interface PowerShellParse {
  /** `ERROR` and `MISSING` nodes, as `line:column text`. */
  readonly errors: string[];
  /** Every command's name, in order (`Stop-Service`, `sc.exe`, `&` calls as their target). */
  readonly commands: string[];
  /** The full text of every command, in order. */
  readonly commandTexts: string[];
}

export function parsePowerShell(script: string): PowerShellParse {
  const tree = parser.parse(script);
  const errors: string[] = [];
  const commands: string[] = [];
  const commandTexts: string[] = [];
  const walk = (node: Parser.SyntaxNode): void => {
    if (node.type === 'ERROR' || node.isMissing) errors.push(`${node.startPosition.row + 1}:${node.startPosition.column + 1} ${node.text.slice(0, 60)}`);
    if (node.type === 'command') {
      const name = node.childForFieldName('command_name');
      commands.push((name?.text ?? node.text.split(/\s+/)[0]).replace(/^'(.*)'$/, '$1'));
      commandTexts.push(node.text);
    }
    for (const child of node.children) walk(child);
  };
  walk(tree.rootNode);
  return { errors, commands, commandTexts };
}
