import type { ReportFlags } from '../config/flags.js';
import { UsageError } from '../model/errors.js';
import type { ReportTarget } from '../report/index.js';
import { FILE_REPORTER_NAMES, REPORTER_NAMES, REPORTERS } from '../report/reporters.js';

const KNOWN: readonly string[] = REPORTER_NAMES;

/** --json/--junit/--markdown/--html paths, plus reporters named in --reporter without a path (default file names). */
export function reportTargets(flags: ReportFlags): ReportTarget[] {
  const named = (flags.reporter ?? '')
    .split(',')
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
