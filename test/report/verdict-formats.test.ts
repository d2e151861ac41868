import { Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { createConsoleReporter } from '../../src/report/console.js';
import { runEndLine } from '../../src/report/event-lines.js';
import { failureDetailLines, verdictLines } from '../../src/report/failure-text.js';
import { renderGithubAnnotations } from '../../src/report/github.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderJUnit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { failingReport, passingReport } from './sample-reports.js';

const plain = new Chalk({ level: 0 });

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}
const APPLIED = { reason: 'rounding fix ships in sprint 12', until: '2099-12-31' };

/** The verdict states a run can reach (issue 23), each as a report that says it. */
const CASES: Record<string, () => RunReport> = {
  pass: passingReport,
  fail: failingReport,
  // Written before notRun was recorded: what did not run is read from the scheduler's words (the fallback).
  interrupted: () => {
    const r = passingReport();
    r.checks = [
      ...r.checks.slice(0, 3),
      {
        ...(r.checks[4] as CheckResult),
        status: 'skip',
        message: 'interrupted before this check finished (the run was stopped)',
      },
    ];
    r.summary = { pass: 3, fail: 0, skip: 1, error: 0, waived: 0 };
    r.verdict = 'INTERRUPTED';
    r.interruptedBy = 'SIGTERM';
    return r;
  },
  'interrupted, notRun recorded': () => {
    const r = passingReport();
    r.checks = r.checks.map((c) =>
      c.id === 'quote-math' ? { ...c, status: 'skip', message: 'cut short', quoteMath: [] } : c,
    );
    r.summary = { pass: 4, fail: 0, skip: 2, error: 0, waived: 0 };
    r.verdict = 'INTERRUPTED';
    r.interruptedBy = 'SIGINT';
    r.notRun = ['quote-math', 'webhook'];
    return r;
  },
  partial: () => {
    const r = passingReport();
    r.leftOut = [
      { id: 'webhook', reason: 'left out by --skip' },
      { id: 'errors', reason: 'left out by --skip' },
    ];
    r.verdict = 'PARTIAL';
    return r;
  },
  incomplete: () => {
    const r = passingReport();
    const expiry = r.checks.find((c) => c.id === 'quote-math') as CheckResult;
    const untested = {
      requirement: 'ACTION-EXPIRED-QUOTE-NO-ACTION',
      reason: 'quote q-1 is valid for 900 s, longer than the run waits for a quote to expire (--max-expiry-wait 120)',
      remedy: 'rerun with --max-expiry-wait 910, or give quotes a shorter validity in the test environment',
    };
    Object.assign(expiry, {
      status: 'untested',
      message: `${untested.requirement} not tested: ${untested.reason}; to test it: ${untested.remedy}`,
      untested: [untested],
      quoteMath: [],
    });
    r.summary = { pass: 4, fail: 0, skip: 1, error: 0, untested: 1, waived: 0 };
    r.verdict = 'INCOMPLETE';
    return r;
  },
  waived: () => {
    const r = passingReport();
    const math = r.checks.find((c) => c.id === 'quote-math') as CheckResult;
    Object.assign(math, { status: 'fail', message: 'total 2350 ≠ 2400', waiver: APPLIED });
    r.summary = { pass: 4, fail: 0, skip: 1, error: 0, waived: 1 };
    r.waivers = [{ check: 'quote-math', ...APPLIED, state: 'applied', message: 'waived' }];
    return r;
  },
};

const formats = (r: RunReport): Record<string, string> => ({
  console: verdictLines(r, plain).join('\n'),
  markdown: renderMarkdown(r),
  html: renderHtml(r),
  junit: renderJUnit(r),
  github: renderGithubAnnotations(r),
  json: renderJson(r),
});

describe('every format says the verdict the report carries, and only PASS says it meets the contract (issue 23)', () => {
  it.each(['fail', 'interrupted', 'interrupted, notRun recorded', 'partial', 'incomplete'])(
    '%s: no format claims a pass',
    (name) => {
      const report = CASES[name]?.() as RunReport;
      for (const [format, text] of Object.entries(formats(report))) {
        expect(text, format).not.toMatch(/meets the|PASSED|[Cc]ertification passed/);
        if (format !== 'github') expect(text, format).toContain(report.verdict);
      }
    },
  );

  it('pass: the console says the provider meets the contract, Markdown and HTML say PASSED', () => {
    const out = formats(passingReport());
    expect(out['console']).toContain('the provider meets the Provider Integration Contract for this profile');
    expect(out['markdown']).toMatch(/^## ✅ provcert: certification PASSED$/m);
    expect(out['html']).toContain('<h1>Certification PASSED</h1>');
    expect(out['junit']).toContain('<property name="verdict" value="PASS"/>');
  });

  it('interrupted: no verdict, and the checks that did not run are named in every format', () => {
    const report = CASES['interrupted']?.() as RunReport;
    const out = formats(report);
    expect((out['console'] ?? '').split('\n')[0]).toMatch(
      /^INTERRUPTED {2}3 passed, 0 failed, 1 skipped, 0 errors, 0 waived/,
    );
    expect(out['console']).toContain('No verdict: the run was stopped (SIGTERM); ');
    expect(out['markdown']).toMatch(/^## ⏹️ provcert: certification INTERRUPTED: no verdict$/m);
    expect(out['html']).toContain('data-verdict="INTERRUPTED"');
    expect(out['html']).toContain('class="banner warn"');
    expect(out['junit']).toMatch(/<testsuite [^>]*errors="1"/);
    expect(out['github']).toMatch(/^::error title=provcert%3A no verdict \(INTERRUPTED\)::the run was stopped/m);
    for (const format of ['console', 'markdown', 'html', 'junit', 'github'])
      expect(out[format], format).toMatch(/did not run: quote-math, [a-z-]+/);
    expect(JSON.parse(out['json'] as string)).toMatchObject({ verdict: 'INTERRUPTED', interruptedBy: 'SIGTERM' });
  });

  it('interrupted: the checks not run are the recorded ones in every format, whatever their messages say', () => {
    const report = CASES['interrupted, notRun recorded']?.() as RunReport;
    const out = formats(report);
    for (const format of ['console', 'markdown', 'html', 'junit', 'github'])
      expect(out[format], format).toContain('2 checks did not run: quote-math, webhook.');
    expect(JSON.parse(out['json'] as string)).toMatchObject({ notRun: ['quote-math', 'webhook'] });
    const live = new Capture();
    createConsoleReporter({ stream: live, color: false, interactive: false }).onRunEnd(report, {
      interruptedBy: 'SIGINT',
    });
    expect(live.text).toContain(
      'The run was stopped (SIGINT): 4 of 6 checks ran to the end; 2 checks did not run: quote-math, webhook (marked skipped). ',
    );
    // The run-end line of the event stream carries them too.
    expect(runEndLine(report, { interruptedBy: 'SIGINT' })).toMatchObject({ notRun: ['quote-math', 'webhook'] });
  });

  it('partial: says partial, names and counts the checks left out in every format', () => {
    const out = formats(CASES['partial']?.() as RunReport);
    expect((out['console'] ?? '').split('\n')[0]).toMatch(/^PARTIAL {2}5 passed/);
    expect(out['markdown']).toMatch(/^## ⚠️ provcert: certification PARTIAL: 2 checks left out$/m);
    expect(out['html']).toContain('<h1>Certification PARTIAL');
    expect(out['github']).toMatch(/^::warning title=provcert%3A PARTIAL certification::/m);
    expect(out['junit']).toContain('<testcase classname="provcert.left-out" name="webhook" time="0.000">');
    expect(out['junit']).toMatch(/<testsuite [^>]*tests="8" failures="0" errors="0" skipped="3"/);
    for (const format of ['console', 'markdown', 'html', 'github'])
      expect(out[format], format).toMatch(
        /2 checks of the profile were left out \(left out by --skip\): webhook, errors/,
      );
  });

  it('incomplete: says INCOMPLETE, names the rule not tested and the setting that tests it in every format', () => {
    const out = formats(CASES['incomplete']?.() as RunReport);
    expect((out['console'] ?? '').split('\n')[0]).toMatch(
      /^INCOMPLETE {2}4 passed, 0 failed, 1 skipped, 0 errors, 1 not tested/,
    );
    expect(out['markdown']).toMatch(/^## ❔ provcert: certification INCOMPLETE: 1 rule not tested$/m);
    expect(out['markdown']).toContain('❔ not tested');
    expect(out['html']).toContain('<h1>Certification INCOMPLETE');
    expect(out['html']).toContain('data-verdict="INCOMPLETE"');
    expect(out['github']).toMatch(/^::error title=provcert%3A INCOMPLETE \(rules not tested\)::nothing failed/m);
    expect(out['junit']).toMatch(
      /<error message="not tested: ACTION-EXPIRED-QUOTE-NO-ACTION not tested: [^"]*" type="NotTested">/,
    );
    expect(out['junit']).toMatch(/<testsuite [^>]*failures="0" errors="1"/);
    for (const format of ['console', 'markdown', 'html', 'github'])
      expect(out[format], format).toMatch(
        /ACTION-EXPIRED-QUOTE-NO-ACTION \(quote-math\): rerun with --max-expiry-wait 910/,
      );
    expect(JSON.parse(out['json'] as string)).toMatchObject({ verdict: 'INCOMPLETE', summary: { untested: 1 } });
  });

  it('waived: a waived failure is counted as waived, not as failed', () => {
    const out = formats(CASES['waived']?.() as RunReport);
    expect((out['console'] ?? '').split('\n')[0]).toMatch(
      /^PASS {2}4 passed, 0 failed, 1 skipped, 0 errors, 1 waived {2}/,
    );
    expect(out['markdown']).toContain('**4 passed, 0 failed, 1 skipped, 0 errors, 1 waived**');
    expect(out['junit']).toMatch(/<testsuite [^>]*failures="0" errors="0" skipped="2"/);
  });
});

describe('the request line names the request the reproduce command sends', () => {
  const exchange = (url: string, status: number) => ({
    request: { method: 'GET', url, headers: {} },
    response: { status, headers: {}, body: '' },
    durationMs: 1,
  });
  const check: CheckResult = {
    id: 'wrong-credential',
    title: 'Wrong and missing credentials are rejected',
    rule: 'Errors: 401 UNAUTHORIZED',
    requirements: ['AUTH-WRONG-CREDENTIAL'],
    findings: [],
    status: 'fail',
    message: 'a missing credential on GET /catalog was answered 200',
    durationMs: 3,
    evidence: [exchange('http://127.0.0.1:4010/provider-info', 401), exchange('http://127.0.0.1:4010/catalog', 200)],
    reproduce: "curl -sS -i -X GET 'http://127.0.0.1:4010/catalog'",
  };

  it('in the console, the Markdown and the HTML', () => {
    const lines = failureDetailLines(check, plain, { requirements: {} }).join('\n');
    expect(lines).toMatch(/^ {4}reproduce:\n {6}curl .*\/catalog'$/m);
    expect(lines).toMatch(/^ {4}request: GET http:\/\/127\.0\.0\.1:4010\/catalog → 200$/m);
    const report = failingReport();
    report.checks = [check];
    expect(renderMarkdown(report)).toContain('Request: GET http://127.0.0.1:4010/catalog → 200');
    expect(renderHtml(report)).toContain('request: <code>GET http://127.0.0.1:4010/catalog → 200</code>');
  });
});
