import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Selection } from '../../../src/checks/framework/resources.js';
import type { CatalogView, QuoteItemInput } from '../../../src/checks/framework/views.js';
import { BINDING_ROWS, bindingProbes, ORDER_FIELDS } from '../../../src/checks/support/probe-tables/binding.js';
import { changedPayloads, EXTRA_ROWS, PAYLOAD_FIELDS } from '../../../src/checks/support/probe-tables/idempotency.js';
import { ACTION_FIELDS, compareIdentity, otherIdNamed } from '../../../src/checks/support/probe-tables/identity.js';
import { OFFERINGS } from '../../../src/reference-provider/catalog.js';
import { CERTIFICATION_INPUT } from '../../../src/reference-provider/info.js';

type Schema = { properties?: Record<string, Schema>; items?: Schema; $ref?: string };
const spec = parse(readFileSync(new URL('../../../spec/openapi.yaml', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, Schema> };
};
const schema = (name: string): Schema => spec.components.schemas[name] ?? {};
const resolve = (s: Schema): Schema => (s.$ref ? schema(s.$ref.replace('#/components/schemas/', '')) : s);

/** Leaf paths of a schema as the table writes them: `a.b`, arrays as `a[]`; objects in arrays also as themselves. */
function leaves(s: Schema, prefix = ''): string[] {
  const props = resolve(s).properties ?? {};
  return Object.entries(props).flatMap(([key, sub]) => {
    const path = `${prefix}${key}`;
    const r = resolve(sub);
    if (r.items) {
      const inner = resolve(r.items);
      return inner.properties ? [path, ...leaves(inner, `${path}[].`)] : [path];
    }
    return r.properties ? leaves(r, `${path}.`) : [path];
  });
}

const catalog: CatalogView = { providerSlug: 'demo-kitchen', categories: [], offerings: [...OFFERINGS] };
const certificationItems = CERTIFICATION_INPUT.items as QuoteItemInput[];
const selection = (items: QuoteItemInput[]): Selection => ({
  items,
  customer: { name: 'Tester', phone: '+15550100000' },
  destination: { raw: '1 Test Street' },
  source: 'certificationInput',
});
const actionBody = {
  idempotencyKey: 'k-1',
  providerSlug: 'demo-kitchen',
  quoteId: 'q-1',
  userConfirmed: true,
  customer: { name: 'Tester', phone: '+15550100000' },
  destination: { raw: '1 Test Street' },
  items: certificationItems,
};

describe('idempotency probe table', () => {
  it('has a row (or an exclusion with its reason) for every field of CreateActionInput in the spec', () => {
    // Items go in the quote item shape (ActionItem: "selectedOptions in the quote item shape"): QuoteItem's fields too.
    const itemFields = leaves(schema('QuoteItem'), 'items[].');
    const fields = new Set([...leaves(schema('CreateActionInput')), ...itemFields]);
    // Objects are covered by their leaves; the item set and an item's options are rows of their own.
    fields.delete('customer');
    fields.delete('destination');
    expect(Object.keys(PAYLOAD_FIELDS).sort()).toEqual([...fields].sort());
    for (const [field, row] of Object.entries(PAYLOAD_FIELDS))
      if ('excluded' in row) expect(row.excluded.length, field).toBeGreaterThan(20);
  });

  it('changes exactly one field per probe, every changeable field on the reference catalog', () => {
    const { probes, skipped } = changedPayloads(actionBody, { catalog, otherQuoteId: 'q-2' });
    expect(skipped).toEqual([]);
    const changeable = [
      ...Object.entries(PAYLOAD_FIELDS).filter(([, r]) => 'change' in r),
      ...Object.entries(EXTRA_ROWS),
    ].map(([f]) => f);
    expect(probes.map((p) => p.field)).toEqual(changeable);
    for (const p of probes) {
      expect(JSON.stringify(p.body), p.field).not.toBe(JSON.stringify(actionBody));
      expect(p.body['idempotencyKey'], p.field).toBe('k-1');
      const top = p.field.split(/[.[ ]/)[0] ?? '';
      for (const key of Object.keys(actionBody).filter((k) => k !== top))
        expect(p.body[key], `${p.field} leaves ${key}`).toEqual(actionBody[key as keyof typeof actionBody]);
    }
    expect(probes.find((p) => p.field === 'items[].variantId')?.change).toMatch(
      /variant var-margherita-\d+ instead of var-margherita-40/,
    );
  });

  it('says why a field cannot be changed when the order has nothing to change it to', () => {
    const plain = { ...actionBody, items: [{ offeringId: 'off-water', quantity: 1 }] };
    const { skipped } = changedPayloads(plain, { catalog, otherQuoteId: 'q-2' });
    expect(skipped.map((s) => s.field).sort()).toEqual(
      [
        'items (dropped item)',
        'items[].selectedOptions',
        'items[].selectedOptions[].quantity',
        'items[].variantId',
      ].sort(),
    );
  });
});

describe('quote binding probe table', () => {
  it('probes every dimension of the explorer order model on the reference catalog, each a different order', () => {
    const { probes, skipped } = bindingProbes(selection(certificationItems), catalog, true);
    expect(skipped).toEqual([]);
    expect(probes.map((p) => p.label)).toEqual(BINDING_ROWS.map((r) => r.dimension));
    const mapped = new Set(Object.values(ORDER_FIELDS).flatMap((v) => ('excluded' in v ? [] : v)));
    expect([...mapped].sort()).toEqual(BINDING_ROWS.map((r) => r.dimension).sort());
    for (const p of probes)
      expect(JSON.stringify([p.items, p.destination]), p.label).not.toBe(
        JSON.stringify([certificationItems, { raw: '1 Test Street' }]),
      );
    const byLabel = Object.fromEntries(probes.map((p) => [p.label, p]));
    expect(byLabel['option-quantity']?.change).toMatch(/option opt-margherita-top-olives quantity 2 instead of 1/);
    expect(byLabel['added-item']?.items).toHaveLength(3);
    expect(byLabel['dropped-item']?.items).toHaveLength(1);
  });

  it('leaves out what the selection cannot change, with the reason, and the destination when the quote has none', () => {
    const { probes, skipped } = bindingProbes(selection([{ offeringId: 'off-water', quantity: 1 }]), catalog, false);
    expect(probes.map((p) => p.label).sort()).toEqual(['added-item', 'dropped-item', 'offering', 'quantity']);
    expect(skipped.map((s) => s.dimension).sort()).toEqual(
      ['destination', 'option-quantity', 'options', 'variant'].sort(),
    );
  });

  it('drops an item from a one-item selection by quoting it with one more available offering and leaving that out', () => {
    const water = { offeringId: 'off-water', quantity: 1 };
    const { probes } = bindingProbes(selection([water]), catalog, true);
    const dropped = probes.find((p) => p.label === 'dropped-item');
    expect(dropped?.items).toEqual([water]);
    expect(dropped?.quoteItems).toHaveLength(2);
    expect(dropped?.quoteItems?.[0]).toEqual(water);
    const extra = dropped?.quoteItems?.[1];
    expect(extra?.offeringId).not.toBe('off-water');
    expect(extra?.quantity).toBe(1);
    expect(dropped?.change).toBe(
      `without the quoted item ${extra?.offeringId} (quoted beside the selection's one item)`,
    );
    // A selection of two items drops one of its own and needs no quote of its own.
    expect(
      bindingProbes(selection(certificationItems), catalog, true).probes.find((p) => p.label === 'dropped-item')
        ?.quoteItems,
    ).toBeUndefined();
  });

  it('skips the dropped item with the reason when a one-item selection has no other available offering', () => {
    const only = catalog.offerings.filter((o) => o.id === 'off-water');
    const { skipped } = bindingProbes(
      selection([{ offeringId: 'off-water', quantity: 1 }]),
      { ...catalog, offerings: only },
      true,
    );
    expect(skipped.find((s) => s.dimension === 'dropped-item')?.reason).toBe(
      'the selection has one item and the catalog no second available offering to quote beside it',
    );
  });
});

describe('order identity table', () => {
  const created = {
    id: 'act_1',
    publicId: 'DK-1',
    externalActionId: 'dk-order-1',
    providerSlug: 'demo-kitchen',
    quoteId: 'q_1',
    status: 'AWAITING_PAYMENT',
    createdAt: '2026-01-01T10:00:00.000Z',
    lines: [
      { offeringId: 'a', quantity: 2, lineTotal: 200 },
      { offeringId: 'b', quantity: 1, lineTotal: 50 },
    ],
    subtotal: 250,
    total: 250,
  };

  it('classes every NormalizedAction field of the spec', () => {
    expect(Object.keys(ACTION_FIELDS).sort()).toEqual(Object.keys(schema('NormalizedAction').properties ?? {}).sort());
  });

  it.each([
    [
      'the same order, lines in another order, another status',
      { ...created, status: 'CANCELLED', lines: [...created.lines].reverse() },
      [],
    ],
    ['the same instant written with an offset', { ...created, createdAt: '2026-01-01T11:00:00+01:00' }, []],
    ['another externalActionId', { ...created, externalActionId: 'dk-order-2' }, ['externalActionId']],
    [
      'a line with another quantity',
      { ...created, lines: [{ ...created.lines[0], quantity: 3 }, created.lines[1]] },
      ['lines'],
    ],
    ['another total and quoteId', { ...created, total: 1, quoteId: 'q_2' }, ['quoteId', 'total']],
  ])('GET /actions/{id}: %s', (_name, seen, fields) => {
    expect(
      compareIdentity('GET /actions/{id}', created, seen)
        .mismatches.map((m) => m.field)
        .sort(),
    ).toEqual(fields);
  });

  it('a NormalizedAction view that leaves out an identity field creation gave is absent, not a mismatch', () => {
    const { externalActionId: _e, ...rest } = created;
    expect(compareIdentity('GET /actions/{id}', created, rest)).toEqual({
      mismatches: [],
      absent: ['externalActionId'],
    });
  });

  it.each([
    ['act_1', undefined],
    ['DK-1', undefined],
    ['dk-order-1', 'externalActionId'],
    ['q_1', 'quoteId'],
    ['act_2', undefined],
  ])('an event whose actionId is %s names the order by %s', (actionId, field) => {
    expect(otherIdNamed(actionId, created)).toBe(field);
  });

  it('results and events are compared on what they carry; an event id is not the order id', () => {
    const event = { eventId: 'e1', id: 'evt-1', actionId: 'act_1', newStatus: 'CANCELLED', publicId: 'DK-2' };
    expect(compareIdentity('webhook event', created, event).mismatches.map((m) => m.field)).toEqual(['publicId']);
    const result = { success: true, actionId: 'DK-1', externalActionId: 'dk-order-1', newStatus: 'CANCELLED' };
    expect(compareIdentity('cancel result', created, result)).toEqual({ mismatches: [], absent: [] });
  });
});
