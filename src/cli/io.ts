import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Clock } from '../model/clock.js';
import type { Redactor } from '../util/redact.js';
import { sanitizeTerminalText } from '../util/terminal.js';

/** The CLI's edges, injected so commands are testable and never touch process globals directly. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Write a report file (relative paths are relative to cwd). */
  writeFile(path: string, content: string): Promise<void>;
  /**
   * The time of the runs a command starts and of a reference provider it starts (demo). Absent: the system clock.
   * Tests hand a manual clock shared with their reference provider, so no run waits out a real quote validity.
   */
  clock?: Clock;
}

/**
 * A reader that closed the pipe early (`provcert list | head`) is not an error: later writes are dropped
 * instead of ending in an EPIPE stack trace, and the command still ends with its own exit code.
 */
export function ignoreClosedPipe(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

let pipesGuarded = false;

export const processIo = (): CliIo => {
  if (!pipesGuarded) {
    pipesGuarded = true;
    ignoreClosedPipe(process.stdout);
    ignoreClosedPipe(process.stderr);
  }
  const cwd = process.cwd();
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd,
    writeFile: (path, content) => writeFile(resolve(cwd, path), content),
  };
};

/** Text from outside (provider answers, report files) as printed: secrets masked, controls shown escaped. */
export const printable = (text: string, redactor: Redactor): string => sanitizeTerminalText(redactor.text(text));

/** Exit codes (docs/decisions.md). */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130, terminated: 143 } as const;

/** Said on stderr before waiting on a terminal's stdin, so a forgotten file argument does not look like a hang. */
export function noteTerminalStdin(io: CliIo, what: string): void {
  if (io.stdin.isTTY === true) io.stderr.write(`reading ${what} from stdin (end with Ctrl-D)…\n`);
}
