import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';
import { buildProgram } from '../../src/cli/program.js';

/** A CliIo whose output is captured, and a commander program with one command registered. */
export function captureIo(
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): { io: CliIo; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  stdout.on('data', (c: Buffer) => chunks.out.push(c));
  stderr.on('data', (c: Buffer) => chunks.err.push(c));
  return {
    io: {
      stdout,
      stderr,
      stdin: new PassThrough(),
      env,
      cwd,
      writeFile: (path, content) => writeFile(resolve(cwd, path), content),
    },
    out: () => Buffer.concat(chunks.out).toString('utf8'),
    err: () => Buffer.concat(chunks.err).toString('utf8'),
  };
}

/**
 * Parse argv (without "node provcert") through the real program and run the chosen command's handler in
 * this process; usage errors reject as they are thrown. `signal` stands for SIGINT/SIGTERM.
 */
export async function runCommand(
  io: CliIo,
  argv: string[],
  signal: AbortSignal = new AbortController().signal,
): Promise<number | undefined> {
  let code: number | undefined;
  const program = buildProgram(io, async (spec, args) => {
    const command = await spec.load();
    code = await command.execute({ io, signal }, ...(args as never[]));
  });
  await program.parseAsync(argv, { from: 'user' });
  return code;
}
