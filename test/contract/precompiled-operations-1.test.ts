import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/contract/contract.js';
import { contractPair, payloadHalf, payloadOf } from './precompiled-pair.js';

/** A status of every class, and both sides of each declared class, so `2XX`/`default` lookups are covered too. */
const STATUSES = [200, 201, 202, 204, 301, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503];

let runTime: Contract;
let precompiled: Contract;

beforeAll(async () => {
  ({ runTime, precompiled } = await contractPair());
});

// The first half of the payload fixtures (the other is in precompiled-operations-2.test.ts).
describe('precompiled and run-time contracts agree on every operation', () => {
  it.each(payloadHalf(0))('%s: the same result as every response and request body', (file) => {
    const value = payloadOf(file);
    for (const { key } of runTime.operations()) {
      expect(precompiled.validateRequest(key, value), `${file} as ${key} request`).toStrictEqual(
        runTime.validateRequest(key, value),
      );
      for (const status of STATUSES) {
        const expected = runTime.validateResponse(key, status, value);
        expect(precompiled.validateResponse(key, status, value), `${file} as ${key} ${status}`).toStrictEqual(expected);
      }
    }
  });
});
