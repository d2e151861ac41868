import { describe, expect, it } from 'vitest';
import { digestMatches, signatureDigest } from '../../src/server/signature.js';
import { hmacDigest } from '../../src/util/hmac.js';

// The receiver hashes over padded key blocks made once per secret; it must give the contract's bytes exactly.
const secrets = ['k', 'whsec_demo', 'x'.repeat(64), 'y'.repeat(65), 'é'.repeat(40), ''];
// Empty, small, right at and just over the one-shot size, and large (node's streaming Hmac).
const bodies = ['', '{"eventId":"e-1"}', 'a'.repeat(16 * 1024), 'b'.repeat(16 * 1024 + 1), 'z'.repeat(100_000)];

describe('signatureDigest', () => {
  it.each(secrets.map((s) => [s.length, s]))('equals util/hmac for a secret of %i characters', (_, secret) => {
    for (const body of bodies) {
      const bytes = Buffer.from(body);
      expect(signatureDigest(secret, bytes).equals(hmacDigest(secret, bytes))).toBe(true);
    }
  });

  it('keeps one secret apart from another, and each digest apart from the next (the outer block is shared)', () => {
    const body = Buffer.from('{"eventId":"e-2"}');
    const first = signatureDigest('one', Buffer.from('another body'));
    const second = signatureDigest('one', body);
    expect(first.equals(hmacDigest('one', Buffer.from('another body')))).toBe(true);
    expect(second.equals(hmacDigest('one', body))).toBe(true);
    expect(signatureDigest('two', body).equals(hmacDigest('two', body))).toBe(true);
  });
});

describe('digestMatches', () => {
  const digest = hmacDigest('k', Buffer.from('{"eventId":"e-3"}'));
  const hex = digest.toString('hex');
  const flipped = (hex[0] === '0' ? '1' : '0') + hex.slice(1);
  it.each([
    ['the lowercase hex', hex, true],
    ['the uppercase hex', hex.toUpperCase(), true],
    ['another digest', flipped, false],
    ['a non-hex pair at the end', `${hex.slice(0, 62)}zz`, false],
    ['a non-hex character in the middle', `${hex.slice(0, 31)}g${hex.slice(32)}`, false],
    ['one character short', hex.slice(0, 63), false],
    ['one character more', `${hex}0`, false],
    ['the base64 of the digest', digest.toString('base64'), false],
    ['nothing', '', false],
  ])('%s → %s', (_, received, expected) => {
    expect(digestMatches(digest, received)).toBe(expected);
  });
});
