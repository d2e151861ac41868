import type { CheckStatus } from '../model/check-ids.js';
import type { CheckResult, QuoteMathRow, RunReport, WebhookTimelineEntry } from '../model/report.js';
import { sameAsAbove, uniqueLines } from './dedupe.js';
import {
  excerptHeading,
  exchangeText,
  findingExcerpts,
  formatDuration,
  formatValue,
  problemChecks,
  providerLabel,
  reproducedExchange,
  requestLine,
  stripControl,
  summaryText,
} from './format.js';
import { maskReport } from './mask.js';
import { type StoredOrigin, storedReportNotice } from './origin.js';
import { isCausedSkip, recapEntries, skippedForCauseText, skipsByCause } from './recap.js';
import { violatedRequirements } from './requirements.js';
import { verdictWords } from './verdict-text.js';
import { failingWaivers, isUnwaivedProblem, isWaived, waivedChecks, waivedText, waiverLabel } from './waivers.js';
import { ignoredText, schemaText } from './webhook-facts.js';

const STATUS_CELL: Record<CheckStatus, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  skip: '⏭️ skip',
  error: '⚠️ error',
  untested: '❔ not tested',
};
const WAIVED_CELL = '🟡 waived';
const VERDICT_ICON: Record<RunReport['verdict'], string> = {
  PASS: '✅',
  FAIL: '❌',
  INTERRUPTED: '⏹️',
  INCOMPLETE: '❔',
  PARTIAL: '⚠️',
};
const VERDICT_LABEL: Partial<Record<RunReport['verdict'], string>> = {
  INTERRUPTED: 'No verdict',
  INCOMPLETE: 'Incomplete',
  PARTIAL: 'Partial',
};

const statusCell = (check: CheckResult): string => (isWaived(check) ? WAIVED_CELL : STATUS_CELL[check.status]);

/**
 * Provider text as inert Markdown: no formatting, links, HTML or table breaks can come out of it, and
 * newlines become <br> so one value stays in its table cell or paragraph.
 */
export function mdText(text: string): string {
  return stripControl(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]#~|!]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, '<br>');
}

/** mdText for a value that starts a paragraph: it must not turn into a list item either. */
export const mdParagraph = (text: string): string =>
  mdText(text)
    .replace(/^([-+])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2');

/** A fenced block whose fence is longer than any backtick run inside, so content cannot close it. */
export function mdCodeBlock(raw: string, lang = ''): string {
  const content = stripControl(raw);
  let longest = 0;
  for (const run of content.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${content}\n${fence}`;
}

const table = (header: string[], rows: string[][]): string =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

function quoteMathTable(rows: QuoteMathRow[]): string {
  return table(
    ['', 'Value', 'Expected computation', 'Expected', 'Provider'],
    rows.map((r) => [
      r.ok ? '✅' : '❌',
      mdText(r.label),
      mdText(r.formula),
      String(r.expected),
      r.actual === null ? '(missing)' : String(r.actual),
    ]),
  );
}

function webhookTable(events: WebhookTimelineEntry[]): string {
  const diagnoses = sameAsAbove(events.map((ev) => ev.diagnosis ?? ''));
  return table(
    ['Received', 'Event', 'Action', 'New status', 'Signature', 'Schema', 'Diagnosis'],
    events.map((ev, i) => [
      mdText(ev.receivedAt),
      mdText(`${ev.eventType ?? ''} ${ev.eventId ?? ''}`.trim()),
      mdText(ev.actionId ?? ''),
      mdText(ev.newStatus ?? ''),
      `${ev.verified ? '✅ verified' : '❌ not verified'}${ev.header ? ` (${mdText(ev.header)})` : ''}${ev.duplicate ? ' duplicate' : ''}`,
      `${ev.schemaValid === false ? '❌ ' : ''}${schemaText(ev)}`,
      mdText(diagnoses[i] ?? ''),
    ]),
  );
}

function problemSection(check: CheckResult, report: RunReport, blocked: readonly string[] = []): string {
  const parts = [
    `#### ${statusCell(check)}: \`${check.id}\` ${mdText(check.title)}`,
    ...(check.waiver && isWaived(check) ? [`**${mdText(waivedText(check.waiver))}**`] : []),
    mdParagraph(check.message),
    ...(blocked.length > 0
      ? [
          `**Root cause:** ${mdText(`${blocked.length} ${blocked.length === 1 ? 'check' : 'checks'} skipped because of this: ${blocked.join(', ')}`)}`,
        ]
      : []),
  ];
  if (check.details?.length)
    parts.push(
      uniqueLines(check.details)
        .map((d) => `- ${mdParagraph(d)}`)
        .join('\n'),
    );
  for (const x of findingExcerpts(check)) parts.push(`${mdText(excerptHeading(x))}\n\n${mdCodeBlock(x.text)}`);
  const violated = violatedRequirements(report, check);
  if (violated.length > 0)
    parts.push(
      `Violates: ${violated.map((r) => `\`${r.id}\`${r.section ? ` (${mdText(r.section)})` : ''}`).join('; ')}`,
    );
  parts.push(`Rule: ${mdText(check.rule)}`);
  if (check.expected !== undefined) parts.push(`Expected:\n\n${mdCodeBlock(formatValue(check.expected))}`);
  if (check.actual !== undefined) parts.push(`Found:\n\n${mdCodeBlock(formatValue(check.actual))}`);
  if (check.quoteMath?.length) parts.push(quoteMathTable(check.quoteMath));
  if (check.webhookTimeline?.length) parts.push(webhookTable(check.webhookTimeline));
  if (check.reproduce) {
    const sent = reproducedExchange(check);
    parts.push(`Reproduce:\n\n${mdCodeBlock(check.reproduce, 'sh')}`);
    if (sent) parts.push(`Request: ${mdText(requestLine(sent))}`);
  }
  if (check.evidence.length > 0) {
    const text = check.evidence.map(exchangeText).join('\n\n────────\n\n');
    parts.push(
      `<details><summary>Evidence (${check.evidence.length} ${check.evidence.length === 1 ? 'exchange' : 'exchanges'})</summary>\n\n${mdCodeBlock(text, 'http')}\n\n</details>`,
    );
  }
  return parts.join('\n\n');
}

/** A summary for $GITHUB_STEP_SUMMARY or a merge-request comment. */
export function renderMarkdown(input: RunReport, origin?: StoredOrigin): string {
  const report = maskReport(input);
  const words = verdictWords(report);
  const { provider } = report;
  // Root cause first: the checks a failure kept from running are one row under it, not a row each.
  const byCause = skipsByCause(report.checks);
  const shown = report.checks.filter((c) => !isCausedSkip(c));
  const messages = sameAsAbove(shown.map((c) => c.message));
  const causedRow = (cause: string, ids: readonly string[]): string[] => [
    `↳ ${ids.length} ${ids.length === 1 ? 'check' : 'checks'}`,
    STATUS_CELL.skip,
    mdText(skippedForCauseText(cause, ids)),
  ];
  const present = new Set(shown.map((c) => c.id));
  const rows = [
    ...shown.flatMap((c, i) => {
      const row = [
        `\`${c.id}\` ${mdText(c.title)}`,
        statusCell(c),
        mdText(c.waiver && isWaived(c) ? `${waivedText(c.waiver)} · ${c.message}` : (messages[i] ?? '')),
      ];
      const under = byCause.get(c.id);
      return under ? [row, causedRow(c.id, under)] : [row];
    }),
    ...[...byCause].filter(([cause]) => !present.has(cause)).map(([cause, ids]) => causedRow(cause, ids)),
  ];
  const waived = waivedChecks(report);
  const waivedNote =
    waived.length > 0 ? ` (${waived.length} waived ${waived.length === 1 ? 'failure' : 'failures'})` : '';
  const sections = [
    `## ${VERDICT_ICON[report.verdict]} provcert: ${words.headline}${waivedNote}`,
    ...(report.verdict === 'PASS' || report.verdict === 'FAIL'
      ? []
      : [`**${VERDICT_LABEL[report.verdict] ?? report.verdict}:** ${mdText(`${words.meaning}.`)}`]),
    ...(origin ? [`> ⚠️ ${mdText(storedReportNotice(origin))}`] : []),
    `${mdParagraph(providerLabel(provider))} · profile ${provider.profile ?? 'unknown'} · auth ${provider.authMethod} · contract ${mdText(report.contract.version)} · provcert ${mdText(report.tool.version)}`,
    `**${summaryText(report.summary)}${waived.length > 0 && report.summary.waived === undefined ? `; ${waived.length} waived` : ''}** in ${formatDuration(report.durationMs)}`,
    table(['Check', 'Status', 'Message'], rows),
  ];
  const gate = failingWaivers(report);
  if (gate.length > 0) {
    const lines = gate.map(
      (w) =>
        `- **${w.state}** \`${mdText(waiverLabel(w))}\` until ${mdText(w.until)}: ${mdText(w.message)} (reason given: ${mdText(w.reason)})`,
    );
    sections.push('### Expected failures that fail the gate', lines.join('\n'));
  }
  // What to fix: the root causes first (recap order), each with the checks it kept from running.
  const order = recapEntries(report).map((e) => e.check as string);
  const rank = (c: CheckResult): number => (order.includes(c.id) ? order.indexOf(c.id) : order.length);
  const problems = problemChecks(report)
    .filter(isUnwaivedProblem)
    .sort((a, b) => rank(a) - rank(b));
  if (problems.length > 0)
    sections.push('### What to fix', ...problems.map((c) => problemSection(c, report, byCause.get(c.id))));
  if (waived.length > 0)
    sections.push('### Waived failures (expectedFailures)', ...waived.map((c) => problemSection(c, report)));
  const warned = report.checks.filter((c) => c.warnings?.length);
  if (warned.length > 0) {
    const warnings = warned.flatMap((c) =>
      c.findings.filter((f) => f.severity === 'warn').map((w) => ({ id: c.id, w })),
    );
    const lines = warnings.map(({ id, w }) => `- \`${id}\` [\`${w.requirement}\`]: ${mdText(w.message)}`);
    sections.push('### Warnings (do not affect the verdict)', uniqueLines(lines).join('\n'));
  }
  const ignored = ignoredText(report.webhooks.ignored);
  if (ignored) sections.push(`### Ignored webhook requests\n\n${mdText(ignored)}`);
  return `${sections.join('\n\n')}\n`;
}
