#!/usr/bin/env node
/**
 * The `cdk-hybrid-windows` command (package.json `bin`): `cdk-hybrid-windows validate <files|->`.
 * Loads only the rules, never cdk8s-plus or a Terraform CDK, so it runs wherever cdk8s does.
 */
// First, so that the modules below are read from Node.js's compile cache.
import '../core/compile-cache';
import { readFileSync } from 'node:fs';
import { runValidate, usage } from './validate';

// A reader that stops early (`validate --list-rules | head`) closes the pipe: stop quietly, with the status so far.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit();
  });
}

const [command, ...args] = process.argv.slice(2);
const io = {
  readStdin: () => readFileSync(0),
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
};
if (command === 'validate') {
  process.exitCode = runValidate(args, io);
} else if (command === '--help' || command === '-h') {
  io.out(usage());
} else if (command === '--version') {
  process.exitCode = runValidate(['--version'], io);
} else {
  io.err(`${command === undefined ? 'No command' : `Unknown command ${command}`}.\n\n${usage()}`);
  process.exitCode = 2;
}
