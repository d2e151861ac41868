import { describe, expect, it } from 'vitest';
import { renderJUnit } from '../../src/report/junit.js';
import { xmlAttr, xmlEscape } from '../../src/report/xml.js';
import { CANARY, failingReport, HOSTILE, INJECTED_SCRIPT, passingReport } from './sample-reports.js';
import { childrenNamed, onlyChild, parseXml, type XmlElement } from './xml-parser.js';

const caseById = (suite: XmlElement, id: string): XmlElement => {
  const found = childrenNamed(suite, 'testcase').find((c) => c.attributes['classname'] === `provcert.${id}`);
  if (!found) throw new Error(`no testcase for ${id}`);
  return found;
};

describe('renderJUnit', () => {
  it('writes one suite with one testcase per check and consistent counts', () => {
    const report = failingReport();
    const root = parseXml(renderJUnit(report));
    expect(root.name).toBe('testsuites');
    const suite = onlyChild(root, 'testsuite');
    expect(suite.attributes).toMatchObject({
      name: 'provcert certification',
      tests: '8',
      failures: '3',
      errors: '1',
      skipped: '1',
      time: '6.200',
      timestamp: '2025-03-01T10:00:00',
    });
    expect(root.attributes).toMatchObject({ tests: '8', failures: '3', errors: '1', time: '6.200' });
    const cases = childrenNamed(suite, 'testcase');
    expect(cases.map((c) => c.attributes['classname'])).toEqual(report.checks.map((c) => `provcert.${c.id}`));
    expect(cases[0]?.attributes).toEqual({
      classname: 'provcert.base-url',
      name: 'base-url: Base address is public HTTPS',
      time: '0.012',
    });
    // A passing check carries only the requirements it verifies.
    expect(cases[0]?.children.map((c) => c.name)).toEqual(['properties']);
  });

  it('marks skips, failures and errors with their reasons', () => {
    const suite = onlyChild(parseXml(renderJUnit(failingReport())), 'testsuite');
    expect(onlyChild(caseById(suite, 'search'), 'skipped').attributes['message']).toBe(
      `SEARCH is not declared | skipped ${INJECTED_SCRIPT}`,
    );

    const failure = onlyChild(caseById(suite, 'quote-math'), 'failure');
    expect(failure.attributes).toEqual({
      message: 'total 2350 ≠ subtotal 2100 + fees 300 − discount 0',
      type: 'CertificationFailure',
    });
    expect(failure.text).toContain('Expected:\n{\n  "total": 2400\n}');
    expect(failure.text).toContain('"total": 2350');
    expect(failure.text).toContain('Reproduce:\nBODY=');
    expect(failure.text).toContain(
      'POST http://127.0.0.1:4010/quote\ncontent-type: application/json\nx-provider-api-key: ****',
    );
    expect(failure.text).toContain('← 200');
    expect(failure.text).toContain('BAD total: 2100 + 300 − 0 = 2400, provider 2350');

    const error = onlyChild(caseById(suite, 'errors'), 'error');
    expect(error.attributes['message']).toBe('the check could not run: timed out after 10000 ms');
    expect(error.text).toContain('✗ timed out after 10000 ms');

    expect(onlyChild(caseById(suite, 'metadata'), 'system-out').text).toContain(
      'warning [METADATA-RULE]: catalog price differs',
    );
  });

  it('names the requirements each check verifies, and those a failure violates, as testcase properties', () => {
    const suite = onlyChild(parseXml(renderJUnit(failingReport())), 'testsuite');
    const props = childrenNamed(onlyChild(caseById(suite, 'quote-math'), 'properties'), 'property').map((p) => [
      p.attributes['name'],
      p.attributes['value'],
    ]);
    expect(props).toEqual([
      ['requirement', 'QUOTE-TOTAL'],
      ['requirement', 'QUOTE-SUBTOTAL'],
      ['violates', 'QUOTE-TOTAL (Endpoints › Provider route behaviour rules)'],
    ]);
    expect(onlyChild(caseById(suite, 'quote-math'), 'failure').text).toContain(
      'Violates: QUOTE-TOTAL (Endpoints › Provider route behaviour rules)',
    );
  });

  it('carries provider facts as properties', () => {
    const suite = onlyChild(parseXml(renderJUnit(failingReport())), 'testsuite');
    const props = Object.fromEntries(
      childrenNamed(onlyChild(suite, 'properties'), 'property').map((p) => [
        p.attributes['name'],
        p.attributes['value'],
      ]),
    );
    expect(props).toMatchObject({
      'provider.baseUrl': 'http://127.0.0.1:4010',
      'provider.slug': 'demo-pizza',
      'provider.profile': 'TRANSACTIONAL',
      'provider.authMethod': 'API_KEY',
      verdict: 'FAIL',
    });
  });

  it('escapes hostile text so it survives parsing unchanged, control characters shown escaped as in every format', () => {
    const xml = renderJUnit(failingReport());
    const failure = onlyChild(caseById(onlyChild(parseXml(xml), 'testsuite'), 'quote-math'), 'failure');
    expect(failure.text).toContain(HOSTILE);
    expect(failure.text).toContain('control characters\\x1b[2J\\x07 are dropped');
    expect(xml).not.toContain(INJECTED_SCRIPT);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(xml).not.toContain(CANARY);
  });

  it('writes a passing run without failure elements', () => {
    const suite = onlyChild(parseXml(renderJUnit(passingReport())), 'testsuite');
    expect(suite.attributes).toMatchObject({ tests: '6', failures: '0', errors: '0', skipped: '1' });
    expect(
      childrenNamed(suite, 'testcase')
        .flatMap((c) => c.children.map((x) => x.name))
        .filter((n) => n !== 'properties'),
    ).toEqual(['skipped']);
  });

  it.each([
    ['a & b < c > d "e"', 'a &amp; b &lt; c &gt; d "e"'],
    [']]>', ']]&gt;'],
    ['bell\u0007 nul\u0000 esc\u001b ok\ttab', 'bell\\x07 nul\\x00 esc\\x1b ok\ttab'],
    ['rlo\u202e nel\u0085 csi\u009b ls\u2028', 'rlo\\u202e nel\\x85 csi\\x9b ls\\u2028'],
    ['lone \uD800 surrogate, pair 😀', 'lone  surrogate, pair 😀'],
  ])('xmlEscape(%j)', (input, expected) => {
    expect(xmlEscape(input)).toBe(expected);
  });

  it('keeps line breaks in attributes as character references (a lone CR is shown escaped, as everywhere)', () => {
    expect(xmlAttr('a\nb\r\tc "d" \'e\' <f>')).toBe('a&#10;b\\x0d&#9;c &quot;d&quot; &apos;e&apos; &lt;f&gt;');
    expect(xmlAttr('a\r\nb')).toBe('a&#10;b');
    expect(parseXml(`<x m="${xmlAttr('a\nb')}"/>`).attributes['m']).toBe('a\nb');
  });

  it.each([['<a><b></a>'], ['<a>x & y</a>'], ['<a m="<"/>'], ['<a/><b/>'], ['<a>]]></a>']])(
    'the test parser rejects malformed XML: %s',
    (xml) => {
      expect(() => parseXml(xml)).toThrow();
    },
  );
});
