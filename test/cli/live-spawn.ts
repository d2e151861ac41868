import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLI_BIN as BIN, type LiveCli, REPO_ROOT as ROOT, spawnCli as spawnBuiltCli, watch } from '../support/cli.js';
import { suiteTag } from '../support/process-groups.js';

export { type LiveCli, OUTPUT_CAP_BYTES } from '../support/cli.js';

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The built CLI with its output on pipes (test/support/cli.ts's spawnCli, with only an environment to add). */
export function spawnCli(args: string[], env: Record<string, string> = {}): LiveCli {
  return spawnBuiltCli(args, { env });
}

/**
 * The built CLI under a pseudo-terminal of `columns` columns (util-linux `script`, part of every Debian
 * install), without CI or NO_COLOR: as a person at a terminal runs it. The shell prints its pid and then
 * becomes the CLI (exec), so signals go to the CLI itself.
 */
export function spawnCliInTerminal(args: string[], columns: number, env: Record<string, string> = {}): LiveCli {
  const command = `stty cols ${columns} rows 40; echo "cli-pid $$"; exec ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      TERM: 'xterm-256color',
      HOME: process.env['HOME'] ?? ROOT,
      ...suiteTag(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let pid: number | undefined;
  const cli = watch(child, () => pid);
  void cli.waitFor(/cli-pid (\d+)/).then((m) => (pid = Number(m[1])));
  return cli;
}

/** A server that accepts connections and reads requests but never answers one. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
