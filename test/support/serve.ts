import { onTestFinished } from 'vitest';
import { type LiveCli, spawnCli } from './cli.js';

/** A `provcert serve` process started by spawnServe: the spawned CLI, and how to end it and wait until it has. */
export interface ServeProcess {
  cli: LiveCli;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** Sends `signal` (SIGTERM unless said) unless it has exited, and resolves once it has. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Up to 30 s: a loaded machine starts node slowly. */
const START_MS = 30_000;
const LISTENING = /core listening on \S+/;

/**
 * `provcert serve --port <port> --data-dir <dataDir> --local <flags>` through spawnCli (test/support/cli.ts, the
 * one way tests spawn the CLI), resolved once it says it listens: no request goes out before. `env` adds to the
 * CLI's environment (the admin token, a provider's credential variable).
 */
export async function spawnServe(
  port: number,
  dataDir: string,
  options: { flags?: string[]; env?: Record<string, string> } = {},
): Promise<ServeProcess> {
  const cli = spawnCli(['serve', '--port', String(port), '--data-dir', dataDir, '--local', ...(options.flags ?? [])], {
    ...(options.env ? { env: options.env } : {}),
  });
  let exited = false;
  const ended = cli.exit.then(() => {
    exited = true;
  });
  const serve: ServeProcess = {
    cli,
    output: cli.output,
    stop: async (signal = 'SIGTERM') => {
      if (!exited) cli.signal(signal);
      await ended;
    },
  };
  // It ends with the test that started it, however the test ends (a hook registered here, not at import: a worker
  // that runs several files imports this module once).
  onTestFinished(() => serve.stop());
  let timer: NodeJS.Timeout | undefined;
  const listening = await Promise.race([
    cli.waitFor(LISTENING).then(() => true),
    ended.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), START_MS))),
  ]).finally(() => clearTimeout(timer));
  if (!listening) throw new Error(`provcert serve did not say it listens on port ${port}:\n${cli.output()}`);
  return serve;
}
