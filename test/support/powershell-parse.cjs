// Parses the PowerShell on stdin with tree-sitter-powershell and prints the parse as JSON.
// A process of its own: tree-sitter's native binding initialises once per process, and a second
// load of its JavaScript (as jest does for each test file) returns no nodes.
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { readFileSync } = require('node:fs');
const Parser = require('tree-sitter');

// The grammar's entry point is an ES module with top-level await; its native binding is loaded
// the way that entry point loads it (node-gyp-build on the package root, prebuilt binaries).
const root = dirname(require.resolve('tree-sitter-powershell/package.json'));
const language = createRequire(join(root, 'package.json'))('node-gyp-build')(root);
language.nodeTypeInfo = require(join(root, 'src', 'node-types.json'));
const parser = new Parser();
parser.setLanguage(language);

const tree = parser.parse(readFileSync(0, 'utf8'));
const errors = [];
const commands = [];
const commandTexts = [];
const walk = (node) => {
  if (node.type === 'ERROR' || node.isMissing) errors.push(`${node.startPosition.row + 1}:${node.startPosition.column + 1} ${node.text.slice(0, 60)}`);
  if (node.type === 'command') {
    const name = node.childForFieldName('command_name');
    commands.push((name ? name.text : node.text.split(/\s+/)[0]).replace(/^'(.*)'$/, '$1'));
    commandTexts.push(node.text);
  }
  for (const child of node.children) walk(child);
};
walk(tree.rootNode);
process.stdout.write(JSON.stringify({ errors, commands, commandTexts }));
