import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { schemaSuggestion } from '../../config/explain.js';
import { UsageError } from '../../model/errors.js';
import { loadContract } from '../../spec/load.js';
import type { CommandContext } from '../command.js';
import { type CliIo, EXIT, noteTerminalStdin } from '../io.js';

async function readInput(source: string, io: CliIo): Promise<string> {
  if (source === '-') {
    noteTerminalStdin(io, 'the payload');
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(resolve(io.cwd, source), 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read ${source}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
}

export async function execute(
  { io }: CommandContext,
  schema: string | undefined,
  file: string,
  opts: { list?: boolean; spec?: string },
): Promise<number> {
  const contract = await loadContract(opts.spec);
  if (opts.list) {
    io.stdout.write(`${contract.schemaNames().join('\n')}\n`);
    return EXIT.ok;
  }
  if (!schema)
    throw new UsageError('name a schema: provcert validate <SchemaName> [file|-] (see provcert validate --list)');
  if (!contract.hasSchema(schema)) {
    throw new UsageError(
      `unknown schema "${schema}"${schemaSuggestion(schema, contract.schemaNames())}; see provcert validate --list`,
    );
  }
  const text = await readInput(file, io);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file === '-' ? 'standard input' : file} is not valid JSON: ${(e as Error).message}`);
  }
  const result = contract.validate(schema, value);
  if (result.valid) {
    io.stdout.write(`valid ${schema}: ${file === '-' ? 'standard input' : file}\n`);
    return EXIT.ok;
  }
  io.stdout.write(`invalid ${schema}: ${file === '-' ? 'standard input' : file}\n`);
  for (const p of result.problems) io.stdout.write(`  ${p.text}\n`);
  return EXIT.failed;
}
