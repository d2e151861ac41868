import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diagnoseSignature, nestingDepth, type SignatureMistake } from '../../src/server/diagnose.js';

const SECRET = 'whsec_diag_canary_91';
const hmac = (secret: string, body: string): Buffer => createHmac('sha256', secret).update(body).digest();
const hex = (secret: string, body: string): string => hmac(secret, body).toString('hex');

const parsed = {
  providerSlug: 'demo',
  eventId: 'e1',
  eventType: 'action.status_updated',
  timestamp: '2025-01-01T00:00:00Z',
};
const RAW =
  '{"providerSlug": "demo", "eventId": "e1", "eventType": "action.status_updated", "timestamp": "2025-01-01T00:00:00Z"}';

const sortedKeys = (o: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

const cases: [string, Record<string, string>, SignatureMistake[], RegExp][] = [
  ['no signature header at all', {}, ['missing-header'], /no signature header.*x-service-signature/],
  [
    'x-signature instead of the canonical header',
    { 'x-signature': hex(SECRET, RAW) },
    ['non-canonical-header'],
    /"x-signature".*x-service-signature.*otherwise right/,
  ],
  [
    'x-hub-signature-256 with a sha256= prefix',
    { 'x-hub-signature-256': `sha256=${hex(SECRET, RAW)}` },
    ['non-canonical-header', 'sha256-prefix'],
    /"x-hub-signature-256".*"sha256=" prefix/,
  ],
  ['base64 digest', { 'x-service-signature': hmac(SECRET, RAW).toString('base64') }, ['base64'], /base64/],
  ['base64url digest', { 'x-provider-signature': hmac(SECRET, RAW).toString('base64url') }, ['base64'], /base64/],
  ['sha256= prefix', { 'x-service-signature': `sha256=${hex(SECRET, RAW)}` }, ['sha256-prefix'], /prefix/],
  [
    'secret with a trailing newline',
    { 'x-service-signature': hex(`${SECRET}\n`, RAW) },
    ['secret-whitespace'],
    /secret followed by a newline/,
  ],
  [
    'secret with a leading space',
    { 'x-service-signature': hex(` ${SECRET}`, RAW) },
    ['secret-whitespace'],
    /secret preceded by a space/,
  ],
  [
    'compact re-serialization',
    { 'x-service-signature': hex(SECRET, JSON.stringify(parsed)) },
    ['reserialized-body'],
    /compact JSON.stringify/,
  ],
  [
    'pretty-printed with 4 spaces',
    { 'x-service-signature': hex(SECRET, JSON.stringify(parsed, null, 4)) },
    ['reserialized-body'],
    /4 spaces/,
  ],
  [
    'sorted keys',
    { 'x-service-signature': hex(SECRET, JSON.stringify(sortedKeys(parsed))) },
    ['reserialized-body'],
    /sorted keys/,
  ],
  [
    're-serialized, in uppercase hex (the case is no mistake: hex is accepted in either case)',
    { 'x-service-signature': hex(SECRET, JSON.stringify(parsed)).toUpperCase() },
    ['reserialized-body'],
    /^signature rejected: signed compact JSON.stringify output/,
  ],
  [
    'a different secret',
    { 'x-service-signature': hex('some-other-secret', RAW) },
    ['different-secret'],
    /different secret.*cannot be known/,
  ],
  ['a value that is no digest', { 'x-service-signature': 'not-a-signature' }, ['malformed-value'], /neither 64 hex/],
  ['an empty value', { 'x-service-signature': '' }, ['empty-value'], /empty/],
];

describe('diagnoseSignature', () => {
  it.each(cases)('%s', (_name, headers, mistakes, message) => {
    const d = diagnoseSignature({ rawBody: RAW, secret: SECRET, headers });
    expect(d.mistakes).toEqual(mistakes);
    expect(d.message).toMatch(message);
    expect(d.message).not.toContain(SECRET);
    expect(d.message).not.toContain(hex(SECRET, RAW));
    // Made with our secret (a fixable mistake) vs no proof the sender holds it: who the request is attributed to.
    const unproven = ['different-secret', 'malformed-value', 'empty-value', 'missing-header'];
    expect(d.sameSecret).toBe(!mistakes.some((m) => unproven.includes(m)));
  });

  it('recognizes a secret configured with stray whitespace on our side, signed trimmed by the sender', () => {
    const d = diagnoseSignature({
      rawBody: RAW,
      secret: `  ${SECRET}\n`,
      headers: { 'x-service-signature': hex(SECRET, RAW) },
    });
    expect(d.mistakes).toEqual(['secret-whitespace']);
    expect(d.message).toMatch(/without its surrounding whitespace/);
  });

  it.each([
    ['arrays 5,000 deep', '['.repeat(5_000) + ']'.repeat(5_000)],
    ['objects 5,000 deep', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`],
    ['arrays 100,000 deep', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['brackets inside strings do not count', `{"a":"${'['.repeat(10_000)}"}`],
  ])('diagnoses a hostile deeply nested body without throwing: %s', (_name, raw) => {
    const d = diagnoseSignature({ rawBody: raw, secret: SECRET, headers: { 'x-service-signature': hex('x', raw) } });
    expect(d.mistakes).toEqual(['different-secret']);
  });

  it('measures nesting depth linearly, ignoring brackets in strings', () => {
    expect(nestingDepth('{"a":[1,{"b":"[[[\\"}]}')).toBe(3);
    expect(nestingDepth('['.repeat(100_000))).toBe(100_000);
  });

  it('works on a body that is not JSON (no re-serialization variants)', () => {
    const d = diagnoseSignature({
      rawBody: Buffer.from('plain'),
      secret: SECRET,
      headers: { 'x-service-signature': hex('x', 'plain') },
    });
    expect(d.mistakes).toEqual(['different-secret']);
  });
});
