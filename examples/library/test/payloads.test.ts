import { validate } from 'provcert';
import 'provcert/vitest';
import { describe, expect, it } from 'vitest';
import { health, quote } from '../src/handlers.js';

const now = new Date('2026-11-23T12:00:00Z');

describe('our payloads match the contract', () => {
  it('health and quote bodies match their schemas', () => {
    expect(health(now, 3)).toMatchContract('HealthCheckResult');
    expect(quote('north-kitchen', [{ offeringId: 'pizza', quantity: 2, unitPrice: 950 }], now, 60)).toMatchContract(
      'NormalizedQuote',
    );
  });

  it('validate() explains what is wrong, in the words of provcert validate', () => {
    const result = validate('HealthCheckResult', { status: 'HEALTHY', latencyMs: 'fast' });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.text)).toEqual([
      '(root) is missing required field "timestamp"',
      '/latencyMs must be number (found string "fast")',
    ]);
  });

  it('a body that does not match fails the matcher with the explained errors', () => {
    const broken = { ...health(now, 3), latencyMs: 'fast' };
    expect(() => expect(broken).toMatchContract('HealthCheckResult')).toThrow(
      /match the contract's HealthCheckResult; 1 problem:\n {2}- \/latencyMs must be number \(found string "fast"\)/,
    );
    expect(broken).not.toMatchContract('HealthCheckResult');
  });

  it('a schema name that is not in the contract is a test bug, named as such', () => {
    // @ts-expect-error: 'Quote' is not a schema name; the type of validate() knows them all.
    expect(() => validate('Quote', {})).toThrow(/unknown schema "Quote" \(did you mean NormalizedQuote/);
  });
});
