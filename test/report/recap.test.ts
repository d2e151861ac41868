import { Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { createConsoleReporter } from '../../src/report/console.js';
import { reportCheckLines } from '../../src/report/failure-text.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { recapEntries } from '../../src/report/recap.js';
import { failingReport } from './sample-reports.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

const skippedFor = (id: CheckResult['id'], cause: CheckResult['id'], message: string): CheckResult => ({
  id,
  title: id,
  rule: id,
  requirements: ['ROUTE-PROVIDER-INFO'],
  findings: [],
  status: 'skip',
  message,
  durationMs: 0,
  evidence: [],
  skippedBecauseOf: cause,
});

const failed = (id: CheckResult['id'], requirement: string, message: string): CheckResult => ({
  id,
  title: id,
  rule: id,
  requirements: [requirement],
  findings: [{ severity: 'fail', requirement, message }],
  status: 'fail',
  message,
  durationMs: 3,
  evidence: [],
});

const CAUSE = 'skipped: GET /provider-info answered HTTP 404 NOT_FOUND, not 200 — see metadata';

/** A root cause as a run reports it: the skips end first (they are decided before any check runs), then the cause. */
function rootCauseReport(): RunReport {
  const base = failingReport();
  const checks = [
    skippedFor('capabilities', 'metadata', CAUSE),
    skippedFor('health', 'metadata', CAUSE),
    skippedFor('catalog', 'metadata', CAUSE),
    failed('metadata', 'ROUTE-PROVIDER-INFO', 'GET /provider-info answered HTTP 404 NOT_FOUND; expected 200'),
  ];
  return { ...base, checks, summary: { pass: 0, fail: 1, skip: 3, error: 0 } };
}

function play(report: RunReport, rerun?: string): string[] {
  const stream = new Capture();
  const reporter = createConsoleReporter({ stream, color: false, interactive: false, ...(rerun ? { rerun } : {}) });
  reporter.onRunStart({
    baseUrl: 'http://x',
    webhookUrl: 'http://w',
    profile: 'unknown',
    checks: report.checks.length,
  });
  for (const check of report.checks) reporter.onCheckEnd(check);
  reporter.onRunEnd(report);
  return stream.text.split('\n');
}

describe('root cause first, recap last (console)', () => {
  it('the skips a root cause caused are one line under it, none a line of its own', () => {
    const lines = play(rootCauseReport(), 'provcert run --base-url http://x --local');
    expect(lines.filter((l) => l.includes(CAUSE))).toEqual([]);
    const cause = lines.indexOf('✗ metadata  GET /provider-info answered HTTP 404 NOT_FOUND; expected 200');
    expect(cause).toBeGreaterThan(0);
    const under = lines.indexOf('    ↳ 3 checks skipped because of this: capabilities, health, catalog');
    expect(under).toBeGreaterThan(cause);
    expect(lines.slice(cause + 1, under).every((l) => l.startsWith('    '))).toBe(true);
  });

  it('ends with a recap of each failure (check, requirement, one line), the verdict and the next command', () => {
    const lines = play(rootCauseReport(), 'provcert run --base-url http://x --local').filter(Boolean);
    const recap = lines.indexOf('Failures (1):');
    expect(lines[recap + 1]).toBe(
      '  ✗ metadata [ROUTE-PROVIDER-INFO] GET /provider-info answered HTTP 404 NOT_FOUND; expected 200 (3 checks skipped because of it)',
    );
    expect(lines[recap + 2]).toMatch(/^FAIL {2}/);
    expect(lines.at(-1)).toBe(
      'Next: fix metadata first (3 checks wait on it), then run: provcert run --base-url http://x --local',
    );
  });

  it('a skip owed to a check printed earlier (a dependency) is one line per cause before the next result', () => {
    const base = failingReport();
    const checks = [
      failed('catalog', 'MONEY-INTEGERS', 'GET /catalog does not match the schema'),
      skippedFor('offering', 'catalog', 'skipped: depends on catalog, which failed'),
      skippedFor('search', 'catalog', 'skipped: depends on catalog, which failed'),
      { ...failed('errors', 'ERROR-RESPONSE', 'an error was answered as HTML'), reproduce: 'curl …' },
    ];
    const lines = play({ ...base, checks });
    const line = lines.indexOf('- 2 checks skipped because of catalog: offering, search');
    expect(line).toBeGreaterThan(lines.findIndex((l) => l.startsWith('✗ catalog')));
    expect(line).toBeLessThan(lines.findIndex((l) => l.startsWith('✗ errors')));
    expect(lines.filter((l) => l.startsWith('- offering') || l.startsWith('- search'))).toEqual([]);
    // The failure others waited on comes first in the recap.
    expect(recapEntries({ checks }).map((e) => [e.check, e.blocked])).toEqual([
      ['catalog', 2],
      ['errors', 0],
    ]);
  });

  it('nothing failed: no recap and no next step', () => {
    const base = failingReport();
    const checks = base.checks.filter((c) => c.status === 'pass');
    const lines = play({
      ...base,
      checks,
      verdict: 'PASS',
      summary: { pass: checks.length, fail: 0, skip: 0, error: 0 },
    });
    expect(lines.some((l) => /^Failures|^Next:/.test(l))).toBe(false);
  });
});

describe('root cause first (a stored report, `provcert report`)', () => {
  it('groups the skips under their cause wherever they stand in the report, and names a cause without a result', () => {
    const c = new Chalk({ level: 0 });
    const report = rootCauseReport();
    const orphan = skippedFor('quote-math', 'catalog', 'skipped: depends on catalog, which failed');
    const lines = reportCheckLines({ ...report, checks: [...report.checks, orphan] }, c);
    expect(lines[0]).toMatch(/^✗ metadata/);
    expect(lines).toContain('    ↳ 3 checks skipped because of this: capabilities, health, catalog');
    expect(lines.at(-1)).toBe('- 1 check skipped because of catalog: quote-math');
  });
});

describe('root cause first (Markdown)', () => {
  it('one row for the skips under their cause, and the cause first under What to fix', () => {
    const md = renderMarkdown(rootCauseReport());
    expect(md).toContain(
      '| ↳ 3 checks | ⏭️ skip | 3 checks skipped because of metadata: capabilities, health, catalog |',
    );
    expect(md).not.toMatch(/^\| `capabilities`/m);
    expect(md).toContain('**Root cause:** 3 checks skipped because of this: capabilities, health, catalog');
  });
});
