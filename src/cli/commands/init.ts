import type { Command } from 'commander';
import { writeStarterConfig } from '../../config/init.js';
import { EXIT, type CliIo } from '../io.js';
import type { SetExit } from '../program.js';

/** `provcert init [--force] [--config FILE]`: write a commented starter provcert.config.yaml. */
export function registerInit(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('init')
    .description('write a commented starter provcert.config.yaml (every run option with its default)')
    .option('--force', 'overwrite an existing file')
    .option('--config <file>', 'write to this file instead of provcert.config.yaml')
    .action(async (opts: { force?: boolean; config?: string }) => {
      const { label } = await writeStarterConfig(io.cwd, { force: opts.force === true, ...(opts.config ? { path: opts.config } : {}) });
      io.stdout.write(`wrote ${label}: uncomment and edit the options you need, then run: provcert run${opts.config ? ` --config ${opts.config}` : ''}\n`);
      setExit(EXIT.ok);
    });
}
