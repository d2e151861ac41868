import { loadRunSources } from '../../config/load.js';
import { loadContract } from '../../contract/load.js';
import { mergeRunValues } from '../../model/run-values.js';
import { prepareReportTargets } from '../../report/index.js';
import { Redactor, urlSecrets } from '../../util/redact.js';
import { shellLine } from '../../util/shell-word.js';
import { certifyWithReports } from '../certify.js';
import { type CommandContext, untilAborted } from '../command.js';
import { type CliIo, EXIT } from '../io.js';
import { reportTargets } from '../report-flags.js';
import { type FlagValues, parseRunFlags } from '../run-flags.js';
import { resolveRunOptions } from '../run-options.js';

/**
 * The run settings' flags as commander hands them over (by their setting's name, read by parseRunFlags), and the
 * run's own: `color` is false with --no-color (commander's negated option); `events` is --events FILE|-.
 */
export type RunFlags = FlagValues & { spec?: string; config?: string; color?: boolean; events?: string };

/** Stops waiting on a step before the run (a report path on a stuck file system, a FIFO) when a signal comes. */
async function unlessStopped<T>(step: Promise<T>, signal: AbortSignal | undefined): Promise<{ value: T } | undefined> {
  if (!signal) return { value: await step };
  const stopped = untilAborted(signal).then(() => undefined);
  return Promise.race([step.then((value) => ({ value })), stopped]);
}

/** Resolve the flags (config file, environment), certify, report; returns the exit code. */
export async function certifyAndReport(
  given: RunFlags,
  io: CliIo,
  signal?: AbortSignal,
  argv?: readonly string[],
): Promise<number> {
  const sources = await unlessStopped(loadRunSources({ env: io.env, cwd: io.cwd, configPath: given.config }), signal);
  if (!sources) return stoppedBeforeRun(io, signal);
  const { env, file, expectedFailures } = sources.value;
  // The one merge of this run's sources: flags > PROVCERT_* environment > config file (the defaults come last).
  const merged = mergeRunValues({ flags: parseRunFlags(given), env, file });
  const targets = reportTargets(merged);
  const { config, credential, webhookSecret, generatedSecret } = resolveRunOptions(merged, io.env, io.cwd);
  // An unusable report path is exit 2 before any request; a signal while a path is being checked ends the run.
  const ready = await unlessStopped(
    (async () => {
      const loaded = await loadContract(given.spec);
      await prepareReportTargets(targets, io.cwd);
      return loaded;
    })(),
    signal,
  );
  if (!ready) return stoppedBeforeRun(io, signal);
  const contract = ready.value;
  if (generatedSecret) {
    const name = merged.webhookSecretEnv ?? 'SERVICE_WEBHOOK_SECRET';
    io.stderr.write(
      `webhook secret generated for this run (${name} is not set); configure the provider to sign with: ${webhookSecret}\n`,
    );
  }
  const github = merged.reporter?.includes('github') ?? false;
  // The recap's next step: this very command, its secrets masked (a URL's userinfo; flags take env var names).
  const masked = new Redactor([credential, webhookSecret, ...urlSecrets(config.baseUrl)]);
  const rerun = argv ? masked.text(shellLine(['provcert', ...argv])) : undefined;
  const reports = { targets, github, noColor: given.color === false, events: given.events, rerun };
  const { code } = await certifyWithReports(
    config,
    { contract, credential, webhookSecret, expectedFailures, ...(signal ? { signal } : {}) },
    reports,
    io,
  );
  return code;
}

/** Nothing was sent yet: one line, and main turns the signal into 130/143. */
function stoppedBeforeRun(io: CliIo, signal: AbortSignal | undefined): number {
  const by = typeof signal?.reason === 'string' ? signal.reason : 'a signal';
  io.stderr.write(`provcert: stopped by ${by} before the run began; no request was sent\n`);
  return EXIT.failed;
}

/** `provcert run`. Ctrl-C or SIGTERM cuts the waits and requests short; the report of what ran is still written. */
export async function execute({ io, signal, argv }: CommandContext, flags: RunFlags): Promise<number> {
  return certifyAndReport(flags, io, signal, argv);
}
