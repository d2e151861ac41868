import type { components } from '../../../contract/generated/contract-types.js';
import { isRecord } from '../../../util/json.js';
import type { Selection } from '../../framework/resources.js';
import type { CatalogView, QuoteItemInput } from '../../framework/views.js';
import { BINDING_ROWS, type BindingDimension } from './binding.js';

/**
 * Idempotency, table-driven (issue 33 item 2): "A repeated idempotencyKey with the same payload returns the
 * identical existing action (also for concurrent duplicates …). The same key with a changed payload gives HTTP 409
 * IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_PAYLOAD", in every state an action reaches during certification. Every
 * field of CreateActionInput as provcert sends it (items in the quote item shape, variantId included) is a row
 * that changes it, or excluded with the reason: the Record's key type is built from the spec's generated types, so
 * a new field does not compile until it has a row (test/checks/support/probe-tables.test.ts also walks the spec).
 * Pure.
 */

type Schemas = components['schemas'];
type ItemField = keyof Schemas['ActionItem'] | keyof Schemas['QuoteItem'];

export type PayloadField =
  | Exclude<keyof Schemas['CreateActionInput'], 'customer' | 'destination'>
  | `customer.${keyof Schemas['Customer']}`
  | `destination.${keyof Schemas['Destination']}`
  | `items[].${Exclude<ItemField, 'selectedOptions'>}`
  | 'items[].selectedOptions'
  | `items[].selectedOptions[].${keyof Schemas['SelectedOptionInput']}`;

/** The body a row changes, with what it needs beside it: the catalog and another quote of the same selection. */
export interface PayloadContext {
  catalog: CatalogView;
  otherQuoteId: string;
}

export type Changed = { body: Record<string, unknown>; change: string } | { skipped: string };

type ChangeFn = (body: Record<string, unknown>, c: PayloadContext) => Changed;
export type PayloadRow = { change: ChangeFn } | { excluded: string };

const recordOf = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});

const textChanged =
  (parent: 'customer' | 'destination', key: string, to: (old: string) => string): ChangeFn =>
  (body) => {
    const old = recordOf(body[parent])[key];
    const value = to(typeof old === 'string' ? old : '');
    return {
      body: { ...body, [parent]: { ...recordOf(body[parent]), [key]: value } },
      change: `${parent}.${key} ${JSON.stringify(value)} instead of ${JSON.stringify(old)}`,
    };
  };

/** An items change taken from the quote-binding table (one rule for "another order" in both tables). */
const itemsChanged =
  (dimension: BindingDimension, field: string): ChangeFn =>
  (body, c) => {
    const row = BINDING_ROWS.find((r) => r.dimension === dimension);
    const items = (Array.isArray(body['items']) ? body['items'] : []) as QuoteItemInput[];
    const destination = recordOf(body['destination']);
    const sel: Selection = {
      items,
      customer: { name: '', phone: '' },
      destination: { raw: typeof destination['raw'] === 'string' ? destination['raw'] : '' },
      source: 'catalog',
    };
    const built = row?.build(sel, c.catalog) ?? { skipped: `no ${dimension} row` };
    if ('skipped' in built) return built;
    // A row that needs a quote of another order (a one-item order's dropped item) changes nothing in this body.
    if (built.quoteItems) return { skipped: 'the order has one item (dropping it leaves no order)' };
    return { body: { ...body, items: built.items }, change: `${field} changed (${built.change})` };
  };

const lastDigitChanged = (old: string): string =>
  old.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10)) || `${old}1`;

export const PAYLOAD_FIELDS: Record<PayloadField, PayloadRow> = {
  idempotencyKey: { excluded: 'the key itself: another key is another request, not a retry' },
  providerSlug: { excluded: "one value is valid (the provider's own slug); another is refused as invalid input" },
  userConfirmed: { excluded: 'must be true (const): any other value is ACTION_NOT_CONFIRMED, not another order' },
  quoteId: {
    change: (body, c) => ({
      body: { ...body, quoteId: c.otherQuoteId },
      change: `quoteId ${c.otherQuoteId} (another quote of the same selection) instead of ${String(body['quoteId'])}`,
    }),
  },
  'customer.name': { change: textChanged('customer', 'name', (old) => `${old || 'Provcert'} (changed)`) },
  'customer.phone': { change: textChanged('customer', 'phone', lastDigitChanged) },
  'destination.raw': { change: textChanged('destination', 'raw', (old) => `${old || 'Somewhere'} (changed)`) },
  items: { change: itemsChanged('added-item', 'items') },
  'items[].offeringId': { change: itemsChanged('offering', 'items[].offeringId') },
  'items[].variantId': { change: itemsChanged('variant', 'items[].variantId') },
  'items[].quantity': { change: itemsChanged('quantity', 'items[].quantity') },
  'items[].selectedOptions': { change: itemsChanged('options', 'items[].selectedOptions') },
  'items[].selectedOptions[].optionId': {
    excluded: 'changed by the items[].selectedOptions row (another option of the same group)',
  },
  'items[].selectedOptions[].groupId': {
    excluded: 'names the group of optionId: changed alone it names an option of no group (invalid input)',
  },
  'items[].selectedOptions[].quantity': {
    change: itemsChanged('option-quantity', 'items[].selectedOptions[].quantity'),
  },
};

/** The item set changes two ways: the `items` row adds an item, this one drops one. */
export const EXTRA_ROWS: Record<'items (dropped item)', PayloadRow> = {
  'items (dropped item)': { change: itemsChanged('dropped-item', 'items') },
};

/** The states an action reaches during certification, in the order they are probed. */
export const ACTION_STATES = ['open', 'cancelled', 'quote expired'] as const;
export type ActionState = (typeof ACTION_STATES)[number];

export interface PayloadProbe {
  field: string;
  body: Record<string, unknown>;
  change: string;
}

/** Every changed-payload probe for one body: each row's change, and the rows the data gives nothing to change. */
export function changedPayloads(
  body: Record<string, unknown>,
  c: PayloadContext,
): { probes: PayloadProbe[]; skipped: { field: string; reason: string }[] } {
  const probes: PayloadProbe[] = [];
  const skipped: { field: string; reason: string }[] = [];
  const rows: [string, PayloadRow][] = [...Object.entries(PAYLOAD_FIELDS), ...Object.entries(EXTRA_ROWS)];
  for (const [field, row] of rows) {
    if ('excluded' in row) continue;
    const changed = row.change(body, c);
    if ('skipped' in changed) skipped.push({ field, reason: changed.skipped });
    else probes.push({ field, ...changed });
  }
  return { probes, skipped };
}

/** A JSON value with the keys of every object in reverse order (arrays keep theirs: item order is not key order). */
export function keysReversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysReversed);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, keysReversed(value[key])]),
  );
}

/**
 * The same payload, as a retry may send it: identical, and with its JSON keys in another order ("A repeated
 * idempotencyKey with the same payload returns the identical existing action": a JSON object's key order carries no
 * meaning, so a client library that re-serializes a retry sends the same payload). Each must return the action.
 */
export const SAME_PAYLOAD_ROWS: readonly { what: string; body: (body: Record<string, unknown>) => unknown }[] = [
  { what: 'the same idempotencyKey and body', body: (body) => body },
  {
    what: 'the same idempotencyKey and body with its JSON keys in reverse order',
    body: (body) => keysReversed(body),
  },
];
