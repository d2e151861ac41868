import { Chalk } from 'chalk';
import type { FleetProviderResult } from '../model/fleet-report.js';
import { sanitizeTerminalText } from '../util/terminal.js';
import { formatDuration } from './format.js';

const safe = (text: string): string => sanitizeTerminalText(text, { oneLine: true });

/**
 * The live line `provcert batch` prints as each provider finishes, before waivers are judged for the whole fleet
 * (the table at the end has the final word): verdict, slug, what failed or why it could not run, duration.
 */
export function renderFleetProgressLine(result: FleetProviderResult, options: { color: boolean }): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const slug = c.bold(safe(result.slug));
  if (result.verdict === 'NOT_RUN') return `${c.yellow('- NOT RUN')}  ${slug}\n`;
  const mark =
    result.verdict === 'PASS'
      ? c.green('✓ PASS')
      : result.verdict === 'FAIL'
        ? c.red('✗ FAIL')
        : c.yellow(`? ${result.verdict}`);
  if (result.error !== undefined) return `${mark}  ${slug}  ${safe(result.error)}\n`;
  const report = result.report;
  if (!report) return `${mark}  ${slug}\n`;
  const failing = report.checks.filter((check) => check.status === 'fail' || check.status === 'error');
  const untested = report.checks.filter((check) => check.status === 'untested');
  const what =
    failing.length > 0
      ? `${failing.length} failing: ${failing.map((check) => check.id).join(', ')}`
      : untested.length > 0
        ? `${untested.length} not tested: ${untested.map((check) => check.id).join(', ')}`
        : `${report.summary.pass} passed, ${report.summary.skip} skipped`;
  return `${mark}  ${slug}  ${what}  (${formatDuration(report.durationMs)})\n`;
}
