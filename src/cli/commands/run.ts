import { loadRunSources } from '../../config/load.js';
import { loadContract } from '../../contract/load.js';
import { mergeRunValues } from '../../model/run-values.js';
import { prepareReportTargets } from '../../report/index.js';
import { readAttestation, writeAttestation } from '../attest.js';
import { certifyWithReports } from '../certify.js';
import type { CommandContext } from '../command.js';
import type { CliIo } from '../io.js';
import { reportTargets } from '../report-flags.js';
import { type FlagValues, parseRunFlags } from '../run-flags.js';
import { resolveRunOptions } from '../run-options.js';

/**
 * The run settings' flags as commander hands them over (by their setting's name, read by parseRunFlags), and the
 * run's own: `color` is false with --no-color (commander's negated option); `events` is --events FILE|-.
 */
export type RunFlags = FlagValues & {
  spec?: string;
  config?: string;
  color?: boolean;
  events?: string;
  attest?: string;
  attestKey?: string;
};

/** Resolve the flags (config file, environment), certify, report; returns the exit code. */
export async function certifyAndReport(given: RunFlags, io: CliIo, signal?: AbortSignal): Promise<number> {
  const { env, file, expectedFailures } = await loadRunSources({ env: io.env, cwd: io.cwd, configPath: given.config });
  // The one merge of this run's sources: flags > PROVCERT_* environment > config file (the defaults come last).
  const merged = mergeRunValues({ flags: parseRunFlags(given), env, file });
  const targets = reportTargets(merged);
  const { config, credential, webhookSecret, generatedSecret } = resolveRunOptions(merged, io.env, io.cwd);
  const contract = await loadContract(given.spec);
  await prepareReportTargets(targets, io.cwd); // an unusable report path is exit 2 before any request
  const attestation = await readAttestation(given, io.cwd); // so is an unusable signing key
  if (generatedSecret) {
    const name = merged.webhookSecretEnv ?? 'SERVICE_WEBHOOK_SECRET';
    io.stderr.write(
      `webhook secret generated for this run (${name} is not set); configure the provider to sign with: ${webhookSecret}\n`,
    );
  }
  const github = merged.reporter?.includes('github') ?? false;
  const reports = { targets, github, noColor: given.color === false, events: given.events };
  const { code, report } = await certifyWithReports(
    config,
    { contract, credential, webhookSecret, expectedFailures, ...(signal ? { signal } : {}) },
    reports,
    io,
  );
  if (attestation) await writeAttestation(report, attestation, new Date());
  return code;
}

/** `provcert run`. Ctrl-C or SIGTERM cuts the waits and requests short; the report of what ran is still written. */
export async function execute({ io, signal }: CommandContext, flags: RunFlags): Promise<number> {
  return certifyAndReport(flags, io, signal);
}
