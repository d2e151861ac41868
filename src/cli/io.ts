/** The CLI's edges, injected so commands are testable and never touch process globals directly. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const processIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });

/** Exit codes (DECISIONS.md, Results). */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;
