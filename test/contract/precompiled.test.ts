import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/contract/contract.js';
import { contractPair, payloadFiles, payloadOf, payloads } from './precompiled-pair.js';

/**
 * The validators generated at build time must behave exactly like the ones compiled from the spec at run
 * time: every payload fixture, under every schema and every operation (precompiled-operations-*.test.ts), gives the
 * same explained problems and warnings from both.
 */

let runTime: Contract;
let precompiled: Contract;

beforeAll(async () => {
  ({ runTime, precompiled } = await contractPair());
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
    const value = payloadOf(file);
    for (const name of runTime.schemaNames()) {
      expect(precompiled.validate(name, value), `${file} as ${name}`).toStrictEqual(runTime.validate(name, value));
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
