import { expect as jestExpect } from 'expect';
import { contractMatchers } from 'provcert/jest';
import { describe, it } from 'vitest';
import { health } from '../src/handlers.js';

// Jest's own expect (the `expect` package Jest is built on), extended exactly as a Jest setup file would.
jestExpect.extend(contractMatchers);

declare module 'expect' {
  interface Matchers<R> {
    toMatchContract(schemaName: string): R;
  }
}

describe('the same matcher under Jest', () => {
  it('passes a conforming body and fails a broken one with the explained errors', () => {
    jestExpect(health(new Date(), 1)).toMatchContract('HealthCheckResult');
    jestExpect(() => jestExpect({ status: 'HEALTHY' }).toMatchContract('HealthCheckResult')).toThrow(
      /missing required field "latencyMs"/,
    );
  });
});
