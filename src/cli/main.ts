import { CommanderError } from 'commander';
import { SpecLoadError } from '../contract/load.js';
import { SettingError, UsageError } from '../model/errors.js';
import type { CommandSpec } from './command.js';
import { type CliIo, EXIT, processIo } from './io.js';
import { buildProgram } from './program.js';
import { flagOfSetting } from './setting-flags.js';

/** Signals a command may handle: Ctrl-C, and what CI runners and `kill` send. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];

/** Exit code of a run stopped by a signal: 128 + its number, as a shell reports it. */
const STOPPED_EXIT: Readonly<Record<StopSignal, number>> = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated };

/** Where signals come from: the process, or a test's stand-in. */
export interface SignalSource {
  on(name: StopSignal, listener: () => void): void;
  off(name: StopSignal, listener: () => void): void;
  /** The signal's default action, for a second signal: end the process now. */
  raise(name: StopSignal): void;
}

const processSignals: SignalSource = {
  on: (name, listener) => process.on(name, listener),
  off: (name, listener) => process.off(name, listener),
  raise: (name) => process.kill(process.pid, name),
};

/**
 * Runs one command with the signals it asks for: the first SIGINT or SIGTERM aborts its signal; a second
 * one ends the process at once (the default action, with our listeners gone). Returns the exit code.
 */
async function runCommand(
  spec: CommandSpec,
  args: unknown[],
  io: CliIo,
  signals: SignalSource,
  argv: readonly string[],
): Promise<number> {
  const stop = new AbortController();
  const module = await spec.load();
  if (!spec.signals) return module.execute({ io, signal: stop.signal, argv }, ...(args as never[]));
  const listeners = STOP_SIGNALS.map((name) => [name, (): void => onSignal(name)] as const);
  const detach = (): void => {
    for (const [name, listener] of listeners) signals.off(name, listener);
  };
  const onSignal = (name: StopSignal): void => {
    if (!stop.signal.aborted) return stop.abort(name);
    detach();
    signals.raise(name);
  };
  for (const [name, listener] of listeners) signals.on(name, listener);
  try {
    const code = await module.execute({ io, signal: stop.signal, argv }, ...(args as never[]));
    const reason: unknown = stop.signal.reason;
    const stoppedBy = stop.signal.aborted && (reason === 'SIGINT' || reason === 'SIGTERM') ? reason : undefined;
    return spec.signals === 'stop' && stoppedBy ? STOPPED_EXIT[stoppedBy] : code;
  } finally {
    detach();
  }
}

/**
 * Runs the CLI and returns the exit code: 0 passed/ok · 1 certification failed / payload invalid ·
 * 2 usage, configuration or fatal error (one clear line on stderr) · 130/143 stopped by SIGINT/SIGTERM.
 * Commands return their code or throw; every code is decided here.
 */
export async function main(
  argv: readonly string[],
  io: CliIo = processIo(),
  signals: SignalSource = processSignals,
): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, async (spec, args) => {
    exitCode = await runCommand(spec, args, io, signals, argv.slice(2));
  });
  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with exit code 0; every other commander error is a usage error already printed.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError || error instanceof SpecLoadError) {
      // A lower layer names a setting (webhookPort); the cli names the flag its users type (--webhook-port).
      const message = error instanceof SettingError ? error.namedAs(flagOfSetting(error.setting)) : error.message;
      io.stderr.write(`provcert: ${message}\n`);
      if (error instanceof UsageError && error.hint) io.stderr.write(`  ${error.hint}\n`);
      return EXIT.usage;
    }
    io.stderr.write(
      `provcert: unexpected error — this is likely a bug in provcert; please report it with this output:\n`,
    );
    io.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.usage;
  }
}
