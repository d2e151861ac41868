import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { Chalk } from 'chalk';
import { parseCheckIds } from '../../checks/registry.js';
import type { RawRunOptions } from '../../config/flags.js';
import type { CheckId } from '../../model/check-ids.js';
import { DEFAULT_CREDENTIAL_ENV } from '../../model/contract-constants.js';
import { UsageError } from '../../model/errors.js';
import { failureDetailLines } from '../../report/failure-text.js';
import { readReport } from '../../report/read-report.js';
import { runCertification } from '../../runner/run.js';
import { loadContract } from '../../spec/load.js';
import { Redactor, urlSecrets } from '../../util/redact.js';
import { shouldUseColor } from '../../util/terminal-mode.js';
import type { CommandContext } from '../command.js';
import { EXIT, printable } from '../io.js';
import { compareResults, isStillFailing, planReplay, type ReplayVerdict, replaySummary } from '../replay-plan.js';
import { resolveRunOptions } from '../run-options.js';

interface ReplayFlags {
  check?: string;
  baseUrl?: string;
  local?: boolean;
  credentialEnv?: string;
  credentialFile?: string;
}

const OTHER_SOURCE = 'or pass --credential-env NAME or --credential-file PATH to replay with another source';

function onlyCheck(value: string | undefined): CheckId | undefined {
  if (value === undefined) return undefined;
  const { ids, unknown } = parseCheckIds(value);
  if (unknown.length > 0 || ids.length !== 1) throw new UsageError(`--check takes one known check id (got "${value}")`);
  return ids[0];
}

/** The recorded credential source, or the one given on the command line instead (either flag replaces both). */
function withCredentialSource(recorded: RawRunOptions, opts: ReplayFlags): RawRunOptions {
  if (opts.credentialEnv !== undefined && opts.credentialFile !== undefined) {
    throw new UsageError('--credential-env and --credential-file are alternatives; pass one');
  }
  if (opts.credentialEnv === undefined && opts.credentialFile === undefined) return recorded;
  const { credentialEnv: _env, credentialFile: _file, ...rest } = recorded;
  return {
    ...rest,
    ...(opts.credentialEnv !== undefined
      ? { credentialEnv: opts.credentialEnv }
      : { credentialFile: opts.credentialFile }),
  };
}

/** A recorded source that is missing here is named as the report's, not as a flag the user never passed. */
function checkRecordedCredential(flags: RawRunOptions, env: NodeJS.ProcessEnv, cwd: string): void {
  if (flags.credentialFile !== undefined) {
    try {
      accessSync(resolve(cwd, flags.credentialFile), constants.R_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      const message = `cannot read ${flags.credentialFile}, the credential file the report's run used (${code})`;
      throw new UsageError(message, `make it readable here, ${OTHER_SOURCE}`);
    }
    return;
  }
  const name = flags.credentialEnv ?? DEFAULT_CREDENTIAL_ENV;
  if (env[name]) return;
  const message = `missing credential: the report's run read it from the environment variable ${name}, which is not set`;
  throw new UsageError(message, `set ${name}, ${OTHER_SOURCE}`);
}

/** `provcert replay`: rerun a report's failed checks against the same provider with the same inputs. */
export async function execute({ io, signal }: CommandContext, path: string, opts: ReplayFlags): Promise<number> {
  const report = await readReport(path, io.cwd);
  const plan = planReplay(report, onlyCheck(opts.check));
  if ('error' in plan) throw new UsageError(plan.error);
  const given = withCredentialSource(plan.flags, opts);
  if (given === plan.flags) checkRecordedCredential(given, io.env, io.cwd);
  const flags = {
    ...given,
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
    ...(opts.local ? { local: true } : {}),
  };
  const { config, credential, webhookSecret } = resolveRunOptions(flags, io.env, io.cwd);
  // The report file and the provider's answers are both untrusted: masked, controls shown escaped.
  const redactor = new Redactor([credential, webhookSecret, ...urlSecrets(config.baseUrl)]);
  const c = new Chalk({ level: shouldUseColor(io.stdout, io.env) ? 1 : 0 });
  const say = (line: string): void => void io.stdout.write(`${printable(line, redactor)}\n`);
  say(`replaying ${plan.checks.join(', ')} against ${config.baseUrl} (seed ${config.seed})`);
  const rerun = await runCertification(config, { contract: await loadContract(), credential, webhookSecret, signal });
  const verdicts: ReplayVerdict[] = [];
  for (const id of plan.checks) {
    const before = report.checks.find((check) => check.id === id);
    if (!before) continue;
    const comparison = compareResults(
      before,
      rerun.checks.find((check) => check.id === id),
    );
    verdicts.push(comparison.verdict);
    say(comparison.line);
    // Rendered from masked results; failureDetailLines escapes every piece of report text itself.
    const details = comparison.failure ? failureDetailLines(redactor.deep(comparison.failure), c, rerun) : [];
    if (details.length > 0) io.stdout.write(`${details.join('\n')}\n`);
  }
  say(replaySummary(verdicts));
  return verdicts.some(isStillFailing) ? EXIT.failed : EXIT.ok;
}
