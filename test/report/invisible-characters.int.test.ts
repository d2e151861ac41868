import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { createConsoleReporter } from '../../src/report/console.js';
import { openEventStream } from '../../src/report/events.js';
import { renderFleetJUnit } from '../../src/report/fleet/junit.js';
import { RENDERING_REPORTER_NAMES, REPORTERS } from '../../src/report/reporters.js';
import { fleetOf, providerResult } from './fleet/sample.js';
import { failingReport } from './sample-reports.js';

/** Characters that are valid in any string yet invisible or moving text: no output may carry them raw. */
const INVISIBLE: Record<string, string> = {
  'U+202E right-to-left override': '\u202e',
  'U+2066 left-to-right isolate': '\u2066',
  'U+200E left-to-right mark': '\u200e',
  'U+061C Arabic letter mark': '\u061c',
  'U+2028 line separator': '\u2028',
  'U+2029 paragraph separator': '\u2029',
  'U+0085 next line (C1)': '\u0085',
  'U+009B control sequence introducer (C1)': '\u009b',
  'ESC (C0)': '\u001b',
};

/** The failing sample with `ch` in a check's message, title, details and the provider's name. */
function reportCarrying(ch: string): RunReport {
  const report = failingReport();
  const text = `before${ch}after`;
  const [first, ...rest] = report.checks;
  if (!first) throw new Error('the sample report has checks');
  return {
    ...report,
    provider: { ...report.provider, name: text },
    checks: [{ ...first, status: 'fail', title: text, message: text, details: [text] }, ...rest],
  };
}

async function eventStreamOf(report: RunReport): Promise<string> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const stream = await openEventStream('-', { stdout, cwd: process.cwd() });
  for (const check of report.checks) stream.runHooks().onCheckEnd?.(check);
  stream.runEnd(report);
  await stream.close();
  return Buffer.concat(chunks).toString('utf8');
}

function consoleOf(report: RunReport): string {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (c: Buffer) => (out += c.toString()));
  const reporter = createConsoleReporter({ stream, color: false, interactive: false });
  for (const check of report.checks) reporter.onCheckEnd(check);
  reporter.onRunEnd(report);
  return out;
}

describe('bidi, C1 and line-separator characters are escaped in every format', () => {
  const outputs: Record<string, (report: RunReport) => string | Promise<string>> = {
    ...Object.fromEntries(RENDERING_REPORTER_NAMES.map((name) => [name, REPORTERS[name].render])),
    console: consoleOf,
    'event stream (NDJSON)': eventStreamOf,
    'fleet JUnit': (report) => renderFleetJUnit(fleetOf([providerResult('north-kitchen', report)])),
  };
  const cases = Object.keys(outputs).flatMap((format) =>
    Object.entries(INVISIBLE).map(([name, ch]) => [format, name, ch] as const),
  );
  it.each(cases)('%s: %s', async (format, _name, ch) => {
    const output = await outputs[format]?.(reportCarrying(ch));
    expect(output).toContain('before');
    expect(output).not.toContain(ch);
    // Shown, not dropped: the reader sees that something was there.
    expect(output).toMatch(/before\\+(x|u)[0-9a-f]{2,4}after/);
  });
});
