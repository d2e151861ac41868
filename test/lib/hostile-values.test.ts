import { describe, expect, it } from 'vitest';
import { certify } from '../../src/lib/certify.js';
import { validate } from '../../src/lib/validate.js';
import { UsageError } from '../../src/model/errors.js';

describe("the library's validate() on values JSON cannot hold", () => {
  it.each([
    ['a BigInt', 10n, '(root) must be object (found bigint)'],
    ['a Symbol', Symbol('s'), '(root) must be object (found symbol)'],
    ['a function', () => 1, '(root) must be object (found function)'],
    ['a BigInt inside', { id: 1n }, '/id must be string (found bigint)'],
    ['a Symbol in a list', { id: 'x', tags: [Symbol('t')] }, undefined],
  ])('explains %s instead of throwing', (_name, value, expected) => {
    const result = validate('Offering', value);
    expect(result.valid).toBe(false);
    if (expected) expect(result.errors.map((e) => e.text)).toContain(expected);
  });
});

describe("the library's certify() on options of the wrong type (issue 32): a UsageError naming the option", () => {
  const good = { baseUrl: 'http://127.0.0.1:1', auth: 'API_KEY', credential: 'k', webhookSecret: 's', local: true };
  it.each<[string, unknown, RegExp]>([
    ['no options at all', undefined, /^certify: takes an options object \(got undefined\)$/],
    [
      'a URL object as baseUrl',
      { ...good, baseUrl: new URL('http://127.0.0.1:1') },
      /^certify: baseUrl must be a string/,
    ],
    ['a number as the check list', { ...good, only: 5 }, /^certify: only must be a string list \(got integer 5\)$/],
    [
      'a string as capabilities',
      { ...good, capabilities: 'TRANSACTIONAL' },
      /^certify: capabilities must be a string list/,
    ],
    [
      'a string as timeoutMs',
      { ...good, timeoutMs: '5000' },
      /^certify: timeoutMs must be a number \(got string "5000"\)$/,
    ],
    ['a plain object as signal', { ...good, signal: { aborted: false } }, /^certify: signal must be an AbortSignal/],
    ['a string as onCheckEnd', { ...good, onCheckEnd: 'log' }, /^certify: onCheckEnd must be a function/],
    ['"yes" as local', { ...good, local: 'yes' }, /^certify: local must be a boolean/],
    ['a number as the credential', { ...good, credential: 42 }, /^certify: credential must be a string/],
  ])('%s', async (_name, options, message) => {
    const call = certify(options as Parameters<typeof certify>[0]);
    await expect(call).rejects.toBeInstanceOf(UsageError);
    await expect(call).rejects.toThrow(message);
  });
});
