import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { reportCheckLines } from '../../src/report/failure-text.js';
import { htmlEscape, renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderJUnit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { xmlEscape } from '../../src/report/xml.js';
import { certify } from '../support/certify.js';

/**
 * Focused evidence (issue 34): the reference catalog is over 4 KiB and its fifth offering sits past the cut, so the
 * evidence body (kept to 4 KiB, one line) never shows `/offerings/4/basePrice`. The schema finding carries the
 * offering itself, pretty-printed and marked, and every format shows it.
 */
describe('a schema finding on a body over 4 KiB shows the failing value, in every format', () => {
  let report: RunReport;
  const catalogOf = (r: RunReport) => r.checks.find((c) => c.id === 'catalog');

  it('catalog-wrong-type: the finding carries the offering around /offerings/4/basePrice', async () => {
    ({ report } = await certify({ faults: ['catalog-wrong-type'], only: ['catalog'] }));
    const catalog = catalogOf(report);
    expect(catalog?.status).toBe('fail');
    const body = catalog?.evidence[0]?.response?.body ?? '';
    // The reason for excerpts: the value is not in the evidence the report keeps.
    expect(catalog?.evidence[0]?.response?.truncated).toBe(true);
    expect(body).not.toContain('"12.50"');
    const finding = catalog?.findings.find((f) => f.message.includes('/offerings/4/basePrice'));
    expect(finding?.requirement).toBe('MONEY-INTEGERS');
    expect(finding?.excerpt?.pointer).toBe('/offerings/4/basePrice');
    expect(finding?.excerpt?.at).toBe('/offerings/4');
    expect(finding?.excerpt?.text).toContain('\n  "basePrice": "12.50",  ← here\n');
    expect(finding?.excerpt?.text.split('\n').length).toBeGreaterThan(3);
  });

  it('console, JSON, JUnit, HTML and Markdown each show it', () => {
    const marked = '"basePrice": "12.50",  ← here';
    const consoleText = reportCheckLines(report, new Chalk({ level: 0 })).join('\n');
    expect(consoleText).toContain('    at /offerings/4 (the value at /offerings/4/basePrice):\n      {\n');
    expect(consoleText).toContain(`        ${marked}\n`);
    const json = JSON.parse(renderJson(report)) as RunReport;
    expect(catalogOf(json)?.findings.some((f) => f.excerpt?.text.includes(marked))).toBe(true);
    expect(renderJUnit(report)).toContain(`at /offerings/4 (the value at /offerings/4/basePrice):\n{\n`);
    expect(renderJUnit(report)).toContain(xmlEscape(marked));
    const excerptBlock = /<pre class="excerpt">([^<]*)<\/pre>/.exec(renderHtml(report))?.[1];
    expect(excerptBlock).toContain(htmlEscape(marked));
    expect(renderMarkdown(report)).toContain(`at /offerings/4 (the value at /offerings/4/basePrice):\n\n\`\`\`\n{\n`);
    expect(renderMarkdown(report)).toContain(marked);
  });

  it('the conforming provider has no schema finding, hence no excerpt', async () => {
    const { report: clean } = await certify({ only: ['catalog'] });
    expect(catalogOf(clean)?.status).toBe('pass');
    expect(clean.checks.flatMap((c) => c.findings).filter((f) => f.excerpt)).toEqual([]);
  });
});
