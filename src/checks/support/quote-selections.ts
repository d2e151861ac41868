import type {
  CatalogView,
  OfferingView,
  OptionGroupView,
  QuoteItemInput,
  SelectedOptionInput,
} from '../framework/views.js';

/** One selection the contract says a provider must reject (contract, Provider route behaviour rule 1). */
export interface InvalidSelection {
  name:
    | 'quantity-zero'
    | 'quantity-fractional'
    | 'option-quantity-negative'
    | 'unavailable-offering'
    | 'unavailable-variant'
    | 'missing-required-group'
    | 'too-many-options';
  /** What was asked, in words, for messages. */
  describe: string;
  /** The items to quote; absent when the catalog offers no way to build this case. */
  items?: QuoteItemInput[];
  /** Why the case could not be built from this catalog. */
  notTestable?: string;
  /** The offering asked for, to recognise a silent substitute in a 200 answer. */
  offeringId?: string;
  /** The unavailable variant asked for (unavailable-variant), to recognise a substituted variant. */
  variantId?: string;
}

const available = <T extends { isAvailable?: boolean }>(xs: readonly T[] | undefined): T[] =>
  (xs ?? []).filter((x) => x.isAvailable !== false);

/** Minimum number of choices a group demands. */
const minimumOf = (group: OptionGroupView): number => Math.max(group.minSelections ?? 0, group.isRequired ? 1 : 0);

/** The minimal valid choice for a group: defaults first, then the first available options. */
function minimumChoice(group: OptionGroupView): SelectedOptionInput[] {
  const options = available(group.options);
  const ordered = [...options.filter((o) => o.isDefault), ...options.filter((o) => !o.isDefault)];
  return ordered.slice(0, minimumOf(group)).map((o) => ({ groupId: group.id, optionId: o.id, quantity: 1 }));
}

/** An item of the offering with every required group satisfied, except `skipGroup`. */
function itemOf(
  offering: OfferingView,
  opts: { skipGroup?: string; extra?: SelectedOptionInput[] } = {},
): QuoteItemInput {
  const selected = (offering.optionGroups ?? []).filter((g) => g.id !== opts.skipGroup).flatMap(minimumChoice);
  selected.push(...(opts.extra ?? []));
  const variant = available(offering.variants)[0] ?? offering.variants?.[0];
  return {
    offeringId: offering.id,
    ...(variant ? { variantId: variant.id } : {}),
    quantity: 1,
    ...(selected.length > 0 ? { selectedOptions: selected } : {}),
  };
}

function quantityZero(catalog: CatalogView, base: readonly QuoteItemInput[]): InvalidSelection {
  const [first, ...rest] = base;
  const fallback = available(catalog.offerings)[0];
  const item = first ?? (fallback ? itemOf(fallback) : undefined);
  if (!item)
    return { name: 'quantity-zero', describe: 'quantity 0', notTestable: 'the catalog has no available offering' };
  return {
    name: 'quantity-zero',
    describe: `quantity 0 for offering ${item.offeringId}`,
    items: [{ ...item, quantity: 0 }, ...(first ? rest : [])],
    offeringId: item.offeringId,
  };
}

/** A fractional item quantity: the contract types it integer, and a `>= 1` test alone lets 1.5 through. */
function quantityFractional(catalog: CatalogView, base: readonly QuoteItemInput[]): InvalidSelection {
  const [first, ...rest] = base;
  const fallback = available(catalog.offerings)[0];
  const item = first ?? (fallback ? itemOf(fallback) : undefined);
  if (!item)
    return {
      name: 'quantity-fractional',
      describe: 'quantity 1.5',
      notTestable: 'the catalog has no available offering',
    };
  return {
    name: 'quantity-fractional',
    describe: `quantity 1.5 for offering ${item.offeringId}`,
    items: [{ ...item, quantity: 1.5 }, ...(first ? rest : [])],
    offeringId: item.offeringId,
  };
}

/**
 * A selected option with quantity -1: units per base item are never negative (a negative quantity turns an option's
 * price into a discount the provider never offered).
 */
function optionQuantityNegative(catalog: CatalogView, base: readonly QuoteItemInput[]): InvalidSelection {
  const withOption = base.find((i) => (i.selectedOptions ?? []).length > 0);
  const offering = available(catalog.offerings).find((o) =>
    (o.optionGroups ?? []).some((g) => available(g.options).length > 0),
  );
  const group = offering?.optionGroups?.find((g) => available(g.options).length > 0);
  const option = group ? available(group.options)[0] : undefined;
  const item =
    withOption ??
    (offering && group && option
      ? itemOf(offering, { skipGroup: group.id, extra: [{ groupId: group.id, optionId: option.id, quantity: 1 }] })
      : undefined);
  const [firstOption, ...otherOptions] = item?.selectedOptions ?? [];
  if (!item || !firstOption)
    return {
      name: 'option-quantity-negative',
      describe: 'an option with quantity -1',
      notTestable: 'no available offering has an available option',
    };
  return {
    name: 'option-quantity-negative',
    describe: `option ${firstOption.optionId} with quantity -1 on offering ${item.offeringId}`,
    items: [{ ...item, selectedOptions: [{ ...firstOption, quantity: -1 }, ...otherOptions] }],
    offeringId: item.offeringId,
  };
}

function unavailableOffering(catalog: CatalogView): InvalidSelection {
  const offering = catalog.offerings.find((o) => o.isAvailable === false);
  if (!offering)
    return {
      name: 'unavailable-offering',
      describe: 'an unavailable offering',
      notTestable: 'the catalog has no offering with isAvailable false',
    };
  return {
    name: 'unavailable-offering',
    describe: `unavailable offering ${offering.id} ("${offering.title}")`,
    items: [itemOf(offering)],
    offeringId: offering.id,
  };
}

function unavailableVariant(catalog: CatalogView): InvalidSelection {
  for (const offering of available(catalog.offerings)) {
    const variant = offering.variants?.find((v) => v.isAvailable === false);
    if (variant) {
      return {
        name: 'unavailable-variant',
        describe: `unavailable variant ${variant.id} of offering ${offering.id}`,
        items: [{ ...itemOf(offering), variantId: variant.id }],
        offeringId: offering.id,
        variantId: variant.id,
      };
    }
  }
  return {
    name: 'unavailable-variant',
    describe: 'an unavailable variant',
    notTestable: 'no available offering has a variant with isAvailable false',
  };
}

function missingRequiredGroup(catalog: CatalogView): InvalidSelection {
  for (const offering of available(catalog.offerings)) {
    const group = (offering.optionGroups ?? []).find((g) => minimumOf(g) > 0 && available(g.options).length > 0);
    if (group) {
      return {
        name: 'missing-required-group',
        describe: `offering ${offering.id} without a choice in its required option group ${group.id}`,
        items: [itemOf(offering, { skipGroup: group.id })],
        offeringId: offering.id,
      };
    }
  }
  return {
    name: 'missing-required-group',
    describe: 'a missing required option group',
    notTestable: 'no available offering has a required option group',
  };
}

function tooManyOptions(catalog: CatalogView): InvalidSelection {
  for (const offering of available(catalog.offerings)) {
    for (const group of offering.optionGroups ?? []) {
      const max = group.maxSelections;
      const options = available(group.options);
      if (max === undefined || options.length <= max) continue;
      const chosen = options.slice(0, max + 1).map((o) => ({ groupId: group.id, optionId: o.id, quantity: 1 }));
      return {
        name: 'too-many-options',
        describe: `${max + 1} options in group ${group.id} of offering ${offering.id} (maxSelections ${max})`,
        items: [itemOf(offering, { skipGroup: group.id, extra: chosen })],
        offeringId: offering.id,
      };
    }
  }
  return {
    name: 'too-many-options',
    describe: 'too many options in a group',
    notTestable: 'no option group has more available options than its maxSelections',
  };
}

/** The invalid selections of the quote-validation check, derived from the catalog and a valid selection. */
export function invalidSelections(catalog: CatalogView, base: readonly QuoteItemInput[]): InvalidSelection[] {
  return [
    quantityZero(catalog, base),
    quantityFractional(catalog, base),
    optionQuantityNegative(catalog, base),
    unavailableOffering(catalog),
    unavailableVariant(catalog),
    missingRequiredGroup(catalog),
    tooManyOptions(catalog),
  ];
}
