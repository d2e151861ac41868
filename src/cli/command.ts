import type { Command } from 'commander';
import type { CliIo } from './io.js';

/** What a command's handler gets besides its arguments and flags. */
export interface CommandContext {
  io: CliIo;
  /** Aborted (reason: the signal's name) by the first SIGINT or SIGTERM, for commands that handle signals. */
  signal: AbortSignal;
  /** The words after `provcert` as typed (a run's recap names the command that runs it again). */
  argv?: readonly string[];
}

/** A command's module: the handler returns the exit code; a usage problem is thrown as UsageError. */
export interface CommandModule {
  execute(ctx: CommandContext, ...args: never[]): Promise<number>;
}

/**
 * One command of the CLI. The declaration (description, arguments, options) is cheap; the module with the
 * handler and everything it needs is imported only when the command runs, so `--version` and `--help`
 * start at once.
 */
export interface CommandSpec {
  name: string;
  declare(command: Command): Command;
  load(): Promise<CommandModule>;
  /**
   * How the command meets SIGINT/SIGTERM. `stop`: the signal aborts `ctx.signal`, the command winds down
   * (reports written) and the exit code is 130/143. `serve`: the signal is the normal end of a server (exit
   * from the handler). Omitted: the signal's default action (the process ends).
   */
  signals?: 'stop' | 'serve';
  /** Commands under this one (`provcert events resend`): commander runs one when its name comes first. */
  subcommands?: readonly CommandSpec[];
}

/** Resolves, with the signal's name, when a server command is told to stop (main aborts `signal` on SIGINT/SIGTERM). */
export function untilAborted(signal: AbortSignal): Promise<string> {
  const reason = (): string => (typeof signal.reason === 'string' ? signal.reason : 'stop');
  if (signal.aborted) return Promise.resolve(reason());
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(reason()), { once: true }));
}
