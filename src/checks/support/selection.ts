import type {
  CatalogView,
  OfferingView,
  OptionGroupView,
  QuoteItemInput,
  SelectedOptionInput,
} from '../framework/views.js';

const available = <T extends { isAvailable?: boolean }>(xs: readonly T[] | undefined): T[] =>
  (xs ?? []).filter((x) => x.isAvailable !== false);

/** The options a group needs at minimum: defaults first, then the first available ones. */
function minimumChoice(group: OptionGroupView): SelectedOptionInput[] {
  const options = available(group.options);
  const need = Math.max(group.minSelections ?? 0, group.isRequired ? 1 : 0);
  const ordered = [...options.filter((o) => o.isDefault), ...options.filter((o) => !o.isDefault)];
  return ordered.slice(0, need).map((o) => ({ groupId: group.id, optionId: o.id, quantity: 1 }));
}

/** Required groups satisfied; plus, when `withPricedOption`, one non-zero option from a group with room. */
function itemFor(offering: OfferingView, quantity: number, withPricedOption: boolean): QuoteItemInput {
  const selected: SelectedOptionInput[] = [];
  for (const group of offering.optionGroups ?? []) selected.push(...minimumChoice(group));
  if (withPricedOption && !selected.some((s) => priceOf(offering, s) !== 0)) {
    for (const group of offering.optionGroups ?? []) {
      const chosen = selected.filter((s) => s.groupId === group.id);
      const priced = available(group.options).find(
        (o) => (o.priceDelta ?? 0) !== 0 && !chosen.some((c) => c.optionId === o.id),
      );
      if (!priced) continue;
      const max = group.maxSelections ?? Infinity;
      if (chosen.length < max) {
        selected.push({ groupId: group.id, optionId: priced.id, quantity: 1 });
        break;
      }
      const last = chosen.at(-1);
      if (last) {
        // A full group (single choice, or "choose exactly N"): swap one free choice for the priced option.
        last.optionId = priced.id;
        break;
      }
    }
  }
  const variant = available(offering.variants)[0];
  return {
    offeringId: offering.id,
    ...(variant ? { variantId: variant.id } : {}),
    quantity,
    ...(selected.length > 0 ? { selectedOptions: selected } : {}),
  };
}

/** One unit-quantity item of an offering with its required option groups satisfied (a valid order line). */
export const minimalItem = (offering: OfferingView, quantity = 1): QuoteItemInput => itemFor(offering, quantity, false);

function priceOf(offering: OfferingView, s: SelectedOptionInput): number {
  const group = offering.optionGroups?.find((g) => g.id === s.groupId);
  return group?.options?.find((o) => o.id === s.optionId)?.priceDelta ?? 0;
}

const hasPricedOption = (o: OfferingView): boolean =>
  (o.optionGroups ?? []).some((g) => available(g.options).some((opt) => (opt.priceDelta ?? 0) !== 0));

/**
 * DECISIONS.md, certification test data: a line of quantity 2 carrying a non-zero option where the
 * catalog has one, and a second line where the catalog has two available offerings.
 */
export function deriveItems(catalog: CatalogView): QuoteItemInput[] {
  const offerings = available(catalog.offerings);
  const first = offerings.find(hasPricedOption) ?? offerings[0];
  if (!first) return [];
  const second = offerings.find((o) => o.id !== first.id);
  return [itemFor(first, 2, true), ...(second ? [itemFor(second, 1, false)] : [])];
}

/** Does this selection exercise the math as DECISIONS.md asks (given what the catalog offers)? */
export function exercisesMath(items: readonly QuoteItemInput[], catalog: CatalogView): boolean {
  const offerings = available(catalog.offerings);
  const byId = new Map(catalog.offerings.map((o) => [o.id, o]));
  const pricedLine = items.some((i) => {
    const o = byId.get(i.offeringId);
    return i.quantity >= 2 && o !== undefined && (i.selectedOptions ?? []).some((s) => priceOf(o, s) !== 0);
  });
  const needPriced = offerings.some(hasPricedOption);
  return (pricedLine || !needPriced) && (items.length >= 2 || offerings.length < 2);
}
