import { join } from 'node:path';
import type { AuthMethod } from '../../src/model/contract-constants.js';
import {
  type FaultName,
  REFERENCE_SLUG,
  type RunningProvider,
  startReferenceProvider,
} from '../../src/reference-provider/index.js';
import { ManualClock } from '../../src/util/manual-clock.js';
import { type CliResult, REPO_ROOT } from './cli.js';
import { type MainResult, runMain } from './cli-io.js';
import { freePorts } from './ports.js';
import { scratchDir } from './scratch.js';

/** How a test runs provcert here: in `cwd`, with this environment (over NO_COLOR and CI, as cliEnv sets them). */
export interface ClockedCliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdin?: string;
  stdinIsTty?: boolean;
}

/**
 * The reference provider in-process and provcert in-process (runMain, parsing to exit code), sharing one manual
 * clock that moves on whenever both only wait (advanceWhenIdle, as test/support/certify.ts does for the library): a
 * run's quote validities and webhook waits pass in milliseconds. For tests whose subject is what a command does and
 * prints, not the process it runs in nor a real wait (test/support/cli.ts spawns the built CLI for those).
 */
export interface ClockedReference extends ClockedCli {
  /** The provider's address: the same port across `restart`. */
  readonly url: string;
  /** Where the provider sends its events: the port a run's own receiver listens on (`--webhook-port`). */
  readonly webhookPort: number;
  /** The provider now answering (undefined after `stop`). */
  provider(): RunningProvider | undefined;
  /** Another provider on the same port and clock (other faults, or none: a fix). */
  restart(faults: FaultName[]): Promise<void>;
  /** The provider stops: its address no longer answers. */
  stop(): Promise<void>;
  /** Stops the provider and the clock. */
  close(): Promise<void>;
}

export interface ClockedReferenceOptions {
  credential: string;
  webhookSecret: string;
  faults?: FaultName[];
  authMethod?: AuthMethod;
  quoteTtlSeconds?: number;
}

/** provcert on a manual clock without a provider of the test's (the commands that start none, or demo). */
export function runMainOnClock(
  args: string[],
  options: ClockedCliOptions & { clock: ManualClock },
): Promise<MainResult> {
  return runMain(options.cwd, args, {
    env: { NO_COLOR: '1', CI: '1', ...options.env },
    clock: options.clock,
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    ...(options.stdinIsTty ? { stdinIsTty: true } : {}),
  });
}

/** provcert in-process on a manual clock that moves on by itself whenever the run only waits. */
export interface ClockedCli {
  readonly clock: ManualClock;
  /** provcert with these arguments, on this clock. */
  cli(args: string[], options: ClockedCliOptions): Promise<MainResult>;
  /** The same, in the shape of support/cli.ts's runCli (cwd defaults to the repository's; `input` is stdin). */
  runCli(args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<CliResult>;
}

function clockedCli(clock: ManualClock): ClockedCli {
  const cli = (args: string[], options: ClockedCliOptions): Promise<MainResult> =>
    runMainOnClock(args, { ...options, clock });
  return {
    clock,
    cli,
    runCli: async (args, options = {}) => {
      const r = await cli(args, {
        cwd: options.cwd ?? REPO_ROOT,
        ...(options.env ? { env: options.env } : {}),
        ...(options.input !== undefined ? { stdin: options.input } : {}),
      });
      return { code: r.code, stdout: r.out, stderr: r.err };
    },
  };
}

/**
 * provcert on a manual clock with no reference provider of the test's (a hostile server, a capture server, or the
 * demo's own): the clock moves on whenever nothing read it for a few milliseconds. `stop` ends its advancing.
 */
export function startClockedCli(): ClockedCli & { stop(): void } {
  const clock = new ManualClock();
  return { ...clockedCli(clock), stop: clock.advanceWhenIdle() };
}

export async function startClockedReference(options: ClockedReferenceOptions): Promise<ClockedReference> {
  const [port = 0, webhookPort = 0] = await freePorts(2);
  const clock = new ManualClock();
  let current: RunningProvider | undefined;
  const start = async (faults: FaultName[]): Promise<RunningProvider> =>
    startReferenceProvider({
      port,
      clock,
      authMethod: options.authMethod ?? 'API_KEY',
      credential: options.credential,
      webhookSecret: options.webhookSecret,
      webhookUrl: `http://127.0.0.1:${webhookPort}/api/v1/webhooks/${REFERENCE_SLUG}`,
      faults,
      dataFile: join(await scratchDir('clocked-reference'), 'data.json'),
      quoteTtlSeconds: options.quoteTtlSeconds ?? 5,
    });
  const stop = async (): Promise<void> => {
    const closing = current;
    current = undefined;
    await closing?.webhooksSettled();
    await closing?.close();
  };
  current = await start(options.faults ?? []);
  // The provider answering or sending is work the clock waits for; a run between requests reads the clock itself.
  const stopClock = clock.advanceWhenIdle(() => current?.busy() ?? false);
  return {
    ...clockedCli(clock),
    url: `http://127.0.0.1:${port}`,
    webhookPort,
    provider: () => current,
    restart: async (faults) => {
      await stop();
      current = await start(faults);
    },
    stop,
    close: async () => {
      await stop();
      stopClock();
    },
  };
}
