import type { ReportFlags } from '../config/flags.js';
import { UsageError } from '../model/errors.js';
import type { RunValues } from '../model/run-values.js';
import type { ReportTarget } from '../report/index.js';
import { FILE_REPORTER_NAMES, REPORTER_NAMES, REPORTERS } from '../report/reporters.js';

const KNOWN: readonly string[] = REPORTER_NAMES;

/** The report options as a command's flags give them, or as typed run values (flags > environment > file). */
type ReportOptions = ReportFlags | RunValues;

/** --json/--junit/--markdown/--html paths, plus reporters named in --reporter without a path (default file names). */
export function reportTargets(flags: ReportOptions): ReportTarget[] {
  const named = (typeof flags.reporter === 'string' ? flags.reporter.split(',') : (flags.reporter ?? []))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = named.filter((n) => !KNOWN.includes(n));
  if (unknown.length > 0)
    throw new UsageError(`--reporter: unknown reporter ${unknown.join(', ')}; known: ${KNOWN.join(', ')}`);
  const targets: ReportTarget[] = [];
  for (const name of FILE_REPORTER_NAMES) {
    const path = flags[name] ?? (named.includes(name) ? REPORTERS[name].defaultFile : undefined);
    if (path !== undefined) targets.push({ name, path });
  }
  if (targets.filter((t) => t.path === '-').length > 1)
    throw new UsageError('only one report can go to standard output (-)');
  return targets;
}
