import { createInterface } from 'node:readline/promises';
import { Chalk } from 'chalk';
import { parseCheckIds } from '../../checks/framework/registry.js';
import { loadRunSources } from '../../config/load.js';
import { loadContract } from '../../contract/load.js';
import { loadRequirements } from '../../contract/requirements.js';
import { isLoopbackHost } from '../../http/host.js';
import type { CheckId } from '../../model/check-ids.js';
import { SettingError, UsageError } from '../../model/errors.js';
import type { CheckResult } from '../../model/report.js';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_RUN_CONFIG } from '../../model/run-config.js';
import { mergeRunValues } from '../../model/run-values.js';
import { failureDetailLines } from '../../report/failure-text.js';
import { readStoredReport } from '../../report/read-report.js';
import { pulledInLines, runCertification, selectChecks } from '../../runner/run.js';
import { Redactor, urlSecrets } from '../../util/redact.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { shouldUseColor } from '../../util/terminal-mode.js';
import type { CommandContext } from '../command.js';
import { EXIT, printable } from '../io.js';
import { chooseReplayInputs, type PersonInputs, recordedAsFlags } from '../replay-inputs.js';
import {
  compareResults,
  isStillFailing,
  planReplay,
  type ReplayPlan,
  type ReplayVerdict,
  replaySummary,
} from '../replay-plan.js';
import { type FlagValues, parseRunFlags } from '../run-flags.js';
import { resolveRunOptions } from '../run-options.js';
import { flagOfSetting, spellAsFlag } from '../setting-flags.js';

interface ReplayFlags {
  check?: string;
  explore?: string;
  baseUrl?: string;
  auth?: string;
  local?: boolean;
  credentialEnv?: string;
  credentialFile?: string;
  webhookSecretEnv?: string;
  webhookPort?: string;
  webhookHost?: string;
  config?: string;
  trustReportInputs?: boolean;
}

/** The receiver address the person gives (--webhook-port, --webhook-host): it wins over the report's. */
const receiverOverride = ({ webhookPort, webhookHost }: ReplayFlags): FlagValues => ({
  ...(webhookPort !== undefined ? { webhookPort } : {}),
  ...(webhookHost !== undefined ? { webhookHost } : {}),
});

/**
 * Without --webhook-port the rerun listens on the report's run's port, which may be taken (another replay of the same
 * report, anything else): the error says that port is the report's, not one the person chose.
 */
function recordedPortBusy(error: unknown, port: number): UsageError | undefined {
  if (!(error instanceof SettingError) || error.setting !== 'webhookPort') return undefined;
  return new UsageError(
    `port ${port}, where the report's run received its webhooks, is in use; pass ${flagOfSetting(error.setting)} with a free port (0 picks one)`,
    "the provider must then deliver its webhooks to the replay's address, which replay prints",
  );
}

/** One line when the receiver moved: a provider configured for the report's run's address would deliver there. */
const movedReceiverLine = (now: string, recorded: string): string =>
  `the provider must deliver its webhooks to ${now}, this replay's receiver` +
  (recorded !== now ? ` (a provider configured for the report's run's ${recorded} delivers them there, not here)` : '');

/**
 * The report is untrusted (issue 25), and so is the host it says its run listened on: a receiver bound beyond this
 * machine (0.0.0.0, a LAN address) is opened only when the person names it or trusts the report's inputs.
 */
function receiverHost(flags: FlagValues, opts: ReplayFlags): { flags: FlagValues; notes: string[] } {
  const recorded = flags['webhookHost'];
  if (
    typeof recorded !== 'string' ||
    isLoopbackHost(recorded) ||
    opts.webhookHost !== undefined ||
    opts.trustReportInputs
  )
    return { flags, notes: [] };
  const { webhookHost: _dropped, ...rest } = flags;
  return {
    flags: rest,
    notes: [
      `the report's run received its webhooks on ${recorded}; this replay listens on ${DEFAULT_RUN_CONFIG.webhookHost} only (pass ${flagOfSetting('webhookHost')} ${recorded} to listen there)`,
    ],
  };
}

function onlyCheck(value: string | undefined): CheckId | undefined {
  if (value === undefined) return undefined;
  const { ids, unknown } = parseCheckIds(value);
  if (unknown.length > 0 || ids.length !== 1) throw new UsageError(`--check takes one known check id (got "${value}")`);
  return ids[0];
}

/**
 * The person's own address, auth and secret sources: their flags, PROVCERT_* environment and the config file they
 * name with --config. No other config file is read: one beside the report or in the folder came with it (issue 32).
 */
async function personInputs(opts: ReplayFlags, io: CommandContext['io']): Promise<PersonInputs> {
  if (opts.credentialEnv !== undefined && opts.credentialFile !== undefined) {
    throw new UsageError('--credential-env and --credential-file are alternatives; pass one');
  }
  const flags: FlagValues = {
    ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
    ...(opts.auth !== undefined ? { auth: opts.auth } : {}),
    ...(opts.credentialEnv !== undefined ? { credentialEnv: opts.credentialEnv } : {}),
    ...(opts.credentialFile !== undefined ? { credentialFile: opts.credentialFile } : {}),
    ...(opts.webhookSecretEnv !== undefined ? { webhookSecretEnv: opts.webhookSecretEnv } : {}),
    ...(opts.local ? { local: true } : {}),
  };
  const { env, file } = await loadRunSources({ env: io.env, cwd: io.cwd, configPath: opts.config, namedOnly: true });
  const { baseUrl, auth, credentialEnv, credentialFile, webhookSecretEnv, local } = mergeRunValues({
    flags: parseRunFlags(flags),
    env,
    file,
  });
  return {
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(auth !== undefined ? { auth } : {}),
    ...(credentialEnv !== undefined ? { credentialEnv } : {}),
    ...(credentialFile !== undefined ? { credentialFile } : {}),
    ...(webhookSecretEnv !== undefined ? { webhookSecretEnv } : {}),
    ...(local === true ? { local } : {}),
  };
}

/** Asks on a terminal whether to use the report's address and sources; anything but y/yes is no. */
async function confirmOnTerminal(io: CommandContext['io'], fromReport: readonly string[]): Promise<boolean> {
  const ask = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(`${trustLines(fromReport).join('\n')}\n`);
    const answer = await ask.question('Use these inputs from the report? [y/N] ');
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    ask.close();
  }
}

const trustLines = (fromReport: readonly string[]): string[] => [
  'provcert: this replay would take from the report file, not from you:',
  ...fromReport.map((line) => `  ${sanitizeTerminalText(line, { oneLine: true })}`),
];

/**
 * The rerun's flags. A report is untrusted (issue 25): the address it names is contacted and the variable or file
 * it names is read only when the person states the same, passes --trust-report-inputs, or says yes on a terminal.
 */
async function rerunFlags(
  plan: ReplayPlan,
  opts: ReplayFlags,
  io: CommandContext['io'],
): Promise<{ flags: FlagValues; notes: string[] }> {
  const given = await personInputs(opts, io);
  const chosen = chooseReplayInputs(plan.recorded, given, false);
  if (chosen.missing.length === 0) return { flags: { ...plan.flags, ...chosen.flags }, notes: chosen.notes };
  const trusted = chooseReplayInputs(plan.recorded, given, true);
  if (opts.trustReportInputs === true) {
    io.stderr.write(`${trustLines(trusted.fromReport).join('\n')}\n`);
  } else {
    const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;
    const used = sanitizeTerminalText(recordedAsFlags(plan.recorded), { oneLine: true });
    if (!interactive || !(await confirmOnTerminal(io, trusted.fromReport)))
      throw new UsageError(
        `replay takes the provider's address and auth from you, not from the report: pass ${chosen.missing.join(' and ')} (the report's run used ${used})`,
        'or pass --trust-report-inputs to contact and read what the report names',
      );
  }
  return { flags: { ...plan.flags, ...trusted.flags }, notes: trusted.notes };
}

const notReached = (id: CheckId): CheckResult => ({
  id,
  title: id,
  rule: '',
  requirements: [],
  findings: [],
  status: 'skip',
  message: 'did not run: the run was interrupted',
  evidence: [],
  durationMs: 0,
});

/** `provcert replay`: rerun a report's failed checks against the same provider with the same inputs. */
export async function execute({ io, signal }: CommandContext, path: string, opts: ReplayFlags): Promise<number> {
  const { report } = await readStoredReport(path, io.cwd, await loadRequirements());
  const plan = planReplay(report, onlyCheck(opts.check));
  if ('error' in plan) throw new UsageError(plan.error);
  const inputs = await rerunFlags(plan, opts, io);
  const { flags, notes: hostNotes } = receiverHost(inputs.flags, opts);
  const notes = [...inputs.notes, ...hostNotes];
  // The recorded exploration budget, unless the person gives their own.
  const explore = opts.explore !== undefined ? { explore: opts.explore } : {};
  const receiver = receiverOverride(opts);
  const { config, credential, webhookSecret } = resolveRunOptions(
    parseRunFlags({ ...flags, ...explore, ...receiver }),
    io.env,
    io.cwd,
  );
  // The report file and the provider's answers are both untrusted: masked, controls shown escaped.
  const redactor = new Redactor([credential, webhookSecret, ...urlSecrets(config.baseUrl)]);
  const c = new Chalk({ level: shouldUseColor(io.stdout, io.env) ? 1 : 0 });
  const say = (line: string): void => void io.stdout.write(`${printable(line, redactor)}\n`);
  const budget = plan.checks.includes('quote-explore') ? `, --explore ${config.explore ?? DEFAULT_EXPLORE_BUDGET}` : '';
  const failed = plan.checks.filter((id) => !plan.unblocked.includes(id));
  say(`replaying ${failed.join(', ')} against ${config.baseUrl} (seed ${config.seed}${budget})`);
  if (plan.unblocked.length > 0)
    say(`and what ${failed.length === 1 ? 'it' : 'they'} kept from running: ${plan.unblocked.join(', ')}`);
  for (const line of pulledInLines(selectChecks({ only: plan.checks }).pulledIn, 'replay')) say(line);
  say(`the report's run used ${recordedAsFlags(plan.recorded)}`);
  for (const note of notes) say(note);
  // The waivers the report's run was judged with are judged again on the rerun (its expectedFailures).
  const expectedFailures = (report.waivers ?? []).map(({ state: _state, message: _message, ...waiver }) => waiver);
  const moved = Object.keys(receiver).length > 0;
  const rerun = await runCertification(config, {
    contract: await loadContract(),
    credential,
    webhookSecret,
    signal,
    expectedFailures,
    spell: spellAsFlag,
    ...(io.clock ? { clock: io.clock } : {}),
    ...(moved ? { hooks: { onRunStart: (info) => say(movedReceiverLine(info.webhookUrl, report.webhooks.url)) } } : {}),
  }).catch((error: unknown) => {
    throw (moved ? undefined : recordedPortBusy(error, config.webhookPort)) ?? error;
  });
  const verdicts: ReplayVerdict[] = [];
  const blocking: ReplayVerdict[] = [];
  for (const id of plan.checks) {
    // A check an interrupted run never reached is compared as "did not run".
    const before = report.checks.find((check) => check.id === id) ?? notReached(id);
    const comparison = compareResults(
      before,
      rerun.checks.find((check) => check.id === id),
      plan.unblocked.includes(id),
    );
    // A failure a waiver in force still covers does not fail the replay, as it does not fail the run.
    verdicts.push(comparison.verdict);
    if (!comparison.failure?.waiver) blocking.push(comparison.verdict);
    say(
      comparison.failure?.waiver
        ? `${comparison.line} (waived until ${comparison.failure.waiver.until})`
        : comparison.line,
    );
    // Rendered from masked results; failureDetailLines escapes every piece of report text itself.
    const details = comparison.failure ? failureDetailLines(redactor.deep(comparison.failure), c, rerun) : [];
    if (details.length > 0) io.stdout.write(`${details.join('\n')}\n`);
  }
  say(replaySummary(verdicts));
  return blocking.some(isStillFailing) ? EXIT.failed : EXIT.ok;
}
