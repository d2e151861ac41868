import { describe, expect, it } from 'vitest';
import { keysReversed, SAME_PAYLOAD_ROWS } from '../../../../src/checks/support/probe-tables/idempotency.js';

const body = {
  idempotencyKey: 'k',
  providerSlug: 'demo',
  customer: { name: 'Ada', phone: '+1' },
  items: [
    { offeringId: 'pizza', quantity: 2, selectedOptions: [{ groupId: 'g', optionId: 'o' }] },
    { offeringId: 'w' },
  ],
};

describe('the same payload, written another way', () => {
  it('reverses the keys of every object at every level and keeps array order', () => {
    const reversed = keysReversed(body);
    expect(reversed).toEqual(body);
    expect(JSON.stringify(reversed)).toBe(
      '{"items":[{"selectedOptions":[{"optionId":"o","groupId":"g"}],"quantity":2,"offeringId":"pizza"},{"offeringId":"w"}],"customer":{"phone":"+1","name":"Ada"},"providerSlug":"demo","idempotencyKey":"k"}',
    );
  });

  it('sends the identical body first, then the same payload with its keys reordered (a different byte string)', () => {
    const [identical, reordered] = SAME_PAYLOAD_ROWS.map((row) => row.body(body));
    expect(identical).toBe(body);
    expect(reordered).toEqual(body);
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    expect(SAME_PAYLOAD_ROWS.map((r) => r.what)).toEqual([
      'the same idempotencyKey and body',
      'the same idempotencyKey and body with its JSON keys in reverse order',
    ]);
  });

  it('leaves scalars and null as they are', () => {
    expect([null, 1, 'a', true].map(keysReversed)).toEqual([null, 1, 'a', true]);
  });
});
