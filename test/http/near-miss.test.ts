import { describe, expect, it } from 'vitest';
import { authHeadersFor, nearMiss } from '../../src/http/auth.js';
import { curlFor } from '../../src/http/reproduce.js';
import type { NearMissChange } from '../../src/http/types.js';
import type { Exchange } from '../../src/model/exchange.js';
import { hmacHex } from '../../src/util/hmac.js';

const KEY = 'Secret-Key-0123';

describe('near-miss credentials', () => {
  it.each<[NearMissChange, string]>([
    ['drop-last', 'Secret-Key-012'],
    ['first-half', 'Secret-K'],
    ['append', 'Secret-Key-01230'],
    ['swap-case', 'sECRET-kEY-0123'],
    ['nbsp-around', '\u00a0Secret-Key-0123\u00a0'],
    ['space-before', ' Secret-Key-0123'],
    ['upper-case', 'SECRET-KEY-0123'],
  ])('%s changes the value, keeping it recognisable', (change, expected) => {
    expect(nearMiss(KEY, change)).toBe(expected);
    expect(nearMiss(KEY, change)).not.toBe(KEY);
  });

  it.each<[NearMissChange, string]>([
    ['scheme-replaced', 'Basic Secret-Key-0123'],
    ['word-before', 'Token Bearer Secret-Key-0123'],
  ])('%s changes a bearer header value around the right token', (change, expected) => {
    const headers = authHeadersFor('BEARER_TOKEN', KEY, '', { kind: 'near-miss', change, target: 'signature' });
    expect(headers).toEqual({ authorization: expected });
  });

  it('changes the credential, or the signature it gives, in the header the method uses', () => {
    const bearer = authHeadersFor('BEARER_TOKEN', KEY, '', {
      kind: 'near-miss',
      change: 'space-before',
      target: 'credential',
    });
    expect(bearer).toEqual({ authorization: `Bearer  ${KEY}` });
    const truncated = authHeadersFor('HMAC_SIGNATURE', KEY, '{}', {
      kind: 'near-miss',
      change: 'drop-last',
      target: 'signature',
    });
    expect(truncated).toEqual({ 'x-service-signature': hmacHex(KEY, '{}').slice(0, -1) });
    const otherSecret = authHeadersFor('HMAC_SIGNATURE', KEY, '{}', {
      kind: 'near-miss',
      change: 'swap-case',
      target: 'credential',
    });
    expect(otherSecret).toEqual({ 'x-service-signature': hmacHex('sECRET-kEY-0123', '{}') });
  });

  it("carries the credential in another method's header", () => {
    expect(authHeadersFor('API_KEY', KEY, '', { kind: 'other-scheme' })).toEqual({ authorization: `Bearer ${KEY}` });
    expect(authHeadersFor('BEARER_TOKEN', KEY, '', { kind: 'other-scheme' })).toEqual({ 'x-provider-api-key': KEY });
  });

  it('reproduces a near miss with the credential by reference, changed in the shell', () => {
    const exchange: Exchange = {
      request: {
        method: 'GET',
        url: 'https://provider.test/catalog',
        headers: { 'x-provider-api-key': '****' },
        auth: 'near-miss',
        nearMiss: { change: 'drop-last', target: 'credential' },
      },
      durationMs: 1,
    };
    const curl = curlFor(exchange, 'API_KEY', { kind: 'env', name: 'PROVIDER_API_KEY' });
    expect(curl).toContain(`x-provider-api-key: $(printf '%s' "$PROVIDER_API_KEY" | sed 's/.$//')`);
    expect(curl).not.toContain(KEY);
  });
});
