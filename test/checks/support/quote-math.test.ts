import { describe, expect, it } from 'vitest';
import type { QuoteItemInput, QuoteView } from '../../../src/checks/framework/views.js';
import { matchLines } from '../../../src/checks/support/line-match.js';
import { checkQuoteMath, formatQuoteMathTable, selectionProblems } from '../../../src/checks/support/quote-math.js';
import { catalogOf, offering, pizza, TOPPINGS } from './catalog.js';

const catalog = catalogOf(
  pizza({ variants: [{ id: 'pizza-40', basePrice: 1400, isAvailable: true }], optionGroups: [TOPPINGS] }),
  offering('water', { offeringCode: 'WA', title: 'Water', basePrice: 250 }),
);

const items: QuoteItemInput[] = [
  {
    offeringId: 'pizza',
    variantId: 'pizza-40',
    quantity: 2,
    selectedOptions: [{ groupId: 'top', optionId: 'olives', quantity: 1 }],
  },
  { offeringId: 'water', quantity: 1 },
];

const SENT = Date.parse('2030-01-01T12:00:00.000Z');

/** A correct quote for `items`: pizza 1400×2 + 150×1×2 = 3100, water 250; fees 300 + 99. */
function goodQuote(): QuoteView {
  return {
    id: 'q1',
    providerSlug: 'demo',
    expiresAt: '2030-01-01T12:00:05.000Z',
    lines: [
      {
        offeringId: 'pizza',
        variantId: 'pizza-40',
        quantity: 2,
        unitPrice: 1400,
        optionsTotal: 300,
        lineTotal: 3100,
        selectedOptions: [{ groupId: 'top', optionId: 'olives', priceDelta: 150 }],
      },
      { offeringId: 'water', quantity: 1, unitPrice: 250, optionsTotal: 0, lineTotal: 250, selectedOptions: [] },
    ],
    subtotal: 3350,
    fees: [
      { name: 'delivery', amount: 300 },
      { name: 'service', amount: 99 },
    ],
    totalFees: 399,
    totalDiscount: 0,
    total: 3749,
  };
}

const run = (quote: QuoteView, sentAt = SENT) =>
  checkQuoteMath({ items, catalog, quote, sentAt, providerSlug: 'demo' });
const withLine = (index: number, patch: object): QuoteView => {
  const q = goodQuote();
  q.lines = q.lines.map((l, i) => (i === index ? { ...l, ...patch } : l));
  return q;
};

describe('checkQuoteMath', () => {
  it('passes a correct quote and shows every computation', () => {
    const r = run(goodQuote());
    expect(r.problems).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.rows.map((row) => [row.label, row.formula, row.expected, row.actual, row.ok])).toEqual([
      ['line 1 optionsTotal', '150 × 1 × 2', 300, 300, true],
      ['line 1 lineTotal', '1400 × 2 + 300', 3100, 3100, true],
      ['line 2 optionsTotal', '0 (no options)', 0, 0, true],
      ['line 2 lineTotal', '250 × 1 + 0', 250, 250, true],
      ['subtotal', '3100 + 250', 3350, 3350, true],
      ['totalFees', '300 + 99', 399, 399, true],
      ['total', '3350 + 399 − 0', 3749, 3749, true],
      [
        'validity (ms, minimum)',
        'expiresAt 2030-01-01T12:00:05.000Z − sent 2030-01-01T12:00:00.000Z ≥ 5000',
        5000,
        5000,
        true,
      ],
    ]);
  });

  const cases: [string, QuoteView, RegExp][] = [
    [
      'option not multiplied by the item quantity',
      withLine(0, { optionsTotal: 150, lineTotal: 2950 }),
      /^line 1 optionsTotal is 150; expected 300 = 150 × 1 × 2/,
    ],
    ['lineTotal wrong', withLine(1, { lineTotal: 300 }), /^line 2 lineTotal is 300; expected 250 = 250 × 1 \+ 0/],
    [
      'subtotal not the sum of lines',
      { ...goodQuote(), subtotal: 3000, total: 3399 },
      /^subtotal is 3000; expected 3350 = 3100 \+ 250/,
    ],
    [
      'fees not summing',
      { ...goodQuote(), totalFees: 400, total: 3750 },
      /^totalFees is 400; expected 399 = 300 \+ 99/,
    ],
    ['total wrong', { ...goodQuote(), total: 3700 }, /^total is 3700; expected 3749 = 3350 \+ 399 − 0/],
    [
      'validity too short',
      { ...goodQuote(), expiresAt: '2030-01-01T12:00:02.000Z' },
      /only 2\.0 s after the request; the minimum quote validity is 5 s/,
    ],
    [
      'expiresAt not a timestamp',
      { ...goodQuote(), expiresAt: 'soon' },
      /expiresAt "soon" is not a valid ISO 8601 timestamp/,
    ],
    [
      'another provider',
      { ...goodQuote(), providerSlug: 'other' },
      /the quote names provider other; GET \/provider-info says demo/,
    ],
    [
      'a quantity differing from the selection',
      withLine(1, { quantity: 3, lineTotal: 750 }),
      /quote line 2 \(offering water\) has quantity 3; 1 was selected/,
    ],
    [
      'a variant differing from the selection',
      withLine(0, { variantId: 'pizza-30' }),
      /has variant pizza-30; variant pizza-40 was selected/,
    ],
    [
      'a missing selected option',
      withLine(0, { selectedOptions: [], optionsTotal: 0, lineTotal: 2800 }),
      /lacks the selected option\(s\) top\/olives/,
    ],
    [
      'an option nobody selected',
      withLine(1, {
        selectedOptions: [{ groupId: 'top', optionId: 'basil', priceDelta: 50 }],
        optionsTotal: 50,
        lineTotal: 300,
      }),
      /carries option\(s\) top\/basil that were not selected/,
    ],
    [
      'a substituted offering',
      withLine(1, { offeringId: 'soda' }),
      /quote line 2 names offering soda, which was not selected/,
    ],
  ];

  it.each(cases)('finds %s', (_name, quote, message) => {
    const r = run(quote);
    expect(
      r.problems.some((p) => message.test(p)),
      r.problems.join('\n'),
    ).toBe(true);
  });

  it.each([
    [
      'an "Options surcharge" fee equal to the options total',
      { name: 'Options surcharge', amount: 300 },
      /fee "Options surcharge" \(300\) equals the options' contribution \(300\)/,
    ],
    [
      'a fee named like a selected option',
      { name: 'Olives', amount: 10 },
      /fee "Olives" \(10\) names a selected option/,
    ],
  ])('finds options charged again in fees: %s', (_name, fee, message) => {
    const q = withLine(0, {
      selectedOptions: [{ groupId: 'top', optionId: 'olives', name: 'Olives', priceDelta: 150 }],
    });
    q.fees = [{ name: 'service', amount: 99 }, fee];
    q.totalFees = 99 + fee.amount;
    q.total = q.subtotal + q.totalFees;
    const r = run(q);
    const index = r.problems.findIndex((p) => message.test(p));
    expect(index, r.problems.join('\n')).toBeGreaterThanOrEqual(0);
    expect(r.problems).toHaveLength(1);
    expect(r.cited[index]).toBe('QUOTE-OPTIONS-ONCE');
  });

  it('does not mistake an honest delivery fee of the same amount for options charged again', () => {
    expect(run(goodQuote()).problems).toEqual([]); // delivery 300 equals the options' 300 by coincidence
  });

  it('judges one relation at a time: a wrong subtotal does not also fail the total', () => {
    const r = run({ ...goodQuote(), subtotal: 3000, total: 3399 });
    expect(r.problems).toHaveLength(1);
    expect(r.rows.filter((row) => !row.ok).map((row) => row.label)).toEqual(['subtotal']);
  });

  it('warns, without failing, when a unit price or priceDelta differs from the catalog', () => {
    const q = withLine(0, {
      unitPrice: 1500,
      lineTotal: 3300,
      selectedOptions: [{ groupId: 'top', optionId: 'olives', priceDelta: 150 }],
    });
    const r = run({ ...q, subtotal: 3550, total: 3949 });
    expect(r.problems).toEqual([]);
    expect(r.warnings).toEqual([
      'quote line 1 unitPrice 1500 differs from the catalog price 1400 (the quote is authoritative; a warning, not a failure)',
    ]);
  });

  it('uses the catalog priceDelta when the quote does not echo the options, and says it could not compare them', () => {
    const r = run(withLine(0, { selectedOptions: undefined }));
    expect(r.problems).toEqual([]);
    expect(r.rows[0]).toMatchObject({ label: 'line 1 optionsTotal', formula: '150 × 1 × 2', ok: true });
    expect(r.warnings).toEqual([
      'quote line 1 does not list its selectedOptions, so the options could not be compared with the selection',
    ]);
  });

  it('counts absent fees and discount as 0 and honours a discount', () => {
    const q: QuoteView = { ...goodQuote(), fees: undefined, totalFees: undefined, totalDiscount: 100, total: 3250 };
    const r = run(q);
    expect(r.problems).toEqual([]);
    expect(r.rows.find((row) => row.label === 'total')).toMatchObject({ formula: '3350 + 0 − 100', expected: 3250 });
  });

  it('measures validity from when the request was sent, so processing time counts for the provider', () => {
    expect(run(goodQuote(), SENT - 200).problems).toEqual([]);
    expect(run(goodQuote(), SENT + 400).problems).toEqual([]); // within the clock allowance
    expect(run(goodQuote(), SENT + 600).problems).toHaveLength(1);
  });

  it('multiplies option quantity, priceDelta and item quantity', () => {
    const three: QuoteItemInput[] = [
      {
        offeringId: 'pizza',
        variantId: 'pizza-40',
        quantity: 3,
        selectedOptions: [{ groupId: 'top', optionId: 'olives', quantity: 2 }],
      },
    ];
    const quote: QuoteView = {
      id: 'q',
      providerSlug: 'demo',
      expiresAt: '2030-01-01T12:00:10.000Z',
      subtotal: 5100,
      total: 5100,
      lines: [
        {
          offeringId: 'pizza',
          variantId: 'pizza-40',
          quantity: 3,
          unitPrice: 1400,
          optionsTotal: 900,
          lineTotal: 5100,
          selectedOptions: [{ groupId: 'top', optionId: 'olives', priceDelta: 150 }],
        },
      ],
    };
    const r = checkQuoteMath({ items: three, catalog, quote, sentAt: SENT });
    expect(r.problems).toEqual([]);
    expect(r.rows[0]?.formula).toBe('150 × 2 × 3');
  });
});

describe('matchLines and selectionProblems', () => {
  it('pairs lines by offering even when reordered', () => {
    const q = goodQuote();
    const reversed = [...q.lines].reverse();
    const { pairs, unmatchedItems, unmatchedLines } = matchLines(items, reversed);
    expect(pairs.map((p) => [p.item.offeringId, p.lineIndex])).toEqual([
      ['pizza', 1],
      ['water', 0],
    ]);
    expect(unmatchedItems).toEqual([]);
    expect(unmatchedLines).toEqual([]);
    expect(selectionProblems(items, { ...q, lines: reversed }).problems).toEqual([]);
  });

  it('names a selected item the quote dropped', () => {
    const q = goodQuote();
    expect(selectionProblems(items, { ...q, lines: [q.lines[0] ?? {}] }).problems).toEqual([
      'the quote has no line for the selected offering water × 1',
    ]);
  });
});

describe('formatQuoteMathTable', () => {
  it('lists each row with the provider number beside the expected computation', () => {
    const rows = run({ ...goodQuote(), total: 3700 }).rows;
    const table = formatQuoteMathTable(rows);
    expect(table).toContain('✗ total                   expected 3749 (3350 + 399 − 0), provider 3700');
    expect(table.filter((l) => l.startsWith('✓'))).toHaveLength(rows.length - 1);
  });
});

describe('issue 24: quote-math never fails an honest provider', () => {
  it.each([
    ['optionsTotal', { optionsTotal: undefined }, /not checked: line 1 optionsTotal \(the quote omits it\)/],
    ['lineTotal', { lineTotal: undefined }, /not checked: line 1 lineTotal \(the quote omits it\)/],
    [
      'quantity',
      { quantity: undefined },
      /not checked: line 1 optionsTotal and lineTotal \(the quote omits the line's quantity\)/,
    ],
    ['unitPrice', { unitPrice: undefined }, /not checked: line 1 lineTotal \(the quote omits the line's unitPrice\)/],
  ])('skips the rows a missing %s needs, with a note', (_field, patch, note) => {
    const r = run(withLine(0, patch));
    expect(r.problems).toEqual([]);
    expect(
      r.warnings.some((w) => note.test(w)),
      r.warnings.join('\n'),
    ).toBe(true);
  });

  it('checks a correct lineTotal against the expected optionsTotal when optionsTotal is omitted', () => {
    const r = run(withLine(0, { optionsTotal: undefined }));
    expect(r.rows.find((row) => row.label === 'line 1 lineTotal')).toMatchObject({ expected: 3100, ok: true });
    expect(run(withLine(0, { optionsTotal: undefined, lineTotal: 3000 })).problems[0]).toMatch(
      /^line 1 lineTotal is 3000; expected 3100 = 1400 × 2 \+ 300/,
    );
  });

  it('skips optionsTotal with a note when an option has no priceDelta anywhere', () => {
    const r = run(withLine(0, { selectedOptions: [{ groupId: 'top', optionId: 'truffle' }] }));
    expect(r.problems.filter((p) => /priceDelta/.test(p))).toEqual([]);
    expect(
      r.warnings.some((w) => /not checked: line 1 optionsTotal \(option top\/truffle has no priceDelta/.test(w)),
    ).toBe(true);
  });

  it('warns, without failing, on a fee that only equals an option amount', () => {
    const q = goodQuote();
    q.fees = [
      { name: 'Shipping', amount: 300 },
      { name: 'service', amount: 99 },
    ];
    const r = run(q);
    expect(r.problems).toEqual([]);
    expect(r.warnings.some((w) => /fee "Shipping" \(300\) equals the options' contribution/.test(w))).toBe(true);
  });

  it('matches two lines of one offering returned in the other order, by variant and options', () => {
    const two: QuoteItemInput[] = [
      { offeringId: 'pizza', quantity: 1, selectedOptions: [{ groupId: 'top', optionId: 'olives' }] },
      { offeringId: 'pizza', quantity: 1, selectedOptions: [{ groupId: 'top', optionId: 'basil' }] },
    ];
    const line = (optionId: string, delta: number) => ({
      offeringId: 'pizza',
      quantity: 1,
      unitPrice: 1000,
      optionsTotal: delta,
      lineTotal: 1000 + delta,
      selectedOptions: [{ groupId: 'top', optionId, priceDelta: delta }],
    });
    const quote: QuoteView = {
      id: 'q',
      providerSlug: 'demo',
      expiresAt: '2030-01-01T12:00:10.000Z',
      lines: [line('basil', 50), line('olives', 150)],
      subtotal: 2200,
      total: 2200,
    };
    const r = checkQuoteMath({ items: two, catalog, quote, sentAt: SENT });
    expect(r.problems).toEqual([]);
    expect(matchLines(two, quote.lines).pairs.map((p) => [p.itemIndex, p.lineIndex])).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('fails a line option quoted with another quantity than selected', () => {
    const r = run(
      withLine(0, { selectedOptions: [{ groupId: 'top', optionId: 'olives', priceDelta: 150, quantity: 2 }] }),
    );
    expect(r.problems).toContain('quote line 1 (offering pizza) has option top/olives × 2; × 1 was selected');
    expect(
      r.cited[r.problems.indexOf('quote line 1 (offering pizza) has option top/olives × 2; × 1 was selected')],
    ).toBe('QUOTE-MATCHES-SELECTION');
  });

  it('accepts a line whose options come in another order', () => {
    const asked: QuoteItemInput[] = [
      {
        offeringId: 'pizza',
        quantity: 1,
        selectedOptions: [
          { groupId: 'top', optionId: 'olives' },
          { groupId: 'top', optionId: 'basil' },
        ],
      },
    ];
    const quote: QuoteView = {
      id: 'q',
      providerSlug: 'demo',
      expiresAt: '2030-01-01T12:00:10.000Z',
      lines: [
        {
          offeringId: 'pizza',
          quantity: 1,
          unitPrice: 1000,
          optionsTotal: 200,
          lineTotal: 1200,
          selectedOptions: [
            { groupId: 'top', optionId: 'basil', priceDelta: 50 },
            { groupId: 'top', optionId: 'olives', priceDelta: 150 },
          ],
        },
      ],
      subtotal: 1200,
      total: 1200,
    };
    expect(checkQuoteMath({ items: asked, catalog, quote, sentAt: SENT }).problems).toEqual([]);
  });
});
