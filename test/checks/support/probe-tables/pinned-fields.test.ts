import { describe, expect, it } from 'vitest';
import {
  otherValues,
  PINNED_RULES,
  pinnedProbeTable,
  pinnedRuleKey,
  refusalCodes,
  withField,
} from '../../../../src/checks/support/probe-tables/pinned-fields.js';
import { pinnedFields } from '../../../../src/contract/pinned.js';
import { precompiledContract } from '../../../../src/contract/precompiled.js';

const contract = precompiledContract();
const createAction = contract.operation('POST /actions');

describe('pinned fields read from the spec', () => {
  it('finds userConfirmed: true in CreateActionInput', () => {
    expect(createAction?.pinned).toEqual([{ path: ['userConfirmed'], value: true, required: true }]);
  });

  it('has a rule for every pinned field of every provider route (a new one fails here until it gets one)', () => {
    const unruled = contract
      .operations()
      .filter((op) => op.capability !== undefined)
      .flatMap((op) => op.pinned.map((field) => pinnedRuleKey(op.key, field)))
      .filter((key) => PINNED_RULES[key] === undefined);
    expect(unruled).toEqual([]);
  });

  it('reads const and one-value enums, through refs and nested objects, not arrays or wider enums', () => {
    const doc = {
      components: {
        schemas: {
          Terms: { type: 'object', properties: { accepted: { enum: ['YES'] }, mode: { enum: ['A', 'B'] } } },
        },
      },
    };
    const schema = {
      type: 'object',
      required: ['version'],
      properties: {
        version: { const: 2 },
        terms: { $ref: '#/components/schemas/Terms' },
        items: { type: 'array', items: { type: 'object', properties: { fixed: { const: true } } } },
      },
    };
    expect(pinnedFields(doc, schema)).toEqual([
      { path: ['version'], value: 2, required: true },
      { path: ['terms', 'accepted'], value: 'YES', required: false },
    ]);
  });
});

describe('the pinned-field probe table', () => {
  it('sends userConfirmed with every value a lenient parser reads as true, and every JSON type', () => {
    const sent = otherValues(true).map((v) => v.value);
    for (const value of ['true', 1, 'false', 0, null, [], {}, false]) expect(sent).toContainEqual(value);
    expect(sent).not.toContainEqual(true);
    expect(new Set(sent.map((v) => JSON.stringify(v))).size).toBe(sent.length);
  });

  it('gives strings and numbers their near values too', () => {
    expect(otherValues('YES').map((v) => v.value)).toEqual(expect.arrayContaining(['yes', ' YES', null, ['YES']]));
    expect(otherValues(2).map((v) => v.value)).toEqual(expect.arrayContaining(['2', 3, null, {}]));
  });

  it('is every pinned field × every other value, each with its rule', () => {
    if (!createAction) throw new Error('POST /actions is not in the spec');
    const table = pinnedProbeTable(createAction);
    expect(table).toHaveLength(otherValues(true).length);
    expect(table.every((row) => row.rule?.requirement === 'ACTION-NOT-CONFIRMED')).toBe(true);
  });

  it('refuses a boolean with ACTION_NOT_CONFIRMED only, another type also as a validation failure', () => {
    const rule = PINNED_RULES['POST /actions userConfirmed'];
    if (!rule) throw new Error('no rule for userConfirmed');
    const field = { path: ['userConfirmed'], value: true, required: true };
    expect(refusalCodes(rule, field, { value: false, describe: 'false' })).toEqual(['ACTION_NOT_CONFIRMED']);
    expect(refusalCodes(rule, field, { value: 'true', describe: '"true"' })).toEqual([
      'ACTION_NOT_CONFIRMED',
      'VALIDATION_ERROR',
      'INVALID_ARGUMENT',
    ]);
  });

  it('sets a field at its path without changing the body it was given', () => {
    const body = { a: 1, terms: { accepted: 'YES', other: 1 } };
    expect(withField(body, ['terms', 'accepted'], null)).toEqual({ a: 1, terms: { accepted: null, other: 1 } });
    expect(withField(body, ['userConfirmed'], [])).toEqual({ ...body, userConfirmed: [] });
    expect(body).toEqual({ a: 1, terms: { accepted: 'YES', other: 1 } });
  });
});
