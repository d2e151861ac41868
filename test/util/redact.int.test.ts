import { describe, expect, it } from 'vitest';
import { MASK, maskHeaders, Redactor, TOO_DEEP, urlSecrets } from '../../src/util/redact.js';
import { skeletonOf } from '../../src/util/skeleton.js';
import { secretEncodings } from '../support/hostile-provider.js';

const CREDENTIAL = 'sk_live_9f8e7d6c5b4a3f2e1d0c';
const WEBHOOK_SECRET = 'whsec Abc/123+xyz=very-long "secret" é-0042';
const redactor = new Redactor([CREDENTIAL, WEBHOOK_SECRET]);

describe('Redactor: every form of every secret is masked', () => {
  const cases = [CREDENTIAL, WEBHOOK_SECRET].flatMap((secret) =>
    Object.entries(secretEncodings(secret)).map(([form, text]) => [form, secret, text] as const),
  );
  it.each(cases)('%s of %j', (_form, secret, text) => {
    const masked = redactor.text(`before ${text} after`);
    expect(masked).toContain(MASK);
    for (const leak of Object.values(secretEncodings(secret))) expect(masked).not.toContain(leak);
    // Only the secret goes: a few encoded characters mixing in its neighbours' bits may stay.
    expect(masked).toMatch(/^before ?.{0,3}\*/s);
    expect(masked).toMatch(/\*.{0,5} ?after$/s);
    // Nothing of it is left to read once the encodings are undone either.
    expect(skeletonOf(masked).text).not.toContain(skeletonOf(secret).text);
  });

  it.each([
    ['a short secret is masked only whole', 'abcde', 'abcde and abcd', `${MASK} and abcd`],
    ['a secret under 4 characters is not searched for', 'abc', 'abc', 'abc'],
    ['a piece shorter than half the secret stays', CREDENTIAL, 'sk_live_9f8 is a prefix', 'sk_live_9f8 is a prefix'],
    ['a piece of half the secret is masked', CREDENTIAL, `x${CREDENTIAL.slice(2, 16)}x`, `x${MASK}x`],
    [
      'a piece that reads like words stays',
      'test-credential-7f3a9c',
      'check wrong-credential and test-credential',
      'check wrong-credential and test-credential',
    ],
    ['a piece with the random part is masked', 'test-credential-7f3a9c', 'x credential-7f3a y', `x ${MASK} y`],
    [
      'ordinary text is untouched',
      CREDENTIAL,
      'GET /catalog → 200 (content-type application/json)',
      'GET /catalog → 200 (content-type application/json)',
    ],
  ])('%s', (_name, secret, text, expected) => {
    expect(new Redactor([secret]).text(text)).toBe(expected);
  });

  it('masks secret-bearing headers by name, and secrets in any other header', () => {
    expect(maskHeaders({ Authorization: 'Bearer abc', 'x-session-token': 'zzz', accept: 'application/json' })).toEqual({
      authorization: `Bearer ${MASK}`,
      'x-session-token': MASK,
      accept: 'application/json',
    });
    expect(redactor.headers({ 'x-echo': `v=${CREDENTIAL}`, 'set-cookie': 'sid=1' })).toEqual({
      'x-echo': `v=${MASK}`,
      'set-cookie': MASK,
    });
  });

  it('masks a whole value deeply: keys, arrays, nested headers; stops at a bounded depth', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5_000; i++) deep = [deep];
    const value = {
      [CREDENTIAL]: [{ message: `code ${CREDENTIAL}` }],
      evidence: { headers: { cookie: 'a=b' } },
      deep,
      n: 3,
    };
    const masked = redactor.deep(value);
    expect(JSON.stringify(masked)).not.toContain(CREDENTIAL);
    expect(masked).toMatchObject({
      [MASK]: [{ message: `code ${MASK}` }],
      evidence: { headers: { cookie: MASK } },
      n: 3,
    });
    expect(JSON.stringify(masked)).toContain(TOO_DEEP);
  });

  it("masks a base URL's password: in the URL whatever the secrets, and every form of it once it is known", () => {
    const baseUrl = 'https://shop:p%40ss-w0rd-91c4e2@provider.example/api';
    const masker = new Redactor(urlSecrets(baseUrl));
    expect(new Redactor([]).text(`GET ${baseUrl}/catalog`)).toBe(
      `GET https://shop:${MASK}@provider.example/api/catalog`,
    );
    expect(masker.text('echo p@ss-w0rd-91c4e2')).toBe(`echo ${MASK}`);
    expect(masker.text(`echo ${Buffer.from('p@ss-w0rd-91c4e2').toString('hex')}`)).toBe(`echo ${MASK}`);
    expect(urlSecrets('https://provider.example/api')).toEqual([]);
    expect(urlSecrets('not a url')).toEqual([]);
  });
});
