import { describe, expect, it } from 'vitest';
import { signatureHmac } from '../../src/server/signature.js';
import { hmacDigest } from '../../src/util/hmac.js';

// The receiver's HMAC continues copies of precomputed keyed states; it must give the contract's bytes exactly.
const secrets = ['k', 'whsec_demo', 'x'.repeat(64), 'y'.repeat(65), 'é'.repeat(40), ''];
const bodies = ['', '{"eventId":"e-1"}', 'z'.repeat(100_000)];

describe('signatureHmac', () => {
  it.each(secrets.map((s) => [s.length, s]))(
    'equals util/hmac for a secret of %i characters, body in one or several chunks',
    (_, secret) => {
      for (const body of bodies) {
        const bytes = Buffer.from(body);
        const whole = signatureHmac(secret);
        whole.update(bytes);
        const chunked = signatureHmac(secret);
        for (let at = 0; at < bytes.length; at += 7_000) chunked.update(bytes.subarray(at, at + 7_000));
        const expected = hmacDigest(secret, bytes);
        expect(whole.digest().equals(expected)).toBe(true);
        expect(chunked.digest().equals(expected)).toBe(true);
      }
    },
  );

  it('keeps the states of one secret apart from another, and each computation apart from the next', () => {
    const body = Buffer.from('{"eventId":"e-2"}');
    const first = signatureHmac('one');
    first.update(Buffer.from('ignored prefix'));
    const second = signatureHmac('one');
    second.update(body);
    expect(second.digest().equals(hmacDigest('one', body))).toBe(true);
    const other = signatureHmac('two');
    other.update(body);
    expect(other.digest().equals(hmacDigest('two', body))).toBe(true);
  });
});
