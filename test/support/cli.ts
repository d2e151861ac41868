import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { suiteTag } from './process-groups.js';

/**
 * The one way tests spawn the built CLI (`npm test` builds first); test/support/cli-io.ts is the one way to run it
 * in-process. `runCli` runs it to its end; `spawnCli` hands over the running process, its output awaitable line by
 * line (test/cli/live-spawn.ts adds the pseudo-terminal).
 */
export const REPO_ROOT = join(import.meta.dirname, '../..');
export const CLI_BIN = join(REPO_ROOT, 'bin/provcert.js');

/** Stops a CLI that writes without end: far more than any run prints (spawnCli's default cap). */
export const OUTPUT_CAP_BYTES = 2_000_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a user's CI gives the CLI: PATH, no colour, CI set, and the suite's process tag. */
export function cliEnv(env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', CI: '1', ...suiteTag(), ...env };
}

/** A running built CLI whose output can be awaited line by line. */
export interface LiveCli {
  /** stdout + stderr as they arrived (under a pseudo-terminal both are the terminal). */
  readonly output: () => string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the first match once the output contains it. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /**
   * Exit code (a signal's death is 128 + its number, as a shell reports it; `signal` names it), how long the
   * process ran and how much it wrote.
   */
  readonly exit: Promise<{ code: number; signal: NodeJS.Signals | null; ms: number; bytes: number }>;
  signal(name: NodeJS.Signals): void;
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Watches a spawned CLI; `target` is the pid signals go to (under `script`, the CLI's, not the wrapper's). */
export function watch(child: ChildProcess, target: () => number | undefined, outputCap = OUTPUT_CAP_BYTES): LiveCli {
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
    if (bytes > outputCap) child.kill('SIGKILL');
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
  const exit = new Promise<{ code: number; signal: NodeJS.Signals | null; ms: number; bytes: number }>(
    (resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) =>
        resolve({
          code: code ?? 128 + (signal ? (SIGNAL_NUMBERS[signal] ?? 0) : 0),
          signal,
          ms: performance.now() - started,
          bytes,
        }),
      );
    },
  );
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

export interface SpawnCliOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Written to stdin, which then ends (without it, stdin is closed at once). */
  input?: string;
  /** Killed past this much output (default OUTPUT_CAP_BYTES). */
  outputCap?: number;
}

/** The built CLI with its output on pipes, as a user's CI runs it (cliEnv). */
export function spawnCli(args: string[], options: SpawnCliOptions = {}): LiveCli {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: cliEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(options.input ?? '');
  return watch(child, () => child.pid, options.outputCap);
}

/** Run the built CLI to its end (killed after timeoutMs; a signal's death is code null) and collect its output. */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const { timeoutMs = 60_000, ...spawnOptions } = options;
  const cli = spawnCli(args, { ...spawnOptions, outputCap: Number.POSITIVE_INFINITY });
  const timer = setTimeout(() => cli.signal('SIGKILL'), timeoutMs);
  try {
    const { code, signal } = await cli.exit;
    return { code: signal ? null : code, stdout: cli.stdout(), stderr: cli.stderr() };
  } finally {
    clearTimeout(timer);
  }
}
