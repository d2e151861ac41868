import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';
import { NON_EMPTY_KEYWORD } from '../../src/contract/non-empty.js';

const PAYLOADS = join(import.meta.dirname, '../../fixtures/payloads');

/** Names code looks up in the spec; the enums hold exactly the contract's values. */
const RESOURCE_SCHEMAS = [
  'ProviderInfo',
  'ProviderManifest',
  'CertificationInput',
  'SupportContact',
  'HealthCheckResult',
  'Location',
  'Catalog',
  'Category',
  'Offering',
  'Variant',
  'OptionGroup',
  'Option',
  'RequestQuoteInput',
  'QuoteItem',
  'SelectedOptionInput',
  'NormalizedQuote',
  'QuoteLine',
  'QuoteLineOption',
  'Fee',
  'CreateActionInput',
  'NormalizedAction',
  'ActionLine',
  'NextAction',
  'PaymentOption',
  'CancelActionInput',
  'CancelActionResult',
  'NormalizedWebhookEvent',
  'WebhookIngestionResponse',
  'ErrorResponse',
  'IsoTimestamp',
  'ReasonCode',
];
const ENUMS: Record<string, string[]> = {
  Capability: [
    'METADATA',
    'HEALTH',
    'CATALOG',
    'QUOTE',
    'ACTION_CREATE',
    'ACTION_STATUS',
    'WEBHOOK',
    'LOCATIONS',
    'SEARCH',
    'ACTION_CANCEL',
    'PAYMENT_OPTIONS',
  ],
  ActionStatus: ['CREATED', 'AWAITING_PAYMENT', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'FAILED'],
  PaymentStatus: ['PENDING', 'AUTHORIZED', 'PAID', 'FAILED', 'REFUNDED'],
  ProviderStatus: ['DRAFT', 'SANDBOX', 'ACTIVE', 'SUSPENDED', 'DISABLED'],
  AuthMethod: ['API_KEY', 'BEARER_TOKEN', 'HMAC_SIGNATURE'],
  FulfillmentMode: ['DELIVERY', 'PICKUP', 'ONSITE', 'HYBRID', 'REMOTE'],
  ErrorCode: [
    'INVALID_ARGUMENT',
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'NOT_FOUND',
    'IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD',
    'QUOTE_MATH_INVALID',
    'QUOTE_EXPIRED',
    'ACTION_NOT_CONFIRMED',
    'INTERNAL_ERROR',
  ],
};

/** Open strings whose values the contract only suggests: any value passes, one outside the list warns. */
const SUGGESTED: Record<string, string[]> = {
  ReasonCode: [
    'CUSTOMER_CANCELLED',
    'PROVIDER_REJECTED',
    'ITEM_UNAVAILABLE',
    'PAYMENT_TIMEOUT',
    'PAYMENT_FAILED',
    'DUPLICATE_ACTION',
    'INVALID_CUSTOMER_INFORMATION',
    'PROVIDER_TIMEOUT',
    'SYSTEM_ERROR',
    'OTHER',
  ],
};

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

interface FixtureFolder {
  schema: string;
  valid: string[];
  invalid: string[];
  expected: Record<string, string>;
  /** warnings.json: the warning texts a valid fixture must produce; a fixture not listed produces none. */
  warnings: Record<string, string[]>;
}

const folders: FixtureFolder[] = readdirSync(PAYLOADS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => {
    const files = readdirSync(join(PAYLOADS, d.name));
    const expectedPath = join(PAYLOADS, d.name, 'expected.json');
    const warningsPath = join(PAYLOADS, d.name, 'warnings.json');
    return {
      schema: d.name,
      valid: files.filter((f) => f.startsWith('valid-') && f.endsWith('.json')),
      invalid: files.filter((f) => f.startsWith('invalid-') && f.endsWith('.json')),
      expected: existsSync(expectedPath) ? (readJson(expectedPath) as Record<string, string>) : {},
      warnings: existsSync(warningsPath) ? (readJson(warningsPath) as Record<string, string[]>) : {},
    };
  });

const validCases = folders.flatMap((f) => f.valid.map((file) => [f.schema, file, f.warnings[file] ?? []] as const));
const invalidCases = folders.flatMap((f) => f.invalid.map((file) => [f.schema, file, f.expected[file]] as const));

const contract = await loadContract();

describe('schema names and enums', () => {
  it.each(RESOURCE_SCHEMAS)('%s is a schema of the spec', (name) => {
    expect(contract.hasSchema(name)).toBe(true);
  });

  it.each(Object.entries(ENUMS))('%s holds exactly the contract values', (name, values) => {
    expect(contract.enumValues(name)).toEqual(values);
  });

  it.each(Object.entries(SUGGESTED))(
    "%s is an open string carrying exactly the contract's suggested values",
    (name, values) => {
      expect(contract.enumValues(name)).toEqual([]);
      expect(contract.suggestedValues(name)).toEqual(values);
    },
  );
});

describe('fixture folders', () => {
  const enumNames = new Set(Object.keys(ENUMS));
  const objectSchemas = contract.schemaNames().filter((n) => !enumNames.has(n));

  it('exist for every non-enum schema, and only for schemas of the spec', () => {
    expect(folders.map((f) => f.schema).sort()).toEqual([...objectSchemas].sort());
  });

  it.each(folders.map((f) => [f.schema, f] as const))(
    '%s has valid and malformed fixtures, each malformed one mapped to a pointer',
    (_name, folder) => {
      expect(folder.valid.length).toBeGreaterThanOrEqual(1);
      expect(folder.invalid.length).toBeGreaterThanOrEqual(2);
      expect(Object.keys(folder.expected).sort()).toEqual([...folder.invalid].sort());
      for (const file of Object.keys(folder.warnings)) expect(folder.valid).toContain(file);
    },
  );
});

describe('valid fixtures', () => {
  it.each(validCases)('%s/%s validates, with exactly the warnings of warnings.json', (schema, file, warnings) => {
    const result = contract.validate(schema, readJson(join(PAYLOADS, schema, file)));
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.warnings.map((w) => w.text)).toEqual(warnings);
  });

  it('some fixtures exercise each warning rule', () => {
    const rules = validCases.flatMap(([schema, file]) =>
      contract.validate(schema, readJson(join(PAYLOADS, schema, file))).warnings.map((w) => w.rule),
    );
    expect(new Set(rules)).toEqual(new Set(['offsetless-timestamp', 'suggested-values']));
  });
});

/**
 * The rule a malformed fixture breaks, read from its name: `missing-` → required, a bad timestamp
 * (`not-date-time`, `not-iso-8601`) → format,
 * `too-short` → minLength, a value outside an enum (`unknown`, `lowercase`, or the bad value itself) → enum,
 * anything else (wrong type, null) → type.
 */
function ruleNamedBy(file: string): string {
  if (file.includes('missing-')) return 'required';
  if (/not-date-time|not-iso-8601/.test(file)) return 'format';
  if (file.includes('too-short')) return 'minLength';
  // A required string of a provider's answer that is empty or blank (src/contract/non-empty.ts).
  if (/-(empty|blank)\.json$/.test(file)) return NON_EMPTY_KEYWORD;
  if (/-(false|not-const)\.json$/.test(file)) return 'const';
  if (/-(unknown|lowercase|CERTIFIED|SUBMITTED)\.json$/.test(file)) return 'enum';
  return 'type';
}

describe('malformed fixtures', () => {
  it.each(invalidCases)('%s/%s fails at "%s" only', (schema, file, pointer) => {
    const result = contract.validate(schema, readJson(join(PAYLOADS, schema, file)));
    expect(result.valid).toBe(false);
    // Exactly one thing is wrong with each fixture: every problem sits at the expected place.
    expect(result.problems.map((p) => p.pointer)).toContain(pointer);
    expect(result.problems.filter((p) => p.pointer !== pointer)).toEqual([]);
    expect(result.problems.map((p) => p.rule)).toContain(ruleNamedBy(file));
  });
});
