import { loadRunSources } from '../../config/load.js';
import { loadContract } from '../../contract/load.js';
import { UsageError } from '../../model/errors.js';
import { mergeRunValues, type RunValues } from '../../model/run-values.js';
import { prepareReportTargets } from '../../report/index.js';
import { pulledInLines, selectChecks } from '../../runner/run.js';
import { Redactor, urlSecrets } from '../../util/redact.js';
import { shellLine } from '../../util/shell-word.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { readAttestation, writeAttestation } from '../attest.js';
import { certifyWithReports } from '../certify.js';
import { type CommandContext, untilAborted } from '../command.js';
import { type CliIo, EXIT } from '../io.js';
import { LAST_RUN_FILE, nextLastRun, readLastRun, writeLastRun } from '../last-run.js';
import { reportTargets } from '../report-flags.js';
import { type FlagValues, parseRunFlags } from '../run-flags.js';
import { refuseLocalWithoutFlag, resolveRunOptions } from '../run-options.js';

/**
 * The run settings' flags as commander hands them over (by their setting's name, read by parseRunFlags), and the
 * run's own: `color` is false with --no-color (commander's negated option); `events` is --events FILE|-.
 */
export type RunFlags = FlagValues & {
  spec?: string;
  config?: string;
  color?: boolean;
  events?: string;
  /** --last-failed: rerun what the last run in this folder left failed (.provcert/last-run.json). */
  lastFailed?: boolean;
  attest?: string;
  attestKey?: string;
};

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
  const values = mergeRunValues({ flags: parseRunFlags(given), env, file });
  const shownUrl = new Redactor(urlSecrets(values.baseUrl)).text(values.baseUrl ?? '');
  const previous = await readLastRun(io.cwd);
  const merged = given.lastFailed === true ? lastFailedSelection(values, previous, shownUrl, io) : values;
  const targets = reportTargets(merged);
  const { config, credential, webhookSecret, generatedSecret } = resolveRunOptions(merged, io.env, io.cwd);
  refuseLocalWithoutFlag(merged); // after what is missing, before any request
  // --only pulls in what its checks need: said before the run, so no one wonders why more ran.
  for (const line of pulledInLines(
    selectChecks(config).pulledIn,
    given.lastFailed === true ? '--last-failed' : '--only',
  ))
    io.stderr.write(`${line}\n`);
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
  const attestation = await readAttestation(given, io.cwd); // an unusable signing key is exit 2 too
  if (generatedSecret) {
    const name = merged.webhookSecretEnv ?? 'SERVICE_WEBHOOK_SECRET';
    io.stderr.write(
      `webhook secret generated for this run (${name} is not set); configure the provider to sign with: ${webhookSecret}\n`,
    );
  }
  const github = merged.reporter?.includes('github') ?? false;
  // The recap's next step: this very command with --last-failed (the state file is kept in this folder), its
  // secrets masked (a URL's userinfo; flags take env var names).
  const masked = new Redactor([credential, webhookSecret, ...urlSecrets(config.baseUrl)]);
  const rerun = argv ? masked.text(shellLine(['provcert', ...lastFailedArgs(argv)])) : undefined;
  const reports = { targets, github, noColor: given.color === false, events: given.events, rerun };
  const { code, report } = await certifyWithReports(
    config,
    {
      contract,
      credential,
      webhookSecret,
      expectedFailures,
      ...(signal ? { signal } : {}),
      ...(io.clock ? { clock: io.clock } : {}),
    },
    reports,
    io,
  );
  const earlier = previous && 'version' in previous ? previous : undefined;
  // The state is a convenience: a folder that cannot hold it costs --last-failed, never the run's verdict.
  await writeLastRun(io.cwd, nextLastRun(report, shownUrl, earlier)).catch((error: NodeJS.ErrnoException) => {
    io.stderr.write(
      `provcert: could not keep ${LAST_RUN_FILE} (${error.code ?? 'error'}); --last-failed will not know this run\n`,
    );
  });
  if (attestation) await writeAttestation(report, attestation, new Date());
  return code;
}

/** Nothing was sent yet: one line, and main turns the signal into 130/143. */
function stoppedBeforeRun(io: CliIo, signal: AbortSignal | undefined): number {
  const by = typeof signal?.reason === 'string' ? signal.reason : 'a signal';
  io.stderr.write(`provcert: stopped by ${by} before the run began; no request was sent\n`);
  return EXIT.failed;
}

/** The same command rerunning what failed: `--last-failed` added, unless it narrows with --only (which it refuses). */
export function lastFailedArgs(argv: readonly string[]): string[] {
  const narrowed = argv.some((arg) => arg === '--only' || arg.startsWith('--only='));
  if (narrowed || argv.includes('--last-failed')) return [...argv];
  return [...argv, '--last-failed'];
}

/**
 * `--last-failed`: the failures the last run in this folder left (and what they kept from running) become the
 * selection; with none, or none known, every check runs, and it says which.
 */
function lastFailedSelection(
  values: RunValues,
  last: Awaited<ReturnType<typeof readLastRun>>,
  shownUrl: string,
  io: CliIo,
): RunValues {
  if (values.only) throw new UsageError('--last-failed chooses the checks itself; pass it without --only');
  const say = (line: string): void => void io.stderr.write(`--last-failed: ${sanitizeTerminalText(line)}\n`);
  if (last === undefined) {
    say(`no last run in this folder (${LAST_RUN_FILE} is written by each run): running every check`);
    return values;
  }
  if ('unusable' in last) {
    say(`${LAST_RUN_FILE} is unusable (${last.unusable}): running every check`);
    return values;
  }
  const when = `${last.verdict}, ${last.finishedAt}`;
  if (last.failed.length + last.blocked.length === 0) {
    say(`the last run in this folder (${when}) left nothing failed: running every check`);
    return values;
  }
  const kept = last.blocked.length > 0 ? ` and ${last.blocked.join(', ')} (not run because of them)` : '';
  say(
    `rerunning ${last.failed.join(', ') || 'nothing that failed'}${kept}, from the last run in this folder (${when})`,
  );
  if (last.baseUrl !== shownUrl) say(`the last run was against ${last.baseUrl}, this one is against ${shownUrl}`);
  return { ...values, only: [...last.failed, ...last.blocked] };
}

/** `provcert run`. Ctrl-C or SIGTERM cuts the waits and requests short; the report of what ran is still written. */
export async function execute({ io, signal, argv }: CommandContext, flags: RunFlags): Promise<number> {
  return certifyAndReport(flags, io, signal, argv);
}
