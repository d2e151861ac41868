import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_SPEC_PATH } from '../../src/contract/bundled-path.js';
import type { Contract } from '../../src/contract/contract.js';
import { compileSpecAtRunTime } from '../../src/contract/load.js';
import { precompiledContract } from '../../src/contract/precompiled.js';
import { type SchemaName, validate } from '../../src/lib/validate.js';

/**
 * The library's validate() runs the validator itself, remembers the last schema it looked up and returns one
 * shared frozen result for a valid body without warnings. None of that may change a result: it must answer
 * exactly what the Contract compiled at run time answers, in any order of schemas, warnings or not.
 */

const PAYLOADS = join(import.meta.dirname, '../../fixtures/payloads');
/** Folder metadata, not payloads. */
const NOT_PAYLOADS = new Set(['expected.json', 'warnings.json']);

/** Every payload fixture under the schema of its folder, interleaved so that consecutive calls change schema. */
const cases = readdirSync(PAYLOADS, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.json') && !NOT_PAYLOADS.has(file.split(/[\\/]/).at(-1) ?? ''))
  .sort()
  .map((file) => ({
    schema: file.split(/[\\/]/)[0] as SchemaName,
    file,
    value: JSON.parse(readFileSync(join(PAYLOADS, file), 'utf8')) as unknown,
  }));
const interleaved = cases.flatMap((c, i) => [c, cases[(i * 7 + 3) % cases.length] ?? c, c]);

const HEALTHY = { status: 'HEALTHY', latencyMs: 3, timestamp: '2026-11-23T12:00:00Z' };
const OFFSETLESS = { ...HEALTHY, timestamp: '2026-11-23T12:00:00' };

let runTime: Contract;

beforeAll(async () => {
  const compiled = await compileSpecAtRunTime(BUNDLED_SPEC_PATH);
  if (!compiled.ok) throw new Error(compiled.error.message);
  runTime = compiled.value;
});

describe("the library's validate() answers what the Contract answers", () => {
  it('for every payload fixture, schemas changing from call to call', () => {
    const kinds = { valid: 0, invalid: 0, warned: 0 };
    for (const { schema, file, value } of interleaved) {
      const expected = runTime.validate(schema, value);
      const result = validate(schema, value);
      expect(result, file).toStrictEqual({
        valid: expected.valid,
        errors: expected.problems,
        warnings: expected.warnings,
      });
      kinds[expected.valid ? 'valid' : 'invalid']++;
      if (expected.warnings.length > 0) kinds.warned++;
    }
    // The fixtures exercise every path: the shared valid result, warnings and problems.
    expect(Math.min(kinds.valid, kinds.invalid, kinds.warned)).toBeGreaterThan(10);
  });

  it.each([
    ['valid, no warnings', HEALTHY, true, [], []],
    ['valid with a warning', OFFSETLESS, true, [], ['offsetless-timestamp']],
    [
      'invalid with a warning',
      { status: 'HEALTHY', timestamp: '2026-11-23T12:00:00' },
      false,
      ['required'],
      ['offsetless-timestamp'],
    ],
    ['invalid, no warnings', { ...HEALTHY, latencyMs: '3' }, false, ['type'], []],
    ['valid again after the others', HEALTHY, true, [], []],
  ] as const)('%s: no warning or problem carried over from another call', (_name, value, valid, errors, warnings) => {
    validate('HealthCheckResult', OFFSETLESS);
    validate('HealthCheckResult', { latencyMs: null });
    const result = validate('HealthCheckResult', value);
    expect(result.valid).toBe(valid);
    expect(result.errors.map((e) => e.rule)).toEqual(errors);
    expect(result.warnings.map((w) => w.rule)).toEqual(warnings);
  });
});

describe('the shared valid result', () => {
  it('cannot be changed by one caller for the next (library and Contract)', () => {
    const results = [
      validate('HealthCheckResult', HEALTHY),
      precompiledContract().validate('HealthCheckResult', HEALTHY),
    ];
    for (const result of results) {
      expect(Object.isFrozen(result)).toBe(true);
      expect(() => Object.assign(result, { valid: false })).toThrow(TypeError);
      expect(() => (result.warnings as unknown[]).push('x')).toThrow(TypeError);
    }
    expect(validate('HealthCheckResult', HEALTHY)).toStrictEqual({ valid: true, errors: [], warnings: [] });
  });
});

describe('the remembered schema', () => {
  it.each(['Catalogue', '', 'toString', '__proto__', 'constructor'])(
    'an unknown name (%j) between two calls throws and does not change what the next call validates against',
    (name) => {
      expect(validate('HealthCheckResult', HEALTHY).valid).toBe(true);
      expect(() => validate(name as SchemaName, HEALTHY)).toThrow(TypeError);
      expect(() => validate(name as SchemaName, HEALTHY)).toThrow(/unknown schema/);
      expect(validate('HealthCheckResult', HEALTHY).valid).toBe(true);
      expect(validate('Catalog', HEALTHY).errors.map((e) => e.text)).toContain(
        '(root) is missing required field "offerings"',
      );
    },
  );
});
