import type { RequirementId } from '../../../model/findings.js';
import type { Selection } from '../../framework/resources.js';
import type { CatalogView, QuoteItemInput, SelectedOptionInput } from '../../framework/views.js';
import type { Order } from '../explore/orders.js';
import { minimalItem } from '../selection.js';

/**
 * Quote binding, table-driven (issue 33 item 2): "The quote is bound to the selection and fulfillment terms and
 * cannot authorize a different order". One row per order dimension; every field of the explorer's order model
 * (support/explore/orders.ts: an order, its items, their options) is mapped to the rows that change it, or
 * excluded with the reason, so a new field of the model does not compile until it has a row. Pure.
 */

export type BindingDimension =
  | 'quantity'
  | 'offering'
  | 'options'
  | 'destination'
  | 'variant'
  | 'option-quantity'
  | 'added-item'
  | 'dropped-item';

/** Every field of an explored order, item and option → the dimensions that probe it, or why none can. */
type OrderField =
  | `order.${keyof Order}`
  | `item.${keyof QuoteItemInput}`
  | `option.${keyof SelectedOptionInput}`
  | 'action.destination';

export const ORDER_FIELDS: Record<OrderField, readonly BindingDimension[] | { excluded: string }> = {
  'order.locationId': { excluded: 'CreateActionInput has no locationId: an action cannot name another location' },
  'order.items': ['added-item', 'dropped-item'],
  'item.offeringId': ['offering'],
  'item.variantId': ['variant'],
  'item.quantity': ['quantity'],
  'item.selectedOptions': ['options'],
  'option.optionId': ['options'],
  'option.groupId': { excluded: 'names the group of optionId; an option of another group is a changed option' },
  'option.quantity': ['option-quantity'],
  // Not an explored field, but a fulfillment term the contract names ("or destination change").
  'action.destination': ['destination'],
};

export interface BindingProbe {
  label: BindingDimension;
  /** "with quantity 3 instead of 2 for off-x" */
  change: string;
  items: QuoteItemInput[];
  destination: { raw: string };
  /**
   * The order the probe's own quote is for, when it is not the selection (a one-item selection has no item to drop:
   * the dropped-item row quotes it with one more item and leaves that one out).
   */
  quoteItems?: QuoteItemInput[];
  /** A changed option (or its quantity) is named by rule 1 (QUOTE-FRESH-ON-CHANGE); the rest is the quote's binding itself. */
  requirement: RequirementId;
}

/** A row's probe for this selection, or why the catalog gives it nothing to change (a warning, never a pass). */
type Built = Omit<BindingProbe, 'label' | 'requirement' | 'destination'> & { destination?: { raw: string } };
export interface BindingRow {
  dimension: BindingDimension;
  requirement: RequirementId;
  build(sel: Selection, catalog: CatalogView): Built | { skipped: string };
}

export const OTHER_DESTINATION = { raw: '99 Elsewhere Road, Another Town (provcert changed destination)' };

export const itemsOf = (items: readonly QuoteItemInput[]): QuoteItemInput[] => items.map((i) => ({ ...i }));

const offeringOf = (catalog: CatalogView, id: string) => catalog.offerings.find((o) => o.id === id);
const available = <T extends { isAvailable?: boolean }>(xs: readonly T[] | undefined): T[] =>
  (xs ?? []).filter((x) => x.isAvailable !== false);
// certificationInput may omit quantity (its required-ness is not shown): one is then the quantity asked.
const quantityOf = (item: QuoteItemInput): number => (typeof item.quantity === 'number' ? item.quantity : 1);

function replaced(items: readonly QuoteItemInput[], i: number, item: QuoteItemInput): QuoteItemInput[] {
  const changed = itemsOf(items);
  changed[i] = item;
  return changed;
}

const quantityRow: BindingRow['build'] = (sel) => {
  const [first] = sel.items;
  if (!first) return { skipped: 'the selection has no item' };
  const q = quantityOf(first);
  return {
    change: `with quantity ${q + 1} instead of ${q} for ${first.offeringId}`,
    items: replaced(sel.items, 0, { ...first, quantity: q + 1 }),
  };
};

const offeringRow: BindingRow['build'] = (sel, catalog) => {
  const [first] = sel.items;
  const other = available(catalog.offerings).find((o) => !sel.items.some((i) => i.offeringId === o.id));
  if (!first || !other) return { skipped: 'the catalog has no second available offering' };
  return {
    change: `with offering ${other.id} instead of ${first.offeringId}`,
    items: replaced(sel.items, 0, { offeringId: other.id, quantity: quantityOf(first) }),
  };
};

/** One chosen option swapped for another available option of its group. */
const optionsRow: BindingRow['build'] = (sel, catalog) => {
  for (const [i, item] of sel.items.entries()) {
    const chosen = item.selectedOptions ?? [];
    for (const [j, s] of chosen.entries()) {
      const group = offeringOf(catalog, item.offeringId)?.optionGroups?.find((g) => g.id === s.groupId);
      const other = available(group?.options).find(
        (o) => !chosen.some((c) => c.groupId === s.groupId && c.optionId === o.id),
      );
      if (!group || !other) continue;
      return {
        change: `with option ${other.id} instead of ${s.optionId} (group ${group.id}) for ${item.offeringId}`,
        items: replaced(sel.items, i, {
          ...item,
          selectedOptions: chosen.map((c, k) => (k === j ? { ...c, optionId: other.id } : c)),
        }),
      };
    }
  }
  return { skipped: 'the selection has no option with an available alternative in its group' };
};

const variantRow: BindingRow['build'] = (sel, catalog) => {
  for (const [i, item] of sel.items.entries()) {
    const other = available(offeringOf(catalog, item.offeringId)?.variants).find((v) => v.id !== item.variantId);
    if (item.variantId === undefined || !other) continue;
    return {
      change: `with variant ${other.id} instead of ${item.variantId} for ${item.offeringId}`,
      items: replaced(sel.items, i, { ...item, variantId: other.id }),
    };
  }
  return { skipped: 'the selection has no item with a variant that has an available alternative' };
};

/** One more unit of a chosen option, a priced one first (so the changed order also costs another amount). */
const optionQuantityRow: BindingRow['build'] = (sel, catalog) => {
  const candidates = sel.items.flatMap((item, i) =>
    (item.selectedOptions ?? []).map((s, j) => {
      const group = offeringOf(catalog, item.offeringId)?.optionGroups?.find((g) => g.id === s.groupId);
      const priced = (group?.options?.find((o) => o.id === s.optionId)?.priceDelta ?? 0) !== 0;
      return { item, i, s, j, priced };
    }),
  );
  const pick = candidates.find((c) => c.priced) ?? candidates[0];
  if (!pick) return { skipped: 'the selection chooses no option' };
  const { item, i, s, j } = pick;
  const q = s.quantity ?? 1;
  return {
    change: `with option ${s.optionId} quantity ${q + 1} instead of ${q} for ${item.offeringId}`,
    items: replaced(sel.items, i, {
      ...item,
      selectedOptions: (item.selectedOptions ?? []).map((c, k) => (k === j ? { ...c, quantity: q + 1 } : c)),
    }),
  };
};

const addedItemRow: BindingRow['build'] = (sel, catalog) => {
  const other = available(catalog.offerings).find((o) => !sel.items.some((i) => i.offeringId === o.id));
  if (!other) return { skipped: 'every available offering is already in the selection' };
  return { change: `with an added item ${other.id} × 1`, items: [...itemsOf(sel.items), minimalItem(other)] };
};

/**
 * The last quoted item left out. A one-item selection has none to leave out (an order of no item says nothing of
 * binding), so the row quotes the selection plus one unit of another available offering (the explorer's minimal
 * valid line, two items: within any cart bound a provider that sells a two-line order has) and leaves that out.
 */
const droppedItemRow: BindingRow['build'] = (sel, catalog) => {
  const last = sel.items.at(-1);
  if (last && sel.items.length >= 2)
    return { change: `without the quoted item ${last.offeringId}`, items: itemsOf(sel.items.slice(0, -1)) };
  const other = available(catalog.offerings).find((o) => !sel.items.some((i) => i.offeringId === o.id));
  if (!last || !other)
    return { skipped: 'the selection has one item and the catalog no second available offering to quote beside it' };
  const extra = minimalItem(other);
  return {
    change: `without the quoted item ${other.id} (quoted beside the selection's one item)`,
    items: itemsOf(sel.items),
    quoteItems: [...itemsOf(sel.items), extra],
  };
};

const destinationRow: BindingRow['build'] = (sel) => ({
  change: `with destination "${OTHER_DESTINATION.raw}" instead of the quoted "${sel.destination.raw}"`,
  items: itemsOf(sel.items),
  destination: OTHER_DESTINATION,
});

export const BINDING_ROWS: readonly BindingRow[] = [
  { dimension: 'quantity', requirement: 'QUOTE-BINDING', build: quantityRow },
  { dimension: 'offering', requirement: 'QUOTE-BINDING', build: offeringRow },
  { dimension: 'options', requirement: 'QUOTE-FRESH-ON-CHANGE', build: optionsRow },
  { dimension: 'destination', requirement: 'QUOTE-BINDING', build: destinationRow },
  { dimension: 'variant', requirement: 'QUOTE-BINDING', build: variantRow },
  { dimension: 'option-quantity', requirement: 'QUOTE-FRESH-ON-CHANGE', build: optionQuantityRow },
  { dimension: 'added-item', requirement: 'QUOTE-BINDING', build: addedItemRow },
  { dimension: 'dropped-item', requirement: 'QUOTE-BINDING', build: droppedItemRow },
];

/**
 * The probes for a selection: one per row the catalog allows, in table order. `withDestination` is false when the
 * quote could not carry a destination (then it cannot have bound one, and that row is left out with the reason).
 */
export function bindingProbes(
  sel: Selection,
  catalog: CatalogView,
  withDestination: boolean,
): { probes: BindingProbe[]; skipped: { dimension: BindingDimension; reason: string }[] } {
  const probes: BindingProbe[] = [];
  const skipped: { dimension: BindingDimension; reason: string }[] = [];
  for (const row of BINDING_ROWS) {
    if (row.dimension === 'destination' && !withDestination) {
      skipped.push({ dimension: row.dimension, reason: 'the quote carries no destination' });
      continue;
    }
    const built = row.build(sel, catalog);
    if ('skipped' in built) skipped.push({ dimension: row.dimension, reason: built.skipped });
    else
      probes.push({
        label: row.dimension,
        requirement: row.requirement,
        change: built.change,
        items: built.items,
        destination: built.destination ?? sel.destination,
        ...(built.quoteItems ? { quoteItems: built.quoteItems } : {}),
      });
  }
  return { probes, skipped };
}
