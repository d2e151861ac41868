import type { FleetProviderResult, FleetReport } from '../../model/fleet-report.js';
import type { WaiverOutcome } from '../../model/waivers.js';
import { formatDuration } from '../format.js';
import { mdParagraph, mdText } from '../markdown.js';
import {
  countCells,
  fleetRow,
  fleetSummaryText,
  fleetVerdictWord,
  gateFailures,
  maskFleetReport,
  providerFileBase,
  scopeText,
  untestedChecks,
} from './rows.js';

const VERDICT_CELL: Record<FleetProviderResult['verdict'], string> = {
  PASS: '✅ PASS',
  FAIL: '❌ FAIL',
  INTERRUPTED: '⏹️ INTERRUPTED (no verdict)',
  INCOMPLETE: '❔ INCOMPLETE (not tested)',
  PARTIAL: '⚠️ PARTIAL',
  NOT_RUN: '⏹️ NOT RUN',
};

const WAIVER_CELL: Record<WaiverOutcome['state'], string> = {
  applied: '✅ applied',
  stale: '❌ stale',
  unmatched: '❌ unmatched',
  expired: '❌ expired',
};

const table = (header: string[], rows: string[][]): string =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

export interface FleetMarkdownOptions {
  /** Link each provider to its own Markdown report at this folder (relative), e.g. "providers". */
  providerLinks?: string;
}

function summaryTable(report: FleetReport, options: FleetMarkdownOptions): string {
  return table(
    ['Provider', 'Verdict', 'Passed', 'Failed', 'Skipped', 'Errors', 'Waived', 'Duration'],
    report.providers.map((p) => {
      const row = fleetRow(p);
      const name = mdText(p.slug);
      const linked =
        options.providerLinks !== undefined && p.report
          ? `[${name}](${options.providerLinks}/${encodeURIComponent(providerFileBase(p.slug))}.md)`
          : name;
      return [linked, VERDICT_CELL[p.verdict], ...countCells(row)];
    }),
  );
}

/** Per failing provider: why it did not run, or its checks that fail the gate, one line each. */
function failingSection(report: FleetReport): string[] {
  const parts: string[] = [];
  for (const provider of report.providers) {
    if (provider.verdict === 'PASS') continue;
    const lines: string[] = [];
    if (provider.error) lines.push(`- ${mdParagraph(provider.error)}`);
    else if (provider.verdict === 'NOT_RUN') lines.push('- not run');
    for (const check of provider.report ? gateFailures(provider.report) : [])
      lines.push(`- ${check.status === 'error' ? '⚠️' : '❌'} \`${check.id}\`: ${mdText(check.message)}`);
    for (const check of provider.report ? untestedChecks(provider.report) : [])
      lines.push(`- ❔ \`${check.id}\` (not tested): ${mdText(check.message)}`);
    parts.push(`#### ${mdText(provider.slug)}`, lines.join('\n'));
  }
  return parts.length > 0 ? ['### Failing checks', ...parts] : [];
}

/** Every waiver with its state; the waived checks it covers are listed beside the provider they belong to. */
function waiverSection(report: FleetReport): string[] {
  const sections: string[] = [];
  if (report.waivers.length > 0) {
    sections.push(
      '### Expected failures',
      table(
        ['Check', 'Requirement', 'Provider', 'Until', 'State', 'Reason', 'What to do'],
        report.waivers.map((w) => [
          w.check ? `\`${w.check}\`` : 'any citing the requirement',
          w.requirement ? `\`${mdText(w.requirement)}\`` : 'any',
          w.provider ? mdText(w.provider) : 'every provider',
          mdText(w.until),
          WAIVER_CELL[w.state],
          mdText(w.reason),
          mdText(w.message),
        ]),
      ),
    );
  }
  const waived = report.providers.flatMap((p) =>
    (p.report?.checks ?? []).flatMap((c) => {
      const { waiver } = c;
      return waiver
        ? [
            `- ${mdText(p.slug)} \`${c.id}\`: ${mdText(c.message)} (waived until ${mdText(waiver.until)}: ${mdText(waiver.reason)})`,
          ]
        : [];
    }),
  );
  if (waived.length > 0) sections.push('### Waived failures (do not fail the gate)', waived.join('\n'));
  return sections;
}

/** The fleet summary for $GITHUB_STEP_SUMMARY or a merge-request comment. */
export function renderFleetMarkdown(input: FleetReport, options: FleetMarkdownOptions = {}): string {
  const report = maskFleetReport(input);
  const { word, passed } = fleetVerdictWord(report);
  const scope = scopeText(report);
  const icon = passed ? '✅' : report.verdict === 'FAIL' ? '❌' : '⚠️';
  const sections = [
    `## ${icon} provcert fleet ${mdText(report.fleet.name)}: certification ${word}`,
    `${scope ? `${mdText(scope)} · ` : ''}provcert ${mdText(report.tool.version)} · started ${mdText(report.startedAt)}`,
    `**${mdText(fleetSummaryText(report))}** in ${formatDuration(report.durationMs)}`,
  ];
  if (report.interruptedBy !== undefined)
    sections.push(`⚠️ The batch was stopped (${mdText(report.interruptedBy)}): providers not certified are NOT RUN.`);
  // Concatenated, not pushed with a spread: one section per failing provider is unbounded, and a spread passes each
  // as an argument (150,000 providers overflow the stack).
  const all = sections.concat(summaryTable(report, options), failingSection(report), waiverSection(report));
  return `${all.join('\n\n')}\n`;
}
