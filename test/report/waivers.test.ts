import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/report.js';
import type { ExpectedFailure } from '../../src/model/waivers.js';
import { runReportContradiction } from '../../src/report/consistency.js';
import { checkResultLines, verdictLines, waiverLines } from '../../src/report/failure-text.js';
import { renderGithubAnnotations } from '../../src/report/github.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJson } from '../../src/report/json.js';
import { renderJUnit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { evaluateWaivers } from '../../src/runner/waivers.js';
import { failingReport } from './sample-reports.js';
import { parseXml, type XmlElement } from './xml-parser.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const TODAY = '2026-03-10';
const plain = new Chalk({ level: 0 });

const waiver = (check: ExpectedFailure['check'], fields: Partial<ExpectedFailure> = {}): ExpectedFailure => ({
  check,
  reason: `known ${check} bug (JIRA-7)`,
  until: '2026-03-31',
  ...fields,
});

/** Every failed or errored check of the sample waived. */
const FAILING = ['quote-math', 'webhook', 'wrong-credential', 'errors'] as const;

function judged(extra: ExpectedFailure[] = []): RunReport {
  const report = failingReport();
  const waivers = [...FAILING.map((id) => waiver(id)), ...extra];
  const run = { slug: report.provider.slug ?? '', report };
  return evaluateWaivers(waivers, [run], TODAY).reports[0] as RunReport;
}
const waived = () => judged();
/** Waived failures, plus a stale waiver (catalog passes) and an expired one. */
const gated = () => judged([waiver('catalog'), waiver('search', { until: '2026-01-31' })]);

describe('the sample with every failure waived', () => {
  it('passes, and so does each format say', () => {
    const report = waived();
    expect(FAILING.map((id) => report.checks.find((c) => c.id === id)?.status)).not.toContain('pass');
    expect(report.verdict).toBe('PASS');
  });
});

describe('JSON', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(
    JSON.parse(readFileSync(new URL('../../spec/report.schema.json', import.meta.url), 'utf8')) as object,
  );

  it.each([
    ['waived', waived],
    ['gated', gated],
  ])('the %s report validates against spec/report.schema.json', (_name, build) => {
    const parsed = JSON.parse(renderJson(build())) as RunReport;
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    expect(parsed.checks.find((c) => c.id === 'quote-math')?.waiver).toEqual({
      reason: 'known quote-math bug (JIRA-7)',
      until: '2026-03-31',
    });
  });

  it('a waiver outcome the schema does not know is refused', () => {
    const parsed = JSON.parse(renderJson(gated())) as { waivers: { state: string }[] };
    (parsed.waivers[0] as { state: string }).state = 'ignored';
    expect(validate(parsed)).toBe(false);
  });
});

const testcases = (xml: string): XmlElement[] =>
  parseXml(xml).children.flatMap((suite) => suite.children.filter((c) => c.name === 'testcase'));
const child = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element?.children.find((c) => c.name === name);

describe('JUnit', () => {
  it('a waived failure is skipped "waived until DATE: reason", its failure kept in system-out', () => {
    const xml = renderJUnit(waived());
    const quote = testcases(xml).find((t) => t.attributes['classname'] === 'provcert.quote-math');
    expect(child(quote, 'skipped')?.attributes['message']).toBe(
      'waived until 2026-03-31: known quote-math bug (JIRA-7)',
    );
    expect(child(quote, 'failure')).toBeUndefined();
    expect(child(quote, 'system-out')?.text).toContain('total 2350 ≠ subtotal 2100 + fees 300 − discount 0');
    const suite = parseXml(xml).children[0];
    expect(suite?.attributes).toMatchObject({ failures: '0', errors: '0' });
    expect(Number(suite?.attributes['skipped'])).toBe(1 + FAILING.length);
  });

  it('a waiver that fails the gate is a failing testcase "waiver …" with its message, counted', () => {
    const xml = renderJUnit(gated());
    const cases = testcases(xml).filter((t) => t.attributes['classname'] === 'provcert.waiver');
    expect(cases.map((t) => t.attributes['name'])).toEqual([
      'waiver catalog until 2026-03-31',
      'waiver search until 2026-01-31',
    ]);
    expect(child(cases[0], 'failure')?.attributes['message']).toBe(
      'stale: catalog passed on demo-pizza: remove this waiver',
    );
    expect(child(cases[1], 'failure')?.attributes['message']).toMatch(/^expired: expired on 2026-01-31/);
    const root = parseXml(xml);
    expect(root.attributes['failures']).toBe('2');
    expect(root.attributes['tests']).toBe(String(testcases(xml).length));
  });
});

describe('Markdown', () => {
  it('says waived with the reason, and lists the waivers that fail the gate', () => {
    expect(renderMarkdown(waived())).toContain('certification PASSED (4 waived failures)');
    expect(renderMarkdown(waived())).toMatch(
      /`quote-math`.*\| 🟡 waived \| waived until 2026-03-31: known quote-math bug \(JIRA-7\)/,
    );
    expect(renderMarkdown(waived())).not.toContain('### What to fix');
    const md = renderMarkdown(gated());
    expect(md).toContain('### Expected failures that fail the gate');
    expect(md).toContain('- **stale** `catalog` until 2026-03-31: catalog passed on demo-pizza: remove this waiver');
  });
});

describe('HTML', () => {
  it('badges a waived check, says so in the banner and lists every waiver', () => {
    const html = renderHtml(waived());
    expect(html).toContain('<span class="badge waived">waived</span><span class="check-id">quote-math</span>');
    expect(html).toContain('<small>with 4 waived failures</small>');
    expect(html).toContain('<strong>Waived:</strong> waived until 2026-03-31: known quote-math bug (JIRA-7)');
    const gate = renderHtml(gated());
    expect(gate).toContain('<h2>Expected failures</h2>');
    expect(gate).toMatch(/<tr class="bad"><td>stale<\/td><td>catalog<\/td>/);
  });
});

describe('GitHub annotations', () => {
  it('a waived failure is a warning, a waiver failing the gate an error', () => {
    const lines = renderGithubAnnotations(gated()).trim().split('\n');
    expect(
      lines.find((l) => l.startsWith('::warning title=provcert quote-math (waived)::waived until 2026-03-31')),
    ).toBeDefined();
    expect(lines.filter((l) => l.startsWith('::error title=provcert quote-math'))).toEqual([]);
    expect(lines).toContain(
      '::error title=provcert waiver catalog until 2026-03-31::stale: catalog passed on demo-pizza: remove this waiver%0Areason given: known catalog bug (JIRA-7)',
    );
  });
});

describe('console', () => {
  it('shows WAIVED with the reason and the date, and the verdict counts waived failures', () => {
    const report = waived();
    const quote = report.checks.find((c) => c.id === 'quote-math');
    const lines = checkResultLines(quote as NonNullable<typeof quote>, plain, report);
    expect(lines.slice(0, 2)).toEqual([
      'WAIVED quote-math  total 2350 ≠ subtotal 2100 + fees 300 − discount 0',
      '    waived until 2026-03-31: known quote-math bug (JIRA-7)',
    ]);
    const verdict = verdictLines(report, plain);
    expect(verdict[0]).toMatch(/^PASS {2}.*, 4 waived/);
    expect(verdict[1]).toMatch(/^Certification passed with 4 waived failures/);
  });

  it('prints the waivers that fail the gate, and the verdict says why', () => {
    const report = gated();
    expect(waiverLines(report, plain)).toEqual([
      '',
      'Expected failures (expectedFailures):',
      '  WAIVED  quote-math: waived until 2026-03-31: known quote-math bug (JIRA-7)',
      '  WAIVED  webhook: waived until 2026-03-31: known webhook bug (JIRA-7)',
      '  WAIVED  wrong-credential: waived until 2026-03-31: known wrong-credential bug (JIRA-7)',
      '  WAIVED  errors: waived until 2026-03-31: known errors bug (JIRA-7)',
      '  STALE     catalog (until 2026-03-31): catalog passed on demo-pizza: remove this waiver',
      '  EXPIRED   search (until 2026-01-31): expired on 2026-01-31 (today is 2026-03-10): it matches no failure now: remove it',
    ]);
    expect(verdictLines(report, plain)[1]).toBe(
      'Certification failed: 2 expected-failure entries fail the gate (above); update or remove them and run again.',
    );
  });
});

describe('a waiver naming a requirement alone (issue 34)', () => {
  /** The sample with quote-math waived by the requirements it fails on, each alone, the others by check. */
  function byRequirement(): RunReport {
    const report = failingReport();
    const math = report.checks.find((c) => c.id === 'quote-math');
    const cited = [...new Set(math?.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement))];
    const waivers: ExpectedFailure[] = [
      ...FAILING.filter((id) => id !== 'quote-math').map((id) => waiver(id)),
      ...cited.map((requirement) => ({
        requirement,
        reason: `known ${requirement} bug (JIRA-8)`,
        until: '2026-03-31',
      })),
    ];
    return evaluateWaivers(waivers, [{ slug: report.provider.slug ?? '', report }], TODAY).reports[0] as RunReport;
  }

  it('waives the check, and its outcome names the requirement in every format, never "undefined"', () => {
    const report = byRequirement();
    expect(report.verdict).toBe('PASS');
    const requirementOnly = (report.waivers ?? []).filter((w) => w.check === undefined);
    expect(requirementOnly.length).toBeGreaterThan(0);
    const outputs = [
      renderJUnit(report),
      renderMarkdown(report),
      renderHtml(report),
      renderGithubAnnotations(report),
      [...waiverLines(report, plain), ...verdictLines(report, plain)].join('\n'),
    ];
    for (const out of outputs) expect(out).not.toContain('undefined');
    for (const w of requirementOnly) expect(w.message).toContain(`on ${w.requirement}`);
    expect(waiverLines(report, plain).join('\n')).toMatch(/WAIVED {2}quote-math: waived until 2026-03-31: known/);
  });

  it('its report validates against spec/report.schema.json and its waivers contradict nothing', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(new URL('../../spec/report.schema.json', import.meta.url), 'utf8')) as object,
    );
    const parsed = JSON.parse(renderJson(byRequirement())) as RunReport;
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    // The sample is no full run (checks are missing); what matters is that its waivers contradict nothing, so it
    // reads as the same report with every waiver naming its check.
    const catalog = { requirementById: (id: string) => parsed.requirements[id] };
    const found = runReportContradiction(parsed, catalog);
    expect(found).not.toMatch(/waiver/);
    expect(found).toBe(runReportContradiction(waived(), catalog));
  });

  it('a stale one names the requirement in the gate-failing lines', () => {
    const report = failingReport();
    const stale = { requirement: 'HEALTH-REQUIRED-FIELDS', reason: 'health shape fix (JIRA-9)', until: '2026-03-31' };
    const judgedReport = evaluateWaivers(
      [...FAILING.map((id) => waiver(id)), stale],
      [{ slug: report.provider.slug ?? '', report }],
      TODAY,
    ).reports[0] as RunReport;
    const lines = waiverLines(judgedReport, plain).join('\n');
    expect(lines).toMatch(/\[HEALTH-REQUIRED-FIELDS\] \(until 2026-03-31\): /);
    expect(lines).not.toContain('undefined');
  });
});
