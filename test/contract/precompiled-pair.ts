import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_SPEC_PATH } from '../../src/contract/bundled-path.js';
import type { Contract } from '../../src/contract/contract.js';
import { compileSpecAtRunTime } from '../../src/contract/load.js';
import { precompiledContract } from '../../src/contract/precompiled.js';

/**
 * The generated validators must behave exactly like the ones compiled from the spec at run time (precompiled*.test.ts).
 * The comparison is split over files so the unit tier's threads share it; within a thread the compiled pair is made
 * once (the unit tier does not isolate its files).
 */

const PAYLOADS = join(import.meta.dirname, '../../fixtures/payloads');
/** Folder metadata, not payloads. */
const NOT_PAYLOADS = new Set(['expected.json', 'warnings.json']);

export const payloadFiles = readdirSync(PAYLOADS, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.json') && !NOT_PAYLOADS.has(file.split(/[\\/]/).at(-1) ?? ''))
  .sort();

export const payloads = payloadFiles.map((file) => ({
  file,
  value: JSON.parse(readFileSync(join(PAYLOADS, file), 'utf8')) as unknown,
}));

export const payloadOf = (file: string): unknown => payloads.find((p) => p.file === file)?.value;

/** Half `which` (0 or 1) of the payload files, for the two files comparing every operation. */
export const payloadHalf = (which: 0 | 1): string[] => payloadFiles.filter((_, i) => i % 2 === which);

let pair: Promise<{ runTime: Contract; precompiled: Contract }> | undefined;

/** The contract compiled from the spec now, and the one generated at build time. */
export function contractPair(): Promise<{ runTime: Contract; precompiled: Contract }> {
  pair ??= compileSpecAtRunTime(BUNDLED_SPEC_PATH).then((compiled) => {
    if (!compiled.ok) throw new Error(compiled.error.message);
    return { runTime: compiled.value, precompiled: precompiledContract() };
  });
  return pair;
}

/** A status of every class, and both sides of each declared class, so `2XX`/`default` lookups are covered too. */
const STATUSES = [200, 201, 202, 204, 301, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503];

/** Half `which` of the payload fixtures gives the same result from both contracts as every request and response body. */
export function describeOperationsAgree(which: 0 | 1): void {
  let runTime: Contract;
  let precompiled: Contract;
  beforeAll(async () => {
    ({ runTime, precompiled } = await contractPair());
  });
  describe('precompiled and run-time contracts agree on every operation', () => {
    it.each(payloadHalf(which))('%s: the same result as every response and request body', (file) => {
      const value = payloadOf(file);
      for (const { key } of runTime.operations()) {
        expect(precompiled.validateRequest(key, value), `${file} as ${key} request`).toStrictEqual(
          runTime.validateRequest(key, value),
        );
        for (const status of STATUSES) {
          const expected = runTime.validateResponse(key, status, value);
          expect(precompiled.validateResponse(key, status, value), `${file} as ${key} ${status}`).toStrictEqual(
            expected,
          );
        }
      }
    });
  });
}
