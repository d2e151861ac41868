import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { HTML_CSP, htmlEscape, renderHtml } from '../../src/report/html.js';
import { CANARY, failingReport, INJECTED_IMG, INJECTED_SCRIPT, passingReport } from './sample-reports.js';

/** Start tags of the document, e.g. `<details class="check fail" …>`. */
const startTags = (html: string): string[] => [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0]);

describe('renderHtml (static)', () => {
  const html = renderHtml(failingReport());

  it('is one self-contained document that forbids any network access', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`);
    expect(HTML_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:");
    const tags = startTags(html);
    expect(tags.filter((t) => /\s(src|href|srcset|action|poster|data)\s*=/i.test(t))).toEqual([]);
    expect(tags.filter((t) => /^<(link|img|iframe|object|embed|base|form)\b/i.test(t))).toEqual([]);
    expect(html).not.toMatch(/@import|url\(/);
    expect(tags.filter((t) => t.startsWith('<script'))).toEqual(['<script>']);
  });

  it('has a row per check, each expandable, with the verdict and counts', () => {
    const report = failingReport();
    expect(html).toContain('<h1>Certification FAILED</h1>');
    for (const check of report.checks)
      expect(html).toMatch(
        new RegExp(
          `<details class="check ${check.status}" id="check-${check.id}" data-status="${check.status}"( open)?>`,
        ),
      );
    expect(html).toContain('<span class="count fail" data-status="fail"><strong>3</strong>failed</span>');
    expect(renderHtml(passingReport())).toContain('<h1>Certification PASSED</h1>');
  });

  it('lists failures and errors first, expanded; the rest after, collapsed, each group in report order', () => {
    const report = failingReport();
    const shown = [
      ...html.matchAll(/<details class="check (\w+)" id="check-([\w-]+)" data-status="\w+"( open)?>/g),
    ].map((m) => ({ status: m[1], id: m[2], open: m[3] === ' open' }));
    const problem = (status: string): boolean => status === 'fail' || status === 'error';
    expect(shown.map((c) => c.id)).toEqual(
      [...report.checks.filter((c) => problem(c.status)), ...report.checks.filter((c) => !problem(c.status))].map(
        (c) => c.id,
      ),
    );
    expect(shown.slice(0, 4).map((c) => c.status)).toEqual(['fail', 'fail', 'fail', 'error']);
    for (const check of shown) expect(check.open, check.id).toBe(problem(check.status ?? ''));
  });

  type Provider = RunReport['provider'];
  it.each<[string, (p: Provider) => Provider, string]>([
    ['the profile and fulfillment when known', (p) => p, 'Profile TRANSACTIONAL · auth API_KEY · fulfillment DELIVERY'],
    [
      '"unknown" when GET /provider-info could not tell them',
      ({ profile: _p, fulfillment: _f, ...rest }) => rest,
      'Profile unknown · auth API_KEY · fulfillment unknown',
    ],
  ])('names %s', (_name, provider, line) => {
    const report = failingReport();
    expect(renderHtml({ ...report, provider: provider(report.provider) })).toContain(line);
  });

  it('says a diagnosis repeated by consecutive webhook events once, and identical details once with a count', () => {
    const report = failingReport();
    const event = report.webhooks.events[0];
    if (!event) throw new Error('the sample report has a webhook event');
    const events = [
      event,
      { ...event, eventId: 'evt-2' },
      { ...event, eventId: 'evt-3', diagnosis: 'another diagnosis' },
    ];
    const checks = report.checks.map((c) =>
      c.id === 'quote-math' ? { ...c, details: ['same detail', 'same detail', 'other detail'] } : c,
    );
    const out = renderHtml({ ...report, checks, webhooks: { ...report.webhooks, events } });
    const timeline = out.slice(out.indexOf('<section id="webhooks">'));
    expect(timeline.match(/signed re-serialized JSON/g)).toHaveLength(1);
    expect(timeline).toContain('<td>same as above</td>');
    expect(timeline).toContain('<td>another diagnosis</td>');
    expect(out).toContain('<ul class="details"><li>same detail (×2)</li><li>other detail</li></ul>');
  });

  it('shows the signature and the schema as two facts, and counts ignored requests apart', () => {
    const report = failingReport();
    const event = report.webhooks.events[0];
    if (!event) throw new Error('the sample report has a webhook event');
    const events = [{ ...event, eventId: 'evt-9', verified: true, schemaValid: false, diagnosis: 'no timestamp' }];
    const ignored = { count: 1, byStatus: { '401': 1 } };
    const out = renderHtml({ ...report, webhooks: { ...report.webhooks, events, ignored } });
    const timeline = out.slice(out.indexOf('<section id="webhooks">'));
    expect(timeline).toMatch(/<th>Signature<\/th><th>Schema<\/th>/);
    expect(timeline).toMatch(/<td>verified<\/td><td>invalid<\/td>/);
    expect(timeline).not.toContain('NOT verified');
    expect(timeline).toContain('1 unverifiable webhook request ignored (HTTP 401 ×1)');
  });

  it('escapes every provider string', () => {
    expect(html).not.toContain(INJECTED_SCRIPT);
    expect(html).not.toContain(INJECTED_IMG);
    expect(html).not.toContain('<b>Pizza</b>');
    expect(html).toContain(htmlEscape(INJECTED_SCRIPT));
    expect(html).not.toContain(CANARY);
    expect(html).not.toMatch(/[\u0000-\u0008\u000B-\u001F]/);
  });

  it('htmlEscape neutralises markup and attribute breaks', () => {
    expect(htmlEscape(`<a href="x" onclick='y'>&`)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;');
  });
});
