import { describe, expect, it } from 'vitest';
import { validate } from '../../src/lib/validate.js';

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
