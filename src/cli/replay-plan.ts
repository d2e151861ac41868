import type { CheckId, CheckStatus } from '../model/check-ids.js';
import type { CheckResult, RunReport } from '../model/report.js';
import { RUN_CONFIG_SETTINGS, readRecordedInputs } from '../model/run-inputs.js';
import { notRunChecks } from '../report/not-run.js';
import type { FlagValues } from './run-flags.js';

export interface ReplayPlan {
  /**
   * The recorded run settings that decide nothing about where to connect or what to read, as recorded (numbers
   * stay numbers): untrusted, so they are checked as flags are (parseRunFlags).
   */
  flags: FlagValues;
  checks: CheckId[];
  /**
   * Of `checks`, those the report skipped because of a replayed failure (a root cause): rerun with it, so a fix shows
   * what it unblocked, and compared as checks that did not run before.
   */
  unblocked: CheckId[];
  /** What the original run used to reach the provider: shown, never used on the report's own authority. */
  recorded: RecordedTargets;
}

/** A secret's source as a report records it: the name of a variable or the path of a file. */
export type RecordedSource = { kind: 'env'; name: string } | { kind: 'file'; path: string };

/** The address, auth method and secret sources a report says its run used (issue 25: untrusted). */
export interface RecordedTargets {
  baseUrl: string;
  authMethod: string;
  credential?: RecordedSource;
  webhookSecret?: RecordedSource;
  local: boolean;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
/** A recorded number as recorded; text (a hand-edited report) is checked as a flag's text would be. */
const num = (v: unknown): number | string | undefined =>
  typeof v === 'number' || typeof v === 'string' ? v : undefined;
const list = (v: unknown): string[] | undefined => {
  const items = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return items.length > 0 ? items : undefined;
};

const isFailure = (status: CheckStatus): boolean => status === 'fail' || status === 'error';

function recordedSource(value: unknown): RecordedSource | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, name, path } = value as { kind?: unknown; name?: unknown; path?: unknown };
  if (kind === 'file' && typeof path === 'string' && path !== '') return { kind, path };
  if (kind === 'env' && typeof name === 'string' && name !== '') return { kind, name };
  return undefined;
}

function recordedTargets(report: RunReport): RecordedTargets {
  const i = readRecordedInputs(report.inputs);
  const credential = recordedSource(i['credentialSource']);
  const webhookSecret = recordedSource(i['webhookSecretSource']);
  return {
    baseUrl: str(i['baseUrl']) ?? report.provider.baseUrl,
    authMethod: str(i['auth']) ?? report.provider.authMethod,
    ...(credential ? { credential } : {}),
    ...(webhookSecret ? { webhookSecret } : {}),
    local: i['local'] === true,
  };
}

/**
 * The run flags recorded in a report's `inputs`, restricted to the failed checks (or one), so the rerun
 * is the same run: same profile, capabilities, seed, limits and strictness. The provider's address, the
 * auth method and the secrets' sources are returned apart (`recorded`): the person replaying decides them.
 */
export function planReplay(report: RunReport, only?: CheckId): ReplayPlan | { error: string } {
  // An interrupted run also reruns what the interruption kept from running (its notRun), so its replay finishes it.
  const interrupted = report.interruptedBy !== undefined || report.verdict === 'INTERRUPTED';
  const notRun = new Set(interrupted ? notRunChecks(report) : []);
  const present = new Set(report.checks.map((c) => c.id));
  const failed = [
    ...report.checks.filter((c) => isFailure(c.status) || notRun.has(c.id)).map((c) => c.id),
    ...[...notRun].filter((id) => !present.has(id)),
  ];
  const unblocked = only ? [] : blockedBy(report.checks, failed);
  const checks = only ? [only] : [...failed, ...unblocked];
  if (only && !present.has(only) && !notRun.has(only)) return { error: `the report has no check "${only}"` };
  if (checks.length === 0)
    return {
      error:
        'the report has no failed check to replay (verdict ' +
        report.verdict +
        '); pass --check ID to rerun one anyway',
    };
  const flags: FlagValues = { ...replayedSettings(readRecordedInputs(report.inputs)), only: checks };
  return { flags, checks, unblocked, recorded: recordedTargets(report) };
}

/**
 * The skipped checks a failure kept from running: those the report records as skipped because of it, and, in a report
 * written before that was recorded for every skip, those whose reason names it ("(see catalog)", "depends on catalog").
 */
export function blockedBy(checks: readonly CheckResult[], failed: readonly CheckId[]): CheckId[] {
  const causes = new Set(failed);
  const names = (message: string): boolean =>
    failed.some((id) => message.includes(`(see ${id})`) || message.includes(`depends on ${id},`));
  return checks
    .filter((c) => c.status === 'skip' && !causes.has(c.id))
    .filter((c) => (c.skippedBecauseOf !== undefined ? causes.has(c.skippedBecauseOf) : names(c.message)))
    .map((c) => c.id);
}

/**
 * The recorded settings a rerun takes as its own, under their one name, as recorded (checked as flags are). Not the
 * address, the auth method or the secrets' sources (the person replaying decides them, `recordedTargets`), nor the
 * selection (the failed checks are), nor how many checks ran at once (a rerun of a few takes its own). The provider
 * posts its events to the recorded receiver address, so the rerun listens there again unless the person gives
 * --webhook-port or --webhook-host.
 */
const NOT_REPLAYED: ReadonlySet<string> = new Set(['baseUrl', 'auth', 'local', 'only', 'skip', 'concurrency']);

function replayedSettings(i: Readonly<Record<string, unknown>>): FlagValues {
  const flags: Record<string, FlagValues[string]> = {};
  for (const key of RUN_CONFIG_SETTINGS) {
    if (NOT_REPLAYED.has(key)) continue;
    const value = i[key];
    // Under --strict a warning was a failure; the rerun judges it the same way (false: as without --strict).
    if (typeof value === 'boolean') {
      if (value) flags[key] = true;
    } else if (Array.isArray(value)) {
      const items = list(value);
      if (items) flags[key] = items;
    } else if (str(value)) flags[key] = num(value);
  }
  return flags;
}

/**
 * What became of one replayed check. An original failure (fail or error) is `still-fails` (fails again),
 * `now-errors` (the check could not run to the end this time), `not-run` (skipped now, so not shown
 * fixed) or `fixed` (passes now). A check that passed or was skipped (rerun with --check) `was-not-a-failure`,
 * unless it `fails-now`.
 */
export type ReplayVerdict =
  | 'still-fails'
  | 'now-errors'
  | 'not-run'
  | 'still-blocked'
  | 'fixed'
  | 'now-passes'
  | 'was-not-a-failure'
  | 'fails-now';

export const REPLAY_VERDICTS: readonly ReplayVerdict[] = [
  'still-fails',
  'now-errors',
  'not-run',
  'still-blocked',
  'fails-now',
  'fixed',
  'now-passes',
  'was-not-a-failure',
];

/** Verdicts that keep the replay from exiting 0: a failure seen now, or one that could not be shown fixed. */
export const isStillFailing = (verdict: ReplayVerdict): boolean =>
  verdict !== 'fixed' && verdict !== 'now-passes' && verdict !== 'was-not-a-failure';

const LABEL: Record<ReplayVerdict, [one: string, many: string]> = {
  'still-fails': ['still fails', 'still fail'],
  'now-errors': ['now errors', 'now error'],
  'not-run': ['not run', 'not run'],
  'still-blocked': ['still not run', 'still not run'],
  'now-passes': ['now runs and passes', 'now run and pass'],
  'fails-now': ['fails now', 'fail now'],
  fixed: ['fixed', 'fixed'],
  'was-not-a-failure': ['was not a failure', 'were not failures'],
};

export interface ReplayComparison {
  id: CheckId;
  verdict: ReplayVerdict;
  /** One line: "quote-math: still fails — total 2300 ≠ 2400". Report text, not yet masked or sanitized. */
  line: string;
  /** The rerun's result when it shows a problem, to print with its evidence and reproduce command. */
  failure?: CheckResult;
}

/**
 * A check the original run skipped because of a replayed failure: it `now-passes`, `fails-now`, is `still-blocked`
 * (skipped again because of a failure, or not tested), or `was-not-a-failure` (skipped now for a reason of its own:
 * it does not apply to this provider).
 */
function unblockedVerdict(after: CheckResult | undefined): ReplayVerdict {
  if (after === undefined || after.status === 'untested') return 'still-blocked';
  if (isFailure(after.status)) return 'fails-now';
  if (after.status === 'pass') return 'now-passes';
  return after.skippedBecauseOf !== undefined ? 'still-blocked' : 'was-not-a-failure';
}

function verdictFor(before: CheckStatus, after: CheckStatus | undefined): ReplayVerdict {
  if (!isFailure(before)) return after !== undefined && isFailure(after) ? 'fails-now' : 'was-not-a-failure';
  if (after === 'fail') return 'still-fails';
  if (after === 'error') return 'now-errors';
  if (after === 'pass') return 'fixed';
  return 'not-run';
}

const PAST: Record<CheckStatus, string> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
  error: 'errored',
  untested: 'was not tested',
};
const NOW: Record<CheckStatus, string> = {
  pass: 'passes',
  fail: 'fails',
  skip: 'skipped',
  error: 'errors',
  untested: 'is not tested',
};

function detailOf(verdict: ReplayVerdict, before: CheckResult, after: CheckResult | undefined): string {
  const same = after?.status === before.status && after.message === before.message;
  const was = (prefix: string): string => (same ? '(as before)' : `(${prefix}${before.message})`);
  const originally = `originally ${PAST[before.status]}`;
  switch (verdict) {
    case 'still-fails':
      return `${after?.message ?? ''} ${was(before.status === 'error' ? 'was error: ' : 'was: ')}`;
    case 'now-errors':
    case 'fails-now':
      return `${after?.message ?? ''} ${was(`was ${before.status}: `)}`;
    case 'fixed':
      return `passes now (was ${before.status}: ${before.message})`;
    case 'not-run':
      return `${after ? after.message : 'the rerun has no result for it'} (was ${before.status}: ${before.message})`;
    case 'was-not-a-failure':
      return `${originally}; now ${after ? `${NOW[after.status]}: ${after.message}` : 'not run'}`;
    case 'now-passes':
      return `was skipped because of ${before.skippedBecauseOf ?? 'a replayed failure'} (${before.message})`;
    case 'still-blocked':
      return `${after ? after.message : 'the rerun has no result for it'} (was skipped: ${before.message})`;
  }
}

/** Compare one check's original result with its rerun (undefined: the rerun has no result for it). */
export function compareResults(
  before: CheckResult,
  after: CheckResult | undefined,
  /** The original run skipped it because of a replayed failure (ReplayPlan.unblocked). */
  unblocked = false,
): ReplayComparison {
  const verdict = unblocked ? unblockedVerdict(after) : verdictFor(before.status, after?.status);
  const line = `${before.id}: ${LABEL[verdict][0]} — ${detailOf(verdict, before, after)}`;
  return { id: before.id, verdict, line, ...(after && isFailure(after.status) ? { failure: after } : {}) };
}

/** "replayed 3 checks: 1 still fails, 1 fixed, 1 was not a failure" — every verdict counted once. */
export function replaySummary(verdicts: readonly ReplayVerdict[]): string {
  const parts: string[] = [];
  for (const verdict of REPLAY_VERDICTS) {
    const n = verdicts.filter((v) => v === verdict).length;
    if (n > 0) parts.push(`${n} ${LABEL[verdict][n === 1 ? 0 : 1]}`);
  }
  return `replayed ${verdicts.length} ${verdicts.length === 1 ? 'check' : 'checks'}: ${parts.join(', ')}`;
}
