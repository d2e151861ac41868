import type { ChalkInstance } from 'chalk';
import type { CheckId } from '../model/check-ids.js';
import type { CheckResult, RunReport } from '../model/report.js';
import { sanitizeTerminalText } from '../util/terminal.js';

/**
 * Root cause first, recap last (issue 34): the skips a failure caused are one line under it instead of one line
 * each repeating the cause, and the run's text ends with each failure in one line and the command to run next.
 * Shared by the live console, `report`, the markdown report and the summary.
 */

const checksWord = (n: number): string => `${n} ${n === 1 ? 'check' : 'checks'}`;
const oneLine = (text: string): string => sanitizeTerminalText(text, { oneLine: true });

/** The longest failure message a recap line shows; the full text is above it. */
const RECAP_MESSAGE_CHARS = 160;

/** "24 checks skipped because of this: capabilities, health, …" (under the cause itself). */
export const skippedUnderCauseText = (ids: readonly string[]): string =>
  `↳ ${checksWord(ids.length)} skipped because of this: ${ids.join(', ')}`;

/** "6 checks skipped because of catalog: offering, search, …" (where the cause is not the line above). */
export const skippedForCauseText = (cause: string, ids: readonly string[]): string =>
  `${checksWord(ids.length)} skipped because of ${cause}: ${ids.join(', ')}`;

/** Whether a result is a skip owed to another check's failure (collapsed under that check). */
export const isCausedSkip = (r: Pick<CheckResult, 'status' | 'skippedBecauseOf'>): boolean =>
  r.status === 'skip' && r.skippedBecauseOf !== undefined;

/** The checks each root cause kept from running, by cause, in the report's order. */
export function skipsByCause(checks: readonly CheckResult[]): Map<CheckId, CheckId[]> {
  const byCause = new Map<CheckId, CheckId[]>();
  for (const check of checks) {
    if (!isCausedSkip(check) || check.skippedBecauseOf === undefined) continue;
    const ids = byCause.get(check.skippedBecauseOf) ?? [];
    ids.push(check.id);
    byCause.set(check.skippedBecauseOf, ids);
  }
  return byCause;
}

/** A check that fails the gate, or could not run (waived ones are listed with the expected failures). */
const isRecapped = (c: CheckResult): boolean =>
  !c.waiver && (c.status === 'fail' || c.status === 'error' || c.status === 'untested');

/** One failure of the recap: what failed, on which requirement, in one line. */
export interface RecapEntry {
  check: CheckId;
  status: 'fail' | 'error' | 'untested';
  requirement: string;
  message: string;
  /** How many checks were skipped because of it. */
  blocked: number;
  /** It has a reproduce command (shown under it above). */
  reproducible: boolean;
}

/** Each failure (and error, and untested rule) of a run, in the report's order, root causes first. */
export function recapEntries(report: Pick<RunReport, 'checks'>): RecapEntry[] {
  const blocked = skipsByCause(report.checks);
  const entries = report.checks.filter(isRecapped).map((c): RecapEntry => {
    const finding = c.findings.find((f) => f.severity === 'fail');
    const requirement = finding?.requirement ?? c.untested?.[0]?.requirement ?? c.requirements[0] ?? '';
    const text = oneLine(c.message);
    const message = text.length > RECAP_MESSAGE_CHARS ? `${text.slice(0, RECAP_MESSAGE_CHARS - 1)}…` : text;
    const status = c.status as RecapEntry['status'];
    const reproducible = c.reproduce !== undefined;
    return { check: c.id, status, requirement, message, blocked: blocked.get(c.id)?.length ?? 0, reproducible };
  });
  // A failure that kept others from running is the one to fix first.
  return [...entries.filter((e) => e.blocked > 0), ...entries.filter((e) => e.blocked === 0)];
}

const MARK = { fail: '✗', error: '!', untested: '?' } as const;

/** "✗ metadata [ROUTE-PROVIDER-INFO] GET /provider-info answered 404; 24 checks skipped because of it" */
export function recapEntryText(e: RecapEntry): string {
  const blocked = e.blocked > 0 ? ` (${checksWord(e.blocked)} skipped because of it)` : '';
  return `${MARK[e.status]} ${e.check} [${oneLine(e.requirement)}] ${e.message}${blocked}`;
}

/**
 * What to run next: fix the root cause first when there is one, then the command that reruns the run (`rerun`,
 * given by the CLI: the same command, or `provcert replay REPORT.json` when a JSON report was written).
 */
export function nextStepText(entries: readonly RecapEntry[], rerun: string | undefined): string | undefined {
  if (entries.length === 0) return undefined;
  const first = entries[0];
  if (!first) return undefined;
  const root =
    first.blocked > 0
      ? `fix ${first.check} first (${checksWord(first.blocked)} ${first.blocked === 1 ? 'waits' : 'wait'} on it)`
      : first.reproducible
        ? `reproduce ${first.check} with its reproduce command above and fix it`
        : `fix ${first.check}`;
  return rerun ? `Next: ${root}, then run: ${oneLine(rerun)}` : `Next: ${root}, then run provcert again.`;
}

/** The console's recap: a heading, a line per failure, or nothing when nothing failed. */
export function recapLines(report: Pick<RunReport, 'checks'>, c: ChalkInstance): string[] {
  const entries = recapEntries(report);
  if (entries.length === 0) return [];
  const tone = (e: RecapEntry): ChalkInstance => (e.status === 'fail' ? c.red : c.yellow);
  const heading = entries.every((e) => e.status !== 'untested') ? 'Failures' : 'Not passed';
  return ['', c.bold(`${heading} (${entries.length}):`), ...entries.map((e) => `  ${tone(e)(recapEntryText(e))}`)];
}
