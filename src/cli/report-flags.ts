import type { ReportTarget } from '../report/index.js';
import { UsageError } from '../model/errors.js';
import type { ReportFlags } from '../config/flags.js';

const FILE_REPORTERS = ['json', 'junit', 'markdown', 'html'] as const;
const DEFAULT_PATHS: Record<(typeof FILE_REPORTERS)[number], string> = {
  json: 'provcert-report.json',
  junit: 'provcert-junit.xml',
  markdown: 'provcert-report.md',
  html: 'provcert-report.html',
};
const KNOWN = ['console', 'github', ...FILE_REPORTERS];

/** --json/--junit/--markdown/--html paths, plus reporters named in --reporter without a path (default file names). */
export function reportTargets(flags: ReportFlags): ReportTarget[] {
  const named = (flags.reporter ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const unknown = named.filter((n) => !KNOWN.includes(n));
  if (unknown.length > 0) throw new UsageError(`--reporter: unknown reporter ${unknown.join(', ')}; known: ${KNOWN.join(', ')}`);
  const targets: ReportTarget[] = [];
  for (const name of FILE_REPORTERS) {
    const path = flags[name] ?? (named.includes(name) ? DEFAULT_PATHS[name] : undefined);
    if (path !== undefined) targets.push({ name, path });
  }
  if (targets.filter((t) => t.path === '-').length > 1) throw new UsageError('only one report can go to standard output (-)');
  return targets;
}
