import { describe, expect, it } from 'vitest';
import { announcedStatuses, judgeReportedStatus } from '../../src/checks/action-status.js';
import { judgeCheckoutUrl, judgeNextAction } from '../../src/checks/payment-pending.js';
import { isQuotedOrder, quoteBoundDestination } from '../../src/checks/quote-binding.js';
import { invalidSelections } from '../../src/checks/support/quote-selections.js';
import { latestStatus, rejectionProblems, thisRun } from '../../src/checks/webhook.js';
import { type ReceivedWebhook, timelineEntry } from '../../src/model/webhooks.js';
import { catalogOf, offering, pizza, TOPPINGS } from './support/catalog.js';

const catalog = catalogOf(
  pizza({
    optionGroups: [
      {
        id: 'crust',
        isRequired: true,
        minSelections: 1,
        maxSelections: 1,
        options: [{ id: 'thin' }, { id: 'classic', isDefault: true }, { id: 'gf', isAvailable: false }],
      },
      TOPPINGS,
    ],
  }),
  offering('truffle', {
    offeringCode: 'TR',
    title: 'Truffle',
    basePrice: 1900,
    isAvailable: false,
    optionGroups: [{ id: 'crust', isRequired: true, minSelections: 1, maxSelections: 1, options: [{ id: 'classic' }] }],
  }),
);

describe('invalidSelections', () => {
  const byName = Object.fromEntries(
    invalidSelections(catalog, [
      { offeringId: 'pizza', quantity: 2, selectedOptions: [{ groupId: 'crust', optionId: 'classic', quantity: 1 }] },
    ]).map((c) => [c.name, c]),
  );

  it('sets quantity 0 on the valid selection, keeping its options', () => {
    expect(byName['quantity-zero']?.items).toEqual([
      { offeringId: 'pizza', quantity: 0, selectedOptions: [{ groupId: 'crust', optionId: 'classic', quantity: 1 }] },
    ]);
  });

  it('sets a fractional quantity and a negative option quantity on the valid selection (quantity is an integer >= 1)', () => {
    expect(byName['quantity-fractional']?.items).toEqual([
      { offeringId: 'pizza', quantity: 1.5, selectedOptions: [{ groupId: 'crust', optionId: 'classic', quantity: 1 }] },
    ]);
    expect(byName['option-quantity-negative']?.items).toEqual([
      { offeringId: 'pizza', quantity: 2, selectedOptions: [{ groupId: 'crust', optionId: 'classic', quantity: -1 }] },
    ]);
    expect(byName['option-quantity-negative']?.describe).toBe('option classic with quantity -1 on offering pizza');
  });

  it('builds a negative option quantity from the catalog when the valid selection has no option', () => {
    const [negative] = invalidSelections(catalog, [{ offeringId: 'pizza', quantity: 1 }]).filter(
      (c) => c.name === 'option-quantity-negative',
    );
    expect(negative?.items).toEqual([
      { offeringId: 'pizza', quantity: 1, selectedOptions: [{ groupId: 'crust', optionId: 'thin', quantity: -1 }] },
    ]);
  });

  it('asks for the unavailable offering with its required groups satisfied', () => {
    expect(byName['unavailable-offering']).toMatchObject({
      offeringId: 'truffle',
      items: [
        {
          offeringId: 'truffle',
          quantity: 1,
          selectedOptions: [{ groupId: 'crust', optionId: 'classic', quantity: 1 }],
        },
      ],
    });
  });

  it('leaves out exactly one required group', () => {
    expect(byName['missing-required-group']?.items).toEqual([{ offeringId: 'pizza', quantity: 1 }]);
    expect(byName['missing-required-group']?.describe).toBe(
      'offering pizza without a choice in its required option group crust',
    );
  });

  it('chooses one more available option than maxSelections allows', () => {
    expect(byName['too-many-options']?.items).toEqual([
      {
        offeringId: 'pizza',
        quantity: 1,
        selectedOptions: [
          { groupId: 'crust', optionId: 'thin', quantity: 1 },
          { groupId: 'crust', optionId: 'classic', quantity: 1 },
        ],
      },
    ]);
    expect(byName['too-many-options']?.describe).toBe('2 options in group crust of offering pizza (maxSelections 1)');
  });

  it('says which cases a plain catalog cannot express', () => {
    const plain = catalogOf(offering('water', { offeringCode: 'W', title: 'Water', basePrice: 250 }));
    const cases = invalidSelections(plain, []);
    expect(cases.map((c) => [c.name, c.items === undefined])).toEqual([
      ['quantity-zero', false],
      ['quantity-fractional', false],
      ['option-quantity-negative', true],
      ['unavailable-offering', true],
      ['unavailable-variant', true],
      ['missing-required-group', true],
      ['too-many-options', true],
    ]);
    expect(cases.find((c) => c.name === 'unavailable-offering')?.notTestable).toBe(
      'the catalog has no offering with isAvailable false',
    );
    expect(cases.find((c) => c.name === 'option-quantity-negative')?.notTestable).toBe(
      'no available offering has an available option',
    );
  });
});

describe("judgeCheckoutUrl: only the service's own host fails (issue 24 item 2)", () => {
  const core = 'http://127.0.0.1:8787/api/v1/webhooks/demo';
  it.each([
    ['https://pay.demo.example/checkout/1', undefined, undefined],
    // The contract requires https for the base address only: plain http is advice.
    ['http://pay.demo.example/checkout/1', undefined, /is not https/],
    // A provider's own path may contain /api/v1.
    ['https://shop.example/api/v1/checkout/1', undefined, undefined],
    ['/checkout/1', /is not an absolute URL/, undefined],
    ['https://127.0.0.1:8787/pay', /core\/webhook address/, undefined],
    ['http://127.0.0.1:8787/api/v1/actions/1', /core\/webhook address/, undefined],
  ] as const)('%s', (url, problem, warning) => {
    const judged = judgeCheckoutUrl(url, core);
    if (problem === undefined) expect(judged.problem).toBeUndefined();
    else expect(judged.problem).toMatch(problem);
    if (warning === undefined) expect(judged.warnings).toEqual([]);
    else expect(judged.warnings).toEqual([expect.stringMatching(warning)]);
  });

  it('a --local run takes an http checkout link without a warning, and still fails the core host', () => {
    expect(judgeCheckoutUrl('http://127.0.0.1:4010/checkout/1', core, true)).toEqual({ warnings: [] });
    expect(judgeCheckoutUrl('http://127.0.0.1:8787/checkout/1', core, true).problem).toMatch(/core\/webhook address/);
  });
});

describe('judgeNextAction: other types and a missing label warn (issue 24 item 3)', () => {
  const core = 'http://127.0.0.1:8787/api/v1/webhooks/demo';
  const url = 'https://pay.demo.example/checkout/1';
  it.each([
    ['OPEN_URL with url and label', { type: 'OPEN_URL', url, label: 'Pay' }, undefined, []],
    ['OPEN_URL without label', { type: 'OPEN_URL', url }, undefined, [/no nextAction.label/]],
    ['another type', { type: 'SHOW_QR', url }, undefined, [/nextAction.type SHOW_QR; .*not shown/]],
    ['no type', { url, label: 'Pay' }, undefined, [/nextAction.type \(missing\)/]],
    ['OPEN_URL without url', { type: 'OPEN_URL', label: 'Pay' }, /no nextAction.url/, []],
    ['no nextAction', undefined, /has no nextAction/, []],
    ['neither type nor url', { label: 'Pay' }, /a nextAction with neither type nor url/, []],
    ['an empty nextAction', {}, /a nextAction with neither type nor url/, []],
    ['OPEN_URL at the core', { type: 'OPEN_URL', url: 'http://127.0.0.1:8787/pay', label: 'Pay' }, /core/, []],
  ] as const)('%s', (_name, next, problem, warnings) => {
    const judged = judgeNextAction(next, core, 'the action');
    if (problem === undefined) expect(judged.problem).toBeUndefined();
    else expect(judged.problem).toMatch(problem);
    expect(judged.warnings).toHaveLength(warnings.length);
    warnings.forEach((w, i) => expect(judged.warnings[i]).toMatch(w));
  });
});

const hook = (seq: number, event: Record<string, unknown>, extra: Partial<ReceivedWebhook> = {}): ReceivedWebhook => ({
  seq,
  receivedAt: `2030-01-01T00:00:0${seq}.000Z`,
  slug: 'demo',
  headers: {},
  rawBody: JSON.stringify(event),
  event,
  verified: true,
  answeredStatus: 200,
  duplicate: false,
  ...extra,
});

describe('webhook helpers', () => {
  it('takes the latest status by event timestamp, then by arrival, ignoring rejected and duplicate deliveries', () => {
    const events = [
      hook(1, { eventId: 'a', newStatus: 'CANCELLED', timestamp: '2030-01-01T00:00:02.000Z' }),
      hook(2, { eventId: 'b', newStatus: 'AWAITING_PAYMENT', timestamp: '2030-01-01T00:00:01.000Z' }),
      hook(
        3,
        { eventId: 'c', newStatus: 'COMPLETED', timestamp: '2030-01-01T00:00:09.000Z' },
        { verified: false, answeredStatus: 401 },
      ),
      hook(4, { eventId: 'a', newStatus: 'CANCELLED', timestamp: '2030-01-01T00:00:02.000Z' }, { duplicate: true }),
    ];
    expect(latestStatus(events)).toMatchObject({ status: 'CANCELLED', event: { seq: 1 } });
    expect(
      latestStatus([hook(1, { newStatus: 'A', timestamp: 'x' }), hook(2, { newStatus: 'B', timestamp: 'x' })])?.status,
    ).toBe('B');
    expect(latestStatus([])).toBeUndefined();
  });

  it('groups rejected deliveries by the receiver diagnosis', () => {
    const problem = 'signed over a re-serialized JSON, not the bytes sent';
    const lines = rejectionProblems([
      hook(1, { eventId: 'e1' }, { verified: false, answeredStatus: 401, problem }),
      hook(2, { eventId: 'e2' }, { verified: false, answeredStatus: 401, problem }),
      hook(3, { eventId: 'e3' }),
      hook(
        4,
        { eventId: 'e4' },
        {
          verified: false,
          answeredStatus: 400,
          problem: 'the event does not match NormalizedWebhookEvent: /timestamp must be a valid date-time',
        },
      ),
    ]);
    expect(lines).toEqual([
      `2 events (e1, e2) were rejected by the receiver (HTTP 401: ${problem})`,
      'event e4 was rejected by the receiver (HTTP 400: the event does not match NormalizedWebhookEvent: /timestamp must be a valid date-time)',
    ]);
  });

  it("leaves out a shared receiver's earlier deliveries", () => {
    const actions = [{ id: 'act-1', publicId: 'P-1', cancelled: false }];
    const events = [hook(1, { actionId: 'old' }), hook(2, { actionId: 'P-1' }), hook(3, { actionId: 'other' })];
    expect(thisRun(events, actions).map((w) => w.seq)).toEqual([2, 3]);
    expect(thisRun(events, []).map((w) => w.seq)).toEqual([1, 2, 3]);
  });

  it('builds timeline entries from what the receiver saw', () => {
    expect(
      timelineEntry(
        hook(
          1,
          { eventId: 'e1', eventType: 'action.status_updated', actionId: 'A1', newStatus: 'CANCELLED' },
          { signatureHeader: 'x-service-signature' },
        ),
      ),
    ).toEqual({
      receivedAt: '2030-01-01T00:00:01.000Z',
      eventId: 'e1',
      eventType: 'action.status_updated',
      actionId: 'A1',
      newStatus: 'CANCELLED',
      verified: true,
      header: 'x-service-signature',
    });
  });
});

describe('quote-binding: an accepted change is a failure only for a changed order the quote bound (issue 24 items 11, 12)', () => {
  const quote = {
    lines: [{ offeringId: 'o1', quantity: 2, selectedOptions: [{ groupId: 'g', optionId: 'a' }] }],
    total: 2400,
  };
  it.each<[string, { lines?: unknown[]; total?: unknown }, boolean]>([
    ['the quoted order, options named', { lines: quote.lines, total: 2400 }, true],
    ['the quoted order, options not named', { lines: [{ offeringId: 'o1', quantity: 2 }], total: 2400 }, true],
    [
      'the changed options',
      { lines: [{ offeringId: 'o1', quantity: 2, selectedOptions: [{ groupId: 'g', optionId: 'b' }] }], total: 2400 },
      false,
    ],
    ['another total', { lines: [{ offeringId: 'o1', quantity: 2 }], total: 2600 }, false],
    ['another quantity', { lines: [{ offeringId: 'o1', quantity: 3 }], total: 2400 }, false],
    ['no lines', { total: 2400 }, false],
  ])('%s', (_name, action, quoted) => {
    expect(isQuotedOrder(action as Parameters<typeof isQuotedOrder>[0], quote)).toBe(quoted);
  });

  it.each<[string, unknown, boolean]>([
    ['a quote without destination', { id: 'q' }, false],
    ['a quote echoing it in metadata', { metadata: { destination: { raw: '1 Main St' } } }, true],
    ['a quote with its own destination field', { destination: { raw: '1 Main St' } }, true],
    ['a quote naming another destination', { metadata: { destination: { raw: 'elsewhere' } } }, false],
  ])('%s: bound %s', (_name, q, bound) => {
    expect(quoteBoundDestination(q, { raw: '1 Main St' })).toBe(bound);
  });
});

describe('action-status judges the reported status against the status events (issue 24 item 5)', () => {
  it.each<[string, unknown, string[], RegExp | undefined]>([
    ['the status at creation', 'AWAITING_PAYMENT', [], undefined],
    ['a status an event announced (advanced)', 'PROCESSING', ['CONFIRMED', 'PROCESSING'], undefined],
    ['an advanced status no event announced yet', 'PROCESSING', [], /no status event announced it yet/],
    ['a status other than the announced ones', 'COMPLETED', ['PROCESSING'], /the status events announced PROCESSING/],
  ])('%s', (_name, reported, announced, warning) => {
    const judged = judgeReportedStatus(reported, 'AWAITING_PAYMENT', announced);
    if (warning === undefined) expect(judged).toBeUndefined();
    else expect(judged).toMatch(warning);
  });

  it('reads only verified events about the action, by id or publicId', () => {
    const action = { id: 'act_1', publicId: 'ORD-1' } as Parameters<typeof announcedStatuses>[1];
    const received = [
      hook(1, { actionId: 'act_1', newStatus: 'CONFIRMED' }),
      hook(2, { actionId: 'ORD-1', newStatus: 'PROCESSING' }),
      hook(3, { actionId: 'act_2', newStatus: 'COMPLETED' }),
      hook(4, { actionId: 'act_1', newStatus: 'FAILED' }, { verified: false }),
    ];
    expect(announcedStatuses(received, action)).toEqual(['CONFIRMED', 'PROCESSING']);
  });
});
