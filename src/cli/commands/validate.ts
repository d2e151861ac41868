import { resolve } from 'node:path';
import { loadContract } from '../../contract/load.js';
import { UsageError } from '../../model/errors.js';
import { DataFileError, MAX_DATA_FILE_BYTES, parseDataText, readDataFile } from '../../util/data-file.js';
import { schemaSuggestion } from '../../util/did-you-mean.js';
import type { CommandContext } from '../command.js';
import { type CliIo, EXIT, noteTerminalStdin } from '../io.js';

/** Standard input, read up to the data-file limit: more is refused in one line, never buffered whole. */
async function readStdin(io: CliIo): Promise<string> {
  noteTerminalStdin(io, 'the payload');
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of io.stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    length += bytes.length;
    if (length > MAX_DATA_FILE_BYTES)
      throw new UsageError(
        `standard input is larger than ${MAX_DATA_FILE_BYTES / (1024 * 1024)} MB; provcert does not read it`,
      );
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/** The payload, parsed as JSON with the limits of every file provcert reads; undefined when empty. */
async function readPayload(source: string, io: CliIo): Promise<unknown> {
  const label = source === '-' ? 'standard input' : source;
  const options = { label, format: 'json' as const, forbidProtoKeys: false };
  const read = async () => {
    try {
      return await readDataFile(resolve(io.cwd, source), options);
    } catch (e) {
      if (e instanceof DataFileError && e.kind === 'not-found')
        throw new UsageError(`cannot read ${source}: no such file`);
      throw e;
    }
  };
  const { value } = source === '-' ? parseDataText(await readStdin(io), options) : await read();
  if (value === undefined) throw new UsageError(`${label} is empty; expected a JSON payload`);
  return value;
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
  const value = await readPayload(file, io);
  const result = contract.validate(schema, value);
  if (result.valid) {
    io.stdout.write(`valid ${schema}: ${file === '-' ? 'standard input' : file}\n`);
    return EXIT.ok;
  }
  io.stdout.write(`invalid ${schema}: ${file === '-' ? 'standard input' : file}\n`);
  for (const p of result.problems) io.stdout.write(`  ${p.text}\n`);
  return EXIT.failed;
}
