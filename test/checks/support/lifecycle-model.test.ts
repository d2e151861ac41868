import { describe, expect, it } from 'vitest';
import {
  type Allowances,
  CHANGES,
  canCancel,
  canCreate,
  cancelled,
  cancelNamesAction,
  canQuote,
  canWaitForExpiry,
  changedBody,
  created,
  describeSteps,
  expiredAll,
  identityDifferences,
  initialModel,
  MAX_ACTIONS,
  MAX_QUOTES,
  reproduceSteps,
  stateOf,
} from '../../../src/checks/support/lifecycle/model.js';

const allow = (over: Partial<Allowances> = {}): Allowances => ({
  cancel: true,
  paymentOptions: true,
  ordersLeft: () => 6,
  mayWaitForExpiry: () => true,
  ...over,
});

const body = {
  idempotencyKey: 'k-1',
  providerSlug: 'demo-kitchen',
  quoteId: 'q_1',
  userConfirmed: true,
  customer: { name: 'Provcert Certification', phone: '+15550100000' },
  destination: { raw: '1 Certification Street' },
  items: [
    { offeringId: 'off-a', quantity: 2 },
    { offeringId: 'off-b', quantity: 1 },
  ],
};

const action = {
  id: 'act_1',
  publicId: 'DK-1001',
  externalActionId: 'dk-order-1001',
  quoteId: 'q_1',
  subtotal: 2400,
  total: 2650,
  currency: 'EUR',
  status: 'AWAITING_PAYMENT',
  lines: [{ offeringId: 'off-a', quantity: 2, unitPrice: 1200, optionsTotal: 0, lineTotal: 2400 }],
};

describe('the lifecycle model: what each state allows', () => {
  it('starts with one valid quote and no action', () => {
    const m = initialModel();
    expect(m).toEqual({ quotes: [{ expired: false, aged: false }], actions: [], waited: false });
    expect(canQuote(m)).toBe(true);
    expect(canWaitForExpiry(m, allow())).toBe(true);
  });

  it('creates one action per valid quote, and on a used quote only once it expired', () => {
    const m = initialModel();
    expect(canCreate(m, 0, allow())).toBe(true);
    expect(canCreate(m, 1, allow()), 'no second quote yet').toBe(false);
    expect(created(m, 0)).toBe(0);
    expect(m.quotes[0]?.usedBy).toBe(0);
    expect(canCreate(m, 0, allow()), 'the quote is used and valid').toBe(false);
    expiredAll(m);
    expect(canCreate(m, 0, allow()), 'an expired quote may be tried: it must create nothing').toBe(true);
  });

  it('creates no order once the budget is spent, but still tries an expired quote (which creates nothing)', () => {
    const m = initialModel();
    expect(canCreate(m, 0, allow({ ordersLeft: () => 0 }))).toBe(false);
    expiredAll(m);
    expect(canCreate(m, 0, allow({ ordersLeft: () => 0 }))).toBe(true);
  });

  it('holds at most MAX_QUOTES quotes and MAX_ACTIONS actions', () => {
    const m = initialModel();
    while (canQuote(m)) m.quotes.push({ expired: false, aged: false });
    expect(m.quotes).toHaveLength(MAX_QUOTES);
    for (let q = 0; q < MAX_ACTIONS; q++) created(m, q);
    expiredAll(m);
    expect(canCreate(m, 0, allow())).toBe(false);
  });

  it('cancels an open action only where the provider declares ACTION_CANCEL, and only once', () => {
    const m = initialModel();
    created(m, 0);
    expect(canCancel(m, 0, allow({ cancel: false }))).toBe(false);
    expect(canCancel(m, 1, allow())).toBe(false);
    expect(canCancel(m, 0, allow())).toBe(true);
    cancelled(m, 0);
    expect(canCancel(m, 0, allow())).toBe(false);
    expect(stateOf(m, 0)).toBe('cancelled');
  });

  it('waits for expiry once per sequence, and only when the run allows it', () => {
    const m = initialModel();
    expect(canWaitForExpiry(m, allow({ mayWaitForExpiry: () => false }))).toBe(false);
    created(m, 0);
    expiredAll(m);
    expect(m.waited).toBe(true);
    expect(canWaitForExpiry(m, allow())).toBe(false);
    expect(stateOf(m, 0)).toBe('open, its quote expired');
  });

  it('asks the run whether the wait is for aged quotes only (free) or for a fresh one', () => {
    const onlyAged = allow({ mayWaitForExpiry: (aged) => aged });
    expect(canWaitForExpiry(initialModel(true), onlyAged)).toBe(true);
    expect(canWaitForExpiry(initialModel(false), onlyAged)).toBe(false);
    const mixed = initialModel(true);
    mixed.quotes.push({ expired: false, aged: false });
    expect(canWaitForExpiry(mixed, onlyAged)).toBe(false);
    // An expired quote no longer needs a wait: the aged one left decides.
    const half = initialModel(true);
    half.quotes.push({ expired: true, aged: false });
    expect(canWaitForExpiry(half, onlyAged)).toBe(true);
  });
});

describe('a changed payload under the same key', () => {
  it.each(CHANGES)('changing the %s keeps the key and every other field', (change) => {
    const changed = changedBody(body, change);
    expect(changed).not.toEqual(body);
    expect(changed['idempotencyKey']).toBe(body.idempotencyKey);
    expect(changed['quoteId']).toBe(body.quoteId);
    const differing = Object.keys(body).filter(
      (k) => JSON.stringify(changed[k]) !== JSON.stringify((body as Record<string, unknown>)[k]),
    );
    expect(differing).toHaveLength(1);
  });

  it('changes the first item quantity by one', () => {
    expect(changedBody(body, 'quantity')['items']).toEqual([
      { offeringId: 'off-a', quantity: 3 },
      { offeringId: 'off-b', quantity: 1 },
    ]);
  });
});

describe('one order identity across the views', () => {
  it('finds no difference between a view and itself, whatever its status', () => {
    expect(identityDifferences(action, { ...action, status: 'CANCELLED' })).toEqual([]);
  });

  it('takes a field one view omits as no difference (optional fields may be left out)', () => {
    const { externalActionId: _e, currency: _c, ...minimal } = action;
    expect(identityDifferences(action, minimal)).toEqual([]);
  });

  it.each([
    ['total', { total: 0 }, ['total 0 (was 2650)']],
    ['publicId', { publicId: 'DK-1002' }, ['publicId "DK-1002" (was "DK-1001")']],
    ['quoteId', { quoteId: 'q_2' }, ['quoteId "q_2" (was "q_1")']],
    ['line count', { lines: [] }, ['0 line(s) (was 1)']],
    ['a line amount', { lines: [{ ...action.lines[0], lineTotal: 2500 }] }, ['line 1 lineTotal 2500 (was 2400)']],
  ])('names a changed %s', (_name, change, expected) => {
    expect(identityDifferences(action, { ...action, ...change })).toEqual(expected);
  });

  it('says when an answer is not an action at all', () => {
    expect(identityDifferences(action, [])).toEqual(['the answer is not an action']);
  });

  it('accepts a cancel result naming the public reference or the id, nothing else', () => {
    expect(cancelNamesAction(action, { actionId: 'DK-1001' })).toBe(true);
    expect(cancelNamesAction(action, { actionId: 'act_1' })).toBe(true);
    expect(cancelNamesAction(action, { actionId: 'dk-order-1001' })).toBe(false);
    expect(cancelNamesAction(action, {})).toBe(false);
  });
});

describe('the shortest sequence as a finding shows it', () => {
  const steps = [
    { label: 'quote 1', answer: 'POST /quote → HTTP 200 q_1', curl: "curl -sS -i -X POST 'http://p/quote'" },
    { label: 'wait until every quote has expired', answer: 'until 2026-11-27T10:00:05.000Z' },
    { label: 'repeat action 1 (open, its quote expired)', answer: 'POST /actions → HTTP 422', curl: 'curl b' },
  ];

  it('numbers the steps on one line', () => {
    expect(describeSteps(steps)).toBe(
      '1. quote 1 (POST /quote → HTTP 200 q_1); 2. wait until every quote has expired (until 2026-11-27T10:00:05.000Z); 3. repeat action 1 (open, its quote expired) (POST /actions → HTTP 422)',
    );
  });

  it('gives one curl line per request step, each after a comment naming it (a wait sends nothing)', () => {
    expect(reproduceSteps(steps).split('\n')).toEqual([
      '# 1. quote 1',
      "curl -sS -i -X POST 'http://p/quote'",
      '# 3. repeat action 1 (open, its quote expired)',
      'curl b',
    ]);
  });
});
