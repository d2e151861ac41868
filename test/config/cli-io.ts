import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import type { CliIo } from '../../src/cli/io.js';
import type { SetExit } from '../../src/cli/program.js';

/** A CliIo whose output is captured, and a commander program with one command registered. */
export function captureIo(cwd: string, env: NodeJS.ProcessEnv = {}): { io: CliIo; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  stdout.on('data', (c: Buffer) => chunks.out.push(c));
  stderr.on('data', (c: Buffer) => chunks.err.push(c));
  return {
    io: { stdout, stderr, stdin: new PassThrough(), env, cwd, writeFile: (path, content) => writeFile(resolve(cwd, path), content) },
    out: () => Buffer.concat(chunks.out).toString('utf8'),
    err: () => Buffer.concat(chunks.err).toString('utf8'),
  };
}

/** Parse argv through a program with `register` applied; returns the exit code the command set. */
export async function runCommand(register: (program: Command, io: CliIo, setExit: SetExit) => void, io: CliIo, argv: string[]): Promise<number | undefined> {
  let code: number | undefined;
  const program = new Command('provcert').exitOverride().configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  register(program, io, (c) => {
    code = c;
  });
  await program.parseAsync(argv, { from: 'user' });
  return code;
}
