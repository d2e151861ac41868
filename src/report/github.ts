import type { CheckResult, RunReport } from '../model/report.js';
import { formatValue, stripControl } from './format.js';
import { maskReport } from './mask.js';
import { type StoredOrigin, storedReportNotice } from './origin.js';
import { citationText, violatedRequirements } from './requirements.js';
import { verdictWords } from './verdict-text.js';
import { failingWaivers, outcomeText, waivedText, waiverLabel } from './waivers.js';

/** Workflow-command data: %, CR and LF are encoded so provider text cannot end the command early. */
export const escapeData = (text: string): string =>
  stripControl(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));

/** Workflow-command property values additionally encode the separators `:` and `,`. */
export const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

const command = (kind: 'error' | 'warning' | 'notice', title: string, message: string): string =>
  `::${kind} title=${escapeProperty(title)}::${escapeData(message)}`;

function problemMessage(check: CheckResult, report: RunReport): string {
  const lines = [check.message];
  for (const detail of check.details ?? []) lines.push(`- ${detail}`);
  const violated = violatedRequirements(report, check);
  if (violated.length > 0) lines.push(`violates: ${violated.map(citationText).join('; ')}`);
  if (check.expected !== undefined) lines.push(`expected: ${formatValue(check.expected)}`);
  if (check.actual !== undefined) lines.push(`found: ${formatValue(check.actual)}`);
  if (check.reproduce) lines.push('reproduce:', check.reproduce);
  return lines.join('\n');
}

/**
 * `::error`/`::warning` annotations: one per failed or errored check (a waived one is a warning naming its
 * waiver), one per warning, and an error per expectedFailures entry that fails the gate.
 */
export function renderGithubAnnotations(input: RunReport, origin?: StoredOrigin): string {
  const report = maskReport(input);
  const lines: string[] = origin ? [command('notice', 'provcert stored report', storedReportNotice(origin))] : [];
  // Only PASS and FAIL speak through their checks; a run with no verdict or a partial one says so.
  if (report.verdict === 'INTERRUPTED')
    lines.push(command('error', 'provcert: no verdict (INTERRUPTED)', verdictWords(report).meaning));
  if (report.verdict === 'INCOMPLETE')
    lines.push(command('error', 'provcert: INCOMPLETE (rules not tested)', verdictWords(report).meaning));
  if (report.verdict === 'PARTIAL')
    lines.push(command('warning', 'provcert: PARTIAL certification', verdictWords(report).meaning));
  for (const check of report.checks) {
    const failed = check.status === 'fail' || check.status === 'error';
    if (failed && check.waiver) {
      const message = `${waivedText(check.waiver)}\n${problemMessage(check, report)}`;
      lines.push(command('warning', `provcert ${check.id} (waived)`, message));
    } else if (failed) lines.push(command('error', `provcert ${check.id}`, problemMessage(check, report)));
    else if (check.status === 'untested')
      lines.push(command('warning', `provcert ${check.id} (not tested)`, problemMessage(check, report)));
    for (const warning of check.findings.filter((f) => f.severity === 'warn'))
      lines.push(command('warning', `provcert ${check.id} [${warning.requirement}]`, warning.message));
  }
  for (const waiver of failingWaivers(report)) {
    const message = `${outcomeText(waiver)}\nreason given: ${waiver.reason}`;
    lines.push(command('error', `provcert waiver ${waiverLabel(waiver)} until ${waiver.until}`, message));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** GitHub Actions sets GITHUB_ACTIONS=true in every step. */
export const isGithubActions = (env: Readonly<Record<string, string | undefined>>): boolean =>
  env['GITHUB_ACTIONS'] === 'true';
