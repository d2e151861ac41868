import { ignoreStateDir, writeStarterConfig } from '../../config/init.js';
import type { CommandContext } from '../command.js';
import { EXIT } from '../io.js';

/** `provcert init [--force] [--config FILE]`: write a commented starter provcert.config.yaml. */
export async function execute({ io }: CommandContext, opts: { force?: boolean; config?: string }): Promise<number> {
  const { label } = await writeStarterConfig(io.cwd, {
    force: opts.force === true,
    ...(opts.config ? { path: opts.config } : {}),
  });
  io.stdout.write(
    `wrote ${label}: uncomment and edit the options you need, then run: provcert run${opts.config ? ` --config ${opts.config}` : ''}\n`,
  );
  if (await ignoreStateDir(io.cwd))
    io.stdout.write('added .provcert/ to .gitignore (run state that provcert run --last-failed reads)\n');
  return EXIT.ok;
}
