import { describe, expect, it } from 'vitest';
import { hmacDigest, hmacHex } from '../../src/util/hmac.js';

// RFC 4231 (HMAC-SHA256 test vectors), cases 1 and 2, plus the empty body a GET signs (DECISIONS.md, Credentials).
const cases: [name: string, key: string, data: string | Buffer, hex: string][] = [
  [
    'RFC 4231 case 2',
    'Jefe',
    'what do ya want for nothing?',
    '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  ],
  [
    'RFC 4231 case 1',
    '\x0b'.repeat(20),
    'Hi There',
    'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  ],
  ['the empty body', 'key', '', '5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0'],
  [
    'bytes given as a Buffer',
    'Jefe',
    Buffer.from('what do ya want for nothing?'),
    '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  ],
];

describe('hmacHex', () => {
  it.each(cases)('%s', (_name, key, data, hex) => {
    expect(hmacHex(key, data)).toBe(hex);
    expect(hmacDigest(key, data).toString('hex')).toBe(hex);
  });
});
