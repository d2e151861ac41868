import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRunSources } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { CHECK_IDS } from '../../src/model/check-ids.js';
import { UsageError } from '../../src/model/errors.js';
import { isCalendarDate, parseExpectedFailures } from '../../src/util/expected-failures.js';
import { tempDir } from '../config/support.js';

type TempDir = Awaited<ReturnType<typeof tempDir>>;

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const schema = JSON.parse(
  readFileSync(new URL('../../spec/expected-failures.schema.json', import.meta.url), 'utf8'),
) as { $defs: { expectedFailure: { properties: { check: { enum: string[] } } } } };

const ok = { check: 'quote-math', reason: 'fee rounding fix ships in 2.4', until: '2026-06-30' };

function problem(value: unknown): UsageError {
  try {
    parseExpectedFailures(value, 'ci.yaml');
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('expected a UsageError');
}

describe('parseExpectedFailures', () => {
  it('reads entries, keeping only the keys given', () => {
    expect(
      parseExpectedFailures(
        [ok, { ...ok, check: 'webhook', requirement: 'WEBHOOK-SIGNED', provider: 'north-kitchen', reason: ' r ' }],
        'ci.yaml',
      ),
    ).toEqual([
      ok,
      { check: 'webhook', requirement: 'WEBHOOK-SIGNED', provider: 'north-kitchen', reason: 'r', until: ok.until },
    ]);
  });

  it('absent is none', () => {
    expect(parseExpectedFailures(undefined, 'ci.yaml')).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    [
      'not a list',
      { check: 'quote-math' },
      'ci.yaml: expectedFailures must be a list of entries with check or requirement, reason and until (found object {…})',
    ],
    [
      'an entry that is not a mapping',
      ['quote-math'],
      'ci.yaml: expectedFailures[0]: must be a mapping with check or requirement, reason and until (found string "quote-math")',
    ],
    [
      'a month that does not exist',
      [ok, { ...ok, until: '2026-13-01' }],
      'ci.yaml: expectedFailures[1].until: 2026-13-01 is not a date (YYYY-MM-DD)',
    ],
    [
      'a day that does not exist',
      [{ ...ok, until: '2026-02-30' }],
      'ci.yaml: expectedFailures[0].until: 2026-02-30 is not a date (YYYY-MM-DD)',
    ],
    [
      'another date format',
      [{ ...ok, until: '30.06.2026' }],
      'ci.yaml: expectedFailures[0].until: 30.06.2026 is not a date (YYYY-MM-DD)',
    ],
    [
      'a missing date',
      [{ check: ok.check, reason: ok.reason }],
      'ci.yaml: expectedFailures[0].until: missing (the last day the waiver holds, YYYY-MM-DD)',
    ],
    [
      'a check id typo',
      [{ ...ok, check: 'quote-maths' }],
      'ci.yaml: expectedFailures[0].check: quote-maths is not a check id (did you mean quote-math?)',
    ],
    [
      'an unknown check id',
      [{ ...ok, check: 'zzz' }],
      'ci.yaml: expectedFailures[0].check: zzz is not a check id (see provcert list)',
    ],
    [
      'neither check nor requirement',
      [{ reason: 'r', until: ok.until }],
      'ci.yaml: expectedFailures[0]: names neither check nor requirement; set check (a check id), requirement (a requirement id), or both',
    ],
    [
      'a requirement alone that is not a requirement id',
      [{ requirement: 'quote total', reason: 'r', until: ok.until }],
      'ci.yaml: expectedFailures[0].requirement: quote total is not a requirement id such as QUOTE-TOTAL-FORMULA',
    ],
    [
      'an empty reason',
      [{ ...ok, reason: '  ' }],
      'ci.yaml: expectedFailures[0].reason: must not be empty (why the failure is accepted for now)',
    ],
    [
      'a requirement in lower case',
      [{ ...ok, requirement: 'quote-total' }],
      'ci.yaml: expectedFailures[0].requirement: quote-total is not a requirement id such as QUOTE-TOTAL-FORMULA',
    ],
    [
      'a provider that is not a slug',
      [{ ...ok, provider: 'North Kitchen' }],
      'ci.yaml: expectedFailures[0].provider: North Kitchen is not a provider slug such as north-kitchen',
    ],
    [
      'a key typo',
      [{ ...ok, untill: '2026-01-01' }],
      'ci.yaml: expectedFailures[0]: unknown key "untill" (did you mean until?)',
    ],
  ])('%s: one clear line naming the entry', (_name, value, message) => {
    expect(problem(value).message).toBe(message);
  });

  it('names every problem: the first in the message, each other one a line of the hint', () => {
    const e = problem([{ ...ok, check: 'nope', until: 'soon' }]);
    expect(e.message).toContain('expectedFailures[0].check');
    expect(e.hint).toBe('ci.yaml: expectedFailures[0].until: soon is not a date (YYYY-MM-DD)');
  });

  it.each([
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2026-12-31', true],
    ['2026-00-10', false],
    ['2026-1-10', false],
  ])('isCalendarDate(%s) is %s', (text, want) => {
    expect(isCalendarDate(text)).toBe(want);
  });
});

describe('spec/expected-failures.schema.json', () => {
  const validate = (() => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    ajv.addVocabulary(['x-expected']);
    return ajv.compile(schema);
  })();

  it('check ids are the stable ids', () => {
    expect(schema.$defs.expectedFailure.properties.check.enum).toEqual([...CHECK_IDS]);
  });

  it('config.schema.json carries the same entry (inline: a relative $ref cannot resolve from its urn $id)', () => {
    const inline = (configSchema().properties as Record<string, { items?: unknown }>)['expectedFailures']?.items;
    expect(inline).toEqual(schema.$defs.expectedFailure);
  });

  it.each<[string, unknown, boolean]>([
    ['a full entry', [{ ...ok, requirement: 'QUOTE-TOTAL-FORMULA', provider: 'north-kitchen' }], true],
    ['an impossible date', [{ ...ok, until: '2026-13-01' }], false],
    ['an unknown check', [{ ...ok, check: 'quote-maths' }], false],
    ['an empty reason', [{ ...ok, reason: '' }], false],
    ['an unknown key', [{ ...ok, owner: 'me' }], false],
    ['no until', [{ check: ok.check, reason: ok.reason }], false],
    ['a requirement alone', [{ requirement: 'QUOTE-TOTAL-FORMULA', reason: ok.reason, until: ok.until }], true],
    ['neither check nor requirement', [{ reason: ok.reason, until: ok.until }], false],
  ])('%s: valid is %s', (_name, value, want) => {
    expect(validate(value)).toBe(want);
  });
});

describe('the config file carries expectedFailures', () => {
  let tmp: TempDir;
  beforeEach(async () => {
    tmp = await tempDir();
  });
  afterEach(() => tmp.remove());

  const settings = async () => {
    const { file, expectedFailures } = await loadRunSources({ env: {}, cwd: tmp.dir });
    return { options: file, expectedFailures };
  };

  it('read beside the options', async () => {
    await tmp.write(
      'provcert.config.yaml',
      'timeout: 5000\nexpectedFailures:\n  - check: quote-math\n    reason: known\n    until: 2026-06-30\n',
    );
    expect(await settings()).toEqual({
      options: { timeout: 5000 },
      expectedFailures: [{ check: 'quote-math', reason: 'known', until: '2026-06-30' }],
    });
  });

  it('an entry naming a requirement alone is read without a check', async () => {
    await tmp.write(
      'provcert.config.yaml',
      'expectedFailures:\n  - requirement: QUOTE-TOTAL-FORMULA\n    reason: known\n    until: 2026-06-30\n',
    );
    expect(await settings()).toEqual({
      options: {},
      expectedFailures: [{ requirement: 'QUOTE-TOTAL-FORMULA', reason: 'known', until: '2026-06-30' }],
    });
  });

  it('an entry naming neither check nor requirement is exit 2 with one line saying what to set', async () => {
    await tmp.write('provcert.config.yaml', 'expectedFailures:\n  - reason: known\n    until: 2026-06-30\n');
    await expect(settings()).rejects.toThrow(
      new UsageError(
        'provcert.config.yaml: expectedFailures[0]: names neither check nor requirement; set check (a check id), requirement (a requirement id), or both',
      ),
    );
  });

  it('a bad entry is exit 2 naming the file and the entry', async () => {
    await tmp.write(
      'provcert.config.yaml',
      'expectedFailures:\n  - check: quote-math\n    reason: known\n    until: 2026-13-01\n',
    );
    await expect(settings()).rejects.toThrow(
      new UsageError('provcert.config.yaml: expectedFailures[0].until: 2026-13-01 is not a date (YYYY-MM-DD)'),
    );
  });

  it('a typo of the key suggests it', async () => {
    await tmp.write('provcert.config.yaml', 'expectedFailure: []\n');
    await expect(settings()).rejects.toThrow(/unknown key "expectedFailure" \(did you mean expectedFailures\?\)/);
  });
});
