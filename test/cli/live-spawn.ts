import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { suiteTag } from '../support/process-groups.js';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/provcert.js');

/** Stops a CLI that writes without end: far more than any run prints. */
export const OUTPUT_CAP_BYTES = 2_000_000;

/** A running built CLI whose output can be awaited line by line. */
export interface LiveCli {
  /** stdout + stderr as they arrived (under a pseudo-terminal both are the terminal). */
  readonly output: () => string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the first match once the output contains it. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Exit code (a signal's death is 128 + its number, as a shell reports it) and how long the process ran. */
  readonly exit: Promise<{ code: number; ms: number; bytes: number }>;
  signal(name: NodeJS.Signals): void;
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function watch(child: ChildProcess, target: () => number | undefined): LiveCli {
  const started = performance.now();
  let out = '';
  let err = '';
  let bytes = 0;
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const seen = (chunk: Buffer, into: 'out' | 'err'): void => {
    bytes += chunk.length;
    if (into === 'out') out += chunk.toString();
    else err += chunk.toString();
    // A run that writes without end (the 0-column spinner) is stopped here, so the test fails instead of hanging.
    if (bytes > OUTPUT_CAP_BYTES) child.kill('SIGKILL');
    for (const w of [...waiters]) {
      const match = (out + err).match(w.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(match);
      }
    }
  };
  child.stdout?.on('data', (d: Buffer) => seen(d, 'out'));
  child.stderr?.on('data', (d: Buffer) => seen(d, 'err'));
  const exit = new Promise<{ code: number; ms: number; bytes: number }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? 128 + (signal ? (SIGNAL_NUMBERS[signal] ?? 0) : 0),
        ms: performance.now() - started,
        bytes,
      }),
    );
  });
  return {
    output: () => out + err,
    stdout: () => out,
    stderr: () => err,
    waitFor(pattern) {
      const match = (out + err).match(pattern);
      if (match) return Promise.resolve(match);
      return new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
    exit,
    signal(name) {
      const pid = target();
      if (pid === undefined) throw new Error('the CLI has not started yet');
      process.kill(pid, name);
    },
  };
}

/** The built CLI with its output on pipes (NO_COLOR and CI set, like test/support/cli.ts). */
export function spawnCli(args: string[], env: Record<string, string> = {}): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', CI: '1', ...suiteTag(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watch(child, () => child.pid);
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
