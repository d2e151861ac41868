import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Redactor } from '../http/redact.js';
import { sanitizeTerminalText } from '../util/terminal.js';

/** The CLI's edges, injected so commands are testable and never touch process globals directly. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Write a report file (relative paths are relative to cwd). */
  writeFile(path: string, content: string): Promise<void>;
}

export const processIo = (): CliIo => {
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

/** Exit codes (DECISIONS.md, Results). */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;
