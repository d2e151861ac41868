import { CHECK_IDS, type CheckId } from '../model/check-ids.js';
import type { RunReport } from '../model/report.js';
import { selectionExcludes } from './consistency.js';

/** What telling the checks an interrupted run did not run needs from its report. */
export type NotRunSource = Pick<RunReport, 'checks' | 'inputs'> & Partial<Pick<RunReport, 'notRun' | 'leftOut'>>;

/**
 * The checks an interrupted run did not run: as the report records them (`notRun`). A report written before
 * `notRun` was recorded is still read (docs/decisions.md): its skipped checks whose message says the stop cut them
 * off, and the checks its selection kept that it has no result for. That text is the scheduler's, so this fallback
 * is only as good as the old writer's wording; nothing newer relies on it.
 */
export function notRunChecks(report: NotRunSource): CheckId[] {
  if (report.notRun !== undefined) return [...report.notRun];
  const present = new Set(report.checks.map((c) => c.id));
  const excluded = selectionExcludes(report.inputs);
  const left = new Set((report.leftOut ?? []).map((l) => l.id));
  const stopped = report.checks.filter((c) => c.status === 'skip' && /^interrupted\b/.test(c.message)).map((c) => c.id);
  const absent = CHECK_IDS.filter((id) => !present.has(id) && !excluded.has(id) && !left.has(id));
  return [...stopped, ...absent];
}
