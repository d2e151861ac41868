import type { ChalkInstance } from 'chalk';
import type { CheckResult, RunReport } from '../model/report.js';
import { WAIVER_WARNING } from '../model/waivers.js';
import { sanitizeTerminalText } from '../util/terminal.js';
import {
  excerptHeading,
  findingExcerpts,
  formatDuration,
  formatValue,
  reproducedExchange,
  requestLine,
  summaryText,
} from './format.js';
import { isCausedSkip, skippedForCauseText, skippedUnderCauseText, skipsByCause } from './recap.js';
import { citationText, violatedRequirements } from './requirements.js';
import { verdictWords } from './verdict-text.js';
import {
  failingWaivers,
  isUnwaivedProblem,
  outcomeNamesCheck,
  waivedChecks,
  waivedText,
  waiverLabel,
} from './waivers.js';

/**
 * A check result as terminal lines, the way `run` prints it: the status line, then for a failure what it
 * violates, details, expected/found, the quote computation, the reproduce command and the request.
 * Every piece of report text goes through sanitizeTerminalText; only the colours added here are escapes.
 * Shared by `replay` and `report`; the live console reporter (console.ts) prints the same lines.
 */

type Cited = Pick<RunReport, 'requirements'>;

const indent = (text: string, spaces: number): string =>
  sanitizeTerminalText(text)
    .split('\n')
    .map((line) => `${' '.repeat(spaces)}${line}`)
    .join('\n');

/** The indented lines under a failed or erroring check. */
export function failureDetailLines(result: CheckResult, c: ChalkInstance, report: Cited): string[] {
  const lines: string[] = [];
  const violated = violatedRequirements(report, result);
  if (violated.length > 0) lines.push(c.dim(indent(`violates: ${violated.map(citationText).join('; ')}`, 4)));
  for (const detail of result.details ?? []) lines.push(indent(`- ${detail}`, 4));
  lines.push(...excerptLines(result, c));
  if (result.expected !== undefined) lines.push(`    ${c.green('expected:')}`, indent(formatValue(result.expected), 6));
  if (result.actual !== undefined) lines.push(`    ${c.red('found:')}`, indent(formatValue(result.actual), 6));
  for (const row of result.quoteMath ?? []) {
    if (!row.ok)
      lines.push(
        indent(`${row.label}: expected ${row.formula} = ${row.expected}, provider ${row.actual ?? 'missing'}`, 4),
      );
  }
  if (result.reproduce) lines.push(`    ${c.cyan('reproduce:')}`, indent(result.reproduce, 6));
  // The request the reproduce command sends again, so both lines name the same request.
  const sent = reproducedExchange(result);
  if (sent) lines.push(c.dim(indent(`request: ${requestLine(sent)}`, 4)));
  return lines;
}

/** How many excerpts the console shows under one check; the JSON, HTML, Markdown and JUnit reports keep every one. */
const CONSOLE_EXCERPTS = 3;

/** The answer around each failing value, pretty-printed (a schema finding's excerpt). */
function excerptLines(result: CheckResult, c: ChalkInstance): string[] {
  const excerpts = findingExcerpts(result);
  const lines = excerpts
    .slice(0, CONSOLE_EXCERPTS)
    .flatMap((x) => [`    ${c.cyan(sanitizeTerminalText(excerptHeading(x), { oneLine: true }))}`, indent(x.text, 6)]);
  const more = excerpts.length - CONSOLE_EXCERPTS;
  if (more > 0)
    lines.push(
      c.dim(indent(`… ${more} more ${more === 1 ? 'excerpt' : 'excerpts'} in the JSON, HTML and Markdown reports`, 4)),
    );
  return lines;
}

/** A check's status line, with the failure details when it failed or errored (waived or not). */
function statusLines(result: CheckResult, c: ChalkInstance, report: Cited): string[] {
  const id = c.bold(sanitizeTerminalText(result.id));
  const message = sanitizeTerminalText(result.message).replace(/\n/g, '\n    ');
  const details = (): string[] => failureDetailLines(result, c, report);
  if (result.waiver && (result.status === 'fail' || result.status === 'error')) {
    // A known failure is shown in full, but yellow and named as waived: it reads as accepted, not as new.
    const waived = c.yellow(indent(waivedText(result.waiver), 4));
    return [`${c.yellow.bold('WAIVED')} ${id}  ${c.yellow(message)}`, waived, ...details()];
  }
  switch (result.status) {
    case 'pass':
      return [
        `${c.green('✓')} ${id}  ${sanitizeTerminalText(result.title)} ${c.dim(`(${formatDuration(result.durationMs)})`)}`,
      ];
    case 'skip':
      return [c.dim(`- ${sanitizeTerminalText(result.id)}  ${message}`)];
    case 'fail':
      return [`${c.red('✗')} ${id}  ${c.red(message)}`, ...details()];
    case 'error':
      return [`${c.yellow('!')} ${id}  ${c.yellow(message)}`, ...details()];
    case 'untested':
      return [`${c.yellow('?')} ${id}  ${c.yellow(`NOT TESTED: ${message}`)}`, ...details()];
  }
}

/** One check: its status line, the failure details when it failed or errored, and its warnings. */
export function checkResultLines(result: CheckResult, c: ChalkInstance, report: Cited): string[] {
  const warnings = result.findings
    .filter((f) => f.severity === 'warn')
    .map((w) => c.yellow(indent(`warning [${w.requirement}]: ${w.message}`, 4)));
  return [...statusLines(result, c, report), ...warnings];
}

/** "    ↳ 24 checks skipped because of this: …", dim, under the check that caused the skips. */
export const skippedUnderLines = (ids: readonly string[], c: ChalkInstance): string[] =>
  ids.length === 0 ? [] : [c.dim(indent(skippedUnderCauseText(ids), 4))];

/** "- 6 checks skipped because of catalog: …", dim, where the cause's own lines are elsewhere (or absent). */
export const skippedForLines = (cause: string, ids: readonly string[], c: ChalkInstance): string[] =>
  ids.length === 0 ? [] : [c.dim(`- ${sanitizeTerminalText(skippedForCauseText(cause, ids), { oneLine: true })}`)];

/**
 * Every check of a finished run, root cause first: a skip owed to another check's failure is not a line of its
 * own but counted in one line under that check (`provcert report`; the live console does the same as results come).
 */
export function reportCheckLines(report: Pick<RunReport, 'checks' | 'requirements'>, c: ChalkInstance): string[] {
  const byCause = skipsByCause(report.checks);
  const shown = report.checks.filter((check) => !isCausedSkip(check));
  const present = new Set(shown.map((check) => check.id));
  const lines = shown.flatMap((check) => [
    ...checkResultLines(check, c, report),
    ...skippedUnderLines(byCause.get(check.id) ?? [], c),
  ]);
  // A cause with no result of its own (an older or narrowed report) still gets its one line.
  for (const [cause, ids] of byCause) if (!present.has(cause)) lines.push(...skippedForLines(cause, ids, c));
  return lines;
}

/** The expected failures of a run: each waived check (yellow), then each waiver that fails the gate (red). */
export function waiverLines(report: Pick<RunReport, 'checks' | 'waivers'>, c: ChalkInstance): string[] {
  // An applied waiver dated far out warns here as in the JSON: its judged outcome carries the warning (issue 32).
  const warned = (check: CheckResult): string => {
    const outcome = (report.waivers ?? []).find((w) => w.state === 'applied' && outcomeNamesCheck(w, check));
    const at = outcome?.message.indexOf(WAIVER_WARNING) ?? -1;
    return outcome && at >= 0 ? outcome.message.slice(at) : '';
  };
  const waived = waivedChecks(report).map((check) =>
    c.yellow(
      `  WAIVED  ${sanitizeTerminalText(`${check.id}: ${waivedText(check.waiver ?? { reason: '', until: '' })}${warned(check)}`, { oneLine: true })}`,
    ),
  );
  const failing = failingWaivers(report).map((w) =>
    c.red(
      `  ${w.state.toUpperCase().padEnd(9)} ${sanitizeTerminalText(`${waiverLabel(w)} (until ${w.until}): ${w.message}`, { oneLine: true })}`,
    ),
  );
  const lines = [...waived, ...failing];
  return lines.length === 0 ? [] : ['', c.bold('Expected failures (expectedFailures):'), ...lines];
}

/** The verdict lines that end a run's console output. */
export function verdictLines(
  report: Pick<RunReport, 'verdict' | 'summary' | 'durationMs'> &
    Partial<Pick<RunReport, 'checks' | 'waivers' | 'inputs' | 'interruptedBy' | 'leftOut' | 'notRun'>>,
  c: ChalkInstance,
): string[] {
  const passed = report.verdict === 'PASS';
  const checks = report.checks ?? [];
  const waived = waivedChecks({ checks }).length;
  const gate = failingWaivers(report).length;
  // A summary with its own waived count says it; an older one counted waived failures as failed.
  const counts = `${summaryText(report.summary)}${waived > 0 && report.summary.waived === undefined ? `; ${waived} waived` : ''}`;
  if (report.verdict === 'INTERRUPTED' || report.verdict === 'PARTIAL' || report.verdict === 'INCOMPLETE') {
    const words = verdictWords({ ...report, checks, inputs: report.inputs ?? {} });
    const label = { INTERRUPTED: 'No verdict', PARTIAL: 'Partial', INCOMPLETE: 'Incomplete' }[report.verdict];
    return [
      `${c.yellow.bold(report.verdict)}  ${counts}  (${formatDuration(report.durationMs)})`,
      c.yellow(sanitizeTerminalText(`${label}: ${words.meaning}.`, { oneLine: true })),
    ];
  }
  const verdict = passed ? c.green.bold('PASS') : c.red.bold('FAIL');
  const why = passed
    ? waived > 0
      ? `Certification passed with ${waived} waived ${waived === 1 ? 'failure' : 'failures'} (expected failures above): the provider meets the Provider Integration Contract for this profile otherwise.`
      : 'Certification passed: the provider meets the Provider Integration Contract for this profile.'
    : checks.some(isUnwaivedProblem) || gate === 0
      ? `Certification failed: fix the checks marked ✗ (or !) above and run again.${gate > 0 ? ` Also ${gate} expected-failure ${gate === 1 ? 'entry fails' : 'entries fail'} the gate (above).` : ''}`
      : `Certification failed: ${gate} expected-failure ${gate === 1 ? 'entry fails' : 'entries fail'} the gate (above); update or remove ${gate === 1 ? 'it' : 'them'} and run again.`;
  return [`${verdict}  ${counts}  (${formatDuration(report.durationMs)})`, passed ? c.green(why) : c.red(why)];
}
