import { describe, expect, it } from 'vitest';
import { judgeUnavailableAnswer } from '../../src/checks/quote-validation.js';
import { changedIds } from '../../src/checks/support/catalog-ids.js';
import { reasonProblems, unsafeReasonContent } from '../../src/checks/support/event-reason.js';
import type { InvalidSelection } from '../../src/checks/support/quote-selections.js';

const SECRET = 'webhook-secret-51be02';

describe('unsafeReasonContent', () => {
  it.each([
    ['a plain reason', "cancelled at the customer's request", undefined],
    [
      'a Luhn-valid card number with spaces',
      'refund to card 4111 1111 1111 1111 initiated',
      'a card number (Luhn-valid digits)',
    ],
    ['a Luhn-valid card number with dashes', 'card 5500-0000-0000-0004', 'a card number (Luhn-valid digits)'],
    ['a 16-digit order number that fails Luhn', 'order 1234 5678 9012 3456 cancelled', undefined],
    ['a phone number (too short for a card)', 'call +1 555 010 0199', undefined],
    ["the run's secret", `signed with ${SECRET}`, "this run's credential or webhook secret"],
    ['a password', 'customer password: hunter22', 'a password'],
    ['a one-time code', 'OTP 482913 was not entered', 'a one-time code'],
    // "unnecessary identity documents" (issue 24): a document named with its number.
    ['a passport number', 'identity checked: passport X1234567', 'an identity document number'],
    ['an ID card number', 'ID card no. 123456789 did not match', 'an identity document number'],
    ['a social security number', 'SSN 078-05-1120 on file', 'an identity document number'],
    ["a driver's licence number", "driver's license D1234-5678-9012", 'an identity document number'],
    ['a document named without a number', 'the customer could not show a passport', undefined],
  ])('%s', (_name, text, expected) => {
    expect(unsafeReasonContent(text, [SECRET])).toBe(expected);
  });
});

describe('reasonProblems', () => {
  it.each([
    [
      'a terminal event with code and reason',
      { newStatus: 'CANCELLED', reasonCode: 'CUSTOMER_CANCELLED', reason: 'the customer cancelled' },
      [],
    ],
    ['a non-terminal event without reason', { newStatus: 'AWAITING_PAYMENT' }, []],
    ['a terminal event without reason fields', { newStatus: 'FAILED' }, ['WEBHOOK-TERMINAL-REASON']],
    [
      'a terminal event with a blank reason',
      { newStatus: 'CANCELLED', reasonCode: 'OTHER', reason: '  ' },
      ['WEBHOOK-TERMINAL-REASON'],
    ],
    [
      'a reason carrying card data',
      { newStatus: 'CANCELLED', reasonCode: 'OTHER', reason: 'card 4111111111111111' },
      ['REASON-NO-SECRETS'],
    ],
  ])('%s', (_name, event, requirements) => {
    expect(reasonProblems(event, 'event e1', [SECRET]).map((p) => p.requirement)).toEqual(requirements);
  });
});

describe('changedIds', () => {
  const catalog = (offeringId: string, optionId = 'opt-1') => ({
    categories: [{ id: 'cat-1', slug: 'pizza' }],
    offerings: [
      {
        id: offeringId,
        offeringCode: 'MARG',
        optionGroups: [{ id: 'grp-1', name: 'Crust', options: [{ id: optionId, name: 'Thin' }] }],
      },
    ],
  });
  it.each([
    ['the same answer twice', catalog('off-1'), catalog('off-1'), []],
    ['an offering renumbered', catalog('off-1'), catalog('off-1~r2'), ['offering MARG had id off-1, then off-1~r2']],
    [
      'an option renumbered',
      catalog('off-1'),
      catalog('off-1', 'opt-9'),
      ['offering MARG option group "Crust" option "Thin" had id opt-1, then opt-9'],
    ],
    ['an offering that disappeared (not judged)', catalog('off-1'), { categories: [], offerings: [] }, []],
    ['not a catalog', 'oops', catalog('off-1'), []],
  ])('%s', (_name, first, second, changes) => {
    expect(changedIds(first, second)).toEqual(changes);
  });
});

describe('judgeUnavailableAnswer', () => {
  const variant: InvalidSelection = {
    name: 'unavailable-variant',
    describe: 'v',
    offeringId: 'off-1',
    variantId: 'var-out',
  };
  it.each([
    [
      'quoting the unavailable variant anyway',
      { lines: [{ offeringId: 'off-1', variantId: 'var-out' }] },
      'quoted-anyway',
    ],
    ['quoting another variant silently', { lines: [{ offeringId: 'off-1', variantId: 'var-in' }] }, 'substituted'],
    [
      'quoting another variant and naming the unavailable one',
      { lines: [{ offeringId: 'off-1', variantId: 'var-in' }], metadata: { unavailable: ['var-out'] } },
      'alternative',
    ],
  ])('%s', (_name, json, verdict) => {
    expect(judgeUnavailableAnswer(variant, json)).toBe(verdict);
  });
});
