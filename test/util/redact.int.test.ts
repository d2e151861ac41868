import { describe, expect, it } from 'vitest';
import { MASK, maskHeaders, Redactor, TOO_DEEP, urlSecrets } from '../../src/util/redact.js';
import { skeletonOf } from '../../src/util/skeleton.js';
import { secretEncodings, shareShown } from '../support/hostile-provider.js';

const CREDENTIAL = 'sk_live_9f8e7d6c5b4a3f2e1d0c';
const WEBHOOK_SECRET = 'whsec Abc/123+xyz=very-long "secret" é-0042';
// 34 characters, as in issue 32's overlap attack (pieces of 15 and of 16, overlapping).
const KEY_34 = 'pk_7Hq2Lm9Xv4Rt8Nw3Ks6Jd1Fb5Gz0YcQ';
const redactor = new Redactor([CREDENTIAL, WEBHOOK_SECRET, KEY_34]);

describe('Redactor: every form of every secret is masked', () => {
  const cases = [CREDENTIAL, WEBHOOK_SECRET, KEY_34].flatMap((secret) =>
    Object.entries(secretEncodings(secret)).map(([form, text]) => [form, secret, text] as const),
  );
  it.each(cases)('%s of %j', (form, secret, text) => {
    const masked = redactor.text(`before ${text} after`);
    expect(masked).toContain(MASK);
    for (const leak of Object.values(secretEncodings(secret))) expect(masked).not.toContain(leak);
    // Only the secret goes: a few encoded characters mixing in its neighbours' bits may stay. Of pieces, the last
    // few characters stay, too short to count (secret-pieces.ts).
    if (!form.startsWith('overlapping pieces')) {
      expect(masked).toMatch(/^before ?.{0,3}\*/s);
      expect(masked).toMatch(/\*.{0,5} ?after$/s);
    }
    // Nothing of it is left to read once the encodings are undone either.
    expect(skeletonOf(masked).text).not.toContain(skeletonOf(secret).text);
    // Nor enough pieces to rebuild it, laid side by side (issue 32): less than half of it shows.
    expect(shareShown(masked, secret)).toBeLessThan(0.5);
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

  // Issue 32: what pieces show together is what counts, in one string and over a whole value.
  it.each([
    ['a run of 4 with a digit alone stays (chance explains it)', CREDENTIAL, 'id 9f8e and 1d0c', 'id 9f8e and 1d0c'],
    ['runs covering under half stay', CREDENTIAL, `x ${CREDENTIAL.slice(8, 13)} y`, `x ${CREDENTIAL.slice(8, 13)} y`],
    [
      'runs covering half are masked, each',
      CREDENTIAL,
      `a ${CREDENTIAL.slice(8, 15)} b ${CREDENTIAL.slice(15, 22)} c`,
      `a ${MASK} b ${MASK} c`,
    ],
  ])('%s', (_name, secret, text, expected) => {
    expect(new Redactor([secret]).text(text)).toBe(expected);
  });

  it('pieces spread over many strings of one value count together (deep)', () => {
    const pieces = [CREDENTIAL.slice(8, 17), CREDENTIAL.slice(15, 24), CREDENTIAL.slice(21)];
    const value = { details: pieces, headers: { 'x-a': pieces[0] }, [pieces[2] as string]: 'key' };
    // Each string alone shows under half the key; together they show all of it.
    for (const piece of pieces) expect(redactor.text(piece)).toBe(piece);
    const masked = redactor.deep(value);
    expect(shareShown(JSON.stringify(masked), CREDENTIAL)).toBeLessThan(0.5);
    expect(masked.details).toEqual([MASK, MASK, MASK]);
    // A value without enough pieces is left as it was.
    expect(redactor.deep({ details: [pieces[0]] })).toEqual({ details: [pieces[0]] });
  });

  // provcert's own probe credential: fixed words, then 24 hex digits. A report is full of uuids and English.
  const PROBE = 'provcert-probe-7d0147264fa03c3f17aedef6';
  const DIGITS = PROBE.slice('provcert-probe-'.length);
  const requirement = { section: 'Endpoints › Provider routes', quote: 'the provider certifies' };

  it('four hex digits of a secret whose random part is hex are chance: uuids holding them reveal nothing', () => {
    const ids = [0, 4, 8, 12].map((i) => `0000-${DIGITS.slice(i, i + 4)}-9999`);
    const value = { requirement, ids };
    expect(new Redactor([PROBE]).deep(value)).toEqual(value);
  });

  it("a run of a secret's words alone is no echo of it: only the pieces of its random part are masked", () => {
    const ids = [0, 5, 10].map((i) => `0000-${DIGITS.slice(i, i + 5)}-9999`);
    const masked = new Redactor([PROBE]).deep({ requirement, ids });
    expect(masked.ids).toEqual(ids.map(() => `0000-${MASK}-9999`));
    expect(masked.requirement).toEqual(requirement);
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
