import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../model/errors.js';
import { hmacHex as signHex } from '../../util/hmac.js';
import type { CommandContext } from '../command.js';
import { type CliIo, EXIT, noteTerminalStdin } from '../io.js';
import { secretFromEnv } from '../options.js';

/** The exact bytes of a file or of standard input (no decoding: the signature covers bytes). */
export async function readBytes(source: string, io: CliIo): Promise<Buffer> {
  if (source === '-') {
    noteTerminalStdin(io, 'the bytes to sign');
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(resolve(io.cwd, source));
  } catch (e) {
    throw new UsageError(`cannot read ${source} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export async function execute({ io }: CommandContext, file: string, opts: { secretEnv?: string }): Promise<number> {
  const secret = secretFromEnv(io.env, opts.secretEnv);
  const bytes = await readBytes(file, io);
  io.stdout.write(`${signHex(secret, bytes)}\n`);
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0a) {
    io.stderr.write(
      'note: the input ends with a newline; it is part of the signed bytes, so send it too (or sign without it)\n',
    );
  }
  return EXIT.ok;
}
