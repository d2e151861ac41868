import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load.js';

const contract = await loadContract();

const event = (fields: Record<string, unknown> = {}) => ({
  eventId: 'evt_1',
  eventType: 'action.status_updated',
  providerSlug: 'pizza-roma',
  timestamp: '2026-11-22T13:00:00Z',
  ...fields,
});
const texts = (r: { warnings: readonly { text: string }[] } | undefined) => r?.warnings.map((w) => w.text);

describe('validation warnings', () => {
  it.each([
    ['an offset', event(), []],
    [
      'no offset',
      event({ timestamp: '2026-11-22T13:00:00' }),
      ['/timestamp 2026-11-22T13:00:00 has no UTC offset; read as UTC (ambiguous)'],
    ],
    [
      'a suggested reason code',
      event({ newStatus: 'CANCELLED', reasonCode: 'OTHER', reason: 'other reason text' }),
      [],
    ],
  ])('an event with %s validates with warnings %j', (_name, value, warnings) => {
    const result = contract.validate('NormalizedWebhookEvent', value);
    expect(result.valid).toBe(true);
    expect(texts(result)).toEqual(warnings);
  });

  it('names each warning by pointer and rule', () => {
    const result = contract.validate(
      'NormalizedWebhookEvent',
      event({ timestamp: '20261122T130000', reasonCode: 'CUSTOMER_CHANGED_MIND' }),
    );
    expect(result.warnings.map((w) => [w.pointer, w.rule])).toEqual([
      ['/timestamp', 'offsetless-timestamp'],
      ['/reasonCode', 'suggested-values'],
    ]);
  });

  it('starts afresh for every validation (nothing carried over from the previous payload)', () => {
    expect(
      contract.validate('NormalizedWebhookEvent', event({ timestamp: '2026-11-22T13:00:00' })).warnings,
    ).toHaveLength(1);
    expect(contract.validate('NormalizedWebhookEvent', event()).warnings).toEqual([]);
  });

  it('reports warnings of an invalid payload too, and none for a value that fails its format', () => {
    const result = contract.validate('NormalizedAction', {
      createdAt: '2026-11-22T13:00:00',
      updatedAt: '2026-13-01T00:00:00',
    });
    expect(result.valid).toBe(false);
    expect(result.problems.map((p) => p.text)).toContain(
      '/updatedAt must be a valid ISO 8601 date-time (found string "2026-13-01T00:00:00")',
    );
    expect(texts(result)).toEqual(['/createdAt 2026-11-22T13:00:00 has no UTC offset; read as UTC (ambiguous)']);
  });

  it('comes back from validateResponse and validateRequest as well', () => {
    const health = contract.validateResponse('GET /health', 200, {
      status: 'HEALTHY',
      latencyMs: 1,
      timestamp: '2026-11-22T13:00',
    });
    expect(texts(health)).toEqual(['/timestamp 2026-11-22T13:00 has no UTC offset; read as UTC (ambiguous)']);
    const ingested = contract.validateRequest(
      'POST /api/v1/webhooks/{providerSlug}',
      event({ reasonCode: 'MERCHANT_CLOSED' }),
    );
    expect(ingested?.valid).toBe(true);
    expect(ingested?.warnings.map((w) => w.rule)).toEqual(['suggested-values']);
    expect(
      contract.validateResponse('GET /catalog', 200, { providerSlug: 'p', categories: [], offerings: [] })?.warnings,
    ).toEqual([]);
  });

  it('quotes and caps an odd reason code instead of printing it raw', () => {
    const [warning] = contract.validate(
      'NormalizedWebhookEvent',
      event({ reasonCode: `LINE\nBREAK${'X'.repeat(80)}` }),
    ).warnings;
    expect(warning?.text).toMatch(
      /^\/reasonCode string "LINE\\nBREAKX+…" is not one of the contract's suggested reason codes \(CUSTOMER_CANCELLED, /,
    );
  });
});

describe('timestamps provcert writes itself stay RFC 3339', () => {
  it.each([
    ['2026-11-22T13:00:00Z', true],
    ['2026-11-22T13:00:00', false],
  ])('CoreEvent.receivedAt %s valid: %s', (receivedAt, valid) => {
    const result = contract.validate('CoreEvent', {
      seq: 1,
      receivedAt,
      slug: 's',
      verified: true,
      duplicate: false,
      answeredStatus: 200,
    });
    expect(result.valid).toBe(valid);
    expect(result.warnings).toEqual([]);
  });
});
