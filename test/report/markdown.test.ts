import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import { mdCodeBlock, mdParagraph, mdText, renderMarkdown } from '../../src/report/markdown.js';
import { CANARY, failingReport, INJECTED_SCRIPT, passingReport } from './sample-reports.js';

/** Cells of a table row, splitting on pipes that are not escaped. */
const cells = (row: string): string[] =>
  row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

describe('renderMarkdown', () => {
  it('has a verdict headline and one summary row per check, with three cells each', () => {
    const report = failingReport();
    const md = renderMarkdown(report);
    expect(md.startsWith('## ❌ provcert: certification FAILED\n')).toBe(true);
    expect(md).toContain('**3 passed, 3 failed, 1 skipped, 1 errors** in 6.2 s');
    const lines = md.split('\n');
    const header = lines.indexOf('| Check | Status | Message |');
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 2, header + 2 + report.checks.length);
    expect(rows.map((r) => cells(r).length)).toEqual(report.checks.map(() => 3));
    expect(rows.map((r) => cells(r)[0])).toEqual(report.checks.map((c) => `\`${c.id}\` ${mdText(c.title)}`));
    expect(cells(rows[3] ?? '')).toEqual([
      '`search` Search',
      '⏭️ skip',
      'SEARCH is not declared \\| skipped &lt;script&gt;window.\\_\\_provcertInjected = true&lt;/script&gt;',
    ]);
    expect(lines[header + 2 + report.checks.length]).toBe('');
  });

  it('details each failed check: reproduce block, quote math table, evidence', () => {
    const md = renderMarkdown(failingReport());
    expect(md).toContain('#### ❌ fail: `quote-math` Quote matches the selection and its math holds');
    expect(md).toContain('```sh\nBODY=\'{"providerSlug":"demo-pizza"}\'\ncurl -sS -i -X POST');
    expect(md).toContain('| ❌ | total | 2100 + 300 − 0 | 2400 | 2350 |');
    expect(md).toContain('<details><summary>Evidence (1 exchange)</summary>');
    expect(md).toContain('#### ⚠️ error: `errors` Error responses');
    expect(md).toContain('- `metadata` [`METADATA-RULE`]: catalog price differs');
    expect(md).toContain('Violates: `QUOTE-TOTAL` (Endpoints › Provider route behaviour rules)');
    expect(md).toContain(
      '| 2025-03-01T10:00:01.000Z | action.status\\_updated evt-1 | act-1 | AWAITING\\_PAYMENT | ❌ not verified (x-service-signature) |',
    );
  });

  it('shows the signature and the schema as two facts, and counts ignored requests apart', () => {
    const report = failingReport();
    const checks = report.checks.map((c) =>
      c.id === 'webhook'
        ? {
            ...c,
            webhookTimeline: [
              { receivedAt: '2025-03-01T10:00:01.000Z', eventId: 'evt-9', verified: true, schemaValid: false },
            ],
          }
        : c,
    );
    const ignored = { count: 12, byStatus: { '401': 5, '413': 7 } };
    const md = renderMarkdown({ ...report, checks, webhooks: { ...report.webhooks, ignored } });
    expect(md).toContain('| evt-9 |  |  | ✅ verified | ❌ invalid |');
    expect(md).toContain(
      "### Ignored webhook requests\n\n12 unverifiable webhook requests ignored (HTTP 401 ×5, 413 ×7): not signed with the provider's secret, so not counted against it",
    );
    expect(renderMarkdown(report)).not.toContain('Ignored webhook requests');
  });

  it('keeps provider text inert: no raw HTML outside code blocks, no table breaks, no control characters', () => {
    const md = renderMarkdown(failingReport());
    const outsideCode = md.replace(/```[\s\S]*?```/g, '');
    expect(outsideCode).not.toContain(INJECTED_SCRIPT);
    expect(outsideCode).not.toMatch(/<(script|img|b)\b/);
    expect(md).not.toMatch(/[\u0000-\u0008\u000B-\u001F]/);
    expect(md).not.toContain(CANARY);
  });

  it('says one diagnosis once: repeated webhook diagnoses, summary messages, details and warnings', () => {
    const report = failingReport();
    const signature = 'signature rejected: most likely signed with a different secret';
    const checks = report.checks.map((c) => {
      if (c.id === 'webhook') {
        const first = c.webhookTimeline?.[0];
        if (!first) throw new Error('the sample webhook check has a timeline');
        return {
          ...c,
          webhookTimeline: ['evt-1', 'evt-2', 'evt-3', 'evt-4'].map((eventId) => ({
            ...first,
            eventId,
            diagnosis: signature,
          })),
        };
      }
      if (c.id === 'quote-math') return { ...c, details: ['line 2 is wrong', 'line 2 is wrong', 'line 3 is wrong'] };
      return c;
    });
    const skipped = (id: 'health' | 'locations' | 'offering') => ({
      id,
      title: id,
      rule: 'r',
      requirements: ['R'],
      findings: [],
      status: 'skip' as const,
      durationMs: 0,
      evidence: [],
      message: 'skipped: GET /provider-info was refused for the credential (HTTP 401) — see metadata',
    });
    const md = renderMarkdown({
      ...report,
      checks: [...checks, skipped('health'), skipped('locations'), skipped('offering')],
    });
    expect(md.match(/signature rejected: most likely signed with a different secret/g)).toHaveLength(1);
    expect(md.match(/\| same as above \|$/gm)).toHaveLength(3 + 2);
    expect(md.match(/refused for the credential/g)).toHaveLength(1);
    expect(md).toContain('- line 2 is wrong (×2)\n- line 3 is wrong');
  });

  it.each([
    ['the profile when known', (p: RunReport['provider']) => p, ' · profile TRANSACTIONAL · '],
    [
      '"unknown" when GET /provider-info could not tell it',
      ({ profile: _p, ...rest }: RunReport['provider']) => rest,
      ' · profile unknown · ',
    ],
  ])('names %s', (_name, provider, text) => {
    const report = failingReport();
    expect(renderMarkdown({ ...report, provider: provider(report.provider) })).toContain(text);
  });

  it('summarises a passing run without a fix section', () => {
    const md = renderMarkdown(passingReport());
    expect(md.startsWith('## ✅ provcert: certification PASSED\n')).toBe(true);
    expect(md).not.toContain('What to fix');
  });

  it.each([
    ['a|b', 'a\\|b'],
    ['line1\nline2\r\nline3', 'line1<br>line2<br>line3'],
    ['<b>&', '&lt;b&gt;&amp;'],
    ['*x* _y_ [l](u) `c`', '\\*x\\* \\_y\\_ \\[l\\](u) \\`c\\`'],
  ])('mdText(%j)', (input, expected) => {
    expect(mdText(input)).toBe(expected);
  });

  it('keeps paragraph starts from becoming lists, and fences longer than any backtick run', () => {
    expect(mdParagraph('- not a list')).toBe('\\- not a list');
    expect(mdParagraph('1. not a list')).toBe('1\\. not a list');
    expect(mdCodeBlock('a ```` b')).toBe('`````\na ```` b\n`````');
  });
});
