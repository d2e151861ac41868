import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SPEC_PATH } from '../../src/contract/bundled-path.js';
import type { CheckId } from '../../src/model/check-ids.js';
import type { CheckResult, RunReport } from '../../src/model/report.js';
import { type CertifyOptions, certify, certifyThroughProxy } from '../support/certify.js';
import { undeclaredCitations } from '../support/citations.js';
import type { ProxyRule } from '../support/rewriting-proxy.js';
import { scratchDir } from '../support/scratch.js';

/**
 * Verdict honesty: a finding cites the sentence it is about. search's warnings about an unhelpful search text,
 * and quote-expiry's answer to a quote whose expiresAt is not ISO 8601, proven against the reference provider
 * (through a rewriting proxy where the case needs answers the reference provider does not give).
 */

const result = (report: RunReport, id: CheckId): CheckResult => {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};

const explain = (r: CheckResult): string =>
  `${r.id}: ${r.status} — ${r.message}\n  ${r.findings.map((f) => `${f.severity} [${f.requirement}] ${f.message}`).join('\n  ')}`;

async function certifyThrough(rule: ProxyRule, options: CertifyOptions): Promise<RunReport> {
  return (await certifyThroughProxy(options, { rule })).report;
}

type Json = Record<string, unknown>;

/** GET /provider-info with certificationInput.searchQuery set to `query` (undefined: left out). */
const withSearchQuery =
  (query: string | undefined) =>
  (json: unknown): unknown => {
    const info = json as { manifest: { certificationInput: Json } };
    const { searchQuery: _left, ...input } = info.manifest.certificationInput;
    const certificationInput = query === undefined ? input : { ...input, searchQuery: query };
    return { ...info, manifest: { ...info.manifest, certificationInput } };
  };

/** GET /catalog whose first offering's title has no word to search for. */
const wordlessFirstTitle = (json: unknown): unknown => {
  const catalog = json as { offerings: Json[] };
  const [first, ...rest] = catalog.offerings;
  return { ...catalog, offerings: [{ ...first, title: '—' }, ...rest] };
};

const searchRule =
  (query: string | undefined, wordless = false): ProxyRule =>
  ({ method, path }) => {
    if (method !== 'GET') return undefined;
    if (path === '/provider-info') return { rewrite: withSearchQuery(query) };
    if (wordless && path.startsWith('/catalog')) return { rewrite: wordlessFirstTitle };
    return undefined;
  };

interface WarningCase {
  name: string;
  rule: ProxyRule;
  /** Each warning search must give, and the requirement whose sentence it is about. */
  warnings: { text: RegExp; requirement: string }[];
}

const NO_RESULT = {
  text: /^GET \/search\?q=.* returned no result \(the search text is .*\); whether search results refer to the catalog's offerings was not tested$/,
  requirement: 'CATALOG-SAME-IDS-ACROSS-ROUTES',
};

const SEARCH_WARNINGS: WarningCase[] = [
  {
    name: "certificationInput.searchQuery that finds nothing: no result (the catalog's ids untested), limit untested",
    rule: searchRule('zzz-no-such-dish'),
    warnings: [
      { ...NO_RESULT, text: /returned no result \(the search text is taken from certificationInput\.searchQuery\)/ },
      NO_RESULT,
      { text: /^limit could not be tested: "zzz-no-such-dish" .* matches 0 offering/, requirement: 'SEARCH-LIMIT' },
    ],
  },
  {
    name: 'no certificationInput.searchQuery and no word in the title: the stand-in text finds nothing',
    rule: searchRule(undefined, true),
    warnings: [
      {
        ...NO_RESULT,
        text: /q=test returned no result \(the search text is a stand-in, as neither certificationInput\.searchQuery nor an offering title gives one\)/,
      },
      NO_RESULT,
      { text: /^limit could not be tested: "test" \(a stand-in/, requirement: 'SEARCH-LIMIT' },
    ],
  },
  {
    name: 'a search text matching one offering: only limit untested',
    rule: searchRule('lemonade'),
    warnings: [
      {
        text: /^limit could not be tested: "lemonade" \(taken from certificationInput\.searchQuery\) matches 1 offering\(s\)/,
        requirement: 'SEARCH-LIMIT',
      },
    ],
  },
];

describe('search: each warning cites the requirement it is about', () => {
  it('passes without a warning on the conforming provider (its search text matches several offerings)', async () => {
    const { report } = await certify({ only: ['search'] });
    const r = result(report, 'search');
    expect(r.status, explain(r)).toBe('pass');
    expect(r.findings, explain(r)).toEqual([]);
    expect(r.message).toMatch(
      /^"pizza" \(taken from certificationInput\.searchQuery\) found [2-9] catalog offering\(s\); limit=1 honoured$/,
    );
  });

  it.each(SEARCH_WARNINGS)('$name', async ({ rule, warnings }) => {
    const report = await certifyThrough(rule, { only: ['search'] });
    const r = result(report, 'search');
    // Warnings, never a failure: nothing the provider answered breaks a rule.
    expect(r.status, explain(r)).toBe('pass');
    const found = r.findings.filter((f) => f.severity === 'warn');
    for (const w of warnings)
      expect(
        found.some((f) => w.text.test(f.message) && f.requirement === w.requirement),
        `no warning matching ${String(w.text)} citing ${w.requirement}\n${explain(r)}`,
      ).toBe(true);
    // ...and no warning beyond them: each one is matched, citing its own sentence.
    const stray = found.filter((f) => !warnings.some((w) => w.text.test(f.message) && f.requirement === w.requirement));
    expect(stray, explain(r)).toEqual([]);
    // The pass claims no more than was checked: an untested limit is never "honoured".
    expect(r.message).not.toMatch(/limit=1 honoured/);
    expect(undeclaredCitations(report)).toEqual([]);
  });

  it('--strict fails on those warnings, on the same requirements and never on the limit for a missing result', async () => {
    const report = await certifyThrough(searchRule('zzz-no-such-dish'), { only: ['search'], strict: true });
    const r = result(report, 'search');
    expect(r.status, explain(r)).toBe('fail');
    const cited = (pattern: RegExp): string[] =>
      r.findings.filter((f) => f.severity === 'fail' && pattern.test(f.message)).map((f) => f.requirement);
    expect(cited(/returned no result/)).toEqual(['CATALOG-SAME-IDS-ACROSS-ROUTES']);
    expect(cited(/limit could not be tested/)).toEqual(['SEARCH-LIMIT']);
  });
});

/** The bundled contract with IsoTimestamp's format left out: a quote with any expiresAt string passes the schema. */
async function specWithoutTimestampFormat(): Promise<string> {
  const text = await readFile(BUNDLED_SPEC_PATH, 'utf8');
  const lenient = text.replace(/(\n {4}IsoTimestamp:\n {6}type: string\n) {6}format: iso8601-date-time\n/, '$1');
  if (lenient === text) throw new Error('IsoTimestamp format not found in the bundled spec');
  const path = join(await scratchDir('lenient-spec'), 'openapi.yaml');
  await writeFile(path, lenient);
  return path;
}

/** POST /quote's expiresAt, same instant, rewritten by `form`. */
const quoteExpiryAs =
  (form: (iso: string) => string): ProxyRule =>
  ({ method, path }) =>
    method === 'POST' && path === '/quote'
      ? {
          rewrite: (json) => {
            const quote = json as { expiresAt: string };
            return { ...quote, expiresAt: form(quote.expiresAt) };
          },
        }
      : undefined;

/** "2026-11-26T17:00:05.250Z" → "20261126T190005,250+0200": basic form, comma fraction, another offset. */
const basicFormPlusTwo = (iso: string): string => {
  const shifted = new Date(Date.parse(iso) + 2 * 3_600_000).toISOString();
  return `${shifted.slice(0, 19).replace(/[-:]/g, '')},${shifted.slice(20, 23)}+0200`;
};

describe('quote-expiry: an expiresAt that is not ISO 8601 is a quote format problem, not an accepted expired quote', () => {
  const FORMAT_ONLY = ['quote-math', 'quote-expiry'] as CheckId[];

  const expectFormatRootCause = (report: RunReport): void => {
    const math = result(report, 'quote-math');
    expect(math.status, explain(math)).toBe('fail');
    expect(math.findings.filter((f) => f.severity === 'fail').map((f) => f.requirement)).toContain(
      'TIMESTAMPS-ISO8601',
    );
    const expiry = result(report, 'quote-expiry');
    // Not tested, naming why and where the failure is; never a failure of the expiry rules.
    expect(expiry.status, explain(expiry)).toBe('skip');
    expect(expiry.message).toMatch(/ISO 8601/);
    expect(expiry.message).toMatch(/\(see quote-math\)$/);
    expect(expiry.findings, explain(expiry)).toEqual([]);
    expect(report.verdict).toBe('FAIL');
  };

  it('with the bundled contract: quote-math fails on TIMESTAMPS-ISO8601, quote-expiry is not tested', async () => {
    const { report } = await certify({ faults: ['quote-expires-at-not-iso'], only: FORMAT_ONLY, quoteTtlSeconds: 5 });
    expectFormatRootCause(report);
  });

  it('with a --spec that does not check the format: the same, and quote-expiry names TIMESTAMPS-ISO8601', async () => {
    const { report } = await certify({
      faults: ['quote-expires-at-not-iso'],
      only: FORMAT_ONLY,
      quoteTtlSeconds: 5,
      specPath: await specWithoutTimestampFormat(),
    });
    expectFormatRootCause(report);
    expect(result(report, 'quote-expiry').message).toMatch(
      /^skipped: quote \S+ has expiresAt ".*", which is not an ISO 8601 timestamp \(TIMESTAMPS-ISO8601\), so when it expires is not known and the expiry was not tested \(see quote-math\)$/,
    );
  });

  it.each([
    ['basic form with a comma fraction and offset +0200', basicFormPlusTwo],
    [
      'extended form with offset -05:30',
      (iso: string) => {
        const shifted = new Date(Date.parse(iso) - 5.5 * 3_600_000).toISOString();
        return `${shifted.slice(0, 23)}-05:30`;
      },
    ],
  ])('any ISO 8601 form with an offset is read as the same instant: passes (%s)', async (_name, form) => {
    const report = await certifyThrough(quoteExpiryAs(form), { only: ['quote-expiry'], quoteTtlSeconds: 1 });
    const r = result(report, 'quote-expiry');
    expect(r.status, explain(r)).toBe('pass');
    expect(r.message).toMatch(/rejected with QUOTE_EXPIRED/);
    expect(r.message).toMatch(/expired at (\d{8}T\d{6},\d{3}\+0200|\S+-05:30)\)/);
  });
});
