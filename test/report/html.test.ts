import { describe, expect, it } from 'vitest';
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
    for (const check of report.checks) expect(html).toContain(`<details class="check ${check.status}" id="check-${check.id}" data-status="${check.status}">`);
    expect(html).toContain('<span class="count fail" data-status="fail"><strong>3</strong>failed</span>');
    expect(renderHtml(passingReport())).toContain('<h1>Certification PASSED</h1>');
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
