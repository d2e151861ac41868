import { Chalk, type ChalkInstance } from 'chalk';
import type { FleetReport } from '../../model/fleet-report.js';
import { sanitizeTerminalText } from '../../util/terminal.js';
import { formatDuration } from '../format.js';
import { failureReason } from './failure-reason.js';
import {
  countCells,
  type FleetRow,
  failingWaivers,
  fleetRow,
  fleetSummaryText,
  gateFailures,
  maskFleetReport,
  scopeText,
  untestedChecks,
  waiverTarget,
} from './rows.js';

/** Provider text is shown, never interpreted, and stays on its line. */
const safe = (text: string): string => sanitizeTerminalText(text, { oneLine: true });

const HEADER = ['provider', 'verdict', 'pass', 'fail', 'skip', 'error', 'waived', 'duration'] as const;

function cells(row: FleetRow): string[] {
  return [safe(row.slug), row.verdict === 'NOT_RUN' ? 'NOT RUN' : row.verdict, ...countCells(row)];
}

/** Colour is added after padding, so escape sequences never shift the columns. */
function colourVerdict(text: string, verdict: FleetRow['verdict'], c: ChalkInstance): string {
  if (verdict === 'PASS') return c.green(text);
  return verdict === 'FAIL' ? c.red.bold(text) : c.yellow(text);
}

/** The table: a line per provider, numbers right-aligned. */
function tableLines(rows: FleetRow[], c: ChalkInstance): string[] {
  const texts = rows.map(cells);
  // A loop, not Math.max(...rows): spreading 150,000 providers into arguments throws a RangeError.
  const widths = HEADER.map((h, i) => texts.reduce((widest, t) => Math.max(widest, (t[i] ?? '').length), h.length));
  const pad = (text: string, i: number): string =>
    i === 0 || i === 1 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0);
  const header = c.dim(HEADER.map((h, i) => pad(h, i)).join('  '));
  const lines = texts.map((t, r) => {
    const row = rows[r] as FleetRow;
    const padded = t.map(pad);
    padded[1] = colourVerdict(padded[1] ?? '', row.verdict, c);
    return padded.join('  ').trimEnd();
  });
  return [header, ...lines];
}

/** Under the table: why each failing provider fails (its gate-failing checks) and why NOT_RUN ones did not run. */
function problemLines(report: FleetReport, c: ChalkInstance): string[] {
  const lines: string[] = [];
  for (const provider of report.providers) {
    if (provider.verdict === 'PASS') continue;
    const failures = provider.report ? gateFailures(provider.report) : [];
    const why = provider.error ?? (provider.verdict === 'NOT_RUN' ? 'not run' : undefined);
    const ids = failures.map((f) => f.id).join(', ');
    const untested = (provider.report ? untestedChecks(provider.report) : []).map((u) => u.id).join(', ');
    const text = [why, ids ? `failing: ${ids}` : undefined, untested ? `not tested: ${untested}` : undefined]
      .filter((t) => t !== undefined)
      .join('; ');
    if (text) lines.push(`${c.red('✗')} ${c.bold(safe(provider.slug))}  ${safe(text)}`);
    // Each failing check with its reason in one line, so the fleet summary says what to fix without opening a report.
    for (const f of failures) lines.push(`    ${c.red(safe(f.id))}: ${safe(failureReason(f))}`);
  }
  return lines;
}

/** Waiver outcomes that fail the gate, in red, each with what to do. */
function waiverLines(report: FleetReport, c: ChalkInstance): string[] {
  const failing = failingWaivers(report);
  if (failing.length === 0) return [];
  return [
    '',
    c.red.bold(`${failing.length} expected ${failing.length === 1 ? 'failure fails' : 'failures fail'} the gate:`),
    ...failing.map((w) =>
      c.red(`  ${w.state.padEnd(9)} ${safe(waiverTarget(w))} (until ${safe(w.until)}): ${safe(w.message)}`),
    ),
  ];
}

/** The fleet verdict lines that end `batch` and `merge-reports` output. */
function verdictLines(report: FleetReport, c: ChalkInstance): string[] {
  const passed = report.verdict === 'PASS';
  const incomplete = report.verdict === 'INCOMPLETE';
  const verdict = passed ? c.green.bold('PASS') : incomplete ? c.yellow.bold('INCOMPLETE') : c.red.bold('FAIL');
  const lines = [`${verdict}  ${fleetSummaryText(report)}  (${formatDuration(report.durationMs)})`];
  if (report.interruptedBy !== undefined)
    lines.push(c.yellow(`The batch was stopped (${safe(report.interruptedBy)}): providers not certified are NOT RUN.`));
  lines.push(
    passed
      ? c.green('Fleet certification passed: every provider passed and every expected failure still holds.')
      : incomplete
        ? c.yellow(
            'Fleet certification incomplete: nothing failed, but rules marked "not tested" above were not tested within the run\'s limits; each provider\'s report names the setting that tests them.',
          )
        : c.red('Fleet certification failed: fix the providers and expected failures marked above.'),
  );
  return lines;
}

/**
 * The fleet summary as terminal text: who and which scope, a table of providers (verdict, check counts,
 * waived checks, duration), why failing providers fail, the waivers that fail the gate (red), the verdict.
 */
export function renderFleetConsole(input: FleetReport, options: { color: boolean }): string {
  const report = maskFleetReport(input);
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const scope = scopeText(report);
  const title = `${c.bold('provcert')} fleet ${c.bold(safe(report.fleet.name))}${scope ? ` (${safe(scope)})` : ''}`;
  const problems = problemLines(report, c);
  return `${[
    title,
    '',
    ...tableLines(report.providers.map(fleetRow), c),
    ...(problems.length > 0 ? ['', ...problems] : []),
    ...waiverLines(report, c),
    '',
    ...verdictLines(report, c),
  ].join('\n')}\n`;
}
