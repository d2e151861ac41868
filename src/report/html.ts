import type { CheckStatus } from '../model/check-ids.js';
import type { Exchange } from '../model/exchange.js';
import type { CheckResult, QuoteMathRow, RunReport, WebhookTimelineEntry } from '../model/report.js';
import { sameAsAbove, uniqueLines } from './dedupe.js';
import {
  excerptHeading,
  findingExcerpts,
  formatDuration,
  formatValue,
  providerLabel,
  reproducedExchange,
  requestLine,
  stripControl,
} from './format.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-style.js';
import { maskReport } from './mask.js';
import { type StoredOrigin, storedReportNotice } from './origin.js';
import { violatedRequirements } from './requirements.js';
import { verdictWords } from './verdict-text.js';
import { isUnwaivedProblem, isWaived, waivedChecks, waivedText, waiverLabel } from './waivers.js';
import { ignoredText, schemaText, signatureText } from './webhook-facts.js';

/** Forbids every network fetch: the report is one file and must stay one file. */
export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** Report text is provider-controlled: everything goes through here, attributes included. */
export function htmlEscape(text: string): string {
  return stripControl(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STATUSES: readonly CheckStatus[] = ['pass', 'fail', 'skip', 'error', 'untested'];
const STATUS_WORD: Record<CheckStatus, string> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
  error: 'errors',
  untested: 'not tested',
};
/** Class names come from this closed set, never from report text. */
const statusClass = (status: string): CheckStatus => STATUSES.find((s) => s === status) ?? 'error';

const e = htmlEscape;
const pre = (text: string, cls = ''): string => `<pre${cls ? ` class="${cls}"` : ''}>${e(text)}</pre>`;

function table(header: string[], rows: { cells: string[]; cls?: string }[]): string {
  const head = header.map((h) => `<th>${e(h)}</th>`).join('');
  const body = rows.map((r) => `<tr${r.cls ? ` class="${r.cls}"` : ''}>${r.cells.join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const td = (text: string, cls = ''): string => `<td${cls ? ` class="${cls}"` : ''}>${e(text)}</td>`;

function quoteMathTable(rows: QuoteMathRow[]): string {
  return table(
    ['Value', 'Expected computation', 'Expected', 'Provider', 'OK'],
    rows.map((r) => ({
      cls: r.ok ? '' : 'bad',
      cells: [
        td(r.label),
        td(r.formula),
        td(String(r.expected), 'num'),
        td(r.actual === null ? '(missing)' : String(r.actual), 'num'),
        td(r.ok ? '✓' : '✗'),
      ],
    })),
  );
}

function webhookTable(events: WebhookTimelineEntry[]): string {
  const diagnoses = sameAsAbove(events.map((ev) => ev.diagnosis ?? ''));
  return table(
    ['Received', 'Event id', 'Type', 'Action', 'New status', 'Signature', 'Schema', 'Header', 'Diagnosis'],
    events.map((ev, i) => ({
      cls: ev.verified && ev.schemaValid !== false ? '' : 'bad',
      cells: [
        td(ev.receivedAt),
        td(ev.eventId ?? ''),
        td(ev.eventType ?? ''),
        td(ev.actionId ?? ''),
        td(ev.newStatus ?? ''),
        td(`${signatureText(ev)}${ev.duplicate ? ' (duplicate)' : ''}`),
        td(schemaText(ev)),
        td(ev.header ?? ''),
        td(diagnoses[i] ?? ''),
      ],
    })),
  );
}

function requestText(exchange: Exchange): string {
  const { method, url, headers, body } = exchange.request;
  const lines = [`${method} ${url}`, ...Object.entries(headers).map(([n, v]) => `${n}: ${v}`)];
  if (body !== undefined) lines.push('', body);
  return lines.join('\n');
}

function responseText(exchange: Exchange): string {
  const response = exchange.response;
  if (!response) return exchange.failure ?? 'no response';
  const lines = [
    `${response.status} (${formatDuration(exchange.durationMs)})`,
    ...Object.entries(response.headers).map(([n, v]) => `${n}: ${v}`),
  ];
  if (response.body !== undefined) lines.push('', response.body + (response.truncated ? '\n… (truncated)' : ''));
  if (exchange.failure) lines.push('', exchange.failure);
  return lines.join('\n');
}

function evidenceHtml(evidence: Exchange[]): string {
  return evidence
    .map(
      (exchange, i) =>
        `<div class="exchange"><h3>Evidence ${i + 1}</h3><div class="side-by-side"><div><strong>Request</strong>${pre(requestText(exchange), 'request')}</div><div><strong>Response</strong>${pre(responseText(exchange), 'response')}</div></div></div>`,
    )
    .join('\n');
}

function checkHtml(check: CheckResult, report: RunReport): string {
  const status = statusClass(check.status);
  const parts: string[] = [];
  const violated = violatedRequirements(report, check);
  if (violated.length > 0) {
    parts.push(
      `<p class="requirements"><strong>Violates:</strong> ${violated.map((r) => `<code class="requirement">${e(r.id)}</code>${r.section ? ` (${e(r.section)})` : ''}`).join('; ')}</p>`,
    );
  }
  parts.push(
    `<p class="rule"><strong>Rule:</strong> ${e(check.rule)} <span class="verifies">verifies ${check.requirements.map((id) => `<code>${e(id)}</code>`).join(' ')}</span></p>`,
  );
  if (check.details?.length)
    parts.push(
      `<ul class="details">${uniqueLines(check.details)
        .map((d) => `<li>${e(d)}</li>`)
        .join('')}</ul>`,
    );
  for (const x of findingExcerpts(check))
    parts.push(`<h3 class="excerpt">${e(excerptHeading(x))}</h3>${pre(x.text, 'excerpt')}`);
  const warnings = check.findings.filter((f) => f.severity === 'warn');
  if (warnings.length > 0)
    parts.push(
      `<ul class="warnings">${warnings.map((w) => `<li class="warning">warning [<code>${e(w.requirement)}</code>]: ${e(w.message)}</li>`).join('')}</ul>`,
    );
  if (check.expected !== undefined || check.actual !== undefined) {
    const side = (title: string, value: unknown): string =>
      `<div><h3>${title}</h3>${value === undefined ? '<p>—</p>' : pre(formatValue(value))}</div>`;
    parts.push(
      `<div class="side-by-side expected-actual">${side('Expected', check.expected)}${side('Found', check.actual)}</div>`,
    );
  }
  if (check.quoteMath?.length) parts.push(`<h3>Quote math</h3>${quoteMathTable(check.quoteMath)}`);
  if (check.reproduce) {
    const sent = reproducedExchange(check);
    parts.push(`<h3>Reproduce</h3>${pre(check.reproduce, 'reproduce')}`);
    if (sent) parts.push(`<p class="request">request: <code>${e(requestLine(sent))}</code></p>`);
  }
  if (check.webhookTimeline?.length) parts.push(`<h3>Webhook events</h3>${webhookTable(check.webhookTimeline)}`);
  if (check.evidence.length > 0) parts.push(`<div class="evidence">${evidenceHtml(check.evidence)}</div>`);
  // A failure is what the reader came for: it starts expanded. A waived one is known: it starts closed.
  const waived = check.waiver && isWaived(check) ? check.waiver : undefined;
  if (waived) parts.unshift(`<p class="waiver"><strong>Waived:</strong> ${e(waivedText(waived))}</p>`);
  const open = isUnwaivedProblem(check) ? ' open' : '';
  const badge = waived ? 'waived' : status;
  return `<details class="check ${status}${waived ? ' waived' : ''}" id="check-${e(check.id)}" data-status="${status}"${open}>
<summary><span class="badge ${badge}">${badge}</span><span class="check-id">${e(check.id)}</span><span class="check-title">${e(check.title)}</span><span class="check-message">${e(check.message)}</span><span class="duration">${e(formatDuration(check.durationMs))}</span></summary>
<div class="check-body">
${parts.join('\n')}
</div>
</details>`;
}

/** Failures and errors first, then waived ones, then the rest (each in report order). */
const problemsFirst = (checks: readonly CheckResult[]): CheckResult[] => [
  ...checks.filter(isUnwaivedProblem),
  ...checks.filter(isWaived),
  ...checks.filter((c) => !isUnwaivedProblem(c) && !isWaived(c)),
];

/** Every expectedFailures entry and what became of it; the ones failing the gate are marked. */
function waiversHtml(report: RunReport): string {
  const waivers = report.waivers ?? [];
  if (waivers.length === 0) return '';
  const rows = waivers.map((w) => ({
    cls: w.state === 'applied' ? '' : 'bad',
    cells: [td(w.state), td(waiverLabel(w)), td(w.until), td(w.reason), td(w.message)],
  }));
  return `<section id="waivers">
<h2>Expected failures</h2>
${table(['State', 'Waiver', 'Until', 'Reason', 'What happened'], rows)}
</section>`;
}

/** One self-contained HTML file: inline style and script, no external asset, no network. */
export function renderHtml(input: RunReport, origin?: StoredOrigin): string {
  const report = maskReport(input);
  const words = verdictWords(report);
  const verdictClass = words.tone;
  const { provider, summary } = report;
  const waived = waivedChecks(report).length;
  const counts =
    STATUSES.filter((s) => s !== 'untested' || (summary.untested ?? 0) > 0)
      .map(
        (s) =>
          `<span class="count ${s}" data-status="${s}"><strong>${summary[s] ?? 0}</strong>${STATUS_WORD[s]}</span>`,
      )
      .join('') + (waived > 0 ? `<span class="count waived"><strong>${waived}</strong>waived</span>` : '');
  const events = report.webhooks.events;
  const ignored = ignoredText(report.webhooks.ignored);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>provcert ${report.verdict}: ${e(provider.slug ?? provider.baseUrl)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header class="banner ${verdictClass}" id="verdict" data-verdict="${report.verdict}">
<h1>Certification ${words.word}${waived > 0 ? ` <small>with ${waived} waived ${waived === 1 ? 'failure' : 'failures'}</small>` : ''}</h1>
<p class="meaning">${e(`${words.meaning.charAt(0).toUpperCase()}${words.meaning.slice(1)}.`)}</p>
${origin ? `<p class="stored" id="stored-report" role="note">${e(storedReportNotice(origin))}</p>\n` : ''}<p>${e(providerLabel(provider))}</p>
<p>Profile ${e(provider.profile ?? 'unknown')} · auth ${e(provider.authMethod)} · fulfillment ${e(provider.fulfillment ?? 'unknown')} · capabilities ${e(provider.capabilities.join(', ') || 'none')}</p>
</header>
<section class="summary" id="summary">${counts}<span class="count">in ${e(formatDuration(report.durationMs))}</span></section>
<div class="toolbar"><button type="button" id="expand-all">Expand all</button><button type="button" id="collapse-all">Collapse all</button><label><input type="checkbox" id="only-problems"> Only failures and errors</label></div>
<section id="checks">
${problemsFirst(report.checks)
  .map((c) => checkHtml(c, report))
  .join('\n')}
</section>
${waiversHtml(report)}
<section id="webhooks">
<h2>Webhook timeline</h2>
<p>Receiver address given to the provider: <code>${e(report.webhooks.url)}</code></p>
${events.length > 0 ? webhookTable(events) : '<p>No webhook event was received during the run.</p>'}
${ignored ? `<p class="ignored">${e(ignored)}</p>` : ''}
</section>
<details id="inputs"><summary>Run inputs (for provcert replay)</summary>${pre(formatValue(report.inputs))}</details>
<footer>provcert ${e(report.tool.version)} · contract ${e(report.contract.version)} (spec ${e(report.contract.spec)}) · started ${e(report.startedAt)} · finished ${e(report.finishedAt)}</footer>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}
