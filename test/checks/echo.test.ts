import { describe, expect, it } from 'vitest';
import { findEcho } from '../../src/checks/support/echo.js';
import { probeCredential } from '../../src/checks/support/probe-credential.js';
import { hmacHex } from '../../src/util/hmac.js';
import { overlappingPieces } from '../support/hostile-provider.js';

const SENT = probeCredential('echo-test');
const SIGNATURE = hmacHex('test-webhook-secret-51be02', '');
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const hex = (s: string): string => Buffer.from(s).toString('hex');

const body = (json: unknown) => ({ headers: {}, text: JSON.stringify(json), json });
const text = (t: string) => ({ headers: {}, text: t });

describe('findEcho: a repeated credential is found in any encoding, and only where it is', () => {
  it.each([
    ['raw, in a JSON message', body({ code: 'UNAUTHORIZED', message: `key ${SENT} is wrong` }), ['body at $.message']],
    [
      'in a nested debug field',
      body({ debug: { headers: { 'x-provider-api-key': SENT } } }),
      ['body at $.debug.headers.x-provider-api-key'],
    ],
    [
      'as an object key, named without spelling it',
      body({ tried: { [SENT]: 'rejected' } }),
      ['body at $.tried (one of its keys)'],
    ],
    ['in an array', body({ tried: ['a', SENT] }), ['body at $.tried[1]']],
    ['base64', body({ message: `token ${b64(SENT)}` }), ['body at $.message']],
    ['hex', body({ message: hex(SENT) }), ['body at $.message']],
    [
      'URL-encoded in a link',
      body({ retry: `https://x.example/?key=${encodeURIComponent(`${SENT}/`)}` }),
      ['body at $.retry'],
    ],
    [
      '\\u-escaped in raw text',
      text(SENT.replace(/./g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)),
      ['its body'],
    ],
    [
      'upper-cased and split across lines',
      text(`${SENT.slice(0, 20).toUpperCase()}\n${SENT.slice(20).toUpperCase()}`),
      ['its body'],
    ],
    ['a long enough piece', body({ message: `…${SENT.slice(-20)}` }), ['body at $.message']],
    [
      'in an answer header',
      { headers: { 'x-debug-auth': `Bearer ${SENT}` }, text: '{}', json: {} },
      ['header x-debug-auth'],
    ],
    ['a signature header value', body({ expected: SIGNATURE }), ['body at $.expected']],
    // Issue 32: overlapping pieces, each under half the credential, that laid side by side rebuild it.
    [
      'overlapping pieces of 15 characters',
      body({ message: 'rejected', details: overlappingPieces(SENT, 15, 5) }),
      // The pieces holding half the random part each give it away (the words "provcert-probe" do not count).
      ['body at $.details[3]', 'body at $.details[4]', 'body at $.details[5]'],
    ],
    [
      'overlapping pieces, each double %-encoded',
      text(
        overlappingPieces(SENT, 15, 5)
          .map((p) => encodeURIComponent(encodeURIComponent(p)))
          .join(','),
      ),
      ['its body'],
    ],
    [
      'overlapping pieces, one per answer header',
      {
        // Pieces of 8: no one header gives it away, together they do.
        headers: Object.fromEntries(overlappingPieces(SENT, 8, 4).map((p, i) => [`x-part-${i}`, p])),
        text: '{}',
        json: {},
      },
      ['pieces spread over its headers and body that together rebuild it'],
    ],
  ])('%s', (_name, answer, places) => {
    expect(findEcho(answer, [SENT, SIGNATURE])).toEqual(places);
  });

  it('names the places of a body holding the value 200,000 times (no argument spread)', () => {
    const places = findEcho(body({ tried: Array.from({ length: 200_000 }, () => SENT) }), [SENT]);
    expect(places).toEqual(['body at $.tried[0]', 'body at $.tried[1]', 'body at $.tried[2]', '199997 more']);
  });

  it.each([
    ['a masked credential', body({ message: 'key provcert-probe-**** is wrong' })],
    ['its last four characters', body({ message: `key ending in ${SENT.slice(-4)} is wrong` })],
    ['the header name only', body({ message: 'credential rejected: header x-provider-api-key does not match' })],
    ['a URL with its own password', body({ docs: 'https://user:hunter2@docs.example/auth' })],
    ['an empty answer', text('')],
  ])('nothing is found in %s', (_name, answer) => {
    expect(findEcho(answer, [SENT, SIGNATURE])).toEqual([]);
  });

  it('names the first places and counts the rest', () => {
    const answer = body({ a: SENT, b: SENT, c: SENT, d: SENT, e: SENT });
    expect(findEcho(answer, [SENT])).toEqual(['body at $.a', 'body at $.b', 'body at $.c', '2 more']);
  });
});
