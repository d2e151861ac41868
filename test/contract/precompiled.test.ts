import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_SPEC_PATH } from '../../src/contract/bundled-path.js';
import type { Contract } from '../../src/contract/contract.js';
import { compileSpecAtRunTime } from '../../src/contract/load.js';
import { precompiledContract } from '../../src/contract/precompiled.js';

/**
 * The validators generated at build time must behave exactly like the ones compiled from the spec at run
 * time: every payload fixture, under every schema and every operation, gives the same explained problems
 * and warnings from both.
 */

const PAYLOADS = join(import.meta.dirname, '../../fixtures/payloads');
/** Folder metadata, not payloads. */
const NOT_PAYLOADS = new Set(['expected.json', 'warnings.json']);
/** A status of every class, and both sides of each declared class, so `2XX`/`default` lookups are covered too. */
const STATUSES = [200, 201, 202, 204, 301, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503];

const payloadFiles = readdirSync(PAYLOADS, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.json') && !NOT_PAYLOADS.has(file.split(/[\\/]/).at(-1) ?? ''))
  .sort();
const payloads = payloadFiles.map((file) => ({
  file,
  value: JSON.parse(readFileSync(join(PAYLOADS, file), 'utf8')) as unknown,
}));

let runTime: Contract;
let precompiled: Contract;

beforeAll(async () => {
  const compiled = await compileSpecAtRunTime(BUNDLED_SPEC_PATH);
  if (!compiled.ok) throw new Error(compiled.error.message);
  runTime = compiled.value;
  precompiled = precompiledContract();
});

describe('precompiled and run-time contracts', () => {
  it('find the payload fixtures', () => {
    expect(payloads.length).toBeGreaterThan(300);
  });

  it('describe the same contract: version, path, names, enums, suggested values and operations', () => {
    expect(precompiled.version).toBe(runTime.version);
    expect(precompiled.specPath).toBe(runTime.specPath);
    expect(precompiled.schemaNames()).toStrictEqual(runTime.schemaNames());
    expect(precompiled.operations()).toStrictEqual(runTime.operations());
    for (const name of [...runTime.schemaNames(), 'Nope', 'toString', '__proto__']) {
      expect(precompiled.hasSchema(name), name).toBe(runTime.hasSchema(name));
      expect(precompiled.enumValues(name), name).toStrictEqual(runTime.enumValues(name));
      expect(precompiled.suggestedValues(name), name).toStrictEqual(runTime.suggestedValues(name));
    }
    for (const { key } of runTime.operations())
      expect(precompiled.operation(key)).toStrictEqual(runTime.operation(key));
    expect(precompiled.operation('GET /nothing')).toBeUndefined();
  });

  it.each(payloadFiles)('%s: the same result under every schema', (file) => {
    const { value } = payloads.find((p) => p.file === file) ?? { value: undefined };
    for (const name of runTime.schemaNames()) {
      expect(precompiled.validate(name, value), `${file} as ${name}`).toStrictEqual(runTime.validate(name, value));
    }
  });

  it.each(payloadFiles)('%s: the same result as every response and request body', (file) => {
    const { value } = payloads.find((p) => p.file === file) ?? { value: undefined };
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

  it('compare results that matter: under its own schema each valid fixture passes, each invalid one fails, some warn', () => {
    const own = payloads.map(({ file, value }) => ({
      file,
      result: precompiled.validate(file.split(/[\\/]/)[0] ?? '', value),
    }));
    expect(own.filter(({ result }) => !result.valid).length).toBeGreaterThan(100);
    expect(
      own.filter(({ file, result }) => /[\\/]invalid-/.test(file) === result.valid).map(({ file }) => file),
    ).toEqual([]);
    expect(new Set(own.flatMap(({ result }) => result.warnings.map((w) => w.rule)))).toEqual(
      new Set(['offsetless-timestamp', 'suggested-values']),
    );
  });

  it.each([
    ['an empty object', {}],
    ['null', null],
    [
      'a deep catalog with every kind of mistake',
      { offerings: [{ id: 1, basePrice: '1', createdAt: '2026-13-01T00:00:00' }], categories: 'x' },
    ],
  ])('agree on %s under every schema, including warnings carried over from nothing', (_name, value) => {
    for (const name of runTime.schemaNames())
      expect(precompiled.validate(name, value), name).toStrictEqual(runTime.validate(name, value));
  });

  it('reject an unknown schema name the same way', () => {
    expect(() => precompiled.validate('Nope', {})).toThrow(/unknown schema "Nope"/);
    expect(() => runTime.validate('Nope', {})).toThrow(/unknown schema "Nope"/);
  });
});
