import type { FleetProviderResult, FleetReport } from '../../model/fleet-report.js';
import type { WaiverOutcome } from '../../model/waivers.js';
import { formatDuration } from '../format.js';
import { htmlEscape as e, HTML_CSP } from '../html.js';
import { HTML_STYLE } from '../html-style.js';
import { failureReason } from './failure-reason.js';
import {
  failingWaivers,
  fleetRow,
  fleetSummaryText,
  fleetVerdictWord,
  gateFailures,
  maskFleetReport,
  providerFileBase,
  scopeText,
} from './rows.js';

/** Class names come from these closed sets, never from report text. */
const VERDICT_CLASS: Record<FleetProviderResult['verdict'], string> = {
  PASS: 'pass',
  FAIL: 'fail',
  NOT_RUN: 'skip',
  INTERRUPTED: 'skip',
  INCOMPLETE: 'skip',
  PARTIAL: 'skip',
};
const VERDICT_TEXT: Record<FleetProviderResult['verdict'], string> = {
  PASS: 'PASS',
  FAIL: 'FAIL',
  NOT_RUN: 'NOT RUN',
  INTERRUPTED: 'INTERRUPTED',
  INCOMPLETE: 'INCOMPLETE',
  PARTIAL: 'PARTIAL',
};

const td = (html: string, cls = ''): string => `<td${cls ? ` class="${cls}"` : ''}>${html}</td>`;

/** Where a provider's own HTML report is, relative to index.html (the file name is escaped by providerFileBase). */
export const providerHtmlPath = (slug: string): string => `providers/${providerFileBase(slug)}.html`;

function providerRow(p: FleetProviderResult): string {
  const row = fleetRow(p);
  const name = p.report ? `<a href="${e(providerHtmlPath(p.slug))}">${e(p.slug)}</a>` : `${e(p.slug)}`;
  const failing = p.report ? gateFailures(p.report).map((c) => `<code>${e(c.id)}</code>`) : [];
  const reasons = p.report ? gateFailures(p.report).map((c) => `<code>${e(c.id)}</code>: ${e(failureReason(c))}`) : [];
  const notes = [p.error ? e(p.error) : '', failing.length > 0 ? `failing: ${failing.join(' ')}` : '', ...reasons]
    .filter((t) => t !== '')
    .join('<br>');
  const cls = VERDICT_CLASS[p.verdict];
  return `<tr class="provider ${cls}" data-verdict="${p.verdict}">${[
    td(name, 'check-id'),
    td(`<span class="badge ${cls}">${VERDICT_TEXT[p.verdict]}</span>`),
    td(String(row.pass), 'num'),
    td(String(row.fail), 'num'),
    td(String(row.skip), 'num'),
    td(String(row.error), 'num'),
    td(String(row.waived), 'num'),
    td(row.durationMs === undefined ? '—' : e(formatDuration(row.durationMs)), 'num'),
    td(`${e(p.baseUrl)}${notes ? `<br>${notes}` : ''}`),
  ].join('')}</tr>`;
}

function waiverRow(w: WaiverOutcome): string {
  const cls = w.state === 'applied' ? '' : ' class="bad"';
  return `<tr${cls} data-state="${e(w.state)}">${[
    td(w.check ? `<code>${e(w.check)}</code>` : 'any citing the requirement'),
    td(w.requirement ? `<code>${e(w.requirement)}</code>` : 'any'),
    td(w.provider ? e(w.provider) : 'every provider'),
    td(e(w.until)),
    td(e(w.state)),
    td(e(w.reason)),
    td(e(w.message)),
  ].join('')}</tr>`;
}

function waiverSection(report: FleetReport): string {
  if (report.waivers.length === 0) return '';
  const failing = failingWaivers(report).length;
  const head = ['Check', 'Requirement', 'Provider', 'Until', 'State', 'Reason', 'What to do'];
  return `<section id="waivers">
<h2>Expected failures${failing > 0 ? ` (${failing} ${failing === 1 ? 'fails' : 'fail'} the gate)` : ''}</h2>
<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${report.waivers.map(waiverRow).join('\n')}
</tbody></table>
</section>`;
}

/**
 * index.html of a fleet: the verdict, a row per provider linking its own HTML report (providers/<slug>.html,
 * the single-run HTML report) and the expected failures. Self-contained like the single-run report (CSP, no
 * network); the links are relative, so the folder can be moved or published as a CI artifact as a whole.
 */
export function renderFleetHtmlIndex(input: FleetReport): string {
  const report = maskFleetReport(input);
  const { word, passed } = fleetVerdictWord(report);
  const scope = scopeText(report);
  const head = ['Provider', 'Verdict', 'Passed', 'Failed', 'Skipped', 'Errors', 'Waived', 'Duration', 'Base URL'];
  const stopped =
    report.interruptedBy === undefined
      ? ''
      : `<p>The batch was stopped (${e(report.interruptedBy)}): providers not certified are NOT RUN.</p>\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>provcert fleet ${passed ? 'PASS' : 'FAIL'}: ${e(report.fleet.name)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header class="banner ${passed ? 'pass' : 'fail'}" id="verdict" data-verdict="${passed ? 'PASS' : 'FAIL'}">
<h1>Fleet certification ${word}</h1>
<p>Fleet ${e(report.fleet.name)}${scope ? ` · ${e(scope)}` : ''}</p>
<p>${e(fleetSummaryText(report))} · in ${e(formatDuration(report.durationMs))}</p>
${stopped}</header>
<section id="providers">
<h2>Providers</h2>
<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${report.providers.map(providerRow).join('\n')}
</tbody></table>
</section>
${waiverSection(report)}
<footer>provcert ${e(report.tool.version)} · fleet digest ${e(report.fleet.digest.slice(0, 12))} · started ${e(report.startedAt)} · finished ${e(report.finishedAt)}</footer>
</body>
</html>
`;
}
