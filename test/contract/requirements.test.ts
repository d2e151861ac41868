import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  BUNDLED_REQUIREMENTS_PATH,
  CONTRACT_COPY_DIR,
  loadRequirements,
  REQUIREMENTS_SCHEMA_PATH,
  type RequirementCatalog,
  RequirementsLoadError,
  tryLoadRequirements,
} from '../../src/contract/requirements.js';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import { FAULTS } from '../../src/reference-provider/faults.js';
import { packageRoot } from '../../src/util/package-root.js';
import { scratchDir } from '../support/scratch.js';

const CONTRACT_FILE = 'provider-integration-contract-1.0.0.md';
const CONTRACT_COPY = join(CONTRACT_COPY_DIR, CONTRACT_FILE);
const contract = readFileSync(CONTRACT_COPY, 'utf8');

const KNOWN_CHECK_IDS = new Set<string>(CHECK_IDS);

/** Keyword sentences that are not rules, each with why. Keep it short. */
const NOT_RULES: readonly { starts: string; why: string }[] = [
  {
    starts: 'Which request fields of the quote and action inputs are required beyond',
    why: 'states a gap of the contract ("not shown"), not a rule',
  },
];

const NORMATIVE = /\b(must|never|required|requires|cannot|is rejected)\b/i;

interface Span {
  start: number;
  end: number;
  text: string;
  /** Heading path, e.g. ["Endpoints", "Provider routes (direction: service to provider)"]. */
  path: string[];
}

interface Line extends Span {
  heading?: { level: number; title: string };
}

/** The contract's lines with their offsets and the heading path each one is under. */
function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  const path: string[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading?.[1] && heading[2] !== undefined) {
      const level = heading[1].length;
      // "#" is the document title; "##" is the first level of a heading path.
      if (level >= 2) path.splice(level - 2, path.length, heading[2]);
    }
    lines.push({
      start,
      end: start + raw.length,
      text: raw,
      path: [...path],
      ...(heading?.[1] && heading[2] !== undefined ? { heading: { level: heading[1].length, title: heading[2] } } : {}),
    });
    start += raw.length + 1;
  }
  return lines;
}

const isTableRow = (line: Line): boolean => line.text.startsWith('|');
const isSeparatorRow = (line: Line): boolean => /^\|(\s*:?-+:?\s*\|)+\s*$/.test(line.text);

/** Sentences of prose (list markers dropped) and table rows (header and separator rows dropped). */
function sentencesOf(text: string): Span[] {
  const lines = linesOf(text);
  const out: Span[] = [];
  lines.forEach((line, i) => {
    if (line.heading || line.text.trim() === '') return;
    if (isTableRow(line)) {
      const previous = lines[i - 1];
      const isHeader = !previous || !isTableRow(previous);
      if (!isHeader && !isSeparatorRow(line)) out.push(line);
      return;
    }
    const marker = /^\s*\d+\.\s+/.exec(line.text)?.[0].length ?? 0;
    const pattern = /\S[\s\S]*?(?:[.!?](?=\s|$)|$)/g;
    const body = line.text.slice(marker);
    let pending: { start: number; end: number } | undefined;
    for (const m of body.matchAll(pattern)) {
      const start = line.start + marker + (m.index ?? 0);
      const range = pending ? { start: pending.start, end: start + m[0].length } : { start, end: start + m[0].length };
      // "e.g." and "i.e." end no sentence.
      if (/\b(e\.g|i\.e)\.$/.test(m[0])) {
        pending = range;
        continue;
      }
      pending = undefined;
      out.push({ ...range, text: text.slice(range.start, range.end), path: line.path });
    }
  });
  return out;
}

/** Every [start, end) where `needle` occurs in `haystack`. */
function occurrences(haystack: string, needle: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1))
    found.push({ start: at, end: at + needle.length });
  return found;
}

const quotesOf = (catalog: RequirementCatalog) =>
  catalog.requirements.flatMap((r) => [r.quote, ...(r.restatedIn ?? [])].map((quote) => ({ id: r.id, quote })));

describe('requirements catalog', () => {
  let catalog: RequirementCatalog;
  beforeAll(async () => {
    catalog = await loadRequirements();
  });

  it('loads the bundled catalog, valid against its schema, with a synchronous lookup by id', async () => {
    const schema = JSON.parse(readFileSync(REQUIREMENTS_SCHEMA_PATH, 'utf8')) as object;
    const validate = new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(schema);
    expect(validate(parse(readFileSync(BUNDLED_REQUIREMENTS_PATH, 'utf8'))), JSON.stringify(validate.errors)).toBe(
      true,
    );
    expect(catalog.contract).toBe(CONTRACT_FILE);
    expect(catalog.requirements.length).toBeGreaterThanOrEqual(100);
    expect(catalog.requirementById('QUOTE-BINDING')).toMatchObject({
      verification: 'checked',
      checks: ['quote-binding'],
    });
    expect(catalog.requirementById('NO-SUCH-REQUIREMENT')).toBeUndefined();
  });

  it('has unique ids', () => {
    const ids = catalog.requirements.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('names only known check ids', () => {
    const unknown = catalog.requirements.flatMap((r) =>
      r.verification === 'checked' ? r.checks.filter((c) => !KNOWN_CHECK_IDS.has(c)).map((c) => `${r.id}: ${c}`) : [],
    );
    expect(unknown).toEqual([]);
  });

  it('keeps the ids other parts of provcert refer to', () => {
    const fixed: [string, string, string[]][] = [
      [
        'QUOTE-BINDING',
        'The quote is bound to the selection and fulfillment terms and cannot authorize a different order.',
        ['quote-binding'],
      ],
      [
        'QUOTE-OPTIONS-ONCE',
        'Option contributions are included once in `optionsTotal` and `lineTotal`, never again in fees.',
        ['quote-math', 'quote-explore'],
      ],
      ['CATALOG-IDS-STABLE', 'ids are stable across catalog refreshes', ['catalog']],
      [
        'WEBHOOK-EVENT-TYPE',
        'Each created test order during certification dispatches a signed `action.status_updated` event.',
        ['webhook'],
      ],
      // The CANCELLED event reaches provcert's receiver, so the webhook check is the one that sees its reason.
      [
        'WEBHOOK-TERMINAL-REASON',
        'Terminal events (cancellation, failure) carry a stable reason code and a human description',
        ['webhook'],
      ],
      [
        'REASON-NO-SECRETS',
        'A reason or timeline description must not contain secrets, card data, passwords, one-time codes or unnecessary identity documents.',
        ['cancel', 'webhook'],
      ],
      [
        'QUOTE-UNAVAILABLE',
        'An unavailable item or variant produces a clear error or supported alternative, never a silent replacement.',
        ['quote-validation', 'quote-explore'],
      ],
      [
        'QUOTE-FRESH-ON-CHANGE',
        'When the quote expires, or items, quantities, options or destination change, a fresh quote and fresh customer confirmation are needed.',
        ['quote-binding'],
      ],
    ];
    for (const [id, quote, checks] of fixed)
      expect(catalog.requirementById(id), id).toMatchObject({ quote, verification: 'checked', checks });
  });

  it('quotes the contract verbatim, under the section it names', () => {
    const lines = linesOf(contract);
    const pathAt = (offset: number): string[] => lines.find((l) => offset >= l.start && offset <= l.end)?.path ?? [];
    const matchesSection = (section: string, path: string[]): boolean => {
      // "Introduction" is the text above the first "##" heading (the address placeholders).
      const levels = section === 'Introduction' ? [] : section.split(' › ');
      return levels.length === path.length && levels.every((level, i) => (path[i] ?? '').startsWith(level));
    };
    const problems: string[] = [];
    for (const { id, quote } of quotesOf(catalog)) {
      const found = occurrences(contract, quote);
      const section = catalog.requirementById(id)?.section ?? '';
      if (found.length === 0) problems.push(`${id}: not in the contract: ${quote}`);
      else if (
        quote === catalog.requirementById(id)?.quote &&
        !found.some((o) => matchesSection(section, pathAt(o.start)))
      ) {
        problems.push(
          `${id}: quoted text is under ${found.map((o) => pathAt(o.start).join(' › ')).join(' / ')}, not "${section}"`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  /** Normative sentences (outside the core-routes tables, not allowlisted) that no quote overlaps. */
  const uncoveredBy = (quotes: readonly string[]): string[] => {
    const ranges = quotes.flatMap((quote) => occurrences(contract, quote));
    const inCoreRoutesTable = (s: Span): boolean =>
      s.text.startsWith('|') && s.path.some((h) => h.startsWith('Core routes'));
    return sentencesOf(contract)
      .filter((s) => NORMATIVE.test(s.text) && !inCoreRoutesTable(s))
      .filter((s) => !NOT_RULES.some((n) => s.text.startsWith(n.starts)))
      .filter((s) => !ranges.some((r) => r.start < s.end && s.start < r.end))
      .map((s) => `${s.path.join(' › ')}: ${s.text}`);
  };

  it('covers every normative sentence of the contract outside the core-routes tables', () => {
    expect(uncoveredBy(quotesOf(catalog).map((q) => q.quote))).toEqual([]);
  });

  it('finds normative prose sentences and table rows (the coverage rule can fail)', () => {
    const without = (id: string): string[] =>
      uncoveredBy(
        quotesOf(catalog)
          .filter((q) => q.id !== id)
          .map((q) => q.quote),
      );
    expect(without('QUOTE-BINDING')).toEqual([
      'Resources and their fields › NormalizedQuote (response of POST /quote): The quote is bound to the selection and fulfillment terms and cannot authorize a different order.',
    ]);
    expect(without('ACTION-MISSING-FIELD-VALIDATION-ERROR')).toEqual([
      'Endpoints › Provider routes (direction: service to provider): `POST /actions` validates required fields first; missing fields give HTTP 400 or 422 with code VALIDATION_ERROR (never QUOTE_EXPIRED).',
      'Errors: | 400 or 422 | VALIDATION_ERROR | required field missing on action creation |',
    ]);
    // Core-routes table rows are out of scope; the prose rules below them are not.
    expect(without('CORE-ACTION-REQUIRES-CONFIRMATION')).toEqual([]);
    expect(without('REVIEW-HISTORY-PRIVATE')).toHaveLength(1);
  });

  it('lists only allowlisted sentences that exist and are normative', () => {
    const sentences = sentencesOf(contract);
    for (const n of NOT_RULES)
      expect(
        sentences.some((s) => s.text.startsWith(n.starts) && NORMATIVE.test(s.text)),
        n.starts,
      ).toBe(true);
  });

  it("maps each fault that names a requirement to a checked requirement of the fault's check", () => {
    const faults = Object.entries(FAULTS as Record<string, { check: string; requirement?: string }>);
    const problems = faults.flatMap(([name, fault]) => {
      if (fault.requirement === undefined) return [];
      const r = catalog.requirementById(fault.requirement);
      if (!r) return [`${name}: requirement ${fault.requirement} is not in the catalog`];
      if (r.verification !== 'checked' || !r.checks.includes(fault.check))
        return [`${name}: requirement ${r.id} is not checked by ${fault.check}`];
      return [];
    });
    expect(problems).toEqual([]);
  });
});

describe('contract copy', () => {
  // The copy in the repository is what every test compares with: a fresh clone needs nothing beside it
  // (issue 23 item 7). Drift from a published copy beside the repository is an optional check:
  // `npm run check:contract-drift`.
  it('is the contract the catalog names, committed in the repository', () => {
    expect(CONTRACT_COPY.startsWith(packageRoot)).toBe(true);
    expect(contract).toMatch(/^# Provider Integration Contract: /);
    expect(contract).toContain('Contract version is 1.0.0');
  });
});

describe('loading a broken catalog', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await scratchDir('requirements');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const entry = 'id: QUOTE-BINDING\n    section: "Resources"\n    quote: "The quote is bound"';
  const cases: { name: string; text: string | undefined; kind: string; says: string }[] = [
    { name: 'missing file', text: undefined, kind: 'not-found', says: 'requirements catalog not found' },
    { name: 'not YAML', text: 'contract: [unclosed', kind: 'not-yaml', says: 'is not valid YAML' },
    { name: 'no requirements', text: 'contract: c.md\n', kind: 'invalid', says: '(top level): missing "requirements"' },
    {
      name: 'checked without checks',
      text: `contract: c.md\nrequirements:\n  - ${entry}\n    verification: checked\n`,
      kind: 'invalid',
      says: 'requirements[0] (QUOTE-BINDING): missing "checks"',
    },
    {
      name: 'core-side without reason',
      text: `contract: c.md\nrequirements:\n  - ${entry}\n    verification: core-side\n`,
      kind: 'invalid',
      says: 'requirements[0] (QUOTE-BINDING): missing "reason"',
    },
    {
      name: 'checked with a reason',
      text: `contract: c.md\nrequirements:\n  - ${entry}\n    verification: checked\n    checks: [quote-binding]\n    reason: "not for checked entries"\n`,
      kind: 'invalid',
      says: 'requirements[0] (QUOTE-BINDING) reason: not allowed with this verification',
    },
    {
      name: 'unknown verification',
      text: `contract: c.md\nrequirements:\n  - ${entry}\n    verification: maybe\n    reason: "some reason here"\n`,
      kind: 'invalid',
      says: 'verification: must be one of checked, core-side, not-observable',
    },
    {
      name: 'malformed id',
      text: 'contract: c.md\nrequirements:\n  - id: quote_binding\n    section: "S"\n    quote: "The quote is bound"\n    verification: core-side\n    reason: "some reason here"\n',
      kind: 'invalid',
      says: 'requirements[0] (quote_binding) id: must match pattern',
    },
    {
      name: 'unknown field',
      text: `contract: c.md\nrequirements:\n  - ${entry}\n    verification: checked\n    checks: [x]\n    note: "?"\n`,
      kind: 'invalid',
      says: 'unknown field "note"',
    },
    {
      name: 'repeated id',
      text: `contract: c.md\nrequirements:\n  - ${entry}\n    verification: checked\n    checks: [quote-binding]\n  - ${entry}\n    verification: checked\n    checks: [quote-binding]\n`,
      kind: 'invalid',
      says: 'requirement id(s) QUOTE-BINDING occur more than once',
    },
  ];

  it.each(cases)('$name gives a clear error naming the file', async ({ name, text, kind, says }) => {
    const path = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
    if (text !== undefined) await writeFile(path, text);
    const result = await tryLoadRequirements(path);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe(kind);
    expect(result.error.message).toContain(path);
    expect(result.error.message).toContain(says);
    await expect(loadRequirements(path)).rejects.toThrow(RequirementsLoadError);
  });
});
