import type { ChalkInstance } from 'chalk';
import type { CheckResult, RunReport } from '../model/report.js';
import { sanitizeTerminalText } from '../util/terminal.js';
import { formatDuration, formatValue, requestLine, summaryText } from './format.js';
import { citationText, violatedRequirements } from './requirements.js';

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
  if (result.expected !== undefined) lines.push(`    ${c.green('expected:')}`, indent(formatValue(result.expected), 6));
  if (result.actual !== undefined) lines.push(`    ${c.red('found:')}`, indent(formatValue(result.actual), 6));
  for (const row of result.quoteMath ?? []) {
    if (!row.ok)
      lines.push(
        indent(`${row.label}: expected ${row.formula} = ${row.expected}, provider ${row.actual ?? 'missing'}`, 4),
      );
  }
  if (result.reproduce) lines.push(`    ${c.cyan('reproduce:')}`, indent(result.reproduce, 6));
  const first = result.evidence[0];
  if (first) lines.push(c.dim(indent(`request: ${requestLine(first)}`, 4)));
  return lines;
}

/** One check: its status line, the failure details when it failed or errored, and its warnings. */
export function checkResultLines(result: CheckResult, c: ChalkInstance, report: Cited): string[] {
  const id = c.bold(sanitizeTerminalText(result.id));
  const message = sanitizeTerminalText(result.message).replace(/\n/g, '\n    ');
  const lines: string[] = [];
  switch (result.status) {
    case 'pass':
      lines.push(
        `${c.green('✓')} ${id}  ${sanitizeTerminalText(result.title)} ${c.dim(`(${formatDuration(result.durationMs)})`)}`,
      );
      break;
    case 'skip':
      lines.push(c.dim(`- ${sanitizeTerminalText(result.id)}  ${message}`));
      break;
    case 'fail':
      lines.push(`${c.red('✗')} ${id}  ${c.red(message)}`, ...failureDetailLines(result, c, report));
      break;
    case 'error':
      lines.push(`${c.yellow('!')} ${id}  ${c.yellow(message)}`, ...failureDetailLines(result, c, report));
      break;
  }
  for (const warning of result.findings.filter((f) => f.severity === 'warn')) {
    lines.push(c.yellow(indent(`warning [${warning.requirement}]: ${warning.message}`, 4)));
  }
  return lines;
}

/** The verdict lines that end a run's console output. */
export function verdictLines(
  report: Pick<RunReport, 'verdict' | 'summary' | 'durationMs'>,
  c: ChalkInstance,
): string[] {
  const passed = report.verdict === 'PASS';
  const verdict = passed ? c.green.bold('PASS') : c.red.bold('FAIL');
  return [
    `${verdict}  ${summaryText(report.summary)}  (${formatDuration(report.durationMs)})`,
    passed
      ? c.green('Certification passed: the provider meets the Provider Integration Contract for this profile.')
      : c.red('Certification failed: fix the checks marked ✗ (or !) above and run again.'),
  ];
}
