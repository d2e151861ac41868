import { CommanderError } from 'commander';
import { SpecLoadError } from '../spec/load.js';
import { UsageError } from '../model/errors.js';
import { EXIT, processIo, type CliIo } from './io.js';
import { buildProgram } from './program.js';

/**
 * Runs the CLI and returns the exit code: 0 passed/ok · 1 certification failed / payload invalid ·
 * 2 usage, configuration or fatal error (one clear line on stderr) · 130 interrupted.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with exit code 0; every other commander error is a usage error already printed.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError || error instanceof SpecLoadError) {
      io.stderr.write(`provcert: ${error.message}\n`);
      if (error instanceof UsageError && error.hint) io.stderr.write(`  ${error.hint}\n`);
      return EXIT.usage;
    }
    io.stderr.write(`provcert: unexpected error — this is likely a bug in provcert; please report it with this output:\n`);
    io.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.usage;
  }
}
