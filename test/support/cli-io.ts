import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { buildProgram } from '../../src/cli/program.js';
import type { Clock } from '../../src/model/clock.js';

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

export interface MainResult {
  code: number;
  out: string;
  err: string;
}

/**
 * The whole CLI in-process through main (parsing, exit codes, error lines), in `cwd`, with captured streams and
 * a chosen stdin, which may claim to be a terminal, and the runs' clock (test/support/cli-clock.ts shares one with
 * the reference provider).
 */
export async function runMain(
  cwd: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; stdinIsTty?: boolean; clock?: Clock } = {},
): Promise<MainResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const stdin = Object.assign(
    Readable.from([Buffer.from(options.stdin ?? '')]),
    options.stdinIsTty ? { isTTY: true } : {},
  );
  const io: CliIo = {
    stdout,
    stderr,
    stdin,
    env: options.env ?? {},
    cwd,
    writeFile: (path, content) => writeFile(resolve(cwd, path), content),
    ...(options.clock ? { clock: options.clock } : {}),
  };
  const code = await main(['node', 'provcert', ...args], io);
  return { code, out, err };
}
